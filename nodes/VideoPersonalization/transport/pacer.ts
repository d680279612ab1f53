import { headerText, type LimitHeaders, parseRetryAfter, readLimitHeaders } from './headers';

/**
 * The pace of everything sent to the service with one API key. Pure: times are passed in and
 * randomness injected, so the rules are tested in simulated time (test/.../pacer.test.mts).
 *
 * - Until the service limits, requests go with a small window in flight (1, growing by one per
 *   12 answers, up to 10), so the first sign of a limit finds few requests on their way.
 * - A 429 pauses every request until the time asked for (Retry-After, plus 0-10 % jitter).
 * - With a rate in the headers (a RateLimit-Policy, IETF draft), requests spend the tokens the
 *   service says remain, then one per token as it comes.
 * - Without one, the pace is learnt: the first guess is what passed before the first 429 over
 *   the time until the next token was promised; a pace that held long enough to have drained
 *   the bucket had it been too fast is "held", and the pace steps up from it (x2 until the
 *   service first refuses, then x1.15, then halfway to the lowest pace refused, then a small
 *   look now and then); a 429, or an answer saying nothing remains, sends it back to the pace
 *   that held. Steps that may draw a 429 are taken only while 429s stay within 1.5 % of the
 *   requests sent and expected (two at least), so a short run pays for few of them.
 */

export interface PacerAnswer {
	/** 0 when no answer came (a network fault or a timeout). */
	status: number;
	/** Header names in lower case, as n8n's HTTP helper gives them. */
	headers: Record<string, unknown>;
}

/** The wait after a 429 that asks for none (no or unreadable Retry-After). */
export const DEFAULT_LIMITED_WAIT_MS = 1000;
/** Jitter added to a 429's pause, as a share of it, and to the spacing of paced requests. */
export const PAUSE_JITTER = 0.1;
export const SPACING_JITTER = 0.02;
/** The pace kept below what the service showed it takes. */
const MARGIN = 0.97;
/** Steps up from the pace that held: while nothing was refused, then once something was. */
const RAMP = 2;
const FINE = 1.15;
const LOOK = 1.05;
/** After the pace settled: the quiet time before a look above it (doubled by each look refused). */
const QUIET_MS = 30_000;
const MAX_QUIET_MS = 10 * 60_000;
/** Contended: each step up adds this share of the best pace that held (additive, so processes even out). */
const SHARE_STEP = 0.1;
const CONTENDED_HOLD_MS = 1000;
/** Requests between two refusals that make what got through a measure of this process's share. */
const MIN_MEASURED = 20;
/** A refused pace is forgotten after this: the limit (or the key's other users) may have changed. */
const CEILING_MS = 2 * 60_000;
/** Answers a pace needs before it counts as held. */
const MIN_HELD = 3;
/** 429s allowed to learn with, as a share of the requests sent and expected. */
const LEARNING_SHARE = 0.015;
/** With a rate in the headers, the share taken: cut by each 429, regained a little by each answer. */
const SHARE_CUT = 0.8;
const SHARE_REGAIN = 0.002;
/** Until the service limits: requests in flight at first, answers per extra one, the most. */
const MAX_WINDOW = 10;
const ANSWERS_PER_WINDOW = 12;
/** With a known rate: tokens kept in reserve against arrival jitter, when the burst allows one; */
const RESERVE = 0.5;
/** else time added to each wait for a token (5 ms more after each 429, up to a fifth of the spacing). */
const PAD_MS = 5;
const MAX_PAD_SHARE = 0.2;

export class Pacer {
	/** The pace, requests per second; undefined while the service has not shown a limit. */
	private rate?: number;
	private nextAt = 0;
	private pausedUntilMs = 0;
	/** The highest pace that held, and the lowest that the service refused or ran dry at. */
	private held = 0;
	/** The highest pace that ever held: going back up to it risks little (it was lowered by others' use). */
	private best = 0;
	/** The first guess: the pace never falls below a quarter of it. */
	private floor = 0;
	private ceiling = { rate: Number.POSITIVE_INFINITY, at: 0 };
	/** Refusals of paces above any that held: what learning the rate cost. */
	private probesRefused = 0;
	/** A pace that held was refused: others use the key too (or it slowed). Steps up are then small and even. */
	private contended = false;
	/** Since the pace was last set: when, and answers to requests sent since. */
	private phase = { start: 0, answers: 0 };
	private quietMs = QUIET_MS;
	/** Successes before the service first limited: about its burst. */
	private burst = 1;
	private busySince?: number;
	/** Since the last refusal: when, and successes since (what this process got through). */
	private since = { at: 0, accepted: 0 };
	/** With a known rate, the share of it this process takes: less after each 429 (other processes use the key too). */
	private share = 1;
	/** Requests the runs said they will send and have not yet. */
	private expected = 0;
	/** Tokens the headers said remain, as of `at`, when the service gives its rate. */
	private tokens?: { level: number; at: number; burst: number };
	private padMs = PAD_MS;
	readonly stats = { sent: 0, answers: 0, limited: 0 };

	constructor(private readonly random: () => number = Math.random) {}

	/** The pace now, requests per second (undefined: no limit seen). */
	get pace(): number | undefined {
		return this.rate;
	}

	/** Nothing is sent before this time (the pause a 429 asked for). */
	get pausedUntil(): number {
		return this.pausedUntilMs;
	}

	/** A run will send about `requests` more: a long run may spend more 429s learning the rate. */
	expect(requests: number): void {
		this.expected += requests;
	}

	/** When the next request may go (at or after `now`); undefined: when one in flight is answered. */
	nextSendAt(now: number, inFlight: number): number | undefined {
		const at = Math.max(now, this.pausedUntilMs, this.nextAt);
		if (this.rate === undefined) {
			const window = Math.min(MAX_WINDOW, 1 + Math.floor(this.stats.answers / ANSWERS_PER_WINDOW));
			return inFlight >= window ? undefined : at;
		}
		if (!this.tokens) return at;
		// A bucket of one has no slack: each wait for a token is padded (more after each 429).
		const [needed, pad] = this.tokens.burst >= 2 ? [1 + RESERVE, 0] : [1, this.padMs];
		const level = this.tokenLevel(at);
		return level >= needed ? at : at + ((needed - level) / this.rate) * 1000 + pad;
	}

	onSent(now: number): void {
		this.busySince ??= now;
		this.stats.sent++;
		this.expected = Math.max(0, this.expected - 1);
		if (this.rate === undefined) return;
		if (this.tokens) this.tokens = { ...this.tokens, level: this.tokenLevel(now) - 1, at: now };
		else this.nextAt = now + (1000 / this.rate) * (1 + SPACING_JITTER * this.random());
	}

	/** Reads the answer (or the lack of one) to a request sent at `sentAt`. */
	onAnswer(now: number, sentAt: number, answer: PacerAnswer): void {
		if (answer.status === 0) return;
		this.stats.answers++;
		if (answer.status !== 429 && sentAt >= this.since.at) this.since.accepted++;
		const limits = readLimitHeaders(answer.headers, now);
		if (limits.rate !== undefined) this.followHeaders(now, { ...limits, rate: limits.rate });
		if (answer.status === 429) return this.onLimited(now, sentAt, answer.headers);
		// Nothing remains: the first such answer shows the limit like a 429 would (nothing refused);
		// later ones hold the next request for a token at the pace.
		if (limits.remaining === 0 && !this.tokens) {
			if (this.rate === undefined) this.ranDry(now, sentAt, limits.resetMs ?? 0);
			this.nextAt = Math.max(this.nextAt, now + 1000 / (this.rate as number));
		}
		if (this.rate === undefined || this.tokens || sentAt < this.phase.start) return;
		this.phase.answers++;
		if (now - this.phase.start >= this.holdMs() && this.phase.answers >= MIN_HELD) this.onHeld(now);
	}

	/** The step up from the pace that held: x2 until refused, x1.15, halfway, then a small look. */
	private step(): number {
		if (this.contended) return 1 + SHARE_STEP;
		if (this.ceiling.rate === Number.POSITIVE_INFINITY) return RAMP;
		const gap = this.ceiling.rate / this.held;
		if (gap > FINE * 1.02) return FINE;
		return gap > LOOK * 1.02 ? Math.sqrt(gap) : LOOK;
	}

	/** How long a pace must go unrefused to show it is below the limit (a bucket drains in that time). */
	private holdMs(): number {
		const step = this.step();
		if (this.contended) return CONTENDED_HOLD_MS;
		if (step === LOOK && (this.rate ?? 0) <= this.held) return this.quietMs;
		const rate = this.rate ?? 1;
		// A quarter longer than the bucket would take to drain: answers come late under load.
		return ((1.25 * (this.burst + 1) * step) / ((step - 1) * rate)) * 1000;
	}

	/** A step above any pace that held fits the budget: two refused, then 1.5 % of the requests sent and expected. */
	private mayStepUp(): boolean {
		const budget = Math.max(2, LEARNING_SHARE * (this.stats.sent + this.expected));
		return this.probesRefused + 1 <= budget;
	}

	private onHeld(now: number): void {
		const rate = this.rate as number;
		if (rate > this.held) this.held = rate;
		this.best = Math.max(this.best, this.held);
		// An old ceiling: the service (or the other users of the key) may take more now.
		if (now - this.ceiling.at > CEILING_MS)
			this.ceiling = { rate: Number.POSITIVE_INFINITY, at: now };
		let next = this.held * this.step();
		if (next > this.best) {
			this.contended = false;
			// Beyond what ever held, only within the budget; up to it, freely.
			if (!this.mayStepUp()) next = this.best;
		}
		if (next <= this.held) return;
		if (this.step() === LOOK && rate > this.held * MARGIN) this.quietMs = QUIET_MS;
		this.setPace(next, now);
	}

	private setPace(rate: number, start: number): void {
		this.rate = rate;
		this.phase = { start, answers: 0 };
	}

	private onLimited(now: number, sentAt: number, headers: Record<string, unknown>): void {
		this.stats.limited++;
		const asked =
			parseRetryAfter(headerText(headers, 'retry-after'), now) ?? DEFAULT_LIMITED_WAIT_MS;
		this.pausedUntilMs = Math.max(
			this.pausedUntilMs,
			now + asked * (1 + PAUSE_JITTER * this.random()),
		);
		this.nextAt = Math.max(this.nextAt, this.pausedUntilMs);
		if (this.tokens) {
			this.tokens = { ...this.tokens, level: 0, at: this.pausedUntilMs };
			this.share *= SHARE_CUT;
			this.padMs = Math.min(this.padMs + PAD_MS, (MAX_PAD_SHARE * 1000) / (this.rate ?? 1));
		} else this.ranDry(this.pausedUntilMs, sentAt, asked);
	}

	/**
	 * The service refused a request sent at `sentAt` (or, the first time, said nothing remains):
	 * the pace that sent it is too fast. The first time, the pace is a guess: what passed since the
	 * first send, over the time until the service promised more (`waitMs`: Retry-After or reset).
	 * Later, back to the pace that held (refused at or below it, that pace did not hold after all:
	 * the service slowed, or other processes use the key), never below what got through since the
	 * last refusal.
	 */
	private ranDry(resume: number, sentAt: number, waitMs: number): void {
		const rate = this.rate;
		if (rate !== undefined && sentAt < this.phase.start) return; // sent at an older pace
		const seconds = (sentAt - this.since.at) / 1000;
		// The bucket was empty at the last refusal: what got through since is within the limit.
		const accepted = this.since.accepted;
		const through = rate !== undefined && seconds > 0 ? (accepted - 1) / seconds : 0;
		this.since = { at: sentAt, accepted: 0 };
		if (rate === undefined || rate > this.best) this.probesRefused++;
		if (rate === undefined) {
			this.burst = Math.max(1, this.stats.answers - this.stats.limited);
			const guess =
				this.burst / ((sentAt - (this.busySince ?? sentAt) + Math.max(waitMs, 100)) / 1000);
			this.floor = (guess * MARGIN) / 4;
			return this.setPace(guess * MARGIN, resume);
		}
		if (this.held === 0) {
			this.held = Math.max(rate / 2, through * MARGIN); // the guess never held
		} else if (rate <= this.held) {
			// A pace that held was refused: the service slowed, other processes use the key, or it
			// only seemed to hold. Measured over enough requests, what got through since the last
			// refusal is what this process gets; the best pace is trusted a little less.
			this.contended = true;
			const measured = accepted >= MIN_MEASURED ? through : Number.POSITIVE_INFINITY;
			this.held = Math.min(rate * 0.9, measured);
			this.best = Math.max(this.held, this.best * 0.9);
		} else {
			if (this.step() === LOOK) this.quietMs = Math.min(MAX_QUIET_MS, this.quietMs * 2);
			this.held = Math.max(this.held, through * MARGIN);
		}
		this.held = Math.max(this.held, this.floor);
		this.ceiling = { rate: Math.max(rate, this.held * LOOK), at: resume };
		this.setPace(this.held, resume);
	}

	private tokenLevel(at: number): number {
		const tokens = this.tokens;
		if (!tokens || !this.rate) return 0;
		return Math.min(tokens.burst, tokens.level + (Math.max(0, at - tokens.at) / 1000) * this.rate);
	}

	/**
	 * A rate in the headers: spend the tokens they say remain, then one per token as it comes. The
	 * service holds between Remaining and Remaining + 1 tokens (it rounds down) as of before the
	 * requests still in flight: the model is corrected only when it is above that.
	 */
	private followHeaders(now: number, limits: LimitHeaders & { rate: number }): void {
		this.share = Math.min(1, this.share + SHARE_REGAIN);
		this.rate = limits.rate * MARGIN * this.share;
		const burst = limits.burst ?? Math.max(1, limits.remaining ?? 1);
		if (!this.tokens) {
			this.tokens = { level: limits.remaining ?? burst, at: now, burst };
			return;
		}
		const at = Math.max(now, this.tokens.at);
		const level = this.tokenLevel(at);
		const remaining = limits.remaining ?? level;
		this.tokens = { level: level > remaining + 1 ? remaining + 0.5 : level, at, burst };
	}
}
