import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../harness/engine.mts';
import { credentialsFor, useSandbox } from '../harness/fixtures.mts';

const sandbox = useSandbox({ dataset: { videos: 2500, assets: 3000 } });

async function returnAll(resource: string, parameters: IDataObject = {}) {
	const s = sandbox();
	s.requests.clear();
	const result = await runNode({
		parameters: { resource, operation: 'getAll', returnAll: true, ...parameters },
		credentials: credentialsFor(s, s.keys.admin),
	});
	expect(result.error).toBeUndefined();
	return {
		ids: result.items.map((item) => String(item.json.id)),
		faults: s.requests.log.filter((request) => request.fault).length,
	};
}

describe('Return All under 20% injected faults (429, 5xx, resets)', () => {
	beforeEach(() => {
		sandbox().faults.random({
			rate: 0.2,
			kinds: ['429', '500', '502', '503', 'reset'],
			retryAfter: 0,
			seed: 11,
		});
	});
	afterEach(() => sandbox().faults.clear());

	it('returns every asset exactly once, in the list order', async () => {
		const { ids, faults } = await returnAll('asset');
		expect(faults).toBeGreaterThan(0);
		expect(ids).toEqual(
			sandbox()
				.store.listAssets()
				.map((asset) => asset.id),
		);
	});

	it('returns every video exactly once, in the list order', async () => {
		const { ids, faults } = await returnAll('video');
		expect(faults).toBeGreaterThan(0);
		expect(ids).toEqual(
			sandbox()
				.store.listVideos()
				.map((video) => video.id),
		);
	});

	it('returns every user exactly once through the query-style API', async () => {
		// Small pages, so that there are pages enough for faults to hit.
		const limits = { ...sandbox().store.graphql };
		sandbox().store.graphql = { maxLimit: 4, overLimit: 'cap' };
		const { ids, faults } = await returnAll('user').finally(
			() => (sandbox().store.graphql = limits),
		);
		expect(faults).toBeGreaterThan(0);
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids.sort()).toEqual([...sandbox().store.users.keys()].sort());
	});
});
