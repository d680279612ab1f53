// The cases of benchmark 6 (bench/rateLimit.mts), shared with the pacer lab (bench/pacerLab.mts),
// which runs the same cases in simulated time.
import type { RateLimitConfig } from '../../sandbox/types.mts';

/** One n8n process on the key: its executions (started together) and when it joins. */
export interface Worker {
	executions: number;
	/** Create: items per execution. */
	items: number;
	/** Seconds after the start at which this process starts its executions. */
	startAfter?: number;
}

export interface Case {
	label: string;
	operation: 'create' | 'return-all';
	rate: number;
	burst: number;
	/** The limiter beyond rate and burst: its shape, window, Retry-After, a schedule. */
	limiter?: Omit<RateLimitConfig, 'rate' | 'burst' | 'headers'>;
	workers: Worker[];
	/** The trigger polls the key every this many seconds while the Create runs go. */
	pollEvery?: number;
	/** Only without headers (the shapes issue 27 added). */
	noHeadersOnly?: boolean;
	/** Its picture also goes to docs/rate-limit/ (BENCHMARKS.md section 6 shows it). */
	pictured?: boolean;
}

const one = (items: number): Worker[] => [{ executions: 1, items }];
const create = (items: number, rate: number, burst: number): Case => ({
	label: 'Create 1,000',
	operation: 'create',
	workers: one(items),
	rate,
	burst,
});
const returnAll = (rate: number, burst: number): Case => ({
	label: 'Return All 10,000',
	operation: 'return-all',
	workers: one(0),
	rate,
	burst,
});
const shape = (label: string, workers: Worker[], rest: Partial<Case>): Case => ({
	label,
	operation: 'create',
	rate: 10,
	burst: 5,
	workers,
	noHeadersOnly: true,
	...rest,
});
export const ALL_CASES: Case[] = [
	create(1000, 10, 10),
	create(1000, 10, 2),
	create(1000, 10, 1),
	create(1000, 2, 2),
	returnAll(10, 10),
	returnAll(10, 2),
	returnAll(10, 1),
	returnAll(2, 2),
	{
		...create(0, 10, 5),
		label: '40 executions × 25 items',
		workers: [{ executions: 40, items: 25 }],
	},
	{
		...create(0, 2, 1),
		label: '100 executions × 2 items',
		workers: [{ executions: 100, items: 2 }],
	},
	{ ...create(500, 10, 5), label: 'Create 500 + the trigger polling every 10 s', pollEvery: 10 },
	{
		...create(0, 10, 5),
		label: '2 workers: 40 executions × 25 items',
		workers: [
			{ executions: 20, items: 25 },
			{ executions: 20, items: 25 },
		],
	},
	shape('Create 200, fixed window of 50 per 5 s', one(200), {
		limiter: { shape: 'fixed-window', window: 5 },
	}),
	shape('40 executions × 5 items, sliding window of 20 per 2 s', [{ executions: 40, items: 5 }], {
		limiter: { shape: 'sliding-window', window: 2 },
	}),
	shape('Create 200, 429 without Retry-After', one(200), { limiter: { retryAfter: false } }),
	shape('Create 300, the limit lowered from 10 to 5 at 10 s', one(300), {
		limiter: { schedule: [{ at: 10, rate: 5 }] },
		pictured: true,
	}),
	shape('Create 300, the limit raised from 5 to 10 at 10 s', one(300), {
		rate: 5,
		limiter: { schedule: [{ at: 10, rate: 10 }] },
		pictured: true,
	}),
	// Under one request a second with a burst (30 a minute): README "Pacing" says what it costs.
	shape('Create 100, a bucket of 30 a minute', one(100), { rate: 0.5, burst: 5 }),
	shape('2 workers × 200 items, started together', [one(200)[0], one(200)[0]], { pictured: true }),
	shape('3 workers × 200 items, started together', [one(200)[0], one(200)[0], one(200)[0]], {}),
	shape(
		'2 workers: 300 items, and 100 joining at 10 s',
		[one(300)[0], { executions: 1, items: 100, startAfter: 10 }],
		{ pictured: true },
	),
	shape(
		'3 workers: 2 × 200 items, and 60 joining at 10 s',
		[one(200)[0], one(200)[0], { executions: 1, items: 60, startAfter: 10 }],
		{},
	),
	shape(
		'2 workers × 20 executions × 10 items',
		[
			{ executions: 20, items: 10 },
			{ executions: 20, items: 10 },
		],
		{},
	),
	// A service far away (every answer, 429s too, that much later): BENCHMARKS.md section 6, "Far from the service".
	shape('40 executions × 25 items, 60 ms away', [{ executions: 40, items: 25 }], {
		limiter: { latencyMs: 60 },
	}),
	shape('Create 300, 100 ms away', one(300), { burst: 2, limiter: { latencyMs: 100 } }),
];
