// The listing lag (README "Listing lag"): the video list shows a new video only from created_at +
// its seeded lag on, at its created_at place, in items and totals, filtered or not.
import { startSandbox, type Sandbox } from '../../sandbox/index.mts';
import { api, type Json } from './helpers.mts';

type VideoList = {
	data: Array<{ id: string; status: string; created_at: string }>;
	pagination: { total: number };
} & Json;

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox({ quiet: true, listingLag: { minMs: 1000, maxMs: 60_000 } });
});
afterAll(() => sb.close());

const list = async (query: string) =>
	(await api<VideoList>(sb, sb.keys.user, 'GET', `/videos?limit=100${query}`)).json;

test('each new video is listed from created_at + its lag on, in its created_at place', async () => {
	const before = await list('');
	const start = sb.clock.now();
	const made = sb.store.addVideos(40, {
		createdAt: { from: start, to: start + 10_000 },
		finishAt: start,
		outcome: 'published',
	});
	const lags = made.map((video) => sb.store.listedAt(video) - video.createdAt);
	expect(Math.min(...lags)).toBeGreaterThanOrEqual(1000);
	expect(Math.max(...lags)).toBeLessThanOrEqual(60_000);
	expect(new Set(lags).size).toBeGreaterThan(30);
	let sawLateBelowNewest = false;
	for (let at = start; at <= start + 71_000; at += 5000) {
		sb.clock.advance(at - sb.clock.now());
		const expected = made.filter((video) => sb.store.listedAt(video) <= at);
		const all = await list('');
		const published = await list('&status=published');
		for (const page of [all, published]) {
			const shown = page.data.filter((video) => made.some((m) => m.id === video.id));
			expect(shown.map((video) => video.id).sort()).toEqual(expected.map((m) => m.id).sort());
		}
		expect(all.pagination.total).toBe(before.pagination.total + expected.length);
		// Newest first, by created_at: a late video comes in below videos listed before it.
		const times = all.data.map((video) => Date.parse(video.created_at));
		expect(times).toEqual([...times].sort((a, b) => b - a));
		const newestListed = Math.max(...expected.map((video) => video.createdAt));
		sawLateBelowNewest ||= made.some(
			(video) => video.createdAt < newestListed && sb.store.listedAt(video) > at,
		);
	}
	expect(sawLateBelowNewest).toBe(true);
	expect((await list('')).pagination.total).toBe(before.pagination.total + 40);
	expect(sb.store.listVideos()).toHaveLength(before.pagination.total + 40);
});

test('without a lag a video is listed at once', async () => {
	sb.store.listingLag = undefined;
	const [video] = sb.store.addVideos(1);
	expect(sb.store.listedAt(video)).toBe(video.createdAt);
	expect((await list('')).data[0].id).toBe(video.id);
});
