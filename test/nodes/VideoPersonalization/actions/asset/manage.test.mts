import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../../../harness/engine.mts';
import { credentialsFor, useSandbox } from '../../../../harness/fixtures.mts';
import { sendJson, startTestServer } from '../../../../harness/httpServer.mts';

const sandbox = useSandbox();

function assetRef(value: string) {
	return { __rl: true, mode: 'id', value };
}

async function run(operation: string, parameters: IDataObject, continueOnFail = false) {
	const s = sandbox();
	s.requests.clear();
	return await runNode({
		parameters: { resource: 'asset', operation, ...parameters },
		credentials: credentialsFor(s),
		continueOnFail,
	});
}

describe('Asset > Get Many', () => {
	it('returns every asset of the account once, filtered by type and tag on the service', async () => {
		const s = sandbox();
		const all = await run('getAll', { returnAll: true });
		expect(all.error).toBeUndefined();
		expect(all.items.map((item) => item.json.id)).toEqual(
			s.store.listAssets().map((asset) => asset.id),
		);

		const images = await run('getAll', { returnAll: true, filters: { type: 'image' } });
		expect(images.items.length).toBeGreaterThan(0);
		expect(images.items.every((item) => item.json.type === 'image')).toBe(true);
		expect(images.items).toHaveLength(s.store.listAssets(undefined, { type: 'image' }).length);

		const tagged = await run('getAll', { returnAll: true, filters: { tag: 'logo' } });
		expect(tagged.items.map((item) => item.json.id)).toEqual(
			s.store.listAssets(undefined, { tag: 'logo' }).map((asset) => asset.id),
		);
		expect(
			s.requests.log.every(
				(request) => request.path !== '/v1/assets' || request.query.tag === 'logo',
			),
		).toBe(true);

		const limited = await run('getAll', { returnAll: false, limit: 3 });
		expect(limited.items).toHaveLength(3);
		// Base fields only, as the list returns them.
		expect(limited.items[0].json).not.toHaveProperty('used_in_videos');
	});
});

describe('Asset > Get', () => {
	it('returns one asset with its usage counts', async () => {
		const s = sandbox();
		const { items, error } = await run('get', { assetId: assetRef(s.known.usedAssetId) });
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			id: s.known.usedAssetId,
			used_in_videos: expect.any(Number),
			used_in_templates: expect.any(Number),
		});
		expect(
			Number(items[0].json.used_in_videos) + Number(items[0].json.used_in_templates),
		).toBeGreaterThan(0);
	});

	it('says which asset ID was not found', async () => {
		const { error } = await run('get', { assetId: assetRef('ast_nope') });
		expect(error?.message).toBe('Not found: get the asset with Asset ID "ast_nope" (404) [item 0]');
	});

	it('sends an ID with special characters as one path segment', async () => {
		const s = sandbox();
		await run('get', { assetId: assetRef('../videos?x=1') });
		expect(s.requests.log[0].path).toBe('/v1/assets/..%2Fvideos%3Fx%3D1');
	});
});

describe('Asset > Update', () => {
	it('renames an asset and replaces its tags', async () => {
		const s = sandbox();
		const { items, error } = await run('update', {
			assetId: assetRef(s.known.unusedAssetId),
			updateFields: { name: 'Renamed', tags: 'a, b' },
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			id: s.known.unusedAssetId,
			name: 'Renamed',
			tags: ['a', 'b'],
			updated_at: expect.any(String),
		});
		expect(s.store.getAsset(s.known.unusedAssetId)?.tags).toEqual(['a', 'b']);
		const cleared = await run('update', {
			assetId: assetRef(s.known.unusedAssetId),
			updateFields: { tags: '' },
		});
		expect(cleared.items[0].json.tags).toEqual([]);
	});

	it('refuses an update with nothing to change', async () => {
		const s = sandbox();
		const { error } = await run('update', {
			assetId: assetRef(s.known.unusedAssetId),
			updateFields: {},
		});
		expect(error?.message).toBe('Update Fields: nothing to update [item 0]');
		expect(s.requests.log).toHaveLength(0);
	});
});

describe('Asset > Delete', () => {
	it('refuses by default to delete an asset that videos or templates use, and says by how many', async () => {
		const s = sandbox();
		const asset = s.store.getAsset(s.known.usedAssetId);
		const { error } = await run('delete', { assetId: assetRef(s.known.usedAssetId) });
		const videos = asset?.usedInVideos ?? 0;
		const templates = s.store.usedInTemplates(s.known.usedAssetId);
		expect(videos).toBeGreaterThan(0);
		expect(templates).toBeGreaterThan(0);
		expect(error?.message).toBe(
			`Asset "${s.known.usedAssetId}" is still used by ${videos} video${videos === 1 ? '' : 's'} and ${templates} template${templates === 1 ? '' : 's'}; it was not deleted [item 0]`,
		);
		expect(s.store.getAsset(s.known.usedAssetId)).toBeDefined();
		expect(s.requests.log.map((request) => request.method)).toEqual(['GET']);
	});

	it('deletes an unused asset, and a used one with Safe Delete off', async () => {
		const s = sandbox();
		const templatesOnly = await run('delete', { assetId: assetRef(s.known.videoAssetId) });
		expect(templatesOnly.error?.message).toMatch(
			/is still used by \d+ templates?; it was not deleted/,
		);

		const unused = await run('delete', { assetId: assetRef(s.known.unusedAssetId) });
		expect(unused.error).toBeUndefined();
		expect(unused.items[0].json).toEqual({ id: s.known.unusedAssetId, deleted: true });
		expect(s.store.getAsset(s.known.unusedAssetId)).toBeUndefined();

		const used = await run('delete', { assetId: assetRef(s.known.usedAssetId), safeDelete: false });
		expect(used.items[0].json).toEqual({ id: s.known.usedAssetId, deleted: true });
		expect(s.requests.log.map((request) => request.method)).toEqual(['DELETE']);
	});
});

describe('Asset > Delete with Safe Delete, when the service does not give the usage counts', () => {
	it.each([
		['no used_in_videos', { used_in_templates: 0 }, 'The answer has no used_in_videos'],
		['no used_in_templates', { used_in_videos: 0 }, 'The answer has no used_in_templates'],
		[
			'used_in_videos as text',
			{ used_in_videos: '3', used_in_templates: 0 },
			"The answer's used_in_videos is a string, not a whole number of 0 or more",
		],
		[
			'a null used_in_templates',
			{ used_in_videos: 0, used_in_templates: null },
			"The answer's used_in_templates is null, not a whole number of 0 or more",
		],
		[
			'a negative used_in_videos',
			{ used_in_videos: -1, used_in_templates: 0 },
			"The answer's used_in_videos is -1, not a whole number of 0 or more",
		],
		[
			'a fractional used_in_templates',
			{ used_in_videos: 0, used_in_templates: 0.5 },
			"The answer's used_in_templates is 0.5, not a whole number of 0 or more",
		],
	])('with %s, deletes nothing and says why', async (_case, counts, problem) => {
		const server = await startTestServer((request, response) =>
			request.method === 'GET'
				? sendJson(response, 200, { id: 'ast_1', name: 'Logo', ...counts })
				: sendJson(response, 200, { id: 'ast_1', deleted: true }),
		);
		try {
			const { error } = await runNode({
				parameters: { resource: 'asset', operation: 'delete', assetId: assetRef('ast_1') },
				credentials: { apiKey: 'vpk_test_safe_delete_1234', baseUrl: `${server.url}/v1` },
			});
			expect(error?.message).toBe(
				`The service's answer to check whether the asset with Asset ID "ast_1" is in use was not what the API describes [item 0]`,
			);
			expect(error?.description).toBe(
				`${problem}; Safe Delete cannot tell whether the asset is in use, so it was not deleted. Turn off Safe Delete to delete it without this check.`,
			);
			expect(server.requests.map((request) => request.method)).toEqual(['GET']);
		} finally {
			await server.close();
		}
	});
});
