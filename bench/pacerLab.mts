// The pacer lab (issue 27): the cases of benchmark 6 (bench/lib/rateLimitCases.mts) in simulated
// time, the key's pacer (transport/pacer.ts, the source) in front of the sandbox's own limiter with
// the delays measured through n8n's engine (test/.../transport/bucketSimulation.mts), several seeds
// each, in seconds. For trying a change to the pacer on every limiter shape at once before the
// 80-minute benchmark; it prints, it does not write BENCHMARKS.md. The trigger's polls beside
// Create are modelled as POLL_REQUESTS read one at a time (what its polls averaged in benchmark 6).
//   npm run bench:pacer-lab
//   PACER_LAB_SEEDS=20 PACER_LAB_HEADERS=none,ratelimit npm run bench:pacer-lab
//   PACER_LAB_DELAY=40,60 npm run bench:pacer-lab   (ms each way: a service far away; default 2-12)
//   PACER_LAB_PREPARE_MS=0.32 npm run bench:pacer-lab   (Create as through n8n: this many ms per
//     item of the process reading the items, then the template read, then PACER_LAB_CHECK_MS per
//     item (default 0.015 with the reading, else 0) before its first create; default 0, no read.
//     Create before 2026-11-28, the template read first: PACER_LAB_CHECK_MS=0.32 alone)
import { ITEM_CONCURRENCY } from '../nodes/VideoPersonalization/actions/router.ts';
import { PAGE_CONCURRENCY } from '../nodes/VideoPersonalization/transport/pagination.ts';
import type { RateLimitHeaders } from '../sandbox/types.mts';
import {
	simulate,
	type Limit,
	type Workload,
} from '../test/nodes/VideoPersonalization/transport/bucketSimulation.mts';
import { ALL_CASES, type Case } from './lib/rateLimitCases.mts';

const SEEDS = Number(process.env.PACER_LAB_SEEDS ?? 8);
const HEADERS = (process.env.PACER_LAB_HEADERS?.split(',') ?? ['none']) as RateLimitHeaders[];
/** Each way, least and most ms (unset or empty: loopback through n8n's engine, as measured). */
const DELAY = (process.env.PACER_LAB_DELAY || undefined)?.split(',').map(Number) as
	| [number, number]
	| undefined;
if (DELAY && !(DELAY.length === 2 && DELAY[0] >= 0 && DELAY[1] >= DELAY[0]))
	throw new Error('PACER_LAB_DELAY: two numbers of ms, least then most, such as 40,60');
/** Create as n8n runs it: ms per item reading the items, then the template read (unset: 0). */
const PREPARE_MS = Number(process.env.PACER_LAB_PREPARE_MS || 0);
if (!(PREPARE_MS >= 0)) throw new Error('PACER_LAB_PREPARE_MS: ms per item, such as 0.32');
/** Then ms per item checking them against the template (measured through n8n, 2026-11-28). */
const CHECK_MS = Number(process.env.PACER_LAB_CHECK_MS || (PREPARE_MS ? 0.015 : 0));
if (!(CHECK_MS >= 0)) throw new Error('PACER_LAB_CHECK_MS: ms per item, such as 0.015');
/** Requests a poll of the trigger made while Create ran in benchmark 6 (79 in 4 polls, 2026-11-27). */
const POLL_REQUESTS = 20;
/** Issue 27's goal, as in benchmark 6. */
const [TARGET_TIME, TARGET_SHARE] = [1.15, 0.02];

/** Return All of 10,000 assets: a first page alone (it tells the total), then 99 in parallel. */
const workloads = (c: Case): Workload[] =>
	c.workers.map((worker) =>
		c.operation === 'return-all'
			? { executions: 1, items: 100, concurrency: PAGE_CONCURRENCY, firstAlone: true }
			: {
					...worker,
					concurrency: ITEM_CONCURRENCY,
					polls: c.pollEvery ? { every: c.pollEvery, requests: POLL_REQUESTS } : undefined,
					prepareMsPerItem: PREPARE_MS,
					checkMsPerItem: CHECK_MS,
				},
	);

const stat = (values: number[]) => ({
	mean: values.reduce((sum, value) => sum + value, 0) / values.length,
	max: Math.max(...values),
});

const rows = [];
for (const headers of HEADERS)
	for (const c of ALL_CASES) {
		if (headers !== 'none' && c.noHeadersOnly) continue;
		const limit: Limit = { rate: c.rate, burst: c.burst, headers, ...c.limiter };
		const runs = Array.from({ length: SEEDS }, (_, seed) =>
			simulate(limit, workloads(c), seed + 1, { delayMs: DELAY }),
		);
		const [ratio, share] = [stat(runs.map((run) => run.ratio)), stat(runs.map((run) => run.share))];
		const met = runs.filter((run) => run.ratio <= TARGET_TIME && run.share <= TARGET_SHARE);
		rows.push({
			case: `${c.label}${c.limiter?.shape ? '' : `, R=${c.rate} B=${c.burst}`}`,
			headers,
			'× N/R mean': ratio.mean.toFixed(2),
			'× N/R max': ratio.max.toFixed(2),
			'429 % mean': (100 * share.mean).toFixed(1),
			'429 % max': (100 * share.max).toFixed(1),
			'seeds met': `${met.length} of ${SEEDS}`,
		});
	}
console.log(
	`Pacer lab: benchmark 6's cases in simulated time, ${SEEDS} seeds each${DELAY ? `, ${DELAY.join('-')} ms each way` : ''}${PREPARE_MS + CHECK_MS ? `, ${PREPARE_MS} ms an item, the template read, ${CHECK_MS} ms an item before Create's first create` : ''}; goal <= ${TARGET_TIME} × N/R and <= ${100 * TARGET_SHARE} % 429`,
);
console.table(rows);
