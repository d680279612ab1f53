/**
 * The pace of an API key (transport/pacer.ts): its rules one by one in made-up time, then in
 * front of the sandbox's own limiters in simulated time (bucketSimulation.mts): token buckets,
 * a fixed and a sliding window, 429s without Retry-After, a limit lowered and raised during the
 * run, two processes on one key, with and without rate-limit headers. The bounds asserted are
 * the goals where they are reachable and, where they are not, the measured behaviour with
 * a margin (BENCHMARKS.md section 6 gives the learnable bounds). Nothing here is timed.
 */
import { readLimitHeaders } from '../../../../nodes/VideoPersonalization/transport/headers.ts';
import {
	DEFAULT_WAIT_MS,
	lacking,
	Pacer,
	PAUSE_JITTER,
} from '../../../../nodes/VideoPersonalization/transport/pacer.ts';
import { simulate, type Limit, type Workload } from './bucketSimulation.mts';

const limited = (retryAfter?: string) => ({
	status: 429,
	headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
});
const ok = { status: 200, headers: {} };

/** Sends and answers `count` requests one after the other, `gapMs` apart, from `from`. */
function exchange(pacer: Pacer, from: number, count: number, gapMs = 1): number {
	let now = from;
	for (let request = 0; request < count; request++) {
		pacer.onSent(now, 0);
		pacer.onAnswer(now + gapMs, now, ok);
		now += gapMs;
	}
	return now;
}

/** A request sent at `at`, refused 1 ms later with that Retry-After. */
function refuse(pacer: Pacer, at: number, retryAfter: string): void {
	pacer.onSent(at, 0);
	pacer.onAnswer(at + 1, at, limited(retryAfter));
}

describe('Pacer alone', () => {
	it('until the service limits, sends one request at a time, one more per 64 answers', () => {
		const pacer = new Pacer(() => 0.5);
		expect(pacer.nextSendAt(0, 0)).toBe(0);
		expect(pacer.nextSendAt(1, 1)).toBeUndefined();
		exchange(pacer, 0, 64);
		expect(pacer.nextSendAt(100, 1)).toBe(100);
		expect(pacer.nextSendAt(100, 2)).toBeUndefined();
		expect(pacer.pace).toBeUndefined();
	});

	it('holds every request until the time a 429 asked for, plus up to 10 % jitter', () => {
		for (const random of [0, 0.5, 0.999]) {
			const pacer = new Pacer(() => random);
			pacer.onSent(0, 0);
			pacer.onAnswer(100, 0, limited('3'));
			const until = 100 + 3000 * (1 + PAUSE_JITTER * random);
			expect(pacer.pausedUntil).toBeCloseTo(until);
			expect(pacer.nextSendAt(200, 0)).toBeGreaterThanOrEqual(until);
		}
	});

	it('reads a Retry-After date, and waits a second when the 429 says nothing readable', () => {
		const dated = new Pacer(() => 0);
		const now = Date.parse('2026-03-02T09:00:00Z');
		dated.onAnswer(now, now, limited('Mon, 02 Mar 2026 09:00:07 GMT'));
		expect(dated.pausedUntil).toBe(now + 7000);
		const bare = new Pacer(() => 0);
		bare.onAnswer(50, 0, limited('soon'));
		expect(bare.pausedUntil).toBe(50 + DEFAULT_WAIT_MS);
	});

	it('429s that say Retry-After: 0 (retry now) leave a pace: every send time is a number', () => {
		const pacer = new Pacer(() => 0);
		pacer.willSend(300);
		let now = 0;
		for (let request = 1; request <= 300; request++) {
			const at = pacer.nextSendAt(now, 0) ?? now;
			expect(Number.isFinite(at)).toBe(true);
			pacer.onSent(at, 0);
			now = at + 5;
			pacer.onAnswer(now, at, request % 10 === 0 ? limited('0') : ok);
		}
		// A wait of 0 still counts as a pause of a second for the pace's rules (probes, ramps).
		expect(now).toBeLessThan(60_000);
	});

	it('a later, shorter pause does not cut an earlier, longer one short', () => {
		const pacer = new Pacer(() => 0);
		pacer.onAnswer(0, 0, limited('10'));
		pacer.onAnswer(1000, 0, limited('1'));
		expect(pacer.pausedUntil).toBe(10_000);
	});

	it('the first 429: what passed over the time until the service took more, then a ramp up from it', () => {
		const pacer = new Pacer(() => 0);
		const now = exchange(pacer, 0, 10);
		pacer.onSent(now, 0);
		pacer.onAnswer(now + 1, now, limited('1'));
		// 10 passed in 10 ms, the next went a second later: about 10 a second.
		expect(pacer.pace).toBeCloseTo(10 / 1.01, 1);
		// The ramp adds one request a second per pause, doubling each pause, while requests go.
		const resumed = exchange(pacer, pacer.pausedUntil, 30, 100);
		pacer.onSent(resumed, 0);
		expect(resumed - pacer.pausedUntil).toBe(3000);
		expect(pacer.pace).toBeCloseTo(10 / 1.01 + (2 ** 3 - 1), 0);
	});

	it('a key quiet over a second before its first 429 learns from what passed since: used for half an hour, it reads a batch as a new key does', () => {
		const paceAfterBatch = (pollsBefore: number) => {
			const pacer = new Pacer(() => 0);
			for (let poll = 0; poll < pollsBefore; poll++) exchange(pacer, poll * 60_000, 1);
			const batchDone = exchange(pacer, pollsBefore * 60_000, 10); // 10 pass in 10 ms
			pacer.onSent(batchDone, 0);
			pacer.onAnswer(batchDone + 1, batchDone, limited('1'));
			return pacer.pace;
		};
		expect(paceAfterBatch(0)).toBeCloseTo(10 / 1.01, 1);
		// Counted from the first poll, the guess was 40 requests over half an hour: 0.02 a second.
		expect(paceAfterBatch(30)).toBe(paceAfterBatch(0));
	});

	it('a ramp rises only while requests go: after 20 s with nothing to send it goes on from the pace it had', () => {
		const pacer = new Pacer(() => 0);
		const limitedAt = exchange(pacer, 0, 10);
		pacer.onSent(limitedAt, 0);
		pacer.onAnswer(limitedAt + 1, limitedAt, limited('1'));
		const quietFrom = exchange(pacer, pacer.pausedUntil, 10, 100); // a second of the ramp
		const reached = pacer.pace as number;
		expect(reached).toBeGreaterThan(10 / 1.01 + 0.5);
		pacer.onSent(quietFrom + 20_000, 0);
		// Counted in wall time, the ramp had risen by 2^21 requests a second meanwhile.
		expect(pacer.pace).toBeGreaterThan(reached);
		expect(pacer.pace).toBeLessThan(reached + 0.5);
	});

	it('after a longer wait (a window), the first guess is the pace: no ramp', () => {
		const pacer = new Pacer(() => 0.5);
		const now = exchange(pacer, 0, 50);
		pacer.onSent(now, 0);
		pacer.onAnswer(now + 1, now, limited('5'));
		const guess = pacer.pace as number;
		expect(guess).toBeCloseTo(50 / 5.05, 1);
		pacer.onSent(pacer.pausedUntil + 10_000, 0);
		expect(pacer.pace).toBe(guess);
	});

	it("a probe refused once the service took 16 requests since the pause goes back to the pace it left, not to a lower estimate (BBR keeps its rate through a probe's loss)", () => {
		const pacer = new Pacer(() => 0.5);
		pacer.willSend(300);
		refuse(pacer, exchange(pacer, 0, 50), '5'); // a window: 50 in 5 s, no ramp
		const guess = pacer.pace as number;
		// At the guess until a probe raises the pace, then a 429: the stretch since the first 429
		// holds a 5 s pause, so the slowest bucket of a burst of 50 that explains it is far slower.
		let now = pacer.pausedUntil;
		while ((pacer.pace as number) <= guess) {
			now = pacer.nextSendAt(now, 0) as number;
			pacer.onSent(now, 0);
			pacer.onAnswer(now + 1, now, ok);
		}
		refuse(pacer, pacer.nextSendAt(now, 0) as number, '1');
		expect(pacer.pace).toBe(guess);
	});

	it('a first ramp refused before the service took 16 requests since the pause goes to the estimate: a guess a burst carried is not kept', () => {
		const pacer = new Pacer(() => 0.5);
		pacer.willSend(300);
		refuse(pacer, exchange(pacer, 0, 10), '1'); // a burst of 10, then a ramp from about 10 a second
		const guess = pacer.pace as number;
		refuse(pacer, exchange(pacer, pacer.pausedUntil, 2, 100), '1'); // the pause refilled 2 tokens
		expect(guess).toBeGreaterThan(9);
		expect(pacer.pace).toBeLessThan(2.5);
	});

	it('a 429 refused before anything passed since the pause (others took the refill) cuts the pace to 0.7 of it', () => {
		const pacer = new Pacer(() => 0.5);
		let now = exchange(pacer, 0, 10);
		pacer.onSent(now, 0);
		pacer.onAnswer(now + 1, now, limited('5')); // a window: no ramp
		now = pacer.pausedUntil;
		const pace = pacer.pace as number;
		pacer.onSent(now, 0);
		pacer.onAnswer(now + 5, now, limited('1'));
		expect(pacer.pace).toBeCloseTo(0.7 * pace);
	});

	it('a later 429 after a wait over a second (a slow bucket) paces at the rate since the last one, not 0.7 of the pace refused', () => {
		const pacer = new Pacer(() => 0);
		const firstRefusedAt = exchange(pacer, 0, 5);
		pacer.onSent(firstRefusedAt, 0);
		pacer.onAnswer(firstRefusedAt + 1, firstRefusedAt, limited('2')); // 5 passed, the next token 2 s away
		const guess = pacer.pace as number;
		expect(guess).toBeCloseTo(5 / 2.005, 3); // a window's reading: no ramp
		const answeredAt = exchange(pacer, pacer.pausedUntil, 1); // what the pause refilled
		const refusedAt = pacer.nextSendAt(answeredAt, 0) as number;
		pacer.onSent(refusedAt, 0);
		pacer.onAnswer(refusedAt + 1, refusedAt, limited('2'));
		// 1 passed in the 2 s between the two 429s: 0.5 a second (a cut would keep 0.7 x 2.49).
		expect(pacer.pace).toBeCloseTo(1 / ((answeredAt - firstRefusedAt) / 1000), 5);
		expect(pacer.pace).toBeCloseTo(0.5, 2);
	});

	it('a network fault before the first 429 changes nothing learnt: the time after it, with nothing in flight, is no refill', () => {
		const paceAfter = (fault: boolean) => {
			const pacer = new Pacer(() => 0);
			let now = exchange(pacer, 0, 1);
			if (fault) {
				pacer.onSent(now, 0);
				pacer.onAnswer(now + 5, now, { status: 0, headers: {} });
			}
			now = exchange(pacer, 10_000, 10); // 10 s later, 10 pass at once
			pacer.onSent(now, 0);
			pacer.onAnswer(now + 1, now, limited('1'));
			now = exchange(pacer, pacer.pausedUntil, 30, 50);
			pacer.onSent(now, 0);
			pacer.onAnswer(now + 1, now, limited('1'));
			return pacer.pace;
		};
		expect(paceAfter(true)).toBe(paceAfter(false));
	});

	// Through n8n the trigger's first request was answered at 370 ms: n8n was reading Create's
	// items and read the answer only then. Counted as time the bucket refilled, the first stretch
	// bounded a burst of 5 to 3.4 and the estimates ran at 11-12 a second against 10 (2026-11-28).
	it('an answer read late hides no refill: the burst the first 429 showed, and the pace after, are as with the answer read at once', () => {
		const paceAfter = (answeredAt: number) => {
			const pacer = new Pacer(() => 0);
			pacer.onSent(0, 0);
			pacer.onAnswer(answeredAt, 0, ok);
			let now = exchange(pacer, answeredAt, 4); // a bucket of 5: 5 passed, the 6th is refused
			pacer.onSent(now, 0);
			pacer.onAnswer(now + 1, now, limited('1'));
			now = exchange(pacer, pacer.pausedUntil, 30, 100); // then 10 a second, the bucket's rate
			pacer.onSent(now, 0);
			pacer.onAnswer(now + 1, now, limited('1'));
			return pacer.pace as number;
		};
		// The first guess differs (5 over 1.37 s, not 1.01 s); counted as refill, 0.6 a second apart.
		expect(paceAfter(370)).toBeCloseTo(paceAfter(5), 1);
	});

	it('takes the rate from a RateLimit-Policy at once, and holds a request for a token when none remains', () => {
		const pacer = new Pacer(() => 0.5);
		const headers = { 'ratelimit-policy': '10;w=1', 'ratelimit-remaining': '0' };
		pacer.onSent(0, 0);
		pacer.onAnswer(5, 0, { status: 200, headers });
		expect(pacer.pace).toBe(10);
		expect(pacer.nextSendAt(5, 0)).toBeGreaterThanOrEqual(105);
	});

	it('X-RateLimit without a rate: nothing remaining is a limit showing (nothing refused), the answer that said it counted', () => {
		const pacer = new Pacer(() => 0);
		const now = Date.parse('2026-03-02T09:00:00Z');
		const at = exchange(pacer, now, 9);
		pacer.onSent(at, 0);
		const reset = { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 5) };
		pacer.onAnswer(at + 1, at, { status: 200, headers: reset });
		// A reset 5 s away: a window, or a slow bucket: held until it, 10 passed over that time, no ramp.
		expect(pacer.pausedUntil).toBeGreaterThanOrEqual(now + 5000 - 20);
		expect(pacer.pace).toBeCloseTo(10 / 5, 1);
		pacer.onSent(pacer.pausedUntil + 10_000, 0);
		expect(pacer.pace).toBeCloseTo(10 / 5, 1);
	});

	it('X-RateLimit: a reset within 2 s (whole Unix seconds, so up to one late) may be a bucket refilled in a second: a second, then the ramp', () => {
		const pacer = new Pacer(() => 0);
		const now = Date.parse('2026-03-02T09:00:00.300Z');
		const at = exchange(pacer, now, 9);
		pacer.onSent(at, 0);
		const inUnixSeconds = String(Date.parse('2026-03-02T09:00:02Z') / 1000); // 1.7 s away
		const reset = { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': inUnixSeconds };
		pacer.onAnswer(at + 1, at, { status: 200, headers: reset });
		expect(pacer.pausedUntil).toBe(at + 1 + DEFAULT_WAIT_MS);
		const guess = pacer.pace as number;
		expect(guess).toBeCloseTo(10 / 1.01, 1);
		pacer.onSent(exchange(pacer, pacer.pausedUntil, 30, 100), 0);
		expect(pacer.pace).toBeGreaterThan(guess + 1);
	});

	it('a 429 without Retry-After waits until the reset its headers tell, else a second', () => {
		const pacer = new Pacer(() => 0);
		const now = Date.parse('2026-03-02T09:00:00Z');
		const reset = { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 30) };
		pacer.onAnswer(now, now, { status: 429, headers: reset });
		expect(pacer.pausedUntil).toBe(now + 30_000);
		const bare = new Pacer(() => 0);
		bare.onAnswer(now, now, limited());
		expect(bare.pausedUntil).toBe(now + DEFAULT_WAIT_MS);
	});

	it.each([
		[0.03, 150_000, 400_000],
		[0.05, 500_000, 1_200_000],
	])(
		'429s from no limit (%p of requests refused at random, Retry-After 1) slow the key down as README says',
		(share, atLeastMs, atMostMs) => {
			let state = 5;
			const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
			const pacer = new Pacer(random);
			pacer.willSend(1000);
			let now = 0;
			for (let accepted = 0; accepted < 1000; ) {
				const at = pacer.nextSendAt(now, 0) ?? now;
				pacer.onSent(at, 0);
				now = at + 5;
				const refused = random() < share;
				pacer.onAnswer(now, at, refused ? limited('1') : ok);
				if (!refused) accepted++;
			}
			// A service without a limit would take 1,000 x 5 ms plus a second per 429.
			expect(now).toBeGreaterThan(atLeastMs);
			expect(now).toBeLessThan(atMostMs);
		},
	);

	it('ignores headers it cannot read; a request that got no answer teaches nothing', () => {
		const pacer = new Pacer(() => 0);
		pacer.onAnswer(0, 0, {
			status: 200,
			headers: { 'ratelimit-policy': 'lots', 'ratelimit-remaining': 'y' },
		});
		expect(pacer.pace).toBeUndefined();
		pacer.onSent(1, 0);
		pacer.onAnswer(60_000, 1, { status: 0, headers: {} });
		expect(pacer.counts.answers).toBe(1);
		expect(pacer.nextSendAt(60_000, 0)).toBe(60_000);
	});
});

describe('lacking: what a bucket of a known rate lacks after requests took tokens', () => {
	it('each request takes a token; the bucket refills at the rate, never above full', () => {
		expect(lacking([], 10)).toBe(0);
		expect(lacking([0, 0, 0], 10)).toBe(3);
		expect(lacking([0, 5, 10], 10)).toBeCloseTo(2.9, 9); // 0.05 refilled between each
		// Full again after 100 ms at 10 a second: the second second of quiet refills nothing more.
		expect(lacking([0, 2000, 2000], 10)).toBe(2);
		expect(lacking([0, 0, 0, 0, 150], 10)).toBeCloseTo(3.5, 9);
	});
});

describe('readLimitHeaders: the conventions services use', () => {
	const now = Date.parse('2026-11-24T12:00:00Z');

	it("the IETF draft's older fields: RateLimit-Remaining, -Reset (seconds) and a q;w policy", () => {
		const read = readLimitHeaders(
			{ 'ratelimit-remaining': '3', 'ratelimit-reset': '2', 'ratelimit-policy': '10;w=1;burst=5' },
			now,
		);
		expect(read).toEqual({ remaining: 3, rate: 10, resetMs: 2000 });
	});

	it("the IETF draft's structured fields: RateLimit: r, t and policies with q and w; the slowest binds", () => {
		const read = readLimitHeaders(
			{
				ratelimit: '"default";r=7;t=30',
				'ratelimit-policy': '"burst";q=100;w=60, "daily";q=1000;w=86400',
			},
			now,
		);
		expect(read.remaining).toBe(7);
		expect(read.resetMs).toBe(30_000);
		expect(read.rate).toBeCloseTo(1000 / 86400);
	});

	it('X-RateLimit-Reset as a Unix time in seconds, in milliseconds, or as seconds to wait', () => {
		const inSeconds = readLimitHeaders(
			{ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 42) },
			now,
		);
		expect(inSeconds).toEqual({ remaining: 0, rate: undefined, resetMs: 42_000 });
		expect(readLimitHeaders({ 'x-ratelimit-reset': String(now + 1500) }, now).resetMs).toBe(1500);
		expect(readLimitHeaders({ 'x-ratelimit-reset': '42' }, now).resetMs).toBe(42_000);
	});

	it('nothing readable: nothing known', () => {
		expect(readLimitHeaders({ 'x-ratelimit-remaining': 'many' }, now)).toEqual({
			remaining: undefined,
			rate: undefined,
			resetMs: undefined,
		});
	});
});

describe('Pacer in front of the sandbox limiters (simulated time)', () => {
	const create = (items: number, startAfter = 0): Workload => ({
		executions: 1,
		items,
		concurrency: 4,
		startAfter,
	});
	const returnAll: Workload = { executions: 1, items: 100, concurrency: 10, firstAlone: true };
	/** Create as n8n runs it (traced): the items read (ms an item, nothing in flight), the template
	 * read, then the items checked against it (ms an item) before the first create. */
	const N8N_CREATE = { prepareMsPerItem: 0.32, checkMsPerItem: 0.015 };
	const worst = (limit: Limit, work: Workload | Workload[], seeds = [1, 2, 3]) => {
		const runs = seeds.map((seed) => simulate(limit, work, seed));
		return {
			ratio: Math.max(...runs.map((run) => run.ratio)),
			share: Math.max(...runs.map((run) => run.share)),
			runs,
		};
	};

	// The goal: within 1.15 x N/R and 2 % of requests answered 429, without headers.
	it.each<[string, Limit, Workload]>([
		['Create 1,000, bucket R=10 B=10', { rate: 10, burst: 10 }, create(1000)],
		['Create 1,000, bucket R=10 B=2', { rate: 10, burst: 2 }, create(1000)],
		['Create 1,000, bucket R=2 B=2', { rate: 2, burst: 2 }, create(1000)],
		['Return All, bucket R=10 B=10', { rate: 10, burst: 10 }, returnAll],
		['Return All, bucket R=2 B=2', { rate: 2, burst: 2 }, returnAll],
		[
			'40 executions x 25 items, bucket R=10 B=5',
			{ rate: 10, burst: 5 },
			{ ...create(25), executions: 40 },
		],
		[
			'100 executions x 2 items, bucket R=2 B=1',
			{ rate: 2, burst: 1 },
			{ ...create(2), executions: 100 },
		],
		[
			'Create 200, fixed window of 50 per 5 s',
			{ rate: 10, shape: 'fixed-window', window: 5 },
			create(200),
		],
		[
			'Create 200, 429 without Retry-After, bucket R=10 B=5',
			{ rate: 10, burst: 5, retryAfter: false },
			create(200),
		],
		[
			'Create 300, the limit raised from 5 to 10 at 10 s',
			{ rate: 5, burst: 5, schedule: [{ at: 10, rate: 10 }] },
			create(300),
		],
		[
			'Create 500 and the trigger polling every 10 s, bucket R=10 B=5',
			{ rate: 10, burst: 5 },
			{ ...create(500), polls: { every: 10, requests: 20 } },
		],
	])('%s: within 1.2 x N/R and 2 % 429', (_, limit, work) => {
		const run = worst(limit, work);
		expect(run.share).toBeLessThanOrEqual(0.02);
		expect(run.ratio).toBeLessThanOrEqual(1.2);
	});

	it("the trigger's polls share the key's pace and count in N: told the rate, Create 500 and the polls take N/R", () => {
		const run = simulate(
			{ rate: 10, burst: 5, headers: 'ratelimit' },
			{ ...create(500), polls: { every: 10, requests: 20 } },
			1,
		);
		// A poll every 20 s or so: its reads, one at a time, each wait behind Create's items (10 s),
		// then the 10 s between polls; the run takes about 56 s.
		expect(run.requests).toBeGreaterThanOrEqual(500 + 3 * 20);
		expect(run.limited).toBe(0);
		expect(run.ratio).toBeGreaterThan(0.97);
		expect(run.ratio).toBeLessThan(1.03);
	});

	// Through n8n, Create reads every item's parameters (0.32-0.36 s for 1,000 items, nothing in
	// flight), then the template, then the creates. Until 2026-11-28 it read the template first: in
	// the pause after it the bucket got back the token the read took, so 3 passed before the first
	// 429 at B = 2, the estimates ran a token low, and n8n took 1.16 x N/R with 7 of 1,008 answered
	// 429 (BENCHMARKS.md section 6). With the read right before the creates: as without the pause.
	it('Create as through n8n (the items read, then the template, then the creates): at (10, 2) as without the pause; the template read before the pause cost a token', () => {
		const asThroughN8n = worst({ rate: 10, burst: 2 }, { ...create(1000), ...N8N_CREATE });
		const withoutThePause = worst({ rate: 10, burst: 2 }, create(1000));
		const readFirst = worst({ rate: 10, burst: 2 }, { ...create(1000), checkMsPerItem: 0.32 });
		for (const run of [...asThroughN8n.runs, ...readFirst.runs])
			expect(run.requests - run.limited).toBe(1001); // every item, and the template once
		expect(asThroughN8n.ratio).toBeLessThan(1.12);
		expect(withoutThePause.ratio).toBeLessThan(1.12);
		for (const run of readFirst.runs) expect(run.limited).toBe(7);
		expect(readFirst.ratio).toBeGreaterThan(1.14);
	});

	// The first 429 found less than a token: the bucket holds less than what one of the least rate
	// the service surely gave, full at the start, lacked then, that 429's token counted. Far away
	// the first 429 comes late and what passed counts much refill (12 at B = 5 here). Without a
	// bound the estimates ran low: 1.21 x. Create's pause is no refill: the bucket was full.
	it('far away (60 ms), 40 executions x 25 items with the pause: the burst is bounded by what a bucket of the least rate lacked at the first 429, within 1.16 x N/R', () => {
		const far = { rate: 10, burst: 5, latencyMs: 60 };
		const run = worst(far, { ...create(25), executions: 40, ...N8N_CREATE });
		expect(run.share).toBeLessThanOrEqual(0.02);
		expect(run.ratio).toBeLessThanOrEqual(1.16);
	});

	// A gate lives while its key is used (15 minutes idle at most): a key the trigger polls once a
	// minute is never new. Counted from its first request, the first guess was what passed over half
	// an hour and the ramp rose while nothing was sent: 17.9 x N/R at (10, 2), 21.5 x behind the window.
	it.each<[string, Limit, Workload]>([
		['Create 1,000 at (10, 2)', { rate: 10, burst: 2 }, create(1000)],
		[
			'Create 200, fixed window of 50 per 5 s',
			{ rate: 10, shape: 'fixed-window', window: 5 },
			create(200),
		],
		['Create 100 at 30 a minute, B=5', { rate: 0.5, burst: 5 }, create(100)],
	])(
		'%s, on a key the trigger polled once a minute for half an hour: as on a new key',
		(_, limit, work) => {
			const asThroughN8n = { ...work, ...N8N_CREATE };
			const used = worst(limit, { ...asThroughN8n, usedBefore: { requests: 30, every: 60 } });
			const fresh = worst(limit, asThroughN8n);
			expect(used.ratio).toBeLessThanOrEqual(fresh.ratio + 0.05);
			expect(used.ratio).toBeLessThanOrEqual(1.2);
		},
	);

	it('a limit raised during the run is found: the pace passes 8 requests a second within 10 s of the raise', () => {
		const run = simulate({ rate: 5, burst: 5, schedule: [{ at: 10, rate: 10 }] }, create(300), 1);
		expect(run.paces[0].slice(10, 21).some((pace) => pace >= 8)).toBe(true);
	});

	// Once the pace is at the lowered limit, probes find nothing: each such probe counts twice in
	// the 429 budget, so they come later (2.3 % answered 429 when they counted once).
	it('a limit lowered during the run is followed within a few 429s: 2 % at most, within 1.2 x', () => {
		const run = worst({ rate: 10, burst: 5, schedule: [{ at: 10, rate: 5 }] }, create(300));
		expect(run.share).toBeLessThanOrEqual(0.02);
		expect(run.ratio).toBeLessThanOrEqual(1.2);
	});

	// The first 429 (2 s to the next token) reads as a window: 5 passed over 2.1 s, 2.4 a second.
	// The next, after 1 passed in those 2 s, paces at 0.5 a second: the pause refilled about a
	// token, none lost to a full bucket. Until 2026-11-27 it cut 0.7 at a time, 4-5 429s down and
	// a stranded look every 16 quiet pauses: 6 % answered 429 on these seeds. What is left: probes.
	it('a slow bucket (30 a minute, a burst of 5): the second 429 gives the rate, at most 3 % 429, within 1.1 x', () => {
		const run = worst({ rate: 0.5, burst: 5 }, create(400));
		expect(run.share).toBeLessThanOrEqual(0.03);
		expect(run.ratio).toBeLessThanOrEqual(1.1);
	});

	it('with a bucket of one, arrival jitter bounds any client: few 429s, within 1.3 x', () => {
		const run = worst({ rate: 10, burst: 1 }, create(1000));
		expect(run.share).toBeLessThanOrEqual(0.01);
		expect(run.ratio).toBeLessThanOrEqual(1.3);
	});

	it('a sliding window of 20 per 2 s: within 1.35 x and 2 % 429 (its Retry-After rounds a 0.1 s wait up to 1 s)', () => {
		const run = worst(
			{ rate: 10, shape: 'sliding-window', window: 2 },
			{ ...create(5), executions: 40 },
		);
		expect(run.share).toBeLessThanOrEqual(0.02);
		expect(run.ratio).toBeLessThanOrEqual(1.35);
	});

	it('two processes on one bucket, started together: shares within 20 % of each other on most long runs', () => {
		const runs = [1, 2, 3, 4, 5, 6].map((seed) =>
			simulate({ rate: 10, burst: 5 }, create(2000), seed, { processes: 2 }),
		);
		const fairness = runs.map((run) => Math.min(...run.overlap) / Math.max(...run.overlap));
		expect(fairness.filter((share) => share >= 0.8).length).toBeGreaterThanOrEqual(4);
		expect(Math.min(...fairness)).toBeGreaterThanOrEqual(0.5);
		for (const run of runs) expect(run.ratio).toBeLessThanOrEqual(1.15);
	});

	it('two processes, one joining late with fewer items: every request answered within 1.3 x', () => {
		const run = worst({ rate: 10, burst: 5 }, [create(300), create(100, 10)]);
		expect(run.ratio).toBeLessThanOrEqual(1.3);
		expect(run.share).toBeLessThanOrEqual(0.03);
	});

	// A joiner crowded from its start is cut to what the other leaves over; never cut far below its
	// best, it may keep that pace after the other leaves (BENCHMARKS.md 6, "A late joiner crowded
	// from its start"): a lottery of the first 429s' timing. As through n8n, 48 seeds: 6 such runs
	// at 5-40 ms and 6 at loopback; with the template read before the items (until 2026-11-28), 1
	// and 11. Pinned so that it grows no worse.
	it('two processes, one joining late, as through n8n (48 seeds, near and far): the median within 1.25 x, the joiner left at a crowded pace in at most 1 run of 6', () => {
		const asThroughN8n = (items: number, startAfter = 0) => ({
			...create(items, startAfter),
			...N8N_CREATE,
		});
		for (const delayMs of [[5, 40] as [number, number], undefined]) {
			const ratios = Array.from({ length: 48 }, (_, seed) =>
				simulate({ rate: 10, burst: 5 }, [asThroughN8n(300), asThroughN8n(100, 10)], seed + 1, {
					delayMs,
				}),
			)
				.map((run) => run.ratio)
				.sort((a, b) => a - b);
			expect(ratios[24]).toBeLessThanOrEqual(1.25);
			expect(ratios.filter((ratio) => ratio > 1.75).length).toBeLessThanOrEqual(8);
		}
	});

	it('a joiner crowded to 1 request a second from its start is not stranded there: a 429 at that cruise cuts it, and the cut looks again once the other leaves', () => {
		// Seed 131: the other held the bucket when the joiner came, and the joiner's first ramp was
		// refused at 3.8 a second: it cruises at the 0.9 a second the other left over. Alone at
		// R = 1, B = 1 a process starts the same way and keeps 0.97. The joiner's next 429 came at
		// 0.9 with an estimate no lower: cut to 0.6, far below its best, it looks again when quiet,
		// 11 s after the other left. Without such a cut a crowded joiner keeps 0.9 to its end: 18
		// of 300 seeds here, 2.7-3.0 x N/R for the pair (BENCHMARKS.md 6, the learnable bounds).
		const crowded = simulate({ rate: 10, burst: 5 }, [create(300), create(100, 10)], 131);
		const alone = simulate({ rate: 1, burst: 1 }, create(100), 131);
		for (const pace of alone.paces[0].slice(3)) {
			expect(pace).toBeGreaterThan(0.8);
			expect(pace).toBeLessThan(1.1);
		}
		expect(alone.limited).toBe(2);
		const afterTheOtherLeft = crowded.paces[1].slice(Math.ceil(crowded.endedAt[0]));
		expect(Math.max(...afterTheOtherLeft)).toBeGreaterThan(8);
		expect(crowded.ratio).toBeLessThan(2);
	});

	it.each<[string, Limit, Workload | Workload[]]>([
		['Create 1,000, R=10 B=2', { rate: 10, burst: 2, headers: 'ratelimit' }, create(1000)],
		['Return All, R=10 B=2', { rate: 10, burst: 2, headers: 'ratelimit' }, returnAll],
		[
			'100 executions x 2 items, R=2 B=1',
			{ rate: 2, burst: 1, headers: 'ratelimit' },
			{ ...create(2), executions: 100 },
		],
	])('with RateLimit headers, %s: at the limit, no 429', (_, limit, work) => {
		const run = worst(limit, work);
		expect(run.share).toBe(0);
		expect(run.ratio).toBeLessThanOrEqual(1.1);
	});

	it('with RateLimit headers, two processes told the same rate share it with few 429s (16 seeds)', () => {
		const work = { ...create(25), executions: 20 };
		const seeds = Array.from({ length: 16 }, (_, index) => index + 1);
		const { runs } = worst({ rate: 10, burst: 5, headers: 'ratelimit' }, [work, work], seeds);
		const ratios = runs.map((run) => run.ratio).sort((a, b) => a - b);
		for (const run of runs) expect(run.share).toBeLessThanOrEqual(0.03);
		// The median: 1.09 over 96 seeds, 1.10 over 32 or 48, 1.095-1.103 over these 16 (2026-11-28).
		expect(ratios[7]).toBeLessThanOrEqual(1.11);
		expect(ratios[15]).toBeLessThanOrEqual(1.25);
	});

	// X-RateLimit (GitHub's convention) tells no rate, only what remains and when the bucket is
	// full again, in whole Unix seconds: the node learns the rate as without headers, and meets the
	// goal on these rows with the 1.5 % the earlier Create-only test asked of its 429s.
	it.each<[string, Limit, Workload]>([
		['Create 1,000, R=10 B=10', { rate: 10, burst: 10, headers: 'x-ratelimit' }, create(1000)],
		['Create 1,000, R=10 B=2', { rate: 10, burst: 2, headers: 'x-ratelimit' }, create(1000)],
		['Create 1,000, R=2 B=2', { rate: 2, burst: 2, headers: 'x-ratelimit' }, create(1000)],
		['Return All, R=10 B=10', { rate: 10, burst: 10, headers: 'x-ratelimit' }, returnAll],
		['Return All, R=2 B=2', { rate: 2, burst: 2, headers: 'x-ratelimit' }, returnAll],
	])('with X-RateLimit headers (no rate given), %s: the goal', (_, limit, work) => {
		const run = worst(limit, work);
		expect(run.share).toBeLessThanOrEqual(0.015);
		expect(run.ratio).toBeLessThanOrEqual(1.15);
	});
});
