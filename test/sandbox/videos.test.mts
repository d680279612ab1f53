// REST videos: list envelope and limits, filters, order, create validation, templates, credits, auth.
import { startSandbox, type Sandbox } from '../../sandbox/index.mts';
import { api, http, type Json } from './helpers.mts';

interface Video {
	id: string;
	title: string;
	status: string;
	duration: number | null;
	created_at: string;
	url: string | null;
	thumbnail: string | null;
}
interface Pagination {
	total: number;
	page: number;
	limit: number;
	next_page: number | null;
	prev_page: number | null;
}
type VideoList = { data: Video[]; pagination: Pagination } & Json;

const VIDEO_KEYS = ['created_at', 'duration', 'id', 'status', 'thumbnail', 'title', 'url'];

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox({ quiet: true });
});
afterAll(() => sb.close());

const list = (query = '', key = sb.keys.user) => api<VideoList>(sb, key, 'GET', `/videos${query}`);
const validBody = () => ({
	title: 'Hello Jane',
	template_id: sb.known.stockTemplateId,
	customer_data: { first_name: 'Jane' },
});

async function walkAll(key = sb.keys.user, query = ''): Promise<Video[]> {
	const all: Video[] = [];
	for (let page = 1; ; page++) {
		const r = await list(`?limit=100&page=${page}${query}`, key);
		all.push(...r.json.data);
		if (r.json.pagination.next_page === null) return all;
	}
}

describe('list videos: envelope and nulls', () => {
	test('first page: default limit 20, pagination per spec 2.1', async () => {
		const r = await list();
		expect(r.status).toBe(200);
		expect(r.headers.get('content-type')).toMatch(/^application\/json/);
		expect(Object.keys(r.json).sort()).toEqual(['data', 'pagination']);
		expect(r.json.data).toHaveLength(20);
		expect(r.json.pagination).toEqual({
			total: 250,
			page: 1,
			limit: 20,
			next_page: 2,
			prev_page: null,
		});
	});

	test('each video has exactly the spec 2.3 fields; only published videos have duration, url and thumbnail', async () => {
		const all = await walkAll();
		expect(all).toHaveLength(250);
		const statuses = new Set(all.map((v) => v.status));
		expect([...statuses].sort()).toEqual(['draft', 'failed', 'processing', 'published']);
		for (const v of all) {
			expect(Object.keys(v).sort()).toEqual(VIDEO_KEYS);
			expect(typeof v.id).toBe('string');
			expect(typeof v.title).toBe('string');
			expect(new Date(v.created_at).toISOString()).toBe(v.created_at);
			if (v.status === 'published') {
				expect(typeof v.duration).toBe('number');
				expect(v.url).toBe(`${sb.cdnUrl}/videos/${v.id}.mp4`);
				expect(v.thumbnail).toBe(`${sb.cdnUrl}/videos/${v.id}.jpg`);
			} else {
				expect(v).toMatchObject({ duration: null, url: null, thumbnail: null });
			}
		}
		expect(new Set(all.map((v) => v.id)).size).toBe(250);
	});

	test('middle, last and past-the-end pages', async () => {
		expect((await list('?page=2')).json.pagination).toEqual({
			total: 250,
			page: 2,
			limit: 20,
			next_page: 3,
			prev_page: 1,
		});
		const last = await list('?page=13');
		expect(last.json.data).toHaveLength(10);
		expect(last.json.pagination).toEqual({
			total: 250,
			page: 13,
			limit: 20,
			next_page: null,
			prev_page: 12,
		});
		const past = await list('?page=14');
		expect(past.status).toBe(200);
		expect(past.json.data).toEqual([]);
		expect(past.json.pagination).toEqual({
			total: 250,
			page: 14,
			limit: 20,
			next_page: null,
			prev_page: 13,
		});
		const exact = await list('?limit=50&page=5');
		expect(exact.json.data).toHaveLength(50);
		expect(exact.json.pagination.next_page).toBeNull();
	});

	test('limit 1 and 100 are accepted', async () => {
		expect((await list('?limit=1')).json.data).toHaveLength(1);
		const r = await list('?limit=100');
		expect(r.json.data).toHaveLength(100);
		expect(r.json.pagination).toMatchObject({ limit: 100, next_page: 2 });
	});

	test.each([
		['?limit=101', 'limit'],
		['?limit=0', 'limit'],
		['?limit=-1', 'limit'],
		['?limit=2.5', 'limit'],
		['?limit=abc', 'limit'],
		['?limit=', 'limit'],
		['?page=0', 'page'],
		['?page=1.5', 'page'],
		['?page=x', 'page'],
		['?page=1&page=2', 'page'],
		['?status=done', 'status'],
		['?status=', 'status'],
		['?status=PUBLISHED', 'status'],
	])('%s → 400 in the common error format', async (query, param) => {
		const r = await list(query);
		expect(r.status).toBe(400);
		expect(r.json.error).toMatchObject({ status: 400, code: 'invalid_query' });
		expect(r.json.error?.message).toContain(param);
	});
});

describe('list videos: filters, scope and order', () => {
	test('status filter: every item has the status, totals add up to all videos', async () => {
		let sum = 0;
		for (const status of ['draft', 'processing', 'published', 'failed']) {
			const items = await walkAll(sb.keys.user, `&status=${status}`);
			expect(items.length).toBeGreaterThan(0);
			expect(items.every((v) => v.status === status)).toBe(true);
			expect((await list(`?status=${status}`)).json.pagination.total).toBe(items.length);
			sum += items.length;
		}
		expect(sum).toBe(250);
	});

	test('videos are scoped to the caller brand', async () => {
		const mine = await walkAll();
		const other = await walkAll(sb.keys.otherBrandUser);
		expect(other).toHaveLength(30);
		const ids = new Set(mine.map((v) => v.id));
		expect(other.some((v) => ids.has(v.id))).toBe(false);
		// Every seeded key but otherBrandUser and noCredits sees the primary brand.
		for (const key of [sb.keys.brandAdmin, sb.keys.orgAdmin, sb.keys.admin]) {
			expect((await list('?limit=5', key)).json.data.map((v) => v.id)).toEqual(
				(await list('?limit=5')).json.data.map((v) => v.id),
			);
		}
		expect((await list('', sb.keys.noCredits)).json.pagination.total).toBe(0);
	});

	test('newest first by default, oldest first after the switch, deterministic ties', async () => {
		const newest = await walkAll();
		const times = newest.map((v) => Date.parse(v.created_at));
		expect(times).toEqual([...times].sort((a, b) => b - a));
		sb.setListOrder('oldest-first');
		try {
			const oldest = await walkAll();
			expect(oldest.map((v) => v.id)).toEqual([...newest].reverse().map((v) => v.id));
		} finally {
			sb.setListOrder('newest-first');
		}
	});
});

describe('create video', () => {
	test('201 with exactly the Video fields, status draft, listed first', async () => {
		const before = (await list()).json.pagination.total;
		const r = await api<Video & Json>(sb, sb.keys.user, 'POST', '/videos', {
			...validBody(),
			ai_messaging: { tone: 'friendly', key_points: ['free shipping', 'loyalty points'] },
			aspect_ratio: '16:9',
			project_id: 'prj_42',
		});
		expect(r.status).toBe(201);
		expect(Object.keys(r.json).sort()).toEqual(VIDEO_KEYS);
		expect(r.json).toMatchObject({
			title: 'Hello Jane',
			status: 'draft',
			duration: null,
			url: null,
			thumbnail: null,
		});
		expect(r.json.created_at).toBe(new Date(sb.clock.now()).toISOString());
		const first = await list('?limit=1');
		expect(first.json.data[0].id).toBe(r.json.id);
		expect(first.json.pagination.total).toBe(before + 1);
		const stored = sb.store.getVideo(r.json.id);
		expect(stored).toMatchObject({
			aspectRatio: '16:9',
			projectId: 'prj_42',
			templateId: sb.known.stockTemplateId,
		});
		expect(stored?.aiMessaging).toEqual({
			tone: 'friendly',
			key_points: ['free shipping', 'loyalty points'],
		});
	});

	test('aspect ratio defaults to 9:16; optional fields may be null', async () => {
		const r = await api<Video & Json>(sb, sb.keys.user, 'POST', '/videos', {
			...validBody(),
			ai_messaging: null,
			aspect_ratio: null,
			project_id: null,
		});
		expect(r.status).toBe(201);
		expect(sb.store.getVideo(r.json.id)).toMatchObject({
			aspectRatio: '9:16',
			projectId: null,
			aiMessaging: null,
		});
	});

	test('two videos created at the same instant: the later one is listed first (newest first)', async () => {
		const a = await api<Video & Json>(sb, sb.keys.user, 'POST', '/videos', validBody());
		const b = await api<Video & Json>(sb, sb.keys.user, 'POST', '/videos', validBody());
		expect(a.json.created_at).toBe(b.json.created_at);
		expect((await list('?limit=2')).json.data.map((v) => v.id)).toEqual([b.json.id, a.json.id]);
	});

	test.each([
		[{ template_id: 'x', customer_data: {} }, ['title']],
		[{ title: 'x', customer_data: {} }, ['template_id']],
		[{ title: 'x', template_id: 'x' }, ['customer_data']],
		[{}, ['title', 'template_id', 'customer_data']],
		[{ title: 5, template_id: 'x', customer_data: {} }, ['title']],
		[{ title: '  ', template_id: 'x', customer_data: {} }, ['title']],
		[{ title: 'x', template_id: 7, customer_data: {} }, ['template_id']],
		[{ title: 'x', template_id: 'x', customer_data: [1] }, ['customer_data']],
		[{ title: 'x', template_id: 'x', customer_data: 'a=b' }, ['customer_data']],
		[
			{ title: 'x', template_id: 'x', customer_data: {}, ai_messaging: 'friendly' },
			['ai_messaging'],
		],
		[
			{ title: 'x', template_id: 'x', customer_data: {}, ai_messaging: { tone: 3 } },
			['ai_messaging.tone'],
		],
		[
			{ title: 'x', template_id: 'x', customer_data: {}, ai_messaging: { key_points: 'one' } },
			['ai_messaging.key_points'],
		],
		[
			{ title: 'x', template_id: 'x', customer_data: {}, ai_messaging: { key_points: ['a', 2] } },
			['ai_messaging.key_points'],
		],
		[{ title: 'x', template_id: 'x', customer_data: {}, aspect_ratio: '4:3' }, ['aspect_ratio']],
		[{ title: 'x', template_id: 'x', customer_data: {}, project_id: 12 }, ['project_id']],
	])('invalid body %j → 422 naming %j', async (body, fields) => {
		const credits = sb.store.brand(sb.known.primaryBrandId).credits;
		const r = await api(sb, sb.keys.user, 'POST', '/videos', body);
		expect(r.status).toBe(422);
		expect(r.json.error).toMatchObject({ status: 422, code: 'validation_failed' });
		expect(r.json.error?.details?.map((d) => d.field).sort()).toEqual([...fields].sort());
		expect(sb.store.brand(sb.known.primaryBrandId).credits).toBe(credits);
	});

	test('malformed bodies: invalid JSON 400, a JSON array 400, a non-JSON content type 415, over 1 MiB 413', async () => {
		const post = (body: string, type = 'application/json') =>
			http(`${sb.baseUrl}/videos`, {
				method: 'POST',
				headers: { authorization: `Bearer ${sb.keys.user}`, 'content-type': type },
				body,
			});
		expect((await post('{"title":')).json.error).toMatchObject({
			status: 400,
			code: 'invalid_json',
		});
		expect((await post('')).status).toBe(400);
		expect((await post('[1]')).json.error).toMatchObject({ status: 400, code: 'invalid_body' });
		expect((await post('title=x', 'application/x-www-form-urlencoded')).json.error).toMatchObject({
			status: 415,
			code: 'unsupported_media_type',
		});
		const huge = JSON.stringify({
			...validBody(),
			customer_data: { blob: 'x'.repeat(1024 * 1024) },
		});
		expect((await post(huge)).json.error).toMatchObject({ status: 413, code: 'payload_too_large' });
	});

	test('unknown template → 404; templates the caller may not use → 403 (spec section 5)', async () => {
		const create = (key: string, template_id: string) =>
			api(sb, key, 'POST', '/videos', { ...validBody(), template_id });
		expect((await create(sb.keys.user, 'tpl_nope')).json.error).toMatchObject({
			status: 404,
			code: 'template_not_found',
		});
		const k = sb.known;
		const cases: Array<[string, string, number]> = [
			[sb.keys.user, k.brandTemplateId, 201],
			[sb.keys.user, k.sceneTemplateId, 201],
			[sb.keys.user, k.otherBrandTemplateId, 403],
			[sb.keys.user, k.siblingBrandTemplateId, 403],
			[sb.keys.user, k.platformSceneTemplateId, 403],
			[sb.keys.brandAdmin, k.siblingBrandTemplateId, 403],
			[sb.keys.orgAdmin, k.siblingBrandTemplateId, 201],
			[sb.keys.orgAdmin, k.otherBrandTemplateId, 403],
			[sb.keys.admin, k.otherBrandTemplateId, 201],
			[sb.keys.admin, k.platformSceneTemplateId, 201],
			[sb.keys.otherBrandUser, k.stockTemplateId, 201],
			[sb.keys.otherBrandUser, k.brandTemplateId, 403],
		];
		for (const [key, template, status] of cases) {
			const r = await create(key, template);
			expect({ key, template, status: r.status }).toEqual({ key, template, status });
			if (status === 403) expect(r.json.error).toMatchObject({ status: 403, code: 'forbidden' });
		}
	});

	test('each video costs 1 credit of the brand share and of the organisation pool; none left → 402', async () => {
		const brand = sb.store.brand(sb.known.primaryBrandId);
		const org = sb.store.organisations.get(sb.known.primaryOrganisationId);
		const [b0, o0] = [brand.credits, org?.credits ?? 0];
		expect((await api(sb, sb.keys.user, 'POST', '/videos', validBody())).status).toBe(201);
		expect([brand.credits, org?.credits]).toEqual([b0 - 1, o0 - 1]);

		const none = await api(sb, sb.keys.noCredits, 'POST', '/videos', validBody());
		expect(none.status).toBe(402);
		expect(none.json.error).toMatchObject({ status: 402, code: 'insufficient_credits' });
		expect(org?.credits).toBe(o0 - 1);

		sb.store.setCredits({ brandId: sb.known.primaryBrandId, credits: 1 });
		try {
			expect((await api(sb, sb.keys.user, 'POST', '/videos', validBody())).status).toBe(201);
			expect((await api(sb, sb.keys.user, 'POST', '/videos', validBody())).status).toBe(402);
			sb.store.setCredits({ brandId: sb.known.primaryBrandId, credits: 10 });
			sb.store.setCredits({ organisationId: sb.known.primaryOrganisationId, credits: 0 });
			expect((await api(sb, sb.keys.user, 'POST', '/videos', validBody())).status).toBe(402);
		} finally {
			sb.store.setCredits({ brandId: sb.known.primaryBrandId, credits: 5000 });
			sb.store.setCredits({ organisationId: sb.known.primaryOrganisationId, credits: 5000 });
		}
	});

	test('Idempotency-Key: a replay returns the same video without a second charge; another body → 409', async () => {
		const brand = sb.store.brand(sb.known.primaryBrandId);
		const post = (body: unknown, key: string) =>
			http<Video & Json>(`${sb.baseUrl}/videos`, {
				method: 'POST',
				headers: {
					authorization: `Bearer ${sb.keys.user}`,
					'content-type': 'application/json',
					'idempotency-key': key,
				},
				body: JSON.stringify(body),
			});
		const credits = brand.credits;
		const first = await post(validBody(), 'idem-1');
		const again = await post(validBody(), 'idem-1');
		expect(first.status).toBe(201);
		expect(again.status).toBe(201);
		expect(again.headers.get('idempotent-replayed')).toBe('true');
		expect(again.json.id).toBe(first.json.id);
		expect(brand.credits).toBe(credits - 1);
		const conflict = await post({ ...validBody(), title: 'Other' }, 'idem-1');
		expect(conflict.status).toBe(409);
		expect(conflict.json.error).toMatchObject({ status: 409, code: 'idempotency_conflict' });
		// The key is per user.
		expect(
			(
				await http(`${sb.baseUrl}/videos`, {
					method: 'POST',
					headers: {
						authorization: `Bearer ${sb.keys.brandAdmin}`,
						'content-type': 'application/json',
						'idempotency-key': 'idem-1',
					},
					body: JSON.stringify({ ...validBody(), title: 'Other' }),
				})
			).status,
		).toBe(201);
	});
});

describe('authentication, unknown paths and methods', () => {
	test('missing, malformed, unknown and expired keys → 401', async () => {
		const missing = await api(sb, undefined, 'GET', '/videos');
		expect(missing.status).toBe(401);
		expect(missing.json.error).toMatchObject({ status: 401, code: 'missing_api_key' });
		expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
		const malformed = await http(`${sb.baseUrl}/videos`, {
			headers: { authorization: `Token ${sb.keys.user}` },
		});
		expect(malformed.json.error).toMatchObject({ status: 401, code: 'invalid_api_key' });
		expect((await api(sb, 'vpk_test_nope', 'GET', '/videos')).json.error).toMatchObject({
			status: 401,
			code: 'invalid_api_key',
		});
		const expired = await api(sb, sb.keys.expired, 'POST', '/videos', validBody());
		expect(expired.status).toBe(401);
		expect(expired.json.error?.code).toBe('expired_api_key');
		expect(expired.json.error?.message).toMatch(/expired/);
		// The scheme is case-insensitive.
		expect(
			(
				await http(`${sb.baseUrl}/videos?limit=1`, {
					headers: { authorization: `bearer ${sb.keys.user}` },
				})
			).status,
		).toBe(200);
	});

	test('unknown paths → 404, wrong methods → 405 with Allow', async () => {
		expect((await api(sb, sb.keys.user, 'GET', '/nope')).json.error).toMatchObject({
			status: 404,
			code: 'not_found',
		});
		expect((await api(sb, sb.keys.user, 'GET', '/videos/vid_1')).status).toBe(404);
		expect((await http(`${sb.baseUrl.replace('/v1', '')}/v2/videos`)).status).toBe(404);
		const wrong = await api(sb, sb.keys.user, 'DELETE', '/videos');
		expect(wrong.status).toBe(405);
		expect(wrong.json.error).toMatchObject({ status: 405, code: 'method_not_allowed' });
		expect(wrong.headers.get('allow')).toBe('GET, POST');
		expect(
			(await api(sb, sb.keys.user, 'POST', `/assets/${sb.known.usedAssetId}`, {})).headers.get(
				'allow',
			),
		).toBe('GET, PATCH, PUT, DELETE');
		expect((await api(sb, sb.keys.user, 'GET', '/graphql')).status).toBe(405);
	});
});
