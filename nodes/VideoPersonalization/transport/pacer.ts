import { headerText, parseRetryAfter, readLimitHeaders } from './headers';

/**
 * The pace of everything sent with one API key from one n8n process (transport/gate.ts holds
 * one per key). Pure: times are passed in and randomness injected, so it is tested in simulated
 * time against the sandbox's limiters (test/.../transport/pacer.test.mts).
 *
 * The service is taken for a token bucket of unknown rate and burst (a window behaves like one),
 * Retry-After is the hard signal, and the loop is BBR's: cruise at the estimated rate, probe
 * above it now and then, cut on a 429 the estimate cannot explain (docs/architecture.md, "Pacing").
 * - Until the first 429: one request in flight, one more per K answers.
 * - Every 429 holds every request until its Retry-After (else the headers' reset, else
 *   DEFAULT_WAIT_MS), plus jitter.
 * - The first 429: the burst is what passed, the first guess that over the time until the
 *   service took more, both since the key was last quiet over a second (the bucket full again:
 *   a key the trigger polled for an hour is not read as slow). After a wait of a second or less
 *   the guess says little: a probe follows.
 *   Each later 429 bounds the burst: what a bucket of the rate the service surely gave, full
 *   when the stretch began and never above full, lacked when the first 429 was sent, plus one.
 * - A probe raises the pace by 1/K of it, the rise doubling every pause while requests go (not
 *   while the key is quiet), until a 429: the pace is then the rate it showed, or the pace it left
 *   if the service took K_PROBE requests since the pause (BBR keeps its rate through a probe's
 *   loss). Probes cost at most 1/K_PROBE of the requests, their 429s stay within 1/K of those sent
 *   and expected; one that does not raise a proven rate by 1/K counts twice (it taught nothing).
 * - Each later 429 ends a stretch that began with the bucket empty (the last 429): the estimate
 *   is the slowest bucket that lets through everything accepted in it. An estimate not below
 *   the pace the 429 refused is wrong (the bucket was not empty): the pace is cut. Below it, it
 *   is the pace after a wait over a second; after a shorter one (rounded up, the bucket may have
 *   overflowed while paused) the pace is cut, to the estimate if that is higher.
 * - A pace cut far below its best (others on the key took it, or the limit fell) looks again
 *   after K_PROBE quiet pauses, whatever the budget: a key the others left is found again.
 * - Rate-limit headers replace the guesses: a policy's rate is the pace, and an answer that says
 *   nothing remains holds the next request for a token. Without a rate, the first such answer is
 *   a first 429 that refused nothing, its wait the reset (a second, for a reset within two).
 */

/** An answer: status 0 when none came (a network fault, a timeout); header names in lower case. */
export type PacerAnswer = { status: number; headers: Record<string, unknown> };

/** A 429 without a readable Retry-After waits this long: the shortest wait a server says in whole seconds. */
export const DEFAULT_WAIT_MS = 1000;
/** Pauses and spacings vary by this share, so processes on one key neither resume nor send in lockstep. */
export const PAUSE_JITTER = 0.1;
/** A 429 the estimate cannot explain (the limit fell, another user came): the pace keeps this share (BBRv2's cut). */
const BETA = 0.7;
/** 429s risked stay within 1/K of the requests; one more in flight per K answers at first; a probe starts at 1/K. */
const K = 64;
/** Probing costs at most 1/K_PROBE of the requests: a refused probe costs itself and what its pause wastes. */
const K_PROBE = 16;
/** A probe's rise, and the first ramp, grow by this factor every pause (the service's own unit of time). */
const GROWTH = 2;

export class Pacer {
	/** The pace now, requests per second; undefined until the service shows a limit. Read only. */
	pace?: number;
	/** Nothing is sent before this time (the pause a 429 asked for). Read only. */
	pausedUntil = 0;
	private cruise = 0;
	/** The highest cruise: a process cut far below it by others on the key may be stranded. */
	private best = 0;
	/** The rate the last probe showed the service takes (0: not known). */
	private proven = 0;
	private told?: number;
	private probe?: { at: number; from: number; step: number };
	/** The burst: what passed before the first 429, bounded after (estimate); and that less the first guess's refill. */
	private burst = { size: 1, low: 1 };
	private nextAt = 0;
	private pauseMs = DEFAULT_WAIT_MS;
	private shortestTrip = Number.POSITIVE_INFINITY;
	private lastAnswerAt = 0;
	/** When the requests accepted since the key was last quiet over a second (a bucket of a request
	 * a second or more is full again) were sent, the latest 1000. The first 429 reads it. */
	private stretch: number[] = [];
	/** When what passed before the first 429 was sent, in order, then that 429 ([0] before it: a bound of 1). */
	private first = [0];
	/** Since the last 429: when it was sent (the bucket was empty) and answered, when its pause
	 * ended, the requests accepted ([sent at, answered at]), the answers at the cruise pace. */
	private since = { emptyAt: 0, answeredAt: 0, resumeAt: 0, through: [] as number[][], answers: 0 };
	/** Requests sent and answered; 429s risked by probes (twice if fruitless); requests the runs said will come. */
	readonly counts = { sent: 0, answers: 0, risked: 0, expected: 0 };

	constructor(private readonly random: () => number = Math.random) {}

	/** A run will send about `requests` more: probes are spent only on runs long enough to gain from them. */
	willSend(requests: number): void {
		this.counts.expected += requests;
	}

	/** When the next request may go (at or after `now`); undefined: when one in flight is answered. */
	nextSendAt(now: number, inFlight: number): number | undefined {
		const at = Math.max(now, this.pausedUntil, this.nextAt);
		// No pace yet: one in flight, and one more per K answers.
		if (this.pace === undefined) return inFlight > this.counts.answers / K ? undefined : at;
		if (this.burst.size >= 2 || this.told) return at;
		// A bucket of one has no slack: one at a time, 1/pace after the previous one arrived at the latest.
		const arrived = this.lastAnswerAt - this.shortestTrip;
		return inFlight > 0 ? undefined : Math.max(at, arrived + 1000 / this.paceAt(at));
	}

	/** A request goes at `now`, `inFlight` others unanswered (a network fault counts as answered). */
	onSent(now: number, inFlight: number): void {
		this.counts.sent++;
		this.counts.expected = Math.max(0, this.counts.expected - 1);
		// Quiet (nothing to send; not held by the pace, a pause or an answer) over a second: a probe
		// does not rise meanwhile, and a stretch begins (the first 429 reads the last one).
		const quietMs = inFlight ? 0 : now - Math.max(this.nextAt, this.pausedUntil, this.lastAnswerAt);
		if (quietMs > DEFAULT_WAIT_MS && this.probe) this.probe.at += quietMs;
		if (quietMs > DEFAULT_WAIT_MS) this.stretch = [];
		if (this.pace === undefined) return;
		this.pace = this.paceAt(now);
		this.nextAt = now + (1000 / this.pace) * (1 + PAUSE_JITTER * (this.random() - 0.5));
	}

	/** Reads the answer (or the lack of one) to a request sent at `sentAt`. */
	onAnswer(now: number, sentAt: number, answer: PacerAnswer): void {
		if (answer.status === 0) return;
		this.counts.answers++;
		this.shortestTrip = Math.min(this.shortestTrip, now - sentAt);
		const { rate, remaining, resetMs = DEFAULT_WAIT_MS } = readLimitHeaders(answer.headers, now);
		if (rate !== undefined && this.pace === undefined) this.cruise = this.pace = rate;
		this.told = rate ?? this.told;
		const asked = parseRetryAfter(headerText(answer.headers, 'retry-after'), now);
		if (answer.status === 429) return this.onLimited(now, sentAt, asked ?? resetMs);
		if (this.pace === undefined && this.stretch.push(sentAt) > 1000) this.stretch.shift();
		// Nothing remains (this one passed: the burst counts it). Once paced, wait a token. The first
		// time, as a 429 would say it (nothing refused), the reset its wait; one in whole seconds is up
		// to one late, so a reset within 2 s may be a bucket refilled in a second: a second's wait.
		const wait = resetMs > 2 * DEFAULT_WAIT_MS ? resetMs : Math.min(resetMs, DEFAULT_WAIT_MS);
		if (remaining === 0 && this.pace) this.nextAt = Math.max(this.nextAt, now + 1000 / this.pace);
		else if (remaining === 0) this.onLimited(now, sentAt, wait);
		this.lastAnswerAt = now;
		// Kept within bounds for a key that is never refused again; the oldest then no longer starts empty.
		if (sentAt >= this.since.answeredAt && this.since.through.push([sentAt, now]) > 1000)
			this.since.emptyAt = this.since.through.shift()?.[0] ?? 0;
		if (this.pace === undefined || sentAt < this.since.resumeAt || this.probe) return;
		// A refused probe costs itself and what the bucket refills beyond its burst while paused.
		const due = K_PROBE * (1 + Math.max(0, (this.cruise * this.pauseMs) / 1000 - this.burst.size));
		// Within the budget; or cut far below its best pace (others took the key, or the limit
		// fell) and quiet for K_PROBE pauses: stranded, it looks again at the cost of one 429.
		const { sent, expected, risked } = this.counts;
		const stranded =
			this.cruise <= BETA * this.best && now - this.since.resumeAt > K_PROBE * this.pauseMs;
		const risk = stranded || risked + 1 <= Math.max(1, (sent + expected) / K);
		const below = this.cruise < (this.told ?? Number.POSITIVE_INFINITY);
		if (++this.since.answers >= due && expected >= due && risk && below)
			this.probe = { at: now, from: this.cruise, step: this.cruise / K };
	}

	/** The pace at `at`: the cruise, or the probe's, which rises by `step` x (GROWTH^pauses - 1). */
	private paceAt(at: number): number {
		const probe = this.probe;
		const pauses = probe ? Math.max(0, at - probe.at) / this.pauseMs : 0;
		const pace = probe ? probe.from + probe.step * (GROWTH ** pauses - 1) : this.cruise;
		return Math.min(pace, this.told ?? pace);
	}

	/** The slowest bucket of `burst` that let through every request accepted since the last 429. */
	private estimate(): number {
		const through = this.since.through;
		const last = through[through.length - 1];
		if (!last) return 0;
		// Empty at both 429s: at least as many tokens came as requests passed, a rate surely given.
		const least = through.length / ((last[1] - this.since.emptyAt) / 1000);
		// The first 429 found under a token: the burst is below what a bucket of that rate lacked then,
		// that 429 counted (never 1 where 2 passed). By send times: an answer read late hid no refill.
		const bound = Math.max(Math.min(2, this.first.length - 1), lacking(this.first, least));
		this.burst.size = Math.min(this.burst.size, bound);
		const rates = through.slice(0, -1).map(([sentAt], index) => {
			const span = (last[1] - sentAt - this.shortestTrip) / 1000;
			return (through.length - index - this.burst.size) / span;
		});
		return Math.max(least, ...rates);
	}

	/** Could a bucket of the proven rate (of burstLow, refilled while paused) have refused a request sent at `sentAt`, after `since` passed? */
	private explains(sentAt: number, since: number[][]): boolean {
		const perMs = this.proven / 1000;
		const refill = Math.min(this.burst.low, perMs * this.pauseMs);
		if (since.length + 1 > refill + perMs * (sentAt - this.since.resumeAt)) return true;
		return since.some(
			([, answered], index) =>
				since.length - index + 1 > this.burst.low + perMs * (sentAt - answered + this.shortestTrip),
		);
	}

	private onLimited(now: number, sentAt: number, wait: number): void {
		this.pausedUntil = Math.max(this.pausedUntil, now + wait * (1 + PAUSE_JITTER * this.random()));
		this.nextAt = Math.max(this.nextAt, this.pausedUntil);
		if (sentAt < this.since.answeredAt) return; // in flight when the last 429 came: the same one
		if (this.probe) this.counts.risked++;
		const refused = this.paceAt(sentAt);
		// The service's unit of time, a second at least: a Retry-After of 0 says retry now, not how fast.
		this.pauseMs = Math.max(DEFAULT_WAIT_MS, this.pausedUntil - now);
		if (this.pace === undefined) this.firstLimit(sentAt, wait);
		else this.cut(sentAt, refused, wait > DEFAULT_WAIT_MS);
		const resumeAt = this.pausedUntil;
		this.since = { emptyAt: sentAt, answeredAt: now, resumeAt, through: [], answers: 0 };
		if (this.probe) this.probe.at = this.pausedUntil;
	}

	/** A later 429: after a probe, the rate it showed; at the cruise, the estimate; unexplained, a cut. */
	private cut(sentAt: number, refused: number, slow: boolean): void {
		const estimate = this.estimate();
		const since = this.since.through.filter(([sent]) => sent >= this.since.resumeAt); // since the pause
		if (!since.length || (!(this.probe && this.proven === 0) && !this.explains(sentAt, since))) {
			// Refused before anything passed (others took the refill), or faster than the proven rate allows.
			this.proven = 0;
			this.cruise = BETA * refused;
		} else if (this.probe) {
			// Found nothing (the limit is reached, or fell): charged twice; back to the pace it left if K_PROBE passed since the pause.
			if (estimate < this.proven * (1 + 1 / K)) this.counts.risked++;
			this.proven = Math.max(this.proven, estimate);
			this.cruise = Math.max(this.proven, since.length < K_PROBE ? 0 : this.probe.from);
		} else {
			// Not below the pace refused, the estimate is wrong (the last 429 left up to a token; for a
			// slow bucket, its whole refill between two 429s): the cut. Below it, after a wait over a
			// second the estimate is the rate: a slow bucket's next token was that far (the pause
			// refilled about a token, none lost to a full bucket), or a window ended (refilled whole).
			// A wait of a second may be rounded up from a tenth, the bucket full long before it ended:
			// the cut, or the estimate if higher.
			const below = estimate < refused ? estimate : 0;
			this.cruise = below && slow ? below : Math.max(below, BETA * refused);
			this.proven = this.proven > 0 ? Math.min(this.proven, this.cruise) : estimate;
		}
		this.probe = undefined;
		this.pace = this.cruise;
		this.best = Math.max(this.best, this.cruise);
	}

	/** The first 429: the burst is what passed; the first guess, that over the time until the service takes more. */
	private firstLimit(sentAt: number, waitMs: number): void {
		this.first = [...this.stretch.sort((a, b) => a - b), sentAt];
		const accepted = Math.max(1, this.first.length - 1);
		this.cruise = this.pace = (1000 * accepted) / (sentAt - this.first[0] + waitMs);
		this.burst = { size: accepted, low: Math.max(1, (this.cruise * waitMs) / 1000) };
		// A wait of a second or less says little of the rate: ramp up from the guess by one request per
		// pause, doubling (the same ramp for every process on the key). A longer wait says when capacity
		// comes back (a window, or a slow bucket): the guess is then the rate, or above it.
		if (waitMs <= DEFAULT_WAIT_MS)
			this.probe = { at: 0, from: this.cruise, step: 1000 / this.pauseMs };
	}
}

/** What a bucket refilled at `perSecond`, full before the first of `sends`, lacks after them (each takes a token). */
export function lacking(sends: number[], perSecond: number): number {
	let lacked = 0;
	for (const [index, at] of sends.entries())
		lacked = 1 + Math.max(0, lacked - (perSecond * (at - (sends[index - 1] ?? at))) / 1000);
	return lacked;
}
