// The rate limiter in front of the API (REST and GraphQL; not the CDN, not the control API): a
// token bucket of `rate` requests per second holding at most `burst`, or a count of requests per
// fixed or sliding window, with a rate that may change on a schedule. README "Rate limiter".
import { HttpError, isPlainObject, parsePathSpec, requestMatches } from './http.mts';
import type { Clock } from './clock.mts';
import type {
	RateLimitConfig,
	RateLimitCounters,
	RateLimitHeaders,
	RateLimitShape,
	RequestMatch,
} from './types.mts';

export const RATE_LIMIT_HEADERS: readonly RateLimitHeaders[] = ['none', 'ratelimit', 'x-ratelimit'];
export const RATE_LIMIT_SHAPES: readonly RateLimitShape[] = [
	'bucket',
	'fixed-window',
	'sliding-window',
];

/** What one request took from its limit. Times in ms on the limiter's clock. */
export interface BucketTake {
	allowed: boolean;
	/** Requests that may still go now, after this one. */
	remaining: number;
	/** Until one more request is let through (0 when one may go now). */
	nextTokenInMs: number;
	/** Until the limit is whole again. */
	fullInMs: number;
}

/** One key's limit: pure arithmetic on the times it is given, so it is tested without waiting. */
interface Limit {
	take(now: number): BucketTake;
	/** Requests that may go at `now` (fractional for a bucket). */
	level(now: number): number;
	/** The rate becomes `rate` from `at` on (what was there is kept). */
	retune(at: number, rate: number): void;
}

/**
 * A token bucket: starts full with `burst` tokens, gains `rate` tokens per second up to `burst`,
 * and every allowed request takes one. A refused request takes nothing (it is only counted).
 */
export class TokenBucket implements Limit {
	private tokens: number;
	private last: number;

	constructor(
		private rate: number,
		readonly burst: number,
		now: number,
	) {
		this.tokens = burst;
		this.last = now;
	}

	level(now: number): number {
		this.refill(now);
		return this.tokens;
	}

	take(now: number): BucketTake {
		this.refill(now);
		// Tolerance for float sums such as 0.1 * 10: a bucket that is full by arithmetic must allow.
		const allowed = this.tokens >= 1 - 1e-9;
		if (allowed) this.tokens = Math.max(0, this.tokens - 1);
		return {
			allowed,
			remaining: Math.floor(this.tokens + 1e-9),
			nextTokenInMs: allowed || this.tokens >= 1 ? 0 : ((1 - this.tokens) / this.rate) * 1000,
			fullInMs: ((this.burst - this.tokens) / this.rate) * 1000,
		};
	}

	retune(at: number, rate: number): void {
		this.refill(at);
		this.rate = rate;
	}

	private refill(now: number): void {
		// A clock that went back (wall time adjusted) adds nothing.
		const elapsed = Math.max(0, now - this.last);
		this.tokens = Math.min(this.burst, this.tokens + (elapsed / 1000) * this.rate);
		this.last = Math.max(this.last, now);
	}
}

/** Requests a window of `windowMs` lets through at `rate` per second (at least one). */
const quotaOf = (rate: number, windowMs: number) =>
	Math.max(1, Math.round((rate * windowMs) / 1000));

/** A fixed window: `quota` requests per window; windows start on whole multiples of `windowMs`. */
export class FixedWindow implements Limit {
	private start = Number.NEGATIVE_INFINITY;
	private used = 0;

	constructor(
		private rate: number,
		private readonly windowMs: number,
	) {}

	get quota(): number {
		return quotaOf(this.rate, this.windowMs);
	}

	level(now: number): number {
		this.roll(now);
		return Math.max(0, this.quota - this.used);
	}

	take(now: number): BucketTake {
		this.roll(now);
		const allowed = this.used < this.quota;
		if (allowed) this.used++;
		const toEnd = this.start + this.windowMs - now;
		return {
			allowed,
			remaining: Math.max(0, this.quota - this.used),
			nextTokenInMs: this.used < this.quota ? 0 : toEnd,
			fullInMs: this.used > 0 ? toEnd : 0,
		};
	}

	retune(_at: number, rate: number): void {
		this.rate = rate;
	}

	private roll(now: number): void {
		const start = Math.floor(now / this.windowMs) * this.windowMs;
		if (start > this.start) [this.start, this.used] = [start, 0];
	}
}

/** A sliding window: at most `quota` requests let through in any `windowMs` (a log of them). */
export class SlidingWindow implements Limit {
	private readonly log: number[] = [];

	constructor(
		private rate: number,
		private readonly windowMs: number,
	) {}

	get quota(): number {
		return quotaOf(this.rate, this.windowMs);
	}

	level(now: number): number {
		this.expire(now);
		return Math.max(0, this.quota - this.log.length);
	}

	take(now: number): BucketTake {
		this.expire(now);
		const allowed = this.log.length < this.quota;
		if (allowed) this.log.push(now);
		// The next request goes when enough of the logged ones have left the window.
		const leaving = this.log[this.log.length - this.quota];
		return {
			allowed,
			remaining: Math.max(0, this.quota - this.log.length),
			nextTokenInMs: leaving === undefined ? 0 : leaving + this.windowMs - now,
			fullInMs: this.log.length > 0 ? this.log[this.log.length - 1] + this.windowMs - now : 0,
		};
	}

	retune(_at: number, rate: number): void {
		this.rate = rate;
	}

	private expire(now: number): void {
		while (this.log.length > 0 && this.log[0] <= now - this.windowMs) this.log.shift();
	}
}

/** Whole seconds, rounded up (a wait of 0.1 s is `1`); float noise below a microsecond is ignored. */
export function ceilSeconds(ms: number): number {
	return Math.max(0, Math.ceil(ms / 1000 - 1e-9));
}

/**
 * The sustained rate as `q` requests per `w` whole seconds (RateLimit-Policy): the smallest
 * window in which the rate is a whole number of requests (10/s → 10;w=1, 0.5/s → 1;w=2).
 */
export function policyQuota(rate: number): { quota: number; window: number } {
	for (let window = 1; window <= 3600; window++) {
		const quota = rate * window;
		if (quota >= 1 && Math.abs(quota - Math.round(quota)) < 1e-9)
			return { quota: Math.round(quota), window };
	}
	return { quota: Math.max(1, Math.round(rate * 60)), window: 60 };
}

/** The answer of the limiter for one request it applies to. */
export interface RateLimitDecision {
	allowed: boolean;
	/** Headers to send with the answer (rate-limit headers, and Retry-After on a 429). */
	headers: Record<string, string>;
	/** Whole seconds to wait, rounded up (only when refused). */
	retryAfter?: number;
	message?: string;
}

interface KeyCounters {
	requests: number;
	limited: number;
}

/** Requests without an Authorization header are counted (and limited, with scope 'key') under this name. */
export const NO_KEY = '(no key)';

export class RateLimiter {
	private current?: Required<Omit<RateLimitConfig, 'match' | 'schedule'>> & {
		match?: RequestMatch;
		schedule: Array<{ at: number; rate: number }>;
	};
	/** The rate in force, when set() ran and how many of the schedule's changes are applied. */
	private rate = 0;
	private setAt = 0;
	private changed = 0;
	private buckets = new Map<string, Limit>();
	private counts = { requests: 0, limited: 0, since: 0, byKey: new Map<string, KeyCounters>() };

	constructor(private readonly clock: Clock) {}

	/** Turns the limiter on (or changes it): every bucket starts full, the counters start at 0. */
	set(config: RateLimitConfig): void {
		const rate = config.rate;
		if (typeof rate !== 'number' || !Number.isFinite(rate) || rate <= 0)
			throw new RangeError('rateLimit: rate must be a number > 0 (requests per second)');
		const burst = config.burst ?? Math.max(1, Math.ceil(rate));
		if (!Number.isInteger(burst) || burst < 1)
			throw new RangeError('rateLimit: burst must be an integer >= 1');
		const headers = config.headers ?? 'none';
		if (!RATE_LIMIT_HEADERS.includes(headers))
			throw new RangeError(`rateLimit: headers must be one of ${RATE_LIMIT_HEADERS.join(', ')}`);
		const scope = config.scope ?? 'key';
		if (scope !== 'key' && scope !== 'global')
			throw new RangeError('rateLimit: scope must be key or global');
		const clock = config.clock ?? 'wall';
		if (clock !== 'wall' && clock !== 'sandbox')
			throw new RangeError('rateLimit: clock must be wall or sandbox');
		if (config.match?.server === 'cdn')
			throw new RangeError('rateLimit: the limiter applies to the API server only');
		const shape = config.shape ?? 'bucket';
		if (!RATE_LIMIT_SHAPES.includes(shape))
			throw new RangeError(`rateLimit: shape must be one of ${RATE_LIMIT_SHAPES.join(', ')}`);
		const window = config.window ?? 1;
		if (typeof window !== 'number' || !Number.isFinite(window) || window <= 0)
			throw new RangeError('rateLimit: window must be a number of seconds > 0');
		const schedule = [...(config.schedule ?? [])].sort((left, right) => left.at - right.at);
		for (const change of schedule)
			if (!(change.at >= 0 && change.rate > 0))
				throw new RangeError('rateLimit: each schedule entry needs at >= 0 (s) and rate > 0');
		const retryAfter = config.retryAfter ?? true;
		const latencyMs = config.latencyMs ?? 0;
		if (typeof latencyMs !== 'number' || !(latencyMs >= 0 && latencyMs <= 60_000))
			throw new RangeError('rateLimit: latencyMs must be a number of ms from 0 to 60000');
		this.current = {
			rate,
			burst,
			headers,
			scope,
			clock,
			shape,
			window,
			retryAfter,
			schedule,
			latencyMs,
		};
		if (config.match) this.current.match = config.match;
		this.rate = rate;
		this.changed = 0;
		this.buckets.clear();
		this.resetCounters();
		this.setAt = this.now();
	}

	/** Turns the limiter off; the counters stay readable until the next set() or resetCounters(). */
	clear(): void {
		this.current = undefined;
		this.buckets.clear();
	}

	resetCounters(): void {
		this.counts = { requests: 0, limited: 0, since: this.now(), byKey: new Map() };
	}

	/** The configuration in force (defaults filled in), or null when off. RegExp paths as strings. */
	config():
		| (Omit<RateLimitConfig, 'match'> & { match?: Omit<RequestMatch, 'path'> & { path?: string } })
		| null {
		const c = this.current;
		if (!c) return null;
		const { match, ...rest } = c;
		if (rest.schedule.length === 0) delete (rest as Partial<typeof rest>).schedule;
		rest.rate = this.rate;
		return match
			? {
					...rest,
					match: { ...match, path: match.path instanceof RegExp ? String(match.path) : match.path },
				}
			: rest;
	}

	counters(): RateLimitCounters {
		return {
			requests: this.counts.requests,
			limited: this.counts.limited,
			since: this.counts.since,
			byKey: Object.fromEntries(this.counts.byKey),
		};
	}

	/** Tokens now in the bucket of an API key or Authorization header value (or the global bucket); full when unused. */
	level(authorization?: string): number | undefined {
		const c = this.current;
		if (!c) return undefined;
		const now = this.now();
		this.follow(now);
		return this.limitOf(authorization, now).level(now);
	}

	/** How far away a limited request's service is (ms there and back; 0 when not limited). */
	latencyMs(method: string, path: string): number {
		const c = this.current;
		return c && requestMatches(c.match, 'api', method, path, 'api') ? c.latencyMs : 0;
	}

	/** Counts an API request and takes a token for it; undefined when the limiter is off or does not match. */
	check(
		method: string,
		path: string,
		authorization: string | undefined,
	): RateLimitDecision | undefined {
		const c = this.current;
		if (!c || !requestMatches(c.match, 'api', method, path, 'api')) return undefined;
		const now = this.now();
		this.follow(now);
		const key = keyOf(authorization);
		const take = this.limitOf(authorization, now).take(now);
		const perKey = this.counts.byKey.get(key) ?? { requests: 0, limited: 0 };
		this.counts.byKey.set(key, perKey);
		this.counts.requests++;
		perKey.requests++;
		const headers = this.headers(take, now);
		if (take.allowed) return { allowed: true, headers };
		this.counts.limited++;
		perKey.limited++;
		const retryAfter = Math.max(1, ceilSeconds(take.nextTokenInMs));
		const limit =
			c.shape === 'bucket'
				? `${this.rate} requests per second (burst ${c.burst})`
				: `${this.capacity()} requests per ${c.window} s`;
		return {
			allowed: false,
			headers: c.retryAfter ? { ...headers, 'Retry-After': String(retryAfter) } : headers,
			retryAfter: c.retryAfter ? retryAfter : undefined,
			message: `Rate limit of ${limit} exceeded${c.retryAfter ? `; retry after ${retryAfter} s` : ''}`,
		};
	}

	/** Applies the schedule's changes that are due (each from its own time on). */
	private follow(now: number): void {
		const c = this.current;
		for (; c && this.changed < c.schedule.length; this.changed++) {
			const change = c.schedule[this.changed];
			if (this.setAt + change.at * 1000 > now) break;
			this.rate = change.rate;
			for (const limit of this.buckets.values())
				limit.retune(this.setAt + change.at * 1000, change.rate);
		}
	}

	/** The limit of a key (or the global one), made on first use: a bucket starts full. */
	private limitOf(authorization: string | undefined, now: number): Limit {
		const c = this.current as NonNullable<typeof this.current>;
		const name = this.bucketName(authorization);
		let limit = this.buckets.get(name);
		if (!limit) {
			const windowMs = c.window * 1000;
			limit =
				c.shape === 'bucket'
					? new TokenBucket(this.rate, c.burst, now)
					: c.shape === 'fixed-window'
						? new FixedWindow(this.rate, windowMs)
						: new SlidingWindow(this.rate, windowMs);
			this.buckets.set(name, limit);
		}
		return limit;
	}

	/** Requests let through at once: the burst, or a window's count. */
	private capacity(): number {
		const c = this.current as NonNullable<typeof this.current>;
		return c.shape === 'bucket' ? c.burst : quotaOf(this.rate, c.window * 1000);
	}

	private headers(take: BucketTake, now: number): Record<string, string> {
		const c = this.current;
		if (!c || c.headers === 'none') return {};
		if (c.headers === 'x-ratelimit') {
			return {
				'X-RateLimit-Limit': String(this.capacity()),
				'X-RateLimit-Remaining': String(take.remaining),
				// Unix time (s) when the bucket is full again, GitHub's convention.
				'X-RateLimit-Reset': String(ceilSeconds(now + take.fullInMs)),
			};
		}
		const { quota, window } = policyQuota(this.rate);
		return {
			'RateLimit-Limit': String(this.capacity()),
			'RateLimit-Remaining': String(take.remaining),
			// Seconds until the limit is whole again (delta seconds, as the IETF draft's reset).
			'RateLimit-Reset': String(ceilSeconds(take.fullInMs)),
			'RateLimit-Policy':
				c.shape === 'bucket'
					? `${quota};w=${window};burst=${c.burst}`
					: `${this.capacity()};w=${c.window}`,
		};
	}

	private bucketName(authorization: string | undefined): string {
		return this.current?.scope === 'global' ? '*' : keyOf(authorization);
	}

	private now(): number {
		return this.current?.clock === 'sandbox' ? this.clock.now() : Date.now();
	}
}

/** The API key of an Authorization header (the token after "Bearer"), or NO_KEY. */
function keyOf(authorization: string | undefined): string {
	if (authorization === undefined || authorization.trim() === '') return NO_KEY;
	return authorization.trim().replace(/^bearer\s+/i, '');
}

// ---------------------------------------------------------------- JSON form (control API)

export function parseRateLimitConfig(value: unknown): RateLimitConfig {
	if (!isPlainObject(value)) throw new HttpError(400, 'bad_request', 'Body must be a JSON object');
	const {
		rate,
		burst,
		headers,
		scope,
		clock,
		match,
		shape,
		window,
		retryAfter,
		schedule,
		latencyMs,
	} = value;
	if (typeof rate !== 'number')
		throw new HttpError(400, 'bad_request', 'rate (number, requests per second) is required');
	if (burst !== undefined && typeof burst !== 'number')
		throw new HttpError(400, 'bad_request', 'burst must be a number');
	if (match !== undefined && match !== null && !isPlainObject(match))
		throw new HttpError(400, 'bad_request', 'match must be an object');
	if (window !== undefined && typeof window !== 'number')
		throw new HttpError(400, 'bad_request', 'window must be a number of seconds');
	if (retryAfter !== undefined && typeof retryAfter !== 'boolean')
		throw new HttpError(400, 'bad_request', 'retryAfter must be true or false');
	if (schedule !== undefined && !Array.isArray(schedule))
		throw new HttpError(400, 'bad_request', 'schedule must be an array of { at, rate }');
	if (latencyMs !== undefined && typeof latencyMs !== 'number')
		throw new HttpError(400, 'bad_request', 'latencyMs must be a number of ms');
	return {
		rate,
		burst: burst as number | undefined,
		shape: shape as RateLimitShape | undefined,
		window,
		retryAfter,
		schedule: schedule as RateLimitConfig['schedule'],
		latencyMs,
		headers: headers as RateLimitHeaders | undefined,
		scope: scope as RateLimitConfig['scope'],
		clock: clock as RateLimitConfig['clock'],
		match: isPlainObject(match)
			? {
					method: typeof match.method === 'string' ? match.method : undefined,
					path: parsePathSpec(match),
					server: match.server as 'api' | 'cdn' | undefined,
				}
			: undefined,
	};
}
