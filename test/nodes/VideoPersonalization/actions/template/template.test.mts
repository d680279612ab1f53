import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../../../../sandbox/index.mts';
import { runNode } from '../../../../harness/engine.mts';
import { credentialsFor, useSandbox } from '../../../../harness/fixtures.mts';

const sandbox = useSandbox();

async function run(
	operation: string,
	parameters: IDataObject,
	key?: string,
	target: Sandbox = sandbox(),
) {
	target.requests.clear();
	const result = await runNode({
		parameters: { resource: 'template', operation, ...parameters },
		credentials: credentialsFor(target, key ?? target.keys.admin),
	});
	return {
		...result,
		graphqlCalls: target.requests.log.filter((request) => request.path === '/v1/graphql'),
	};
}

const ALL_FIELDS = [
	'id',
	'name',
	'description',
	'templateType',
	'aspectRatio',
	'duration',
	'categories',
	'tags',
	'fields',
	'brand',
	'previewImage',
	'previewVideo',
];

describe('Template > Get', () => {
	it('gets a template by ID with every field of the spec, nested objects with id and name', async () => {
		const s = sandbox();
		const { items, error } = await run(
			'get',
			{ template: { __rl: true, mode: 'id', value: s.known.stockTemplateId } },
			s.keys.user,
		);
		expect(error).toBeUndefined();
		expect(Object.keys(items[0].json).sort()).toEqual([...ALL_FIELDS].sort());
		expect(items[0].json).toMatchObject({
			id: s.known.stockTemplateId,
			name: s.known.stockTemplateName,
			templateType: 'stock',
		});
		for (const category of items[0].json.categories as IDataObject[])
			expect(Object.keys(category).sort()).toEqual(['id', 'name']);
	});

	it('gets a template by name, and only the fields chosen', async () => {
		const s = sandbox();
		const { items } = await run('get', {
			template: { __rl: true, mode: 'name', value: s.known.brandTemplateName },
			options: { fields: ['name', 'brand'] },
		});
		expect(items[0].json).toEqual({
			id: s.known.brandTemplateId,
			name: s.known.brandTemplateName,
			brand: expect.objectContaining({ id: expect.any(String), name: expect.any(String) }),
		});
	});

	it('says when the key may not see the template, with the rule', async () => {
		const s = sandbox();
		const { error } = await run(
			'get',
			{ template: { __rl: true, mode: 'id', value: s.known.otherBrandTemplateId } },
			s.keys.user,
		);
		expect(error?.message).toBe(
			`The API key may not get the template with Template ID "${s.known.otherBrandTemplateId}" (403) [item 0]`,
		);
		expect(error?.description).toMatch(
			/brand templates to users of that brand, organisation admins and global admins/,
		);
	});

	it('says which template was not found', async () => {
		const { error } = await run('get', {
			template: { __rl: true, mode: 'id', value: 'tpl_missing' },
		});
		expect(error?.message).toBe(
			'Not found: get the template with Template ID "tpl_missing" (404) [item 0]',
		);
	});
});

describe('Template > Get Many', () => {
	it('returns every template once with Return All, and filters by search and type', async () => {
		const s = sandbox();
		const all = await run('getAll', { returnAll: true });
		expect(all.error).toBeUndefined();
		expect(all.items).toHaveLength(s.store.templates.size);
		expect(new Set(all.items.map((item) => item.json.id)).size).toBe(s.store.templates.size);

		const endcards = await run('getAll', { returnAll: true, filters: { templateType: 'endcard' } });
		expect(endcards.items.length).toBeGreaterThan(0);
		expect(endcards.items.every((item) => item.json.templateType === 'endcard')).toBe(true);

		const search = s.known.stockTemplateName.split(' ')[0];
		const found = await run('getAll', { returnAll: true, filters: { search } });
		expect(found.items.map((item) => item.json.name)).toContain(s.known.stockTemplateName);
		expect(found.graphqlCalls.length).toBe(1);

		const limited = await run('getAll', { returnAll: false, limit: 7 });
		expect(limited.items).toHaveLength(7);
	});

	it('explains that listing templates needs admin access', async () => {
		const s = sandbox();
		const { error } = await run('getAll', { returnAll: true }, s.keys.user);
		expect(error?.message).toBe('The API key may not list templates (403) [item 0]');
		expect(error?.description).toMatch(/Listing templates needs admin access/);
	});

	it.each(['reject', 'cap'] as const)(
		'finds the page size a server accepts when it %ss large pages',
		async (overLimit) => {
			const strict = await startSandbox({ quiet: true, graphql: { maxLimit: 8, overLimit } });
			try {
				const { items, error, graphqlCalls } = await run(
					'getAll',
					{ returnAll: true },
					strict.keys.admin,
					strict,
				);
				expect(error).toBeUndefined();
				expect(items).toHaveLength(strict.store.templates.size);
				expect(new Set(items.map((item) => item.json.id)).size).toBe(strict.store.templates.size);
				const pages = Math.ceil(strict.store.templates.size / 8);
				// 'reject': the refusal names the maximum (8), which is then used; 'cap': pages of 8 from the start.
				expect(graphqlCalls.length).toBe(overLimit === 'cap' ? pages : pages + 1);
			} finally {
				await strict.close();
			}
		},
	);
});

describe('a GraphQL Endpoint that does not take queries', () => {
	it('reads as a wrong endpoint naming the field and the address, not as a missing template', async () => {
		const s = sandbox();
		const wrong = `${s.baseUrl.replace(/\/v1$/, '')}/v1/queries`;
		const result = await runNode({
			parameters: {
				resource: 'template',
				operation: 'get',
				template: { __rl: true, mode: 'id', value: s.known.stockTemplateId },
			},
			credentials: { ...credentialsFor(s, s.keys.user), graphqlEndpoint: wrong },
		});
		expect(result.error?.message).toBe(
			`The GraphQL endpoint is wrong: nothing takes queries at ${wrong} (404) [item 0]`,
		);
		expect(result.error?.description).toMatch(/^Set the GraphQL Endpoint field of the credential/);
		expect(result.error?.message).not.toMatch(/Not found/);
	});
});
