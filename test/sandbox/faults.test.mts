// Fault injection: every kind, scripted and seeded random modes, matching, and what is committed.
import { request } from 'node:http';
import { startSandbox, type Sandbox } from '../../sandbox/index.mts';
import type { FaultKind } from '../../sandbox/types.mts';
import { api, http, rawGet, upload } from './helpers.mts';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox({ quiet: true });
});
afterAll(() => sb.close());
afterEach(() => sb.faults.clear());

const videoBody = () => ({
	title: 'Faulty',
	template_id: sb.known.stockTemplateId,
	customer_data: {},
});
const total = async () =>
	(await api<{ pagination: { total: number } }>(sb, sb.keys.user, 'GET', '/videos?limit=1')).json
		.pagination.total;

/** A POST with a JSON body, without fetch, so resets are visible as errors. */
function rawPost(
	path: string,
	body: unknown,
): Promise<{ status?: number; error?: string; body: string }> {
	return new Promise((resolve) => {
		const data = Buffer.from(JSON.stringify(body));
		const req = request(`${sb.baseUrl}${path}`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${sb.keys.user}`,
				'content-type': 'application/json',
				'content-length': String(data.length),
			},
		});
		// A reset after the headers may reach the request or the response first, depending on the Node version.
		let status: number | undefined;
		const chunks: Buffer[] = [];
		req.on('response', (res) => {
			status = res.statusCode;
			res.on('data', (c: Buffer) => chunks.push(c));
			res.on('end', () => resolve({ status, body: Buffer.concat(chunks).toString() }));
			res.on('error', (e: NodeJS.ErrnoException) =>
				resolve({ status, error: e.code ?? e.message, body: Buffer.concat(chunks).toString() }),
			);
		});
		req.on('error', (e: NodeJS.ErrnoException) =>
			resolve({ status, error: e.code ?? e.message, body: Buffer.concat(chunks).toString() }),
		);
		req.end(data);
	});
}

describe('scripted faults', () => {
	test('the next 2 GET /v1/assets get 429 with Retry-After: 1; then normal; other paths untouched', async () => {
		sb.faults.script([
			{ kind: '429', match: { method: 'GET', path: '/v1/assets' }, times: 2, retryAfter: 1 },
		]);
		expect((await api(sb, sb.keys.user, 'GET', '/videos?limit=1')).status).toBe(200);
		expect((await api(sb, sb.keys.user, 'POST', '/assets', {})).status).toBe(415);
		for (let i = 0; i < 2; i++) {
			const r = await api(sb, sb.keys.user, 'GET', '/assets?limit=1');
			expect(r.status).toBe(429);
			expect(r.headers.get('retry-after')).toBe('1');
			expect(r.json.error).toMatchObject({ status: 429, code: 'rate_limited' });
		}
		expect((await api(sb, sb.keys.user, 'GET', '/assets?limit=1')).status).toBe(200);
		const faulted = sb.requests.log.filter((r) => r.fault);
		expect(faulted.slice(-2).map((r) => [r.path, r.status, r.fault])).toEqual([
			['/v1/assets', 429, '429'],
			['/v1/assets', 429, '429'],
		]);
	});

	test('rules apply in order; skip lets matching requests through first; prefix and RegExp paths', async () => {
		sb.faults.script([
			{ kind: '503', match: { path: '/v1/assets/*' }, skip: 1, retryAfter: 7 },
			{ kind: '500', match: { path: /^\/v1\/videos$/, method: 'POST' } },
		]);
		const get = () => api(sb, sb.keys.user, 'GET', `/assets/${sb.known.unusedAssetId}`);
		expect((await get()).status).toBe(200);
		const unavailable = await get();
		expect(unavailable.status).toBe(503);
		expect(unavailable.headers.get('retry-after')).toBe('7');
		expect((await get()).status).toBe(200);
		expect((await api(sb, sb.keys.user, 'GET', '/videos?limit=1')).status).toBe(200);
		expect((await api(sb, sb.keys.user, 'POST', '/videos', videoBody())).status).toBe(500);
	});

	test('503 without retryAfter has no Retry-After; clear() removes all rules', async () => {
		sb.faults.script([{ kind: '503', times: 5 }]);
		const r = await api(sb, sb.keys.user, 'GET', '/videos');
		expect(r.status).toBe(503);
		expect(r.headers.get('retry-after')).toBeNull();
		sb.faults.clear();
		expect((await api(sb, sb.keys.user, 'GET', '/videos')).status).toBe(200);
	});
});

describe('each kind', () => {
	test.each([
		['429', 429, 'rate_limited'],
		['500', 500, 'internal_error'],
		['502', 502, 'bad_gateway'],
		['503', 503, 'service_unavailable'],
	] as const)('%s: JSON error body, request not processed', async (kind, status, code) => {
		const before = await total();
		const credits = sb.store.brand(sb.known.primaryBrandId).credits;
		sb.faults.script([{ kind, match: { method: 'POST', path: '/v1/videos' } }]);
		const r = await api(sb, sb.keys.user, 'POST', '/videos', videoBody());
		expect(r.status).toBe(status);
		expect(r.json.error).toMatchObject({ status, code });
		expect(await total()).toBe(before);
		expect(sb.store.brand(sb.known.primaryBrandId).credits).toBe(credits);
	});

	test('text: a plain-text body (default 500, status configurable)', async () => {
		sb.faults.script([{ kind: 'text' }, { kind: 'text', status: 503 }]);
		const r = await http(`${sb.baseUrl}/videos`, {
			headers: { authorization: `Bearer ${sb.keys.user}` },
		});
		expect(r.status).toBe(500);
		expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
		expect(r.text).toBe('Internal Server Error\n');
		expect(r.json).toBeUndefined();
		expect((await http(`${sb.baseUrl}/videos`)).status).toBe(503);
	});

	test('html: a proxy error page (default 502)', async () => {
		sb.faults.script([{ kind: 'html' }]);
		const r = await http(`${sb.baseUrl}/videos`, {
			headers: { authorization: `Bearer ${sb.keys.user}` },
		});
		expect(r.status).toBe(502);
		expect(r.headers.get('content-type')).toBe('text/html');
		expect(r.text).toContain('<h1>502 Bad Gateway</h1>');
	});

	test('slow: the normal answer after the delay (committed)', async () => {
		const before = await total();
		sb.faults.script([{ kind: 'slow', delayMs: 300, match: { method: 'POST' } }]);
		const started = Date.now();
		const r = await api(sb, sb.keys.user, 'POST', '/videos', videoBody());
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
		expect(r.status).toBe(201);
		expect(await total()).toBe(before + 1);
	});

	test('reset: headers and part of a body, then a TCP reset; not processed', async () => {
		const before = await total();
		sb.faults.script([{ kind: 'reset', match: { method: 'POST' } }]);
		const post = await rawPost('/videos', videoBody());
		expect(post.error).toBe('ECONNRESET');
		expect(await total()).toBe(before);
		sb.faults.script([{ kind: 'reset', match: { method: 'GET' } }]);
		const get = await rawGet(`${sb.baseUrl}/videos`, { authorization: `Bearer ${sb.keys.user}` });
		expect(get.status).toBe(200);
		expect(get.error).toBe('ECONNRESET');
		expect(get.body.length).toBeGreaterThan(0);
		expect(() => JSON.parse(get.body.toString())).toThrow();
		expect((await api(sb, sb.keys.user, 'GET', '/videos?limit=1')).status).toBe(200);
	});

	test('reset-after-commit: the request is processed, then the connection drops mid-body', async () => {
		const before = await total();
		const credits = sb.store.brand(sb.known.primaryBrandId).credits;
		sb.faults.script([
			{ kind: 'reset-after-commit', match: { method: 'POST', path: '/v1/videos' } },
		]);
		const r = await rawPost('/videos', videoBody());
		expect(r.status).toBe(201);
		expect(r.error).toBe('ECONNRESET');
		expect(r.body.startsWith('{"id":"vid_')).toBe(true);
		expect(await total()).toBe(before + 1);
		expect(sb.store.brand(sb.known.primaryBrandId).credits).toBe(credits - 1);
	});

	test('a faulted upload stores nothing', async () => {
		const before = (
			await api<{ pagination: { total: number } }>(sb, sb.keys.user, 'GET', '/assets?limit=1')
		).json.pagination.total;
		sb.faults.script([{ kind: '500', match: { method: 'POST', path: '/v1/assets' } }]);
		const r = await upload(sb, sb.keys.user, [
			{ name: 'name', value: 'x' },
			{ name: 'type', value: 'image' },
			{
				name: 'file',
				file: { filename: 'a.jpg', contentType: 'image/jpeg', data: Buffer.alloc(256 * 1024) },
			},
		]);
		expect(r.status).toBe(500);
		expect(
			(await api<{ pagination: { total: number } }>(sb, sb.keys.user, 'GET', '/assets?limit=1'))
				.json.pagination.total,
		).toBe(before);
	});

	test('on /v1/graphql the JSON error bodies also carry a GraphQL errors array', async () => {
		sb.faults.script([{ kind: '503', match: { path: '/v1/graphql' } }]);
		const r = await http<{ errors: Array<{ extensions: { code: string } }> }>(sb.graphqlUrl, {
			method: 'POST',
			headers: { authorization: `Bearer ${sb.keys.user}`, 'content-type': 'application/json' },
			body: JSON.stringify({ query: '{ __typename }' }),
		});
		expect(r.status).toBe(503);
		expect(r.json.errors[0].extensions.code).toBe('INTERNAL_SERVER_ERROR');
	});

	test('CDN faults (match.server = cdn): status faults and a reset in the middle of a file', async () => {
		const url = `${sb.cdnUrl}/assets/${sb.known.unusedAssetId}.jpg`;
		const full = await rawGet(url);
		sb.faults.script([
			{ kind: '502', match: { server: 'cdn' } },
			{ kind: 'reset', match: { server: 'cdn' } },
		]);
		// API requests do not match a CDN rule.
		expect((await api(sb, sb.keys.user, 'GET', '/videos?limit=1')).status).toBe(200);
		expect((await rawGet(url)).status).toBe(502);
		const reset = await rawGet(url);
		expect(reset.status).toBe(200);
		expect(reset.error).toBe('ECONNRESET');
		expect(reset.body.length).toBeLessThan(full.body.length);
		expect(reset.body.equals(full.body.subarray(0, reset.body.length))).toBe(true);
		expect((await rawGet(url)).body.equals(full.body)).toBe(true);
	});
});

describe('random faults', () => {
	const sequence = async (n: number) => {
		const out: number[] = [];
		for (let i = 0; i < n; i++)
			out.push((await api(sb, sb.keys.user, 'GET', '/videos?limit=1')).status);
		return out;
	};

	test('deterministic from the seed; rate and kinds respected; only matching requests', async () => {
		const cfg = {
			rate: 0.4,
			kinds: ['500', '429', '503'] as FaultKind[],
			seed: 42,
			match: { method: 'GET', path: '/v1/videos' },
		};
		sb.faults.random(cfg);
		const a = await sequence(60);
		expect((await api(sb, sb.keys.user, 'GET', '/assets?limit=1')).status).toBe(200);
		sb.faults.random(cfg);
		const b = await sequence(60);
		expect(b).toEqual(a);
		const faults = a.filter((s) => s !== 200);
		expect(faults.length).toBeGreaterThan(10);
		expect(faults.length).toBeLessThan(40);
		expect(new Set(faults)).toEqual(new Set([500, 429, 503]));
		sb.faults.random({ ...cfg, seed: 43 });
		expect(await sequence(60)).not.toEqual(a);
	});

	test('rate 0 never faults, rate 1 always; the default seed is the sandbox seed', async () => {
		sb.faults.random({ rate: 0, kinds: ['500'] });
		expect(new Set(await sequence(10))).toEqual(new Set([200]));
		sb.faults.random({ rate: 1, kinds: ['502'] });
		expect(new Set(await sequence(5))).toEqual(new Set([502]));
	});

	test('scripted rules win over the random mode; invalid configurations throw', async () => {
		sb.faults.random({ rate: 1, kinds: ['500'] });
		sb.faults.script([{ kind: '429' }]);
		expect(await sequence(2)).toEqual([429, 500]);
		expect(() => sb.faults.random({ rate: 2, kinds: ['500'] })).toThrow(RangeError);
		expect(() => sb.faults.random({ rate: 0.5, kinds: [] })).toThrow(RangeError);
		expect(() => sb.faults.script([{ kind: 'boom' as FaultKind }])).toThrow(RangeError);
	});
});
