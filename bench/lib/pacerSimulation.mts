// The minimal client's pacer against the sandbox's own limiter, in simulated time (4 ms per
// request, no CPU or scheduling noise): the cases of the rate-limit benchmark in a second,
// for tuning a pacer without waiting minutes.   npx tsx bench/lib/pacerSimulation.mts
import type { Clock } from '../../sandbox/clock.mts';
import { RateLimiter } from '../../sandbox/rateLimit.mts';
import { Pacer } from './pacer.mts';

interface Simulated {
	ratio: number;
	requests: number;
	limited: number;
}

export function simulate(
	rate: number,
	burst: number,
	n: number,
	concurrency: number,
	useHeaders: boolean,
	seed: number,
	latencyMs = 4,
): Simulated {
	let now = 0;
	let state = seed;
	const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
	const limiter = new RateLimiter({ now: () => now } as Clock);
	limiter.set({ rate, burst, headers: useHeaders ? 'ratelimit' : 'none', clock: 'sandbox' });
	const pacer = new Pacer({ useHeaders, concurrency, random });
	const events: Array<{ t: number; run: () => void }> = [];
	const at = (t: number, run: () => void) => {
		events.push({ t, run });
		events.sort((a, b) => a.t - b.t);
	};
	let done = 0;
	let pending = n;
	let scheduled = false;
	// One dispatcher, as in pacedClient.mts: send when the pacer allows, look again after each answer.
	const dispatch = () => {
		if (scheduled || pending === 0) return;
		const t = pacer.nextSendAt(now);
		if (t === undefined) return;
		scheduled = true;
		at(t, () => {
			scheduled = false;
			if (pacer.nextSendAt(now) !== now || pending === 0) return dispatch();
			pending--;
			const sentAt = now;
			pacer.onSent(now);
			at(now + latencyMs / 2, () => {
				const decision = limiter.check('GET', '/v1/assets', 'Bearer k');
				const status = decision && !decision.allowed ? 429 : 200;
				const headers = Object.fromEntries(
					Object.entries(decision?.headers ?? {}).map(([name, value]) => [
						name.toLowerCase(),
						value,
					]),
				);
				at(now + latencyMs / 2, () => {
					pacer.onAnswer(now, sentAt, { status, headers });
					if (status === 429) pending++;
					else done++;
					dispatch();
				});
			});
			dispatch();
		});
	};
	dispatch();
	while (events.length && done < n) {
		const event = events.shift() as { t: number; run: () => void };
		now = event.t;
		event.run();
	}
	const counters = limiter.counters();
	return { ratio: now / 1000 / (n / rate), requests: counters.requests, limited: counters.limited };
}

if (process.argv[1]?.endsWith('pacerSimulation.mts')) {
	for (const [operation, n, concurrency] of [
		['Create 1,000', 1000, 4],
		['Return All (100 pages)', 100, 10],
	] as const) {
		for (const [rate, burst] of [
			[10, 10],
			[10, 2],
			[10, 1],
			[2, 2],
		]) {
			for (const useHeaders of [false, true]) {
				const runs = [1, 2, 3].map((seed) =>
					simulate(rate, burst, n, concurrency, useHeaders, seed),
				);
				const text = runs
					.map(
						(run) =>
							`${run.ratio.toFixed(2)}× N/R, ${run.limited} × 429 (${((100 * run.limited) / run.requests).toFixed(1)} %)`,
					)
					.join(' | ');
				console.log(
					`${operation}, R=${rate}, B=${burst}, ${useHeaders ? 'headers   ' : '429s only '}: ${text}`,
				);
			}
		}
	}
}
