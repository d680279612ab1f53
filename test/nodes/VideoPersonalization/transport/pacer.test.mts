/**
 * The pacer's rules, in simulated time: alone, and in front of the sandbox's own token bucket with
 * the node's concurrency and its one-at-a-time gate (transport/request.ts PaceGate).
 */
import type { Clock } from '../../../../sandbox/clock.mts';
import { RateLimiter } from '../../../../sandbox/rateLimit.mts';
import {
	DEFAULT_LIMITED_WAIT_MS,
	Pacer,
	PAUSE_JITTER,
	SPACING_JITTER,
} from '../../../../nodes/VideoPersonalization/transport/pacer.ts';

const limited = (retryAfter?: string) => ({
	status: 429,
	headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
});
const ok = { status: 200, headers: {} };

describe('Pacer alone', () => {
	it('sends the first request alone, then holds nothing back while the service has not said it limits', () => {
		const pacer = new Pacer(() => 0.5);
		pacer.onSent(0);
		expect(pacer.nextSendAt(1)).toBeUndefined();
		pacer.onAnswer(5, 0, ok);
		for (let now = 5; now < 50; now += 1) {
			expect(pacer.nextSendAt(now)).toBe(now);
			pacer.onSent(now);
		}
		expect(pacer.pace).toBeUndefined();
	});

	it('pauses every request until the time a 429 asked for, plus up to 10 % jitter', () => {
		for (const random of [0, 0.5, 0.999]) {
			const pacer = new Pacer(() => random);
			pacer.onSent(0);
			pacer.onAnswer(100, 0, limited('3'));
			const until = 100 + 3000 * (1 + PAUSE_JITTER * random);
			expect(pacer.pausedUntil).toBeCloseTo(until);
			expect(pacer.nextSendAt(200)).toBeGreaterThanOrEqual(until);
			expect(pacer.nextSendAt(200)).toBeLessThanOrEqual(100 + 3300);
		}
	});

	it('reads a Retry-After date, and waits a second when the 429 asks for nothing readable', () => {
		const dated = new Pacer(() => 0);
		const now = Date.parse('2026-03-02T09:00:00Z');
		dated.onAnswer(now, now, limited('Mon, 02 Mar 2026 09:00:07 GMT'));
		expect(dated.pausedUntil).toBe(now + 7000);
		const bare = new Pacer(() => 0);
		bare.onAnswer(50, 0, limited('soon'));
		expect(bare.pausedUntil).toBe(50 + DEFAULT_LIMITED_WAIT_MS);
	});

	it('a later, shorter pause does not cut an earlier, longer one short', () => {
		const pacer = new Pacer(() => 0);
		pacer.onAnswer(0, 0, limited('10'));
		pacer.onAnswer(1000, 0, limited('1'));
		expect(pacer.pausedUntil).toBe(10_000);
	});

	it('after the pause, sends one at a time, spaced with jitter', () => {
		const pacer = new Pacer(() => 0.5);
		for (let sent = 0; sent < 5; sent++) {
			pacer.onSent(sent);
			pacer.onAnswer(sent + 1, sent, ok);
		}
		pacer.onAnswer(10, 5, limited('1'));
		const pace = pacer.pace as number;
		expect(pace).toBeGreaterThan(0);
		const first = pacer.nextSendAt(0) as number;
		expect(first).toBe(pacer.pausedUntil);
		pacer.onSent(first);
		const gap = (pacer.nextSendAt(first) as number) - first;
		expect(gap).toBeCloseTo((1000 / pace) * (1 + SPACING_JITTER * 0.5));
	});

	it('takes the rate and the burst from RateLimit headers, before any 429', () => {
		const pacer = new Pacer(() => 0);
		const headers = {
			'ratelimit-policy': '10;w=1;burst=2',
			'ratelimit-limit': '2',
			'ratelimit-remaining': '0',
		};
		pacer.onSent(0);
		pacer.onAnswer(0, 0, { status: 200, headers });
		expect(pacer.pace).toBeCloseTo(9.8);
		// No token left: the next request waits for one and a half (half a token kept in reserve).
		expect(pacer.nextSendAt(0)).toBeCloseTo((1.5 / 9.8) * 1000);
	});

	it('ignores headers it cannot read', () => {
		const pacer = new Pacer(() => 0);
		pacer.onAnswer(0, 0, {
			status: 200,
			headers: { 'ratelimit-policy': 'lots', 'ratelimit-limit': 'x', 'ratelimit-remaining': '1' },
		});
		expect(pacer.pace).toBeUndefined();
		expect(pacer.nextSendAt(5)).toBe(5);
	});

	it('a request that got no answer teaches nothing', () => {
		const pacer = new Pacer(() => 0);
		pacer.onSent(0);
		pacer.onAnswer(60_000, 0, { status: 0, headers: {} });
		expect(pacer.stats.answers).toBe(0);
		expect(pacer.nextSendAt(60_000)).toBe(60_000);
	});
});

interface Simulated {
	/** Time to finish, over N / R. */
	ratio: number;
	requests: number;
	limited: number;
}

/**
 * `n` requests from `concurrency` workers through one gate (one at a time, when the pacer says)
 * to the sandbox's limiter, in simulated time with `latencyMs` per exchange.
 */
function simulate(
	rate: number,
	burst: number,
	n: number,
	concurrency: number,
	headers: boolean,
	seed: number,
	latencyMs = 4,
	jitterMs = 0,
): Simulated {
	let now = 0;
	let state = seed;
	const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
	const limiter = new RateLimiter({ now: () => now } as Clock);
	limiter.set({ rate, burst, headers: headers ? 'ratelimit' : 'none', clock: 'sandbox' });
	const pacer = new Pacer(random);
	const events: Array<{ t: number; run: () => void }> = [];
	const at = (t: number, run: () => void) => {
		events.push({ t, run });
		events.sort((a, b) => a.t - b.t);
	};
	const waiting: Array<(sentAt: number) => void> = [];
	let gateBusy = false;
	let wake: (() => void) | undefined;
	const pump = () => {
		if (gateBusy || waiting.length === 0) return;
		gateBusy = true;
		const tryNow = () => {
			const t = pacer.nextSendAt(now);
			if (t === undefined) return (wake = tryNow);
			if (t > now) return at(t, tryNow);
			pacer.onSent(now);
			gateBusy = false;
			(waiting.shift() as (sentAt: number) => void)(now);
			pump();
		};
		tryNow();
	};
	let next = 0;
	let done = 0;
	const attempt = () => {
		waiting.push((sentAt) =>
			at(now + latencyMs / 2 + jitterMs * random(), () => {
				const decision = limiter.check('GET', '/v1/assets', 'Bearer k');
				const status = decision && !decision.allowed ? 429 : 200;
				const answerHeaders = Object.fromEntries(
					Object.entries(decision?.headers ?? {}).map(([name, value]) => [
						name.toLowerCase(),
						value,
					]),
				);
				at(now + latencyMs / 2, () => {
					pacer.onAnswer(now, sentAt, { status, headers: answerHeaders });
					const woken = wake;
					wake = undefined;
					woken?.();
					if (status === 429) return attempt();
					done++;
					work();
				});
			}),
		);
		pump();
	};
	const work = () => {
		if (next >= n) return;
		next++;
		attempt();
	};
	for (let worker = 0; worker < concurrency; worker++) work();
	while (events.length > 0 && done < n) {
		const event = events.shift() as { t: number; run: () => void };
		now = event.t;
		event.run();
	}
	expect(done).toBe(n);
	const counters = limiter.counters();
	return { ratio: now / 1000 / (n / rate), requests: counters.requests, limited: counters.limited };
}

describe('Pacer in front of a token bucket (simulated time)', () => {
	const cases: Array<[string, number, number, number, number]> = [
		['Create 1,000', 10, 10, 1000, 4],
		['Create 1,000', 10, 2, 1000, 4],
		['Create 1,000', 10, 1, 1000, 4],
		['Create 1,000', 2, 2, 1000, 4],
		['Return All, 100 pages', 10, 2, 100, 10],
		['Return All, 100 pages', 2, 2, 100, 10],
	];

	it.each(cases)(
		'%s at R=%i/s, B=%i with RateLimit headers: at the limit, no 429',
		(_name, rate, burst, n, concurrency) => {
			for (const seed of [1, 2, 3]) {
				const run = simulate(rate, burst, n, concurrency, true, seed);
				expect(run.limited).toBe(0);
				expect(run.ratio).toBeLessThanOrEqual(1.1);
			}
		},
	);

	it('with uneven delays on the way to the service (0-10 ms), a bucket of one draws few 429s', () => {
		// A bucket of one has no slack: requests must be spaced by 1/R plus the spread of their delays.
		for (const seed of [1, 2, 3]) {
			const run = simulate(10, 1, 1000, 4, true, seed, 4, 10);
			expect(run.limited).toBeLessThanOrEqual(0.01 * run.requests);
			expect(run.ratio).toBeLessThanOrEqual(1.15);
		}
	});

	it.each(cases)(
		'%s at R=%i/s, B=%i from 429s alone: finishes near the limit with few 429s',
		(_name, rate, burst, n, concurrency) => {
			for (const seed of [1, 2, 3]) {
				const run = simulate(rate, burst, n, concurrency, false, seed);
				// Learning the rate costs a few 429s, however many requests follow.
				expect(run.limited).toBeLessThanOrEqual(n >= 1000 ? 0.02 * run.requests : 15);
				expect(run.ratio).toBeLessThanOrEqual(n >= 1000 ? 1.3 : 2);
			}
		},
	);
});
