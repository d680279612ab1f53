// The rate limiter: token-bucket arithmetic (pure, and over HTTP on the manual sandbox clock),
// Retry-After rounding, the two header conventions, scope, matching, counters, control API.
import type { Clock } from '../../sandbox/clock.mts';
import { startSandbox, type Sandbox } from '../../sandbox/index.mts';
import {
	ceilSeconds,
	FixedWindow,
	policyQuota,
	RateLimiter,
	SlidingWindow,
	TokenBucket,
} from '../../sandbox/rateLimit.mts';
import { api, gql, http, type Json } from './helpers.mts';

describe('TokenBucket (pure)', () => {
	test('starts full, takes one token per request, refuses when empty without taking', () => {
		const bucket = new TokenBucket(10, 3, 0);
		expect([1, 2, 3].map(() => bucket.take(0))).toEqual([
			{ allowed: true, remaining: 2, nextTokenInMs: 0, fullInMs: 100 },
			{ allowed: true, remaining: 1, nextTokenInMs: 0, fullInMs: 200 },
			{ allowed: true, remaining: 0, nextTokenInMs: 0, fullInMs: 300 },
		]);
		const refused = bucket.take(0);
		expect(refused).toMatchObject({ allowed: false, remaining: 0 });
		expect(refused.nextTokenInMs).toBeCloseTo(100, 9);
		// Refusals take nothing: the same wait is asked again, and the bucket is not in debt.
		expect(bucket.take(0).nextTokenInMs).toBeCloseTo(100, 9);
		expect(bucket.take(50).nextTokenInMs).toBeCloseTo(50, 9);
		expect(bucket.take(100)).toMatchObject({ allowed: true, remaining: 0 });
	});

	test('refills at the rate, never above the burst', () => {
		const bucket = new TokenBucket(2, 4, 1_000);
		for (let i = 0; i < 4; i++) bucket.take(1_000);
		expect(bucket.level(1_000)).toBe(0);
		expect(bucket.level(1_250)).toBeCloseTo(0.5, 9);
		expect(bucket.level(2_000)).toBeCloseTo(2, 9);
		expect(bucket.level(60_000)).toBe(4);
		// A clock that goes back adds nothing.
		expect(bucket.level(59_000)).toBe(4);
	});

	test('sustained rate: over 10 s at R=10 a client sending every 10 ms gets B + 10 × R through', () => {
		const bucket = new TokenBucket(10, 2, 0);
		let allowed = 0;
		for (let t = 0; t <= 10_000; t += 10) if (bucket.take(t).allowed) allowed++;
		expect(allowed).toBe(2 + 100);
	});

	test('whole seconds, rounded up; float noise below a microsecond does not add a second', () => {
		expect([0, 1, 100, 999, 1000, 1000.0000001, 1001, 2500].map(ceilSeconds)).toEqual([
			0, 1, 1, 1, 1, 1, 2, 3,
		]);
	});

	test('RateLimit-Policy quota: the smallest whole window', () => {
		expect([10, 2, 1, 0.5, 2.5, 0.25].map(policyQuota)).toEqual([
			{ quota: 10, window: 1 },
			{ quota: 2, window: 1 },
			{ quota: 1, window: 1 },
			{ quota: 1, window: 2 },
			{ quota: 5, window: 2 },
			{ quota: 1, window: 4 },
		]);
	});
});

describe('window shapes and a rate that changes (pure)', () => {
	test('a fixed window lets the quota through per window; windows start on whole multiples', () => {
		const window = new FixedWindow(2, 5_000); // 10 per 5 s
		const passed = (from: number, count: number) =>
			Array.from({ length: count }, () => window.take(from).allowed).filter(Boolean).length;
		expect(passed(4_000, 12)).toBe(10);
		// Refused until the window that began at 0 ends at 5 s, whatever the rate says.
		expect(window.take(4_900)).toMatchObject({ allowed: false, remaining: 0, nextTokenInMs: 100 });
		expect(passed(5_000, 12)).toBe(10);
		window.retune(6_000, 4); // 20 per window from now on: the count of this window is kept
		expect(passed(6_000, 12)).toBe(10);
	});

	test('a sliding window lets the quota through in any window; the next goes when the oldest leaves', () => {
		const window = new SlidingWindow(1, 3_000); // 3 in any 3 s
		expect([0, 1_000, 2_000].map((at) => window.take(at).allowed)).toEqual([true, true, true]);
		expect(window.take(2_500)).toMatchObject({ allowed: false, nextTokenInMs: 500 });
		expect(window.take(3_000).allowed).toBe(true); // the one at 0 left
		expect(window.take(3_500).allowed).toBe(false);
		expect(window.level(4_000)).toBe(1);
	});

	test('a bucket retuned mid-way refills at the old rate until then, at the new one after', () => {
		const bucket = new TokenBucket(10, 100, 0);
		for (let i = 0; i < 100; i++) bucket.take(0);
		bucket.retune(1_000, 2); // 10 tokens came at 10/s, then 2/s
		expect(bucket.level(2_000)).toBeCloseTo(12, 9);
	});
});

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox({ quiet: true });
});
afterAll(() => sb.close());
afterEach(() => {
	sb.rateLimit.clear();
	sb.faults.clear();
});

const control = <T = Json,>(method: string, path: string, body?: unknown) =>
	http<T>(`${sb.controlUrl}${path}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
const list = (key: string | undefined = sb.keys.user) => api(sb, key, 'GET', '/videos?limit=1');
/** Statuses of `n` list requests with this key (null: no Authorization header). */
const statuses = async (n: number, key: string | null = sb.keys.user) => {
	const out: number[] = [];
	for (let i = 0; i < n; i++)
		out.push((await api(sb, key ?? undefined, 'GET', '/videos?limit=1')).status);
	return out;
};
const rateHeaders = (headers: Headers) =>
	Object.fromEntries(
		[...headers]
			.filter(([name]) => /ratelimit|retry-after/i.test(name))
			.sort(([a], [b]) => a.localeCompare(b)),
	);

describe('over HTTP, on the sandbox clock (manual: time moves only when the test says)', () => {
	test('B requests pass, then 429 rate_limited with Retry-After from the bucket; one token after 1/R s', async () => {
		sb.rateLimit.set({ rate: 2, burst: 3, clock: 'sandbox' });
		expect(await statuses(3)).toEqual([200, 200, 200]);
		const refused = await list();
		expect(refused.status).toBe(429);
		expect(refused.headers.get('retry-after')).toBe('1');
		expect(refused.json.error).toMatchObject({ status: 429, code: 'rate_limited' });
		expect(refused.json.error?.message).toBe(
			'Rate limit of 2 requests per second (burst 3) exceeded; retry after 1 s',
		);
		sb.clock.advance(499);
		expect(await statuses(1)).toEqual([429]);
		sb.clock.advance(1);
		expect(await statuses(2)).toEqual([200, 429]);
		// Ten seconds refill 20 tokens, but the bucket holds 3.
		sb.clock.advance(10_000);
		expect(await statuses(4)).toEqual([200, 200, 200, 429]);
		expect(sb.rateLimit.counters()).toMatchObject({ requests: 11, limited: 4 });
		expect(sb.rateLimit.level(`Bearer ${sb.keys.user}`)).toBe(0);
	});

	test('Retry-After is the wait for the next token in whole seconds, rounded up', async () => {
		sb.rateLimit.set({ rate: 0.4, burst: 1, clock: 'sandbox' });
		expect((await list()).status).toBe(200);
		expect((await list()).headers.get('retry-after')).toBe('3'); // 2.5 s
		sb.clock.advance(500);
		expect((await list()).headers.get('retry-after')).toBe('2'); // exactly 2 s: not rounded further
		sb.clock.advance(1_001);
		expect((await list()).headers.get('retry-after')).toBe('1'); // 0.999 s
		sb.clock.advance(999);
		expect((await list()).status).toBe(200);
		sb.rateLimit.set({ rate: 10, burst: 1, clock: 'sandbox' });
		await list();
		// At 10/s the next token is 0.1 s away, but Retry-After is whole seconds: 1.
		expect((await list()).headers.get('retry-after')).toBe('1');
	});

	test('a refused request is not run: no video, no credit; and faults do not see it', async () => {
		const credits = sb.store.brand(sb.known.primaryBrandId).credits;
		const videos = sb.store.videos.size;
		sb.rateLimit.set({ rate: 1, burst: 1, clock: 'sandbox' });
		sb.faults.script([{ kind: '500', match: { method: 'POST' } }]);
		const body = { title: 'Limited', template_id: sb.known.stockTemplateId, customer_data: {} };
		expect((await api(sb, sb.keys.user, 'GET', '/assets?limit=1')).status).toBe(200);
		expect((await api(sb, sb.keys.user, 'POST', '/videos', body)).status).toBe(429);
		expect(sb.store.videos.size).toBe(videos);
		expect(sb.store.brand(sb.known.primaryBrandId).credits).toBe(credits);
		sb.clock.advance(1_000);
		// The scripted fault is still there for the request the limiter lets through.
		expect((await api(sb, sb.keys.user, 'POST', '/videos', body)).status).toBe(500);
		const last = sb.requests.log.slice(-2);
		expect(last.map((r) => [r.status, r.rateLimited, r.fault])).toEqual([
			[429, true, undefined],
			[500, undefined, '500'],
		]);
	});

	test('GraphQL is limited too (with a GraphQL errors array); the CDN and the control API are not', async () => {
		sb.rateLimit.set({ rate: 1, burst: 1, clock: 'sandbox' });
		expect(
			(
				await gql(
					sb,
					sb.keys.user,
					'{ viewer { findUser(criteria: { id: "usr_ada_lovelace" }) { id } } }',
				)
			).status,
		).toBe(200);
		const refused = await gql(sb, sb.keys.user, '{ __typename }');
		expect(refused.status).toBe(429);
		expect(refused.headers.get('retry-after')).toBe('1');
		expect(refused.json.errors?.[0].extensions?.code).toBe('RATE_LIMITED');
		for (let i = 0; i < 3; i++)
			expect((await http(`${sb.cdnUrl}/assets/${sb.known.unusedAssetId}.jpg`)).status).toBe(200);
		for (let i = 0; i < 3; i++) expect((await control('GET', '/info')).status).toBe(200);
		expect(sb.rateLimit.counters()).toMatchObject({ requests: 2, limited: 1 });
	});

	test('scope key: one bucket per API key, no key counted apart; scope global: one for all', async () => {
		sb.rateLimit.set({ rate: 1, burst: 2, clock: 'sandbox' });
		expect(await statuses(3, sb.keys.user)).toEqual([200, 200, 429]);
		expect(await statuses(3, sb.keys.admin)).toEqual([200, 200, 429]);
		// Limited before authentication: without a key the third is a 429, not a 401.
		expect(await statuses(3, null)).toEqual([401, 401, 429]);
		expect(sb.rateLimit.counters()).toEqual({
			requests: 9,
			limited: 3,
			since: sb.clock.now(),
			byKey: {
				[sb.keys.user]: { requests: 3, limited: 1 },
				[sb.keys.admin]: { requests: 3, limited: 1 },
				'(no key)': { requests: 3, limited: 1 },
			},
		});
		sb.rateLimit.set({ rate: 1, burst: 2, scope: 'global', clock: 'sandbox' });
		expect([...(await statuses(1, sb.keys.user)), ...(await statuses(2, sb.keys.admin))]).toEqual([
			200, 200, 429,
		]);
	});

	test('match: only matching requests are limited and counted', async () => {
		sb.rateLimit.set({
			rate: 1,
			burst: 1,
			clock: 'sandbox',
			match: { method: 'GET', path: '/v1/assets*' },
		});
		expect(await statuses(3)).toEqual([200, 200, 200]);
		const assets = () => api(sb, sb.keys.user, 'GET', `/assets/${sb.known.unusedAssetId}`);
		expect((await assets()).status).toBe(200);
		expect((await assets()).status).toBe(429);
		expect(sb.rateLimit.counters()).toMatchObject({ requests: 2, limited: 1 });
	});
});

describe('other limiters, over HTTP on the sandbox clock', () => {
	test('a fixed window: the quota, then 429 with Retry-After to the end of the window', async () => {
		sb.clock.advance((3_000 - (sb.clock.now() % 3_000)) % 3_000); // at the start of a window
		sb.rateLimit.set({ rate: 2, shape: 'fixed-window', window: 3, clock: 'sandbox' });
		expect(await statuses(7)).toEqual([200, 200, 200, 200, 200, 200, 429]);
		const refused = await list();
		expect(refused.headers.get('retry-after')).toBe('3');
		expect(refused.json.error?.message).toBe(
			'Rate limit of 6 requests per 3 s exceeded; retry after 3 s',
		);
		sb.clock.advance(3_000);
		expect(await statuses(1)).toEqual([200]);
	});

	test('retryAfter false: a 429 that says nothing about when to come back', async () => {
		sb.rateLimit.set({ rate: 1, burst: 1, retryAfter: false, clock: 'sandbox' });
		await list();
		const refused = await list();
		expect(refused.status).toBe(429);
		expect(refused.headers.get('retry-after')).toBeNull();
		expect(refused.json.error?.message).toBe(
			'Rate limit of 1 requests per second (burst 1) exceeded',
		);
	});

	test('a schedule lowers and raises the rate while it runs; config() says the rate in force', async () => {
		sb.rateLimit.set({
			rate: 4,
			burst: 4,
			clock: 'sandbox',
			schedule: [
				{ at: 10, rate: 1 },
				{ at: 20, rate: 8 },
			],
		});
		expect(await statuses(5)).toEqual([200, 200, 200, 200, 429]);
		sb.clock.advance(10_000); // 40 tokens at 4/s, the bucket holds 4
		expect(await statuses(5)).toEqual([200, 200, 200, 200, 429]);
		sb.clock.advance(2_000); // 1/s now: 2 tokens
		expect(await statuses(3)).toEqual([200, 200, 429]);
		expect(sb.rateLimit.config()?.rate).toBe(1);
		sb.clock.advance(8_500); // 8 s at 1/s (capped at 4), then 0.5 s at 8/s
		expect(await statuses(5)).toEqual([200, 200, 200, 200, 429]);
		expect(sb.rateLimit.config()).toMatchObject({ rate: 8, schedule: [{ at: 10 }, { at: 20 }] });
	});

	test('latencyMs: a service far away answers each limited request that much later, a 429 too', async () => {
		sb.rateLimit.set({ rate: 1, burst: 1, clock: 'sandbox', latencyMs: 300 });
		expect(sb.rateLimit.config()).toMatchObject({ latencyMs: 300 });
		for (const expected of [200, 429]) {
			const started = performance.now();
			expect((await list()).status).toBe(expected);
			// Two waits of 150 ms on timers that never fire early (a millisecond of rounding aside).
			expect(performance.now() - started).toBeGreaterThanOrEqual(298);
		}
	});

	test('latencyMs applies to the requests the limiter matches only', () => {
		const limiter = new RateLimiter({ now: () => 0 } as Clock);
		limiter.set({ rate: 1, latencyMs: 300, match: { method: 'POST', path: '/v1/videos' } });
		expect(limiter.latencyMs('POST', '/v1/videos')).toBe(300);
		expect(limiter.latencyMs('GET', '/v1/videos')).toBe(0);
		limiter.clear();
		expect(limiter.latencyMs('POST', '/v1/videos')).toBe(0);
	});

	test('RateLimit headers of a window: its count and its length as the policy', async () => {
		sb.rateLimit.set({
			rate: 2,
			shape: 'sliding-window',
			window: 5,
			headers: 'ratelimit',
			clock: 'sandbox',
		});
		const first = await list();
		expect(rateHeaders(first.headers)).toEqual({
			'ratelimit-limit': '10',
			'ratelimit-policy': '10;w=5',
			'ratelimit-remaining': '9',
			'ratelimit-reset': '5',
		});
	});
});

describe('rate-limit headers', () => {
	test("'none' (default): only Retry-After, on the 429", async () => {
		sb.rateLimit.set({ rate: 1, burst: 1, clock: 'sandbox' });
		expect(rateHeaders((await list()).headers)).toEqual({});
		expect(rateHeaders((await list()).headers)).toEqual({ 'retry-after': '1' });
	});

	test("'ratelimit': RateLimit-Limit (burst), -Remaining, -Reset (s until full), -Policy (rate), on every answer", async () => {
		sb.rateLimit.set({ rate: 2, burst: 3, headers: 'ratelimit', clock: 'sandbox' });
		const seen = [];
		for (let i = 0; i < 4; i++) seen.push(rateHeaders((await list()).headers));
		const policy = { 'ratelimit-limit': '3', 'ratelimit-policy': '2;w=1;burst=3' };
		expect(seen).toEqual([
			{ ...policy, 'ratelimit-remaining': '2', 'ratelimit-reset': '1' }, // 0.5 s to full
			{ ...policy, 'ratelimit-remaining': '1', 'ratelimit-reset': '1' }, // 1 s
			{ ...policy, 'ratelimit-remaining': '0', 'ratelimit-reset': '2' }, // 1.5 s
			{ ...policy, 'ratelimit-remaining': '0', 'ratelimit-reset': '2', 'retry-after': '1' },
		]);
		sb.clock.advance(1_000);
		expect(rateHeaders((await list()).headers)).toMatchObject({
			'ratelimit-remaining': '1',
			'ratelimit-reset': '1',
		});
		// Sent on errors of limited routes too, e.g. a 404.
		expect(
			rateHeaders((await api(sb, sb.keys.user, 'GET', '/assets/ast_none')).headers),
		).toMatchObject({ 'ratelimit-remaining': '0' });
		sb.rateLimit.set({ rate: 0.5, burst: 1, headers: 'ratelimit', clock: 'sandbox' });
		expect(rateHeaders((await list()).headers)).toEqual({
			'ratelimit-limit': '1',
			'ratelimit-policy': '1;w=2;burst=1',
			'ratelimit-remaining': '0',
			'ratelimit-reset': '2',
		});
	});

	test("'x-ratelimit': X-RateLimit-Limit, -Remaining, -Reset as Unix time (s) on the limiter's clock", async () => {
		sb.rateLimit.set({ rate: 4, burst: 2, headers: 'x-ratelimit', clock: 'sandbox' });
		const now = sb.clock.now();
		const first = rateHeaders((await list()).headers);
		const second = rateHeaders((await list()).headers);
		const refused = rateHeaders((await list()).headers);
		expect(first).toEqual({
			'x-ratelimit-limit': '2',
			'x-ratelimit-remaining': '1',
			'x-ratelimit-reset': String(Math.ceil((now + 250) / 1000)),
		});
		expect(second).toEqual({
			'x-ratelimit-limit': '2',
			'x-ratelimit-remaining': '0',
			'x-ratelimit-reset': String(Math.ceil((now + 500) / 1000)),
		});
		expect(refused).toEqual({ ...second, 'retry-after': '1' });
	});
});

describe('control API', () => {
	test('POST sets it (full buckets, counters at 0), GET reads it, DELETE turns it off and keeps the counters', async () => {
		const set = await control('POST', '/rate-limit', {
			rate: 10,
			burst: 2,
			headers: 'ratelimit',
			clock: 'sandbox',
			match: { pathRegex: '^/v1/videos$' },
		});
		expect(set.status).toBe(200);
		expect(set.json).toEqual({
			config: {
				rate: 10,
				burst: 2,
				headers: 'ratelimit',
				scope: 'key',
				clock: 'sandbox',
				shape: 'bucket',
				window: 1,
				retryAfter: true,
				latencyMs: 0,
				match: { path: '/^\\/v1\\/videos$/' },
			},
			counters: { requests: 0, limited: 0, since: sb.clock.now(), byKey: {} },
		});
		expect(await statuses(3)).toEqual([200, 200, 429]);
		expect((await control('GET', '/rate-limit')).json).toMatchObject({
			counters: { requests: 3, limited: 1, byKey: { [sb.keys.user]: { requests: 3, limited: 1 } } },
		});
		expect((await control('GET', '/info')).json).toMatchObject({
			rateLimit: { rate: 10, burst: 2 },
		});
		expect((await control('DELETE', '/rate-limit/counters')).json).toMatchObject({
			config: { rate: 10 },
			counters: { requests: 0, limited: 0 },
		});
		expect(await statuses(1)).toEqual([429]);
		const off = await control('DELETE', '/rate-limit');
		expect(off.json).toMatchObject({ config: null, counters: { requests: 1, limited: 1 } });
		expect(await statuses(5)).toEqual([200, 200, 200, 200, 200]);
		expect((await control('GET', '/rate-limit')).json).toMatchObject({ counters: { requests: 1 } });
		// burst defaults to ceil(rate); clock to wall; headers to none.
		expect((await control('POST', '/rate-limit', { rate: 2.5 })).json).toMatchObject({
			config: { rate: 2.5, burst: 3, headers: 'none', scope: 'key', clock: 'wall' },
		});
	});

	test.each([
		[{}, 'rate'],
		[{ rate: 0 }, 'rate must be a number > 0'],
		[{ rate: 1, burst: 1.5 }, 'burst must be an integer >= 1'],
		[{ rate: 1, latencyMs: -5 }, 'latencyMs must be a number of ms from 0 to 60000'],
		[{ rate: 1, latencyMs: 1e9 }, 'latencyMs must be a number of ms from 0 to 60000'],
		[{ rate: 1, latencyMs: '50' }, 'latencyMs must be a number of ms'],
		[{ rate: 1, burst: 0 }, 'burst must be an integer >= 1'],
		[{ rate: 1, headers: 'draft' }, 'headers must be one of none, ratelimit, x-ratelimit'],
		[{ rate: 1, scope: 'ip' }, 'scope must be key or global'],
		[{ rate: 1, clock: 'fast' }, 'clock must be wall or sandbox'],
		[{ rate: 1, match: { server: 'cdn' } }, 'API server only'],
		[{ rate: 1, shape: 'leaky' }, 'shape must be one of bucket, fixed-window, sliding-window'],
		[{ rate: 1, shape: 'fixed-window', window: 0 }, 'window must be a number of seconds > 0'],
		[{ rate: 1, retryAfter: 'no' }, 'retryAfter must be true or false'],
		[{ rate: 1, schedule: [{ at: -1, rate: 2 }] }, 'each schedule entry needs at >= 0'],
	])('POST %j is a 400 naming the problem', async (bodyIn, message) => {
		const r = await control('POST', '/rate-limit', bodyIn);
		expect(r.status).toBe(400);
		expect(r.json.error?.message).toContain(message);
		expect(sb.rateLimit.config()).toBeNull();
	});
});

describe('startSandbox({ rateLimit }) and the wall clock', () => {
	test('on from the start; with the default wall clock the manual sandbox clock does not refill it', async () => {
		const other = await startSandbox({ quiet: true, rateLimit: { rate: 0.001, burst: 1 } });
		try {
			expect(other.rateLimit.config()).toEqual({
				rate: 0.001,
				burst: 1,
				headers: 'none',
				scope: 'key',
				clock: 'wall',
				shape: 'bucket',
				window: 1,
				retryAfter: true,
				latencyMs: 0,
			});
			const get = () => api(other, other.keys.user, 'GET', '/videos?limit=1');
			expect((await get()).status).toBe(200);
			other.clock.advance(3_600_000);
			const refused = await get();
			expect(refused.status).toBe(429);
			// 1,000 s for a token at 0.001/s, less the few ms since the first request.
			expect(refused.headers.get('retry-after')).toBe('1000');
		} finally {
			await other.close();
		}
	});
});
