import { parseRetryAfter } from './retry';

/**
 * The pace of everything one execution sends to the service. Pure: times are passed in and
 * randomness injected, so the rules are tested without waiting.
 *
 * - The first request goes alone: its answer may carry rate-limit headers. Then nothing is held
 *   back until the service says it is limiting (a 429, or the headers).
 * - A 429 pauses every request until the time the service asked for (Retry-After, plus 0-10 %
 *   jitter); requests then go one at a time, `1 / pace` apart (plus 0-2 % jitter).
 * - With the IETF rate-limit headers (RateLimit-Policy `q;w=s`, RateLimit-Limit,
 *   RateLimit-Remaining) the rate and the burst are read from any answer: the tokens the service
 *   says are left are spent, then one request goes per token as it comes.
 * - Without headers the rate is learnt from the 429s: the first gives a pace proven to hold (the
 *   requests that passed over the time until the pause ends); then the pace doubles until a 429
 *   bounds it and the gap is halved until it is within 4 %. A 429 after enough successes measures
 *   the rate directly: the bucket, full when the phase began, ran dry at the pace minus the refill.
 */

export interface PacerAnswer {
	/** 0 when no answer came (a network fault or a timeout). */
	status: number;
	/** Header names in lower case, as n8n's HTTP helper gives them. */
	headers: Record<string, unknown>;
}

/** A probe stops once the pace that drew a 429 is this close above the pace proven to hold. */
const CLOSE_ENOUGH = 1.04;
/** Paced a little below the estimate, so arrival jitter does not find an empty bucket. */
const MARGIN = 0.98;
/** With the headers: tokens kept in reserve against arrival jitter (when the burst allows one)... */
const RESERVE = 0.5;
/** ...or else time added to each wait for a token (a bucket of one has no slack)... */
const PAD_MS = 5;
/** ...which grows by this with each 429 (requests reach the service with uneven delays), up to a share of the spacing. */
const PAD_STEP_MS = 5;
const MAX_PAD_SHARE = 0.2;
/** The wait after a 429 that asks for none (no or unreadable Retry-After). */
export const DEFAULT_LIMITED_WAIT_MS = 1000;
/** Jitter added to a 429's pause, as a share of it, and to the spacing of paced requests. */
export const PAUSE_JITTER = 0.1;
export const SPACING_JITTER = 0.02;

function headerText(headers: Record<string, unknown>, name: string): string | undefined {
	const value = headers[name];
	if (Array.isArray(value)) return value.length > 0 ? String(value[0]) : undefined;
	return value === undefined || value === null ? undefined : String(value);
}

export class Pacer {
	/** The pace, requests per second; undefined while the service has not said it limits. */
	private rate?: number;
	/** Highest pace shown to hold (a lower bound of the service's rate). */
	private floor = 0;
	/** Lowest pace that drew a 429 (an upper bound). */
	private ceiling = Infinity;
	/** Successes before the first 429: about the bucket's size. */
	private burst = 1;
	private nextAt = 0;
	/** Nothing is sent before this time (the pause a 429 asked for). */
	private pausedUntilMs = 0;
	private firstSentAt?: number;
	/** Whether some request was answered, or failed, yet. */
	private heard = false;
	private successes = 0;
	/** Since the last pause or change of pace: when, and the successes of requests sent since. */
	private phase = { start: 0, successes: 0 };
	/** Token model when the service sends rate-limit headers. */
	private tokens?: { level: number; at: number; burst: number };
	private padMs = PAD_MS;
	/** For logs and tests. */
	readonly stats = { answers: 0, limited: 0, pauses: 0 };

	constructor(private readonly random: () => number = Math.random) {}

	/** The pace now, requests per second (undefined: no limit seen). */
	get pace(): number | undefined {
		return this.rate;
	}

	/** Nothing is sent before this time. */
	get pausedUntil(): number {
		return this.pausedUntilMs;
	}

	/** When the next request may be sent (at or after `now`); undefined: after the first answer. */
	nextSendAt(now: number): number | undefined {
		if (this.firstSentAt !== undefined && !this.heard) return undefined;
		let at = Math.max(now, this.pausedUntilMs, this.nextAt);
		if (this.tokens && this.rate) {
			const needed = this.tokens.burst >= 2 ? 1 + RESERVE : 1;
			const level = this.tokenLevel(at);
			if (level < needed)
				at += ((needed - level) / this.rate) * 1000 + (this.tokens.burst >= 2 ? 0 : this.padMs);
		}
		return at;
	}

	/** A request goes out now (at a time nextSendAt allowed). */
	onSent(now: number): void {
		this.firstSentAt ??= now;
		const jitter = SPACING_JITTER * this.random();
		if (this.tokens && this.rate) {
			this.tokens = { ...this.tokens, level: this.tokenLevel(now) - 1, at: now };
			this.nextAt = now + (1000 / this.rate) * jitter;
		} else if (this.rate) {
			this.nextAt = now + (1000 / this.rate) * (1 + jitter);
		}
	}

	/** Reads the answer (or the lack of one) to a request sent at `sentAt`. */
	onAnswer(now: number, sentAt: number, answer: PacerAnswer): void {
		this.heard = true;
		if (answer.status === 0) return;
		this.stats.answers++;
		this.readHeaders(now, answer.headers);
		if (answer.status === 429) return this.onLimited(now, sentAt, answer.headers);
		this.successes++;
		if (sentAt >= this.phase.start) this.phase.successes++;
		if (this.rate === undefined || this.tokens || this.rate <= this.floor) return;
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

	private onLimited(now: number, sentAt: number, headers: Record<string, unknown>): void {
		this.stats.limited++;
		const asked =
			parseRetryAfter(headerText(headers, 'retry-after'), now) ?? DEFAULT_LIMITED_WAIT_MS;
		const waitMs = asked * (1 + PAUSE_JITTER * this.random());
		const until = now + waitMs;
		if (until > this.pausedUntilMs) {
			this.stats.pauses++;
			this.pausedUntilMs = until;
		}
		this.nextAt = Math.max(this.nextAt, this.pausedUntilMs);
		if (this.tokens) {
			this.tokens = { ...this.tokens, level: 0, at: this.pausedUntilMs };
			if (this.rate)
				this.padMs = Math.min(this.padMs + PAD_STEP_MS, (MAX_PAD_SHARE * 1000) / this.rate);
			return;
		}
		// A 429 for a request sent before the current phase says nothing about its pace.
		if (sentAt < this.phase.start) return;
		if (this.rate === undefined) {
			// First 429: the bucket held about what passed; over the pause it refills at least that much.
			this.burst = Math.max(1, this.successes);
			const seconds = (now - (this.firstSentAt ?? now)) / 1000 + waitMs / 1000;
			this.floor = (this.burst / seconds) * MARGIN;
			this.setRate(this.probe(), this.pausedUntilMs);
			return;
		}
		this.ceiling = Math.min(this.ceiling, this.rate);
		const seconds = (now - this.phase.start) / 1000;
		if (this.phase.successes >= 2 * this.burst + 2 && seconds > 0) {
			this.floor = Math.min(this.ceiling, (this.phase.successes - this.burst) / seconds) * MARGIN;
		} else if (this.floor >= this.ceiling) {
			// The proven pace drew a 429 (the service slowed down, or the proof was short).
			this.floor = this.ceiling / 2;
		}
		this.setRate(this.probe(), this.pausedUntilMs);
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

	/** RateLimit-Policy `q;w=s` gives the rate, RateLimit-Limit the burst, -Remaining the tokens left. */
	private readHeaders(now: number, headers: Record<string, unknown>): void {
		const policy = /^\s*(\d+(?:\.\d+)?)\s*;\s*w=(\d+(?:\.\d+)?)/.exec(
			headerText(headers, 'ratelimit-policy') ?? '',
		);
		const limit = Number(headerText(headers, 'ratelimit-limit'));
		const remaining = Number(headerText(headers, 'ratelimit-remaining'));
		if (
			!policy ||
			!(limit >= 1) ||
			!(remaining >= 0) ||
			!(Number(policy[2]) > 0) ||
			!(Number(policy[1]) > 0)
		)
			return;
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
