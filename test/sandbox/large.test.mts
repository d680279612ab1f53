// The large account: 100,000 videos and 10,000 assets.
import { startSandbox, type Sandbox } from '../../sandbox/index.mts';
import { api } from './helpers.mts';

interface ListJson {
	data: Array<{ id: string; status: string; created_at: string }>;
	pagination: {
		total: number;
		page: number;
		limit: number;
		next_page: number | null;
		prev_page: number | null;
	};
}

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox({ quiet: true, dataset: 'large' });
});
afterAll(() => sb.close());

test('100,000 videos: first, last and past-the-end pages', async () => {
	const first = await api<ListJson>(sb, sb.keys.user, 'GET', '/videos?limit=100');
	expect(first.json.pagination).toEqual({
		total: 100_000,
		page: 1,
		limit: 100,
		next_page: 2,
		prev_page: null,
	});
	const last = await api<ListJson>(sb, sb.keys.user, 'GET', '/videos?limit=100&page=1000');
	expect(last.json.data).toHaveLength(100);
	expect(last.json.pagination).toMatchObject({ next_page: null, prev_page: 999 });
	expect(Date.parse(last.json.data[99].created_at)).toBeLessThanOrEqual(
		Date.parse(first.json.data[0].created_at),
	);
	expect(
		(await api<ListJson>(sb, sb.keys.user, 'GET', '/videos?limit=100&page=1001')).json.data,
	).toEqual([]);
	sb.setListOrder('oldest-first');
	try {
		const oldest = await api<ListJson>(sb, sb.keys.user, 'GET', '/videos?limit=100&page=1000');
		expect(oldest.json.data[99].id).toBe(first.json.data[0].id);
	} finally {
		sb.setListOrder('newest-first');
	}
});

test('status filters cover every video; only a few are pending', async () => {
	let sum = 0;
	const totals: Record<string, number> = {};
	for (const status of ['draft', 'processing', 'published', 'failed']) {
		totals[status] = (
			await api<ListJson>(sb, sb.keys.user, 'GET', `/videos?status=${status}&limit=1`)
		).json.pagination.total;
		sum += totals[status];
	}
	expect(sum).toBe(100_000);
	expect(totals.processing + totals.draft).toBeLessThanOrEqual(65);
	const lastPublished = Math.ceil(totals.published / 100);
	const page = await api<ListJson>(
		sb,
		sb.keys.user,
		'GET',
		`/videos?status=published&limit=100&page=${lastPublished}`,
	);
	expect(page.json.data.length).toBe(totals.published - (lastPublished - 1) * 100);
	expect(page.json.data.every((v) => v.status === 'published')).toBe(true);
});

test('10,000 assets', async () => {
	const r = await api<ListJson>(sb, sb.keys.user, 'GET', '/assets?limit=100&page=100');
	expect(r.json.pagination).toMatchObject({ total: 10_000, next_page: null });
	expect(r.json.data).toHaveLength(100);
});

test('custom sizes', async () => {
	const small = await startSandbox({ quiet: true, dataset: { videos: 0, assets: 4 } });
	try {
		expect((await api<ListJson>(small, small.keys.user, 'GET', '/videos')).json).toEqual({
			data: [],
			pagination: { total: 0, page: 1, limit: 20, next_page: null, prev_page: null },
		});
		expect(
			(await api<ListJson>(small, small.keys.user, 'GET', '/assets')).json.pagination.total,
		).toBe(4);
	} finally {
		await small.close();
	}
	await expect(startSandbox({ quiet: true, dataset: { videos: -1, assets: 10 } })).rejects.toThrow(
		RangeError,
	);
});
