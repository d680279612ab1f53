// The HTTP control API under /__sandbox/ (for out-of-process users).
import { startSandbox, type Sandbox } from '../../sandbox/index.mts';
import { api, http, type Json } from './helpers.mts';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox({ quiet: true });
});
afterAll(() => sb.close());

const control = <T = Json,>(method: string, path: string, body?: unknown) =>
	http<T>(`${sb.controlUrl}${path}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});

test('info: urls, keys, clock, known ids; no auth; not logged', async () => {
	sb.requests.clear();
	const r = await control('GET', '/info');
	expect(r.status).toBe(200);
	expect(r.json).toMatchObject({
		baseUrl: sb.baseUrl,
		graphqlUrl: sb.graphqlUrl,
		cdnUrl: sb.cdnUrl,
		keys: sb.keys,
		known: sb.known,
		seed: 1,
		listOrder: 'newest-first',
	});
	expect(sb.requests.log).toHaveLength(0);
});

test('clock: read and advance', async () => {
	const now = sb.clock.now();
	expect((await control('GET', '/clock')).json).toMatchObject({ now, mode: 'manual' });
	const r = await control('POST', '/clock', { advanceMs: 5000 });
	expect(r.json).toMatchObject({ now: now + 5000, iso: new Date(now + 5000).toISOString() });
	expect(sb.clock.now()).toBe(now + 5000);
	expect((await control('POST', '/clock', { advanceMs: -1 })).status).toBe(400);
	expect((await control('POST', '/clock', {})).status).toBe(400);
});

test('faults: script, random, describe, clear', async () => {
	const set = await control('POST', '/faults', {
		script: [
			{ kind: '429', match: { method: 'GET', path: '/v1/assets' }, times: 2, retryAfter: 1 },
		],
	});
	expect(set.status).toBe(200);
	expect(set.json).toMatchObject({ scripted: [{ kind: '429', remaining: 2 }], random: null });
	expect((await api(sb, sb.keys.user, 'GET', '/assets')).status).toBe(429);
	expect((await api(sb, sb.keys.user, 'GET', '/assets')).headers.get('retry-after')).toBe('1');
	expect((await api(sb, sb.keys.user, 'GET', '/assets')).status).toBe(200);
	const random = await control<{ random: { match: { path: string } } }>('POST', '/faults', {
		random: { rate: 1, kinds: ['503'], match: { pathRegex: '^/v1/vid' } },
	});
	expect(random.json.random.match.path).toBe('/^\\/v1\\/vid/');
	expect((await api(sb, sb.keys.user, 'GET', '/videos')).status).toBe(503);
	expect((await api(sb, sb.keys.user, 'GET', '/assets')).status).toBe(200);
	expect((await control('DELETE', '/faults')).json).toEqual({ scripted: [], random: null });
	expect((await api(sb, sb.keys.user, 'GET', '/videos')).status).toBe(200);
	expect((await control('POST', '/faults', { random: { rate: 1, kinds: ['nope'] } })).status).toBe(
		400,
	);
	expect((await control('POST', '/faults', {})).status).toBe(400);
	// The control API itself is never faulted.
	await control('POST', '/faults', { random: { rate: 1, kinds: ['500'], match: { path: '*' } } });
	expect((await control('GET', '/info')).status).toBe(200);
	await control('DELETE', '/faults');
});

test('list order', async () => {
	const first = async () =>
		(await api<{ data: Array<{ id: string }> }>(sb, sb.keys.user, 'GET', '/videos?limit=1')).json
			.data[0].id;
	const newest = await first();
	expect((await control('POST', '/list-order', { order: 'oldest-first' })).json).toEqual({
		order: 'oldest-first',
	});
	expect(await first()).not.toBe(newest);
	await control('POST', '/list-order', { order: 'newest-first' });
	expect(await first()).toBe(newest);
	expect((await control('POST', '/list-order', { order: 'random' })).status).toBe(400);
	expect((await control('GET', '/list-order')).json).toEqual({ order: 'newest-first' });
});

test('requests: filter and clear', async () => {
	await control('DELETE', '/requests');
	await api(sb, sb.keys.user, 'GET', '/videos?limit=2');
	await api(sb, undefined, 'GET', '/assets');
	await http(`${sb.cdnUrl}/assets/${sb.known.unusedAssetId}.jpg`);
	const all = await control<{ count: number; requests: Array<Record<string, unknown>> }>(
		'GET',
		'/requests',
	);
	expect(all.json.count).toBe(3);
	expect(all.json.requests[0]).toMatchObject({
		server: 'api',
		method: 'GET',
		path: '/v1/videos',
		query: { limit: '2' },
		status: 200,
		hadAuthorization: true,
	});
	expect(all.json.requests[1]).toMatchObject({ status: 401, hadAuthorization: false });
	expect((await control<{ count: number }>('GET', '/requests?server=cdn')).json.count).toBe(1);
	expect((await control<{ count: number }>('GET', '/requests?path=/v1/assets')).json.count).toBe(1);
	expect(
		(await control<{ count: number }>('GET', '/requests?pathRegex=^/v1/&method=GET')).json.count,
	).toBe(2);
	await control('DELETE', '/requests');
	expect(sb.requests.log).toHaveLength(0);
});

test('videos: bulk add, set an outcome, finish all', async () => {
	const now = sb.clock.now();
	const added = await control<{ created: number; ids: string[] }>('POST', '/videos', {
		count: 5,
		finishAt: { from: now + 60_000, to: now + 120_000 },
		outcome: 'published',
		title: 'Demo',
	});
	expect(added.status).toBe(201);
	expect(added.json.created).toBe(5);
	expect(sb.store.getVideo(added.json.ids[0])).toMatchObject({ status: 'draft' });
	const failed = await control('POST', `/videos/${added.json.ids[0]}/outcome`, {
		status: 'failed',
	});
	expect(failed.json).toMatchObject({
		id: added.json.ids[0],
		status: 'failed',
		finishAt: sb.clock.now(),
	});
	expect(
		(await control('POST', `/videos/${added.json.ids[1]}/outcome`, { status: 'processing' })).json,
	).toMatchObject({ status: 'processing', finishAt: null });
	const finished = await control<{ finished: number }>('POST', '/videos/finish-all');
	expect(finished.json.finished).toBeGreaterThanOrEqual(4);
	const pending = await api<{ pagination: { total: number } }>(
		sb,
		sb.keys.user,
		'GET',
		'/videos?status=processing',
	);
	expect(pending.json.pagination.total).toBe(0);
	expect(
		(await api<{ pagination: { total: number } }>(sb, sb.keys.user, 'GET', '/videos?status=draft'))
			.json.pagination.total,
	).toBe(0);
	expect((await control('POST', '/videos/vid_nope/outcome', { status: 'failed' })).status).toBe(
		404,
	);
	expect(
		(await control('POST', `/videos/${added.json.ids[2]}/outcome`, { status: 'gone' })).status,
	).toBe(400);
	expect((await control('POST', '/videos', { count: 1, templateId: 'tpl_nope' })).status).toBe(400);
});

test('credits and GraphQL limits', async () => {
	expect(
		(await control('POST', '/credits', { brandId: sb.known.primaryBrandId, credits: 0 })).status,
	).toBe(200);
	expect(
		(
			await api(sb, sb.keys.user, 'POST', '/videos', {
				title: 'x',
				template_id: sb.known.stockTemplateId,
				customer_data: {},
			})
		).status,
	).toBe(402);
	await control('POST', '/credits', { brandId: sb.known.primaryBrandId, credits: 10 });
	expect((await control('POST', '/credits', { credits: 1 })).status).toBe(400);
	expect((await control('POST', '/graphql', { maxLimit: 20, overLimit: 'reject' })).json).toEqual({
		maxLimit: 20,
		overLimit: 'reject',
	});
	expect(sb.store.graphql).toEqual({ maxLimit: 20, overLimit: 'reject' });
	expect((await control('POST', '/graphql', { overLimit: 'drop' })).status).toBe(400);
	await control('POST', '/graphql', { maxLimit: 100, overLimit: 'cap' });
});

test('stats, unknown routes, bad JSON', async () => {
	const stats = await control<{ memory: { rss: number }; videos: number }>('GET', '/stats');
	expect(stats.json.memory.rss).toBeGreaterThan(0);
	expect(stats.json.videos).toBe(sb.store.videos.size);
	expect((await control('GET', '/nope')).json.error).toMatchObject({
		status: 404,
		code: 'not_found',
	});
	const bad = await http(`${sb.controlUrl}/clock`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: '{',
	});
	expect(bad.status).toBe(400);
});
