import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../../../harness/engine.mts';
import { credentialsFor, useSandbox } from '../../../../harness/fixtures.mts';

const sandbox = useSandbox();

async function run(operation: string, parameters: IDataObject, key?: string, typeVersion = 3) {
	const s = sandbox();
	return await runNode({
		parameters: { resource: 'organisation', operation, ...parameters },
		credentials: credentialsFor(s, key ?? s.keys.admin),
		node: { typeVersion },
	});
}

describe('Organisation > Get', () => {
	it('finds an organisation by ID and by name, with credits and brands', async () => {
		const s = sandbox();
		const byId = await run('get', { findBy: 'id', idValue: s.known.primaryOrganisationId });
		expect(byId.error).toBeUndefined();
		expect(byId.items[0].json).toMatchObject({
			id: s.known.primaryOrganisationId,
			name: s.known.primaryOrganisationName,
			credits: expect.any(Number),
			monthlyCredits: expect.any(Number),
			userLimits: expect.any(Number),
			created: expect.any(String),
			updated: expect.any(String),
		});
		expect((byId.items[0].json.brands as IDataObject[]).map((brand) => brand.id)).toContain(
			s.known.primaryBrandId,
		);
		const byName = await run('get', {
			findBy: 'name',
			nameValue: s.known.primaryOrganisationName,
			options: { fields: ['credits'] },
		});
		expect(byName.items[0].json).toEqual({
			id: s.known.primaryOrganisationId,
			credits: byId.items[0].json.credits,
		});
	});

	it('lets an organisation admin read their own organisation only', async () => {
		const s = sandbox();
		const own = await run(
			'get',
			{ findBy: 'id', idValue: s.known.primaryOrganisationId },
			s.keys.orgAdmin,
		);
		expect(own.error).toBeUndefined();
		const other = await run(
			'get',
			{ findBy: 'id', idValue: s.known.otherOrganisationId },
			s.keys.orgAdmin,
		);
		expect(other.error?.message).toMatch(
			/^(The API key may not get|Not found: get) the organisation with Organisation ID "[^"]+" \((403|404)\) \[item 0\]$/,
		);
	});
});

describe('Organisation > Get Many', () => {
	it('lists organisations with a name filter, in Filters (node version 3) or the box of saved version 1 and 2 nodes', async () => {
		const s = sandbox();
		const all = await run('getAll', { returnAll: true });
		expect(all.items).toHaveLength(s.store.organisations.size);
		const name = s.known.primaryOrganisationName.split(' ')[0];
		for (const [parameters, typeVersion] of [
			[{ filters: { name } }, 3],
			[{ filter: name }, 2],
			[{ filter: name }, 1],
		] as const) {
			const filtered = await run(
				'getAll',
				{ returnAll: true, ...parameters },
				undefined,
				typeVersion,
			);
			expect(filtered.items.map((item) => item.json.id)).toContain(s.known.primaryOrganisationId);
			expect(filtered.items.length).toBeLessThan(all.items.length);
		}
	});

	it('explains that listing organisations needs admin access', async () => {
		const s = sandbox();
		const { error } = await run('getAll', { returnAll: true }, s.keys.user);
		expect(error?.message).toBe('The API key may not list organisations (403) [item 0]');
	});
});
