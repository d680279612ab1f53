// The pacing of the rate-limit benchmark's minimal client: one pacer for every request the
// client sends. Pure (times are passed in, randomness injected), so it also runs in simulated
// time (pacerSimulation.mts).
//
// - A 429 pauses everything until the time the service asked for (Retry-After, plus 0-10 %
//   jitter); requests then resume one at a time, `1 / pace` apart (plus 0-2 % jitter).
// - With rate-limit headers (RateLimit-Limit/-Remaining/-Policy, the sandbox's 'ratelimit'
//   mode) the first answer gives the rate and the burst: the client spends the tokens the
//   service says it has, then sends one request per token as it comes (keeping half a token in
//   reserve, or 5 ms of slack with a bucket of one, against arrival jitter).
// - Without headers the rate is learned from the answers. Slow start (one more request in
//   flight per 8 successes) until the first 429, which gives the burst (the successes so far)
//   and a floor (the burst over the time until the pause ends). Then probes: double the pace
//   until a 429 bounds it, then halve the gap between the floor (a probe that held long enough
//   for a full bucket to run dry at the floor) and the ceiling (a probe that drew a 429); stop
//   within 4 %. A 429 after enough successes also measures the rate directly: the bucket, full
//   at the start of the probe, ran dry, so the refill rate was (successes - burst) / time.

export interface PacerAnswer {
	status: number;
	/** Header names in lower case. */
	headers: Record<string, string | undefined>;
}

export interface PacerOptions {
	/** Read RateLimit-* headers when the service sends them. */
	useHeaders: boolean;
	/** Most requests in flight at once. */
	concurrency: number;
	random?: () => number;
}

/** A probe stops once the pace that drew a 429 is this close above the pace proven to hold. */
const CLOSE_ENOUGH = 1.04;
/** Paced a little below the estimate, so arrival jitter does not find an empty bucket. */
const MARGIN = 0.98;
/** Before anything is known, one more request in flight per this many successes. */
const SLOW_START = 8;
/** With the headers: tokens kept in reserve against arrival jitter (when the burst allows one)... */
const RESERVE = 0.5;
/** ...or else time added to each wait for a token (a bucket of one has no slack). */
const PAD_MS = 5;

export class Pacer {
	private readonly random: () => number;
	/** The pace, requests per second; undefined while nothing is known (slow start). */
	private rate?: number;
	/** Highest pace shown to hold (a lower bound of the service's rate). */
	private floor = 0;
	/** Lowest pace that drew a 429 (an upper bound). */
	private ceiling = Infinity;
	/** Successes before the first 429: about the bucket's size. */
	private burst = 1;
	private nextAt = 0;
	/** Nothing is sent before this time (a Retry-After pause). */
	pausedUntil = 0;
	private inFlight = 0;
	/** Slow start: requests allowed in flight before anything is known (grows by one per SLOW_START successes). */
	private window = 1;
	private firstSentAt?: number;
	private successes = 0;
	/** Since the last pause or change of pace: when, and the successes of requests sent since. */
	private phase = { start: 0, successes: 0 };
	/** Token model when the service sends rate-limit headers. */
	private tokens?: { level: number; at: number; burst: number };
	/** Counters for the report. */
	readonly stats = { answers: 0, limited: 0, pauses: 0, pausedMs: 0 };

	constructor(private readonly options: PacerOptions) {
		this.random = options.random ?? Math.random;
	}

	/** The pace now, requests per second (undefined: not known yet). */
	get pace(): number | undefined {
		return this.rate;
	}

	/**
	 * When the next request may be sent (at or after `now`), or undefined while as many requests
	 * are in flight as allowed (before anything is known: 1, 2, 4, ...): ask again after an answer.
	 */
	nextSendAt(now: number): number | undefined {
		const allowed =
			this.rate === undefined
				? Math.min(this.window, this.options.concurrency)
				: this.options.concurrency;
		if (this.inFlight >= allowed) return undefined;
		let at = Math.max(now, this.pausedUntil, this.nextAt);
		if (this.tokens && this.rate) {
			// Spend what the service says is left, then one request per token as it comes.
			const needed = this.tokens.burst >= 2 ? 1 + RESERVE : 1;
			const level = this.tokenLevel(at);
			if (level < needed)
				at += ((needed - level) / this.rate) * 1000 + (this.tokens.burst >= 2 ? 0 : PAD_MS);
		}
		return at;
	}

	/** A request goes out now (at a time nextSendAt allowed). */
	onSent(now: number): void {
		this.inFlight++;
		this.firstSentAt ??= now;
		const jitter = 1 + 0.02 * this.random();
		if (this.tokens && this.rate) {
			this.tokens = { ...this.tokens, level: this.tokenLevel(now) - 1, at: now };
			this.nextAt = now + (1000 / this.rate) * (jitter - 1);
		} else if (this.rate) {
			this.nextAt = now + (1000 / this.rate) * jitter;
		}
	}

	/** Reads the answer to a request sent at `sentAt`. */
	onAnswer(now: number, sentAt: number, answer: PacerAnswer): void {
		this.inFlight--;
		this.stats.answers++;
		if (this.options.useHeaders) this.readHeaders(now, answer);
		if (answer.status === 429) return this.onLimited(now, sentAt, answer);
		this.successes++;
		if (sentAt >= this.phase.start) this.phase.successes++;
		if (this.rate === undefined) {
			// Slowly: a burst sent at once would find the bucket empty with all of it in flight.
			this.window = 1 + Math.floor(this.successes / SLOW_START);
			return;
		}
		if (this.tokens || this.rate <= this.floor) return;
		// A probe above the proven pace holds once a full bucket would have run dry, had the
		// service refilled only at the proven pace: then the rate is at least the probe's.
		const confirmMs = ((this.burst + 1) / (this.rate - this.floor)) * 1000;
		if (now - this.phase.start >= confirmMs && this.phase.successes > this.burst) {
			this.floor = this.rate;
			this.setRate(this.probe(), now);
		}
	}

	/** The next pace to try: double until a 429 bounds the rate, then halve the gap; the proven pace once close. */
	private probe(): number {
		if (this.ceiling === Infinity) return this.floor * 2;
		if (this.ceiling <= this.floor * CLOSE_ENOUGH) return this.floor;
		return (this.floor + this.ceiling) / 2;
	}

	private onLimited(now: number, sentAt: number, answer: PacerAnswer): void {
		this.stats.limited++;
		const retryAfter = Number(answer.headers['retry-after']);
		const waitMs =
			(Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : 1) *
			1000 *
			(1 + 0.1 * this.random());
		const until = now + waitMs;
		if (until > this.pausedUntil) {
			this.stats.pauses++;
			this.stats.pausedMs += until - Math.max(now, this.pausedUntil);
			this.pausedUntil = until;
		}
		this.nextAt = Math.max(this.nextAt, this.pausedUntil);
		if (this.tokens) {
			this.tokens = { ...this.tokens, level: 0, at: this.pausedUntil };
			return;
		}
		// A 429 for a request sent before the current phase says nothing about its pace.
		if (sentAt < this.phase.start) return;
		if (this.rate === undefined) {
			// First 429: the bucket held about what passed; over the pause it refills at least
			// that much (all of it, when the burst is no more than the pause's worth).
			this.burst = Math.max(1, this.successes);
			const seconds = (now - (this.firstSentAt ?? now)) / 1000 + waitMs / 1000;
			this.floor = (this.burst / seconds) * MARGIN;
			this.setRate(this.probe(), this.pausedUntil);
			return;
		}
		this.ceiling = Math.min(this.ceiling, this.rate);
		// With enough successes in the phase, the bucket (about full when the phase began) ran
		// dry at the pace minus the refill: (successes - burst) / time is the refill rate.
		const seconds = (now - this.phase.start) / 1000;
		if (this.phase.successes >= 2 * this.burst + 2 && seconds > 0) {
			this.floor = Math.min(this.ceiling, (this.phase.successes - this.burst) / seconds) * MARGIN;
		} else if (this.floor >= this.ceiling) {
			// The proven pace drew a 429 (the service slowed down, or the proof was short).
			this.floor = this.ceiling / 2;
		}
		this.setRate(this.probe(), this.pausedUntil);
	}

	private setRate(rate: number, phaseStart: number): void {
		this.rate = rate;
		this.phase = { start: phaseStart, successes: 0 };
	}

	private tokenLevel(at: number): number {
		const tokens = this.tokens;
		if (!tokens || !this.rate) return 0;
		return Math.min(tokens.burst, tokens.level + (Math.max(0, at - tokens.at) / 1000) * this.rate);
	}

	/** RateLimit-Policy `q;w=s` gives the rate, RateLimit-Limit the burst, -Remaining the tokens. */
	private readHeaders(now: number, answer: PacerAnswer): void {
		const policy = /^\s*(\d+(?:\.\d+)?)\s*;\s*w=(\d+(?:\.\d+)?)/.exec(
			answer.headers['ratelimit-policy'] ?? '',
		);
		const limit = Number(answer.headers['ratelimit-limit']);
		const remaining = Number(answer.headers['ratelimit-remaining']);
		if (!policy || !Number.isFinite(limit) || !Number.isFinite(remaining)) return;
		this.rate = (Number(policy[1]) / Number(policy[2])) * MARGIN;
		if (!this.tokens) {
			this.tokens = { level: remaining, at: now, burst: limit };
			return;
		}
		// The service holds between Remaining and Remaining + 1 tokens (it rounds down), as of
		// before the requests still in flight: correct the model only when it is above that.
		const at = Math.max(now, this.tokens.at);
		const level = this.tokenLevel(at);
		this.tokens = { level: level > remaining + 1 ? remaining + 0.5 : level, at, burst: limit };
	}
}
