/**
 * The pacer of an API key in front of the sandbox's own token bucket, in simulated time: the
 * gate's rules (arrival order, one pacer per process, the first request alone) with its timers
 * replaced by an event list, so minutes of traffic run in milliseconds. Uneven delays on the way
 * (2-12 ms each way by default) as on a real network. Workloads: executions of several items
 * (items in parallel, as the router sends them), and Return All (a first page, then pages in
 * parallel). Processes: each has its own pacer, all share the bucket (queue mode's workers).
 */
import type { Clock } from '../../../../sandbox/clock.mts';
import { RateLimiter } from '../../../../sandbox/rateLimit.mts';
import type { RateLimitHeaders } from '../../../../sandbox/types.mts';
import { Pacer } from '../../../../nodes/VideoPersonalization/transport/pacer.ts';

export interface Workload {
	executions: number;
	/** Requests of each execution. */
	items: number;
	/** Of one execution, in flight at once. */
	concurrency: number;
	/** Return All: the first page goes alone (it tells the total). */
	firstAlone?: boolean;
}

export interface Limit {
	rate: number;
	burst: number;
	headers?: RateLimitHeaders;
}

export interface Simulated {
	/** Time to finish, over N / R. */
	ratio: number;
	requests: number;
	limited: number;
	share: number;
}

export function simulate(
	limit: Limit,
	work: Workload,
	seed: number,
	{ processes = 1, delayMs = [2, 12] }: { processes?: number; delayMs?: [number, number] } = {},
): Simulated {
	let now = 0;
	let state = seed * 7919 + 1;
	const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
	const limiter = new RateLimiter({ now: () => now } as Clock);
	limiter.set({ ...limit, headers: limit.headers ?? 'none', clock: 'sandbox' });
	const events: Array<{ at: number; order: number; run: () => void }> = [];
	let order = 0;
	const later = (at: number, run: () => void) => events.push({ at, order: order++, run });
	const delay = () => delayMs[0] + (delayMs[1] - delayMs[0]) * random();
	const gates = Array.from({ length: processes }, () => ({
		pacer: new Pacer(random),
		queue: [] as Array<() => void>,
		inFlight: 0,
		wakeAt: Number.POSITIVE_INFINITY,
	}));
	type Gate = (typeof gates)[number];
	const serve = (gate: Gate) => {
		while (gate.queue.length > 0) {
			const at = gate.pacer.nextSendAt(now, gate.inFlight);
			if (at === undefined) return; // an answer wakes it
			if (at > now) {
				if (at < gate.wakeAt) {
					gate.wakeAt = at;
					later(at, () => {
						gate.wakeAt = Number.POSITIVE_INFINITY;
						serve(gate);
					});
				}
				return;
			}
			gate.pacer.onSent(now);
			gate.inFlight++;
			(gate.queue.shift() as () => void)();
		}
	};
	let done = 0;
	const send = (gate: Gate, onDone: () => void, again = false) => {
		const exchange = () => {
			const sentAt = now;
			later(now + delay(), () => {
				const decision = limiter.check('GET', '/v1/assets', 'Bearer k');
				const status = decision && !decision.allowed ? 429 : 200;
				const headers = Object.fromEntries(
					Object.entries(decision?.headers ?? {}).map(([name, value]) => [
						name.toLowerCase(),
						value,
					]),
				);
				later(now + delay(), () => {
					gate.inFlight--;
					gate.pacer.onAnswer(now, sentAt, { status, headers });
					if (status === 429) send(gate, onDone, true);
					else onDone();
					serve(gate);
				});
			});
		};
		if (again) gate.queue.unshift(exchange);
		else gate.queue.push(exchange);
		serve(gate);
	};
	for (let execution = 0; execution < work.executions; execution++) {
		const gate = gates[execution % processes];
		gate.pacer.expect(work.items);
		let started = 0;
		const next = () => {
			if (started >= work.items) return;
			started++;
			send(gate, () => {
				done++;
				next();
			});
		};
		const parallel = () => {
			for (let slot = 0; slot < work.concurrency; slot++) next();
		};
		if (work.firstAlone) {
			started = 1;
			send(gate, () => {
				done++;
				parallel();
			});
		} else parallel();
	}
	const total = work.executions * work.items;
	while (events.length > 0 && done < total) {
		events.sort((left, right) => left.at - right.at || left.order - right.order);
		const event = events.shift() as (typeof events)[number];
		now = Math.max(now, event.at);
		event.run();
	}
	if (done < total) throw new Error(`only ${done} of ${total} requests were answered`);
	const counters = limiter.counters();
	return {
		ratio: now / 1000 / (total / limit.rate),
		requests: counters.requests,
		limited: counters.limited,
		share: counters.limited / counters.requests,
	};
}
