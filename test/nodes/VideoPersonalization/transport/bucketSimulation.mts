/**
 * The pacer of an API key in front of the sandbox's own rate limiter (any of its shapes: a token
 * bucket, a fixed or sliding window, without Retry-After, a rate that changes on a schedule), in
 * simulated time: the gate's rules (arrival order, one pacer per process, a 429 sent again first)
 * with its timers replaced by an event list, so minutes of traffic run in milliseconds. Uneven
 * delays on the way (2-12 ms each way by default, and now and then a stall of up to 40 ms, as
 * measured through n8n's engine on the benchmark machine; a service far away, the limit's
 * latencyMs, adds half of it each way). Workloads: executions of several items (items in
 * parallel, as the router sends them; optionally after the pause while n8n reads the items and
 * Create's template read), Return All (a first page, then pages in parallel), and beside them
 * the trigger's polls on the same key. Processes: each has its own pacer, all share
 * the key's limit (queue mode's workers); a process may start late, or on a key it used before.
 */
import type { Clock } from '../../../../sandbox/clock.mts';
import { RateLimiter } from '../../../../sandbox/rateLimit.mts';
import type { RateLimitConfig } from '../../../../sandbox/types.mts';
import { Pacer } from '../../../../nodes/VideoPersonalization/transport/pacer.ts';

export interface Workload {
	executions: number;
	/** Requests of each execution. */
	items: number;
	/** Of one execution, in flight at once. */
	concurrency: number;
	/** Return All: the first page goes alone (it tells the total). */
	firstAlone?: boolean;
	/** Seconds after the start at which this process starts (one workload per process). */
	startAfter?: number;
	/** The trigger on the same key while the executions go: polls of `requests` read one at a
	 * time, each `every` seconds after the last one ended (as n8n's poll and the trigger's phases). */
	polls?: { every: number; requests: number };
	/** Create as n8n runs it: this many ms per item of the process (every execution's) with nothing
	 * in flight (n8n reads every item's parameters, the executions' one after another), then a
	 * request alone (the template, read once per process), then `checkMsPerItem` after its answer
	 * (each item checked against the template) before the first create. Measured through n8n: the
	 * reading 0.32-0.36 ms an item for one execution of 1,000, 0.25 for 40 of 25, 0.6-0.8 for two
	 * workers of 200 each (2026-11-27); the check 0.013-0.017 for 1,000 (2026-11-28). */
	prepareMsPerItem?: number;
	/** After the template's answer, this many ms per item before the first create (above). Until
	 * 2026-11-28 Create read the template before the items: 0 before it and about 0.32 after. */
	checkMsPerItem?: number;
	/** Before the start, the key was used: this many requests one at a time, `every` seconds apart,
	 * each let through (the trigger polling the key, or earlier runs), so the gate is not new. */
	usedBefore?: { requests: number; every: number };
}

export type Limit = Omit<RateLimitConfig, 'clock' | 'scope' | 'match'>;

export interface Simulated {
	/** Time to finish, over N / R (for a rate that changes, the least time it allows; N counts the polls' requests). */
	ratio: number;
	requests: number;
	limited: number;
	share: number;
	/** Requests let through per process while every process ran. */
	overlap: number[];
	/** The pace of each process, each simulated second. */
	paces: number[][];
	/** When each process had its last answer, seconds after the start. */
	endedAt: number[];
}

/** The least time (ms) in which a limit with this schedule lets `requests` through. */
function leastMs(limit: Limit, requests: number): number {
	const rateAt = (ms: number) =>
		(limit.schedule ?? []).filter((c) => ms >= c.at * 1000).reduce((_, c) => c.rate, limit.rate);
	let [ms, through] = [0, 0];
	while (through + rateAt(ms) / 100 < requests)
		[ms, through] = [ms + 10, through + rateAt(ms) / 100];
	return ms + ((requests - through) / rateAt(ms)) * 1000;
}

/** Events by time, then in the order they were added: a binary heap. */
class EventQueue {
	private readonly heap: Array<{ at: number; order: number; run: () => void }> = [];
	private added = 0;

	get size(): number {
		return this.heap.length;
	}

	push(at: number, run: () => void): void {
		this.heap.push({ at, order: this.added++, run });
		for (let i = this.heap.length - 1; i > 0; ) {
			const parent = (i - 1) >> 1;
			if (!this.before(i, parent)) break;
			[this.heap[i], this.heap[parent]] = [this.heap[parent], this.heap[i]];
			i = parent;
		}
	}

	pop(): { at: number; run: () => void } {
		const top = this.heap[0];
		const last = this.heap.pop() as (typeof this.heap)[number];
		if (this.heap.length > 0) {
			this.heap[0] = last;
			for (let i = 0; ; ) {
				const [left, right] = [2 * i + 1, 2 * i + 2];
				let first = i;
				if (left < this.heap.length && this.before(left, first)) first = left;
				if (right < this.heap.length && this.before(right, first)) first = right;
				if (first === i) break;
				[this.heap[i], this.heap[first]] = [this.heap[first], this.heap[i]];
				i = first;
			}
		}
		return top;
	}

	private before(a: number, b: number): boolean {
		const [left, right] = [this.heap[a], this.heap[b]];
		return left.at < right.at || (left.at === right.at && left.order < right.order);
	}
}

/** Runs `processes` (one workload each, or the same workload for each of `count`). */
export function simulate(
	limit: Limit,
	work: Workload | Workload[],
	seed: number,
	{ processes = 1, delayMs = [2, 12] }: { processes?: number; delayMs?: [number, number] } = {},
): Simulated {
	const workloads = Array.isArray(work) ? work : Array.from({ length: processes }, () => work);
	// A real epoch: X-RateLimit-Reset is a Unix time, told apart from seconds to wait by its size.
	const start = Date.parse('2026-03-02T09:00:00Z');
	let now = start;
	let state = seed * 7919 + 1;
	const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
	const limiter = new RateLimiter({ now: () => now } as Clock);
	limiter.set({ ...limit, headers: limit.headers ?? 'none', clock: 'sandbox' });
	const events = new EventQueue();
	const later = (at: number, run: () => void) => events.push(at, run);
	// A service far away (the limiter's latencyMs): half of it each way, beside the loopback delays.
	const delay = () =>
		(limit.latencyMs ?? 0) / 2 +
		delayMs[0] +
		(delayMs[1] - delayMs[0]) * random() +
		(random() < 0.05 ? 40 * random() : 0);
	const usedPacer = ({ usedBefore }: Workload) => {
		const pacer = new Pacer(random);
		for (let left = usedBefore?.requests ?? 0; left > 0; left--) {
			const sentAt = start - left * (usedBefore?.every ?? 0) * 1000;
			pacer.onSent(sentAt, 0);
			pacer.onAnswer(sentAt + delay() + delay(), sentAt, { status: 200, headers: {} });
		}
		return pacer;
	};
	const gates = workloads.map((load) => ({
		pacer: usedPacer(load),
		queue: [] as Array<() => void>,
		inFlight: 0,
		wakeAt: Number.POSITIVE_INFINITY,
		through: [] as number[],
		endedAt: Number.POSITIVE_INFINITY,
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
			gate.pacer.onSent(now, gate.inFlight);
			gate.inFlight++;
			(gate.queue.shift() as () => void)();
		}
	};
	const send = (gate: Gate, onDone: () => void, again = false) => {
		const exchange = () => {
			const sentAt = now;
			later(now + delay(), () => {
				const decision = limiter.check('GET', '/v1/assets', 'Bearer k');
				const status = decision && !decision.allowed ? 429 : 200;
				if (status === 200) gate.through.push(now);
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
	let done = 0;
	let total = 0;
	let polling = 0;
	workloads.forEach((load, index) => {
		const gate = gates[index];
		let left = load.executions * load.items;
		total += left;
		const finished = () => {
			done++;
			if (--left === 0) gate.endedAt = now;
		};
		// A poll while the executions go; the one in progress when they end is finished.
		const poll = ({ every, requests }: NonNullable<Workload['polls']>) => {
			if (!(every > 0 && requests >= 1)) throw new RangeError('polls: every > 0 s, requests >= 1');
			if (left === 0) return;
			polling++;
			let read = 0;
			const nextRead = () => {
				if (read++ < requests) return send(gate, nextRead);
				polling--;
				later(now + every * 1000, () => poll({ every, requests }));
			};
			nextRead();
		};
		const begin = () => {
			for (let execution = 0; execution < load.executions; execution++) {
				gate.pacer.willSend(load.items);
				let started = 0;
				const next = () => {
					if (started >= load.items) return;
					started++;
					send(gate, () => {
						finished();
						next();
					});
				};
				const parallel = () => {
					for (let slot = 0; slot < load.concurrency; slot++) next();
				};
				if (load.polls && execution === 0) poll(load.polls);
				if (load.firstAlone) {
					started = 1;
					send(gate, () => {
						finished();
						parallel();
					});
				} else parallel();
			}
		};
		later(start + (load.startAfter ?? 0) * 1000, () => {
			const perItem = (ms = 0) => ms * load.items * load.executions;
			const [readMs, checkMs] = [perItem(load.prepareMsPerItem), perItem(load.checkMsPerItem)];
			if (readMs + checkMs === 0) return begin();
			total++;
			later(now + readMs, () =>
				send(gate, () => {
					done++;
					later(now + checkMs, begin);
				}),
			);
		});
	});
	const paces: number[][] = gates.map(() => []);
	while (events.size > 0 && (done < total || polling > 0)) {
		const event = events.pop();
		for (; start + paces[0].length * 1000 <= event.at; )
			gates.forEach((gate, index) => paces[index].push(gate.pacer.pace ?? 0));
		now = Math.max(now, event.at);
		event.run();
	}
	if (done < total) throw new Error(`only ${done} of ${total} requests were answered`);
	const counters = limiter.counters();
	const from = start + Math.max(...workloads.map((load) => (load.startAfter ?? 0) * 1000));
	const to = Math.min(...gates.map((gate) => gate.endedAt));
	const accepted = gates.reduce((sum, gate) => sum + gate.through.length, 0);
	return {
		ratio: (now - start) / leastMs(limit, accepted),
		requests: counters.requests,
		limited: counters.limited,
		share: counters.limited / counters.requests,
		overlap: gates.map((gate) => gate.through.filter((at) => at >= from && at <= to).length),
		paces,
		endedAt: gates.map((gate) => (gate.endedAt - start) / 1000),
	};
}
