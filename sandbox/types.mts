// Public types of the sandbox (see README.md). Records are the store's own objects.

export type Role = 'ROLE_USER' | 'ROLE_BRAND_ADMIN' | 'ROLE_ORG_ADMIN' | 'ROLE_ADMIN';
export const ROLES: readonly Role[] = [
	'ROLE_USER',
	'ROLE_BRAND_ADMIN',
	'ROLE_ORG_ADMIN',
	'ROLE_ADMIN',
];

export type VideoStatus = 'draft' | 'processing' | 'published' | 'failed';
export const VIDEO_STATUSES: readonly VideoStatus[] = [
	'draft',
	'processing',
	'published',
	'failed',
];

export type AssetType = 'image' | 'video' | 'audio';
export const ASSET_TYPES: readonly AssetType[] = ['image', 'video', 'audio'];

export type TemplateType = 'stock' | 'brand' | 'scene' | 'endcard';
export const TEMPLATE_TYPES: readonly TemplateType[] = ['stock', 'brand', 'scene', 'endcard'];

export type AspectRatio = '9:16' | '16:9' | '1:1';
export const ASPECT_RATIOS: readonly AspectRatio[] = ['9:16', '16:9', '1:1'];

export type ListOrder = 'newest-first' | 'oldest-first';

export interface RenderOptions {
	/** Time a new video stays in draft before rendering starts (ms). */
	queueMs?: number;
	/** Render time range (ms); each video gets a seeded value in [minMs, maxMs]. */
	minMs?: number;
	maxMs?: number;
	/** Share of renders that fail, 0..1. */
	failureShare?: number;
}

export interface GraphqlOptions {
	/** Largest page size of query-style lists (not in the spec). Default 100. */
	maxLimit?: number;
	/** What a larger limit does: 'cap' answers with maxLimit items and reports limit = maxLimit;
	 * 'reject' answers with a BAD_USER_INPUT error. Default 'cap'. */
	overLimit?: 'cap' | 'reject';
}

export interface UploadLimits {
	image?: number;
	video?: number;
	audio?: number;
}

/**
 * How late the video list shows a new video, as a list served from a search index or a replica
 * would (README "Listing lag"): each video gets a lag in [minMs, maxMs], drawn from the seed and
 * its sequence number, and is listed from created_at + lag on.
 */
export interface ListingLag {
	minMs: number;
	maxMs: number;
}

export interface SandboxOptions {
	host?: string;
	port?: number;
	cdnPort?: number;
	seed?: number;
	dataset?: 'default' | 'large' | { videos: number; assets: number };
	clock?: 'manual' | 'real';
	/** Start of the clock (ms since epoch). Default: a fixed instant for 'manual', wall time for 'real'. */
	startTime?: number;
	render?: RenderOptions;
	listOrder?: ListOrder;
	/** The video list shows each new video this much later than its created_at; default none. */
	listingLag?: ListingLag;
	graphql?: GraphqlOptions;
	/** Upload size limits in bytes (defaults: the spec's 10/200/50 MB, decimal). For tests of the limit logic. */
	uploadLimits?: UploadLimits;
	dataDir?: string;
	/** Folder of the media fixtures; default <cwd>/sandbox/media. */
	mediaDir?: string;
	extraKeys?: Array<{ key: string; role: Role }>;
	/** Most request records kept in sandbox.requests.log (oldest dropped first). Default 200,000. */
	requestLogLimit?: number;
	/** Starts with the rate limiter on (README "Rate limiter"); default off. */
	rateLimit?: RateLimitConfig;
	quiet?: boolean;
}

export type FaultKind =
	| '429'
	| '500'
	| '502'
	| '503'
	| 'slow'
	| 'reset'
	| 'reset-after-commit'
	| 'text'
	| 'html'
	| 'hang';
export const FAULT_KINDS: readonly FaultKind[] = [
	'429',
	'500',
	'502',
	'503',
	'slow',
	'reset',
	'reset-after-commit',
	'text',
	'html',
	'hang',
];

export interface FaultMatch {
	/** HTTP method, case-insensitive. */
	method?: string;
	/** Exact path (no query string), a prefix when it ends in '*', or a RegExp tested against the path. */
	path?: string | RegExp;
	/** Which server; default 'api'. */
	server?: 'api' | 'cdn';
}

export interface FaultParams {
	/** Retry-After seconds for 429 (default 1) and, when given, for 503. */
	retryAfter?: number;
	/** Delay of a 'slow' response (ms, wall time). Default 1500. */
	delayMs?: number;
	/** Status of a 'text' or 'html' error body (default 500 for text, 502 for html). */
	status?: number;
}

export interface RandomFaults extends FaultParams {
	/** Probability 0..1 that a matching request gets a fault. */
	rate: number;
	kinds: FaultKind[];
	/** Seed of the fault stream; default the sandbox seed. */
	seed?: number;
	match?: FaultMatch;
}

export interface ScriptedFault extends FaultParams {
	kind: FaultKind;
	match?: FaultMatch;
	/** How many matching requests get this fault (default 1); 'always': every one until cleared. */
	times?: number | 'always';
	/** Matching requests to let through before the fault starts (default 0). */
	skip?: number;
}

export interface RequestRecord {
	server: 'api' | 'cdn';
	method: string;
	path: string;
	query: Record<string, string>;
	status: number;
	hadAuthorization: boolean;
	authorization?: string;
	/** Sandbox clock time of the request. */
	at: number;
	/** The injected fault, if any. */
	fault?: FaultKind;
	/** Set when the rate limiter answered 429. */
	rateLimited?: boolean;
}

export interface RequestMatch {
	method?: string;
	path?: string | RegExp;
	server?: 'api' | 'cdn';
}

/** Which rate-limit headers the limiter sends (README "Rate limiter"). */
export type RateLimitHeaders = 'none' | 'ratelimit' | 'x-ratelimit';

/** The limiter's shape (README "Rate limiter"): a token bucket, or a count per window. */
export type RateLimitShape = 'bucket' | 'fixed-window' | 'sliding-window';

export interface RateLimitConfig {
	/** Tokens added per second (the sustained requests per second), > 0. */
	rate: number;
	/** 'bucket' (default): a token bucket of `burst`; 'fixed-window': rate x window requests per
	 * window of `window` seconds starting on whole multiples of it; 'sliding-window': at most
	 * rate x window requests in any `window` seconds (a log of the requests let through). */
	shape?: RateLimitShape;
	/** The window of the window shapes, seconds (default 1). */
	window?: number;
	/** false: a 429 carries no Retry-After (a client must choose its own wait). Default true. */
	retryAfter?: boolean;
	/** The rate changes while the limiter runs: at `at` seconds after set(), to `rate` (another user
	 * of the key starts or stops). Tokens or counts already there are kept. */
	schedule?: Array<{ at: number; rate: number }>;
	/** Most tokens the bucket holds (the burst), an integer >= 1. Default ceil(rate). */
	burst?: number;
	/** 'none' (default): only Retry-After on a 429; 'ratelimit': RateLimit-Limit/-Remaining/-Reset/-Policy
	 * on every limited-route answer; 'x-ratelimit': X-RateLimit-Limit/-Remaining/-Reset (Unix time). */
	headers?: RateLimitHeaders;
	/** 'key' (default): one bucket per API key; 'global': one bucket for all requests. */
	scope?: 'key' | 'global';
	/** 'wall' (default): tokens refill with real time, whatever the sandbox clock; 'sandbox': with the
	 * sandbox clock (a manual clock refills only through clock.advance, for exact tests). */
	clock?: 'wall' | 'sandbox';
	/** Only matching API requests are limited (and counted); default all of them. */
	match?: RequestMatch;
	/** The service is this far away (wall ms there and back): a limited request reaches the limiter
	 * half of it after it came, and its answer (a 429 too) leaves the other half later. Default 0. */
	latencyMs?: number;
}

export interface RateLimitCounters {
	/** Requests the limiter saw since it was set (or its counters were reset), the 429s included. */
	requests: number;
	/** Of those, answered 429 by the limiter. */
	limited: number;
	/** Limiter clock time (ms) of the last set() or resetCounters(). */
	since: number;
	/** The same per API key (the token after "Bearer"; "(no key)" without one). */
	byKey: Record<string, { requests: number; limited: number }>;
}
