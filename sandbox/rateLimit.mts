// The rate limiter: a token bucket of `rate` requests per second holding at most `burst`, in front
// of the API (REST and GraphQL; not the CDN, not the control API). README "Rate limiter".
import { HttpError, isPlainObject, parsePathSpec, requestMatches } from './http.mts';
import type { Clock } from './clock.mts';
import type {
	RateLimitConfig,
	RateLimitCounters,
	RateLimitHeaders,
	RequestMatch,
} from './types.mts';

export const RATE_LIMIT_HEADERS: readonly RateLimitHeaders[] = ['none', 'ratelimit', 'x-ratelimit'];

/** What one request took from its bucket. Times in ms on the limiter's clock. */
export interface BucketTake {
	allowed: boolean;
	/** Whole tokens left after this request. */
	remaining: number;
	/** Until the next token (0 when one is there). */
	nextTokenInMs: number;
	/** Until the bucket is full again. */
	fullInMs: number;
}

/**
 * A token bucket: starts full with `burst` tokens, gains `rate` tokens per second up to `burst`,
 * and every allowed request takes one. A refused request takes nothing (it is only counted).
 * Pure arithmetic on the times it is given, so it is tested without waiting.
 */
export class TokenBucket {
	private tokens: number;
	private last: number;

	constructor(
		readonly rate: number,
		readonly burst: number,
		now: number,
	) {
		this.tokens = burst;
		this.last = now;
	}

	/** Tokens in the bucket at `now` (fractional). */
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

	private refill(now: number): void {
		// A clock that went back (wall time adjusted) adds nothing.
		const elapsed = Math.max(0, now - this.last);
		this.tokens = Math.min(this.burst, this.tokens + (elapsed / 1000) * this.rate);
		this.last = Math.max(this.last, now);
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
	private current?: Required<Omit<RateLimitConfig, 'match'>> & { match?: RequestMatch };
	private buckets = new Map<string, TokenBucket>();
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
		this.current = { rate, burst, headers, scope, clock, match: config.match };
		this.buckets.clear();
		this.resetCounters();
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
		return this.buckets.get(this.bucketName(authorization))?.level(this.now()) ?? c.burst;
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
		const key = keyOf(authorization);
		const name = this.bucketName(authorization);
		let bucket = this.buckets.get(name);
		if (!bucket) {
			bucket = new TokenBucket(c.rate, c.burst, now);
			this.buckets.set(name, bucket);
		}
		const take = bucket.take(now);
		const perKey = this.counts.byKey.get(key) ?? { requests: 0, limited: 0 };
		this.counts.byKey.set(key, perKey);
		this.counts.requests++;
		perKey.requests++;
		const headers = this.headers(take, now);
		if (take.allowed) return { allowed: true, headers };
		this.counts.limited++;
		perKey.limited++;
		const retryAfter = Math.max(1, ceilSeconds(take.nextTokenInMs));
		return {
			allowed: false,
			headers: { ...headers, 'Retry-After': String(retryAfter) },
			retryAfter,
			message: `Rate limit of ${c.rate} requests per second (burst ${c.burst}) exceeded; retry after ${retryAfter} s`,
		};
	}

	private headers(take: BucketTake, now: number): Record<string, string> {
		const c = this.current;
		if (!c || c.headers === 'none') return {};
		if (c.headers === 'x-ratelimit') {
			return {
				'X-RateLimit-Limit': String(c.burst),
				'X-RateLimit-Remaining': String(take.remaining),
				// Unix time (s) when the bucket is full again, GitHub's convention.
				'X-RateLimit-Reset': String(ceilSeconds(now + take.fullInMs)),
			};
		}
		const { quota, window } = policyQuota(c.rate);
		return {
			'RateLimit-Limit': String(c.burst),
			'RateLimit-Remaining': String(take.remaining),
			// Seconds until the bucket is full again (delta seconds, as the IETF draft's reset).
			'RateLimit-Reset': String(ceilSeconds(take.fullInMs)),
			'RateLimit-Policy': `${quota};w=${window};burst=${c.burst}`,
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
	const { rate, burst, headers, scope, clock, match } = value;
	if (typeof rate !== 'number')
		throw new HttpError(400, 'bad_request', 'rate (number, requests per second) is required');
	if (burst !== undefined && typeof burst !== 'number')
		throw new HttpError(400, 'bad_request', 'burst must be a number');
	if (match !== undefined && match !== null && !isPlainObject(match))
		throw new HttpError(400, 'bad_request', 'match must be an object');
	return {
		rate,
		burst: burst as number | undefined,
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
