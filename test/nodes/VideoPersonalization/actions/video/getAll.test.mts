import { runNode } from '../../../../harness/engine.mts';
import { credentialsFor, useSandbox } from '../../../../harness/fixtures.mts';

// No seeded videos: the list holds exactly what each test adds.
const sandbox = useSandbox({ dataset: { videos: 0, assets: 4 } });

async function getMany(parameters: Record<string, unknown>) {
	const s = sandbox();
	s.requests.clear();
	const result = await runNode({
		parameters: { resource: 'video', operation: 'getAll', ...parameters },
		credentials: credentialsFor(s),
	});
	expect(result.error).toBeUndefined();
	const listCalls = s.requests.log.filter((request) => request.path === '/v1/videos');
	return { ids: result.items.map((item) => String(item.json.id)), items: result.items, listCalls };
}

describe('Video > Get Many', () => {
	it.each([
		// [videos in the list, returnAll, limit, expected items, expected requests]
		[0, true, 50, 0, 1],
		[1, true, 50, 1, 1],
		[100, true, 50, 100, 1],
		[101, true, 50, 101, 2],
		[101, false, 5, 5, 1],
		[101, false, 100, 100, 1],
		[101, false, 150, 101, 2],
		[250, false, 201, 201, 3],
		[250, true, 50, 250, 3],
	])(
		'with %i videos, Return All %s, Limit %i: %i items in %i requests',
		async (count, returnAll, limit, expectedItems, expectedRequests) => {
			const s = sandbox();
			const existing = s.store.listVideos().length;
			if (existing < count)
				s.store.addVideos(count - existing, {
					createdAt: { from: s.clock.now() - 3_600_000, to: s.clock.now() },
				});
			expect(s.store.listVideos()).toHaveLength(count);

			const { ids, listCalls } = await getMany({ returnAll, limit });
			expect(ids).toHaveLength(expectedItems);
			expect(new Set(ids).size).toBe(expectedItems);
			expect(listCalls).toHaveLength(expectedRequests);
			// The fewest requests: pages of 100, or exactly the limit when it fits in one page.
			expect(listCalls.every((call) => Number(call.query.limit) <= 100)).toBe(true);
			if (!returnAll && limit <= 100) expect(listCalls[0].query.limit).toBe(String(limit));
			const all = s.store.listVideos().map((video) => video.id);
			expect(all).toEqual(expect.arrayContaining(ids));
		},
	);

	it('keeps the list order and one output item per video, each paired with its input item', async () => {
		const { items } = await getMany({ returnAll: true });
		const order = sandbox()
			.store.listVideos()
			.map((video) => video.id);
		expect(items.map((item) => item.json.id)).toEqual(order);
		expect(
			items.every((item) => JSON.stringify(item.pairedItem) === JSON.stringify({ item: 0 })),
		).toBe(true);
		expect(Object.keys(items[0].json).sort()).toEqual([
			'created_at',
			'duration',
			'id',
			'status',
			'thumbnail',
			'title',
			'url',
		]);
	});

	it('filters by status on the service', async () => {
		const s = sandbox();
		s.store.addVideos(7, {
			createdAt: s.clock.now() - 60_000,
			finishAt: s.clock.now() - 1000,
			outcome: 'failed',
		});
		const { items, listCalls } = await getMany({ returnAll: true, filters: { status: 'failed' } });
		const failed = s.store.listVideos(undefined, { status: 'failed' }).map((video) => video.id);
		expect(items.map((item) => item.json.id)).toEqual(failed);
		expect(items.every((item) => item.json.status === 'failed')).toBe(true);
		expect(listCalls.every((call) => call.query.status === 'failed')).toBe(true);
	});

	it('returns every video exactly once in oldest-first order too', async () => {
		const s = sandbox();
		s.setListOrder('oldest-first');
		try {
			const { ids } = await getMany({ returnAll: true });
			expect(ids).toEqual(
				s.store.listVideos(undefined, { order: 'oldest-first' }).map((video) => video.id),
			);
		} finally {
			s.setListOrder('newest-first');
		}
	});
});
