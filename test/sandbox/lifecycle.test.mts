// Video lifecycle on the clock, determinism from the seed, and the store API for tests.
import { startSandbox, type Sandbox } from '../../sandbox/index.mts';
import { api, http, type Json } from './helpers.mts';

interface Video {
	id: string;
	status: string;
	duration: number | null;
	url: string | null;
	thumbnail: string | null;
	created_at: string;
}

const body = (sb: Sandbox) => ({
	title: 'Lifecycle',
	template_id: sb.known.stockTemplateId,
	customer_data: { first_name: 'Jo' },
});

describe('lifecycle of a created video', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await startSandbox({
			quiet: true,
			render: { queueMs: 1000, minMs: 5000, maxMs: 5000, failureShare: 0 },
		});
	});
	afterAll(() => sb.close());

	const find = async (id: string) => {
		const r = await api<{ data: Video[] } & Json>(sb, sb.keys.user, 'GET', '/videos?limit=100');
		return r.json.data.find((v) => v.id === id);
	};

	test('draft → processing → published, with duration, url and thumbnail on the CDN', async () => {
		const created = await api<Video & Json>(sb, sb.keys.user, 'POST', '/videos', body(sb));
		const id = created.json.id;
		expect(created.json.status).toBe('draft');
		sb.clock.advance(999);
		expect((await find(id))?.status).toBe('draft');
		sb.clock.advance(1);
		expect(await find(id)).toMatchObject({
			status: 'processing',
			duration: null,
			url: null,
			thumbnail: null,
		});
		expect((await http(`${sb.cdnUrl}/videos/${id}.mp4`)).status).toBe(404);
		sb.clock.advance(4999);
		expect((await find(id))?.status).toBe('processing');
		sb.clock.advance(1);
		const done = await find(id);
		expect(done).toMatchObject({
			status: 'published',
			duration: 30,
			url: `${sb.cdnUrl}/videos/${id}.mp4`,
			thumbnail: `${sb.cdnUrl}/videos/${id}.jpg`,
		});
		const mp4 = await fetch(done?.url as string);
		expect(mp4.status).toBe(200);
		expect(mp4.headers.get('content-type')).toBe('video/mp4');
		expect((await fetch(done?.thumbnail as string)).headers.get('content-type')).toBe('image/jpeg');
		expect(
			(await api(sb, sb.keys.user, 'GET', '/videos?status=published&limit=1')).json.data,
		).toEqual([done]);
	});

	test('seeded pending videos all finish as the clock advances', async () => {
		const pending = () =>
			sb.store.listVideos().filter((v) => v.status === 'draft' || v.status === 'processing').length;
		expect(pending()).toBeGreaterThan(10);
		sb.clock.advance(60 * 60_000);
		expect(pending()).toBe(0);
	});

	test('clock.advance refuses negative or non-finite values', () => {
		expect(() => sb.clock.advance(-1)).toThrow(RangeError);
		expect(() => sb.clock.advance(Number.NaN)).toThrow(RangeError);
	});
});

test('failed renders keep duration, url and thumbnail null', async () => {
	const sb = await startSandbox({ quiet: true, render: { failureShare: 1 } });
	try {
		const { json } = await api<Video & Json>(sb, sb.keys.user, 'POST', '/videos', body(sb));
		sb.clock.advance(60_000);
		const listed = (
			await api<{ data: Video[] } & Json>(sb, sb.keys.user, 'GET', '/videos?status=failed&limit=1')
		).json.data[0];
		expect(listed).toMatchObject({
			id: json.id,
			status: 'failed',
			duration: null,
			url: null,
			thumbnail: null,
		});
		expect((await http(`${sb.cdnUrl}/videos/${json.id}.mp4`)).status).toBe(404);
	} finally {
		await sb.close();
	}
});

test('everything generated depends only on the seed', async () => {
	const snapshot = async (seed: number) => {
		const sb = await startSandbox({ quiet: true, seed });
		try {
			const created = [];
			for (let i = 0; i < 20; i++)
				created.push(
					(await api<Video & Json>(sb, sb.keys.user, 'POST', '/videos', body(sb))).json.id,
				);
			sb.clock.advance(10 * 60_000);
			const videos = sb.store
				.listVideos()
				.map((v) => [v.id, v.title, v.status, v.createdAt, v.finishAt]);
			const assets = sb.store
				.listAssets()
				.map((a) => [a.id, a.name, a.tags.join(','), a.usedInVideos]);
			const users = [...sb.store.users.values()].map((u) => [u.id, u.email]);
			const templates = [...sb.store.templates.keys()];
			return JSON.stringify({ created, videos, assets, users, templates });
		} finally {
			await sb.close();
		}
	};
	const a = await snapshot(1);
	expect(await snapshot(1)).toBe(a);
	expect(await snapshot(2)).not.toBe(a);
});

describe('store API for tests', () => {
	let sb: Sandbox;
	beforeEach(async () => {
		sb = await startSandbox({
			quiet: true,
			render: { queueMs: 0, minMs: 1000, maxMs: 1000, failureShare: 0 },
		});
	});
	afterEach(() => sb.close());

	test('addVideos spread over windows: invisible until created, finishing inside the finish window', async () => {
		const now = sb.clock.now();
		const before = sb.store.listVideos().length;
		const added = sb.store.addVideos(200, {
			createdAt: { from: now + 1000, to: now + 60_000 },
			finishAt: { from: now + 60_000, to: now + 120_000 },
			failureShare: 0.25,
		});
		expect(added).toHaveLength(200);
		expect(new Set(added.map((v) => v.id)).size).toBe(200);
		expect(sb.store.listVideos().length).toBe(before);
		expect((await api(sb, sb.keys.user, 'GET', '/videos?limit=1')).json.pagination).toMatchObject({
			total: before,
		});
		sb.clock.advance(60_000);
		expect(sb.store.listVideos().length).toBe(before + 200);
		expect((await api(sb, sb.keys.user, 'GET', '/videos?limit=1')).json.pagination).toMatchObject({
			total: before + 200,
		});
		sb.clock.advance(60_000);
		const finished = added.map((v) => sb.store.getVideo(v.id));
		expect(finished.every((v) => v?.status === 'published' || v?.status === 'failed')).toBe(true);
		const failed = finished.filter((v) => v?.status === 'failed').length;
		expect(failed).toBeGreaterThan(20);
		expect(failed).toBeLessThan(80);
		for (const v of added) {
			expect(v.createdAt).toBeGreaterThanOrEqual(now + 1000);
			expect(v.finishAt).toBeGreaterThanOrEqual(Math.max(now + 60_000, v.createdAt));
			expect(v.finishAt).toBeLessThanOrEqual(now + 120_000);
		}
	});

	test('addVideos: fixed times, forced outcome, brand, template, usage counting', async () => {
		const now = sb.clock.now();
		const used = sb.store.getAsset(sb.known.unusedAssetId)?.usedInVideos ?? 0;
		const added = sb.store.addVideos(3, {
			createdAt: now,
			finishAt: now + 5000,
			outcome: 'failed',
			title: 'Batch',
			customerData: { banner: sb.known.unusedAssetId },
		});
		expect(added.map((v) => v.status)).toEqual(['processing', 'processing', 'processing']);
		expect(added[0].title).toMatch(/^Batch #\d+$/);
		expect(sb.store.getAsset(sb.known.unusedAssetId)?.usedInVideos).toBe(used + 3);
		sb.clock.advance(5000);
		expect(added.map((v) => sb.store.getVideo(v.id)?.status)).toEqual([
			'failed',
			'failed',
			'failed',
		]);
		const other = sb.store.addVideos(2, {
			brandId: sb.known.otherBrandId,
			templateId: sb.known.otherBrandTemplateId,
		});
		expect(
			sb.store
				.listVideos(sb.known.otherBrandId)
				.slice(0, 2)
				.map((v) => v.id),
		).toEqual([other[1].id, other[0].id]);
		expect(() => sb.store.addVideos(1, { templateId: 'tpl_nope' })).toThrow();
	});

	test('setVideoOutcome forces when and how a video finishes; finishAll ends every pending video now', async () => {
		const [processing] = sb.store.listVideos(undefined, { status: 'processing' });
		const at = sb.clock.now() + 30_000;
		sb.store.setVideoOutcome(processing.id, { status: 'failed', at });
		expect(sb.store.getVideo(processing.id)?.status).toBe('processing');
		sb.clock.advance(30_000);
		expect(sb.store.getVideo(processing.id)).toMatchObject({ status: 'failed', finishAt: at });

		const [published] = sb.store.listVideos(undefined, { status: 'published' });
		expect(sb.store.setVideoOutcome(published.id, { status: 'processing' }).status).toBe(
			'processing',
		);
		sb.clock.advance(24 * 3600_000);
		expect(sb.store.getVideo(published.id)?.status).toBe('processing');
		expect(sb.store.setVideoOutcome(published.id, { status: 'draft' }).status).toBe('draft');
		expect(sb.store.setVideoOutcome(published.id, { status: 'published' }).status).toBe(
			'published',
		);

		const created = await api<Video & Json>(sb, sb.keys.user, 'POST', '/videos', body(sb));
		const holds = sb.store.addVideos(4, { finishAt: sb.clock.now() + 3600_000 });
		expect(sb.store.finishAll()).toBe(5);
		expect(sb.store.getVideo(created.json.id)?.status).toMatch(/published|failed/);
		expect(holds.map((v) => sb.store.getVideo(v.id)?.finishAt)).toEqual(
			holds.map(() => sb.clock.now()),
		);
		sb.store.addVideos(2, { finishAt: sb.clock.now() + 1000 });
		expect(sb.store.finishAll('failed')).toBe(2);
		expect(sb.store.listVideos(undefined, { status: 'failed' }).length).toBeGreaterThan(1);
	});

	test('typed access to seeded entities', () => {
		const k = sb.known;
		expect(sb.store.organisations.get(k.primaryOrganisationId)?.name).toBe('Acme Corporation');
		expect(sb.store.brands.get(k.primaryBrandId)?.name).toBe('Acme Coffee');
		expect(sb.store.users.get(k.users.user)?.email).toBe('ada.lovelace@acme.example');
		expect(sb.store.templates.get(k.stockTemplateId)?.name).toBe('Welcome Onboarding');
		expect(sb.store.getAsset(k.usedAssetId)?.usedInVideos).toBe(25);
		const types = new Set([...sb.store.templates.values()].map((t) => t.templateType));
		expect([...types].sort()).toEqual(['brand', 'endcard', 'scene', 'stock']);
		const assetTypes = new Set(sb.store.listAssets().map((a) => a.type));
		expect([...assetTypes].sort()).toEqual(['audio', 'image', 'video']);
		expect(sb.store.listVideos(undefined, { order: 'oldest-first' })[0].createdAt).toBeLessThan(
			sb.store.listVideos()[0].createdAt,
		);
	});
});

test('real clock follows wall time (and can still be advanced)', async () => {
	const sb = await startSandbox({ quiet: true, clock: 'real' });
	try {
		const a = sb.clock.now();
		expect(Math.abs(a - Date.now())).toBeLessThan(60_000);
		sb.clock.advance(3600_000);
		expect(sb.clock.now()).toBeGreaterThanOrEqual(a + 3600_000);
		const fixed = await startSandbox({ quiet: true, startTime: Date.UTC(2030, 0, 1) });
		expect(fixed.clock.now()).toBe(Date.UTC(2030, 0, 1));
		await fixed.close();
	} finally {
		await sb.close();
	}
});
