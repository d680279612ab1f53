/** The editor's pickers (From list), called as n8n's editor calls them: a LoadOptionsContext. */
import { readPageToken } from '../../../../nodes/VideoPersonalization/methods/listSearch.ts';
import { allText, listSearch } from '../../../harness/engine.mts';
import { credentialsFor, useSandbox } from '../../../harness/fixtures.mts';

const sandbox = useSandbox({ dataset: { videos: 10, assets: 404 } });

describe('searchAssets (Asset picker)', () => {
	it('lists one page of 100 with a token for the next when there is no search text', async () => {
		const s = sandbox();
		const first = await listSearch('searchAssets', credentialsFor(s));
		expect(first.results).toHaveLength(100);
		expect(first.paginationToken).toBe('2:100');
		const second = await listSearch(
			'searchAssets',
			credentialsFor(s),
			undefined,
			first.paginationToken,
		);
		expect(second.results.map((result) => result.value)).not.toContain(first.results[0].value);
	});

	it('finds a name that is only on a later page, reading on until enough match', async () => {
		const s = sandbox();
		const assets = s.store.listAssets();
		const deep = assets[350];
		s.requests.clear();
		const found = await listSearch('searchAssets', credentialsFor(s), deep.name.toUpperCase());
		expect(found.results).toContainEqual(
			expect.objectContaining({ value: deep.id, name: `${deep.name} (${deep.type}, ${deep.id})` }),
		);
		expect(
			found.results.every((result) =>
				String(result.name).toLowerCase().includes(deep.name.toLowerCase()),
			),
		).toBe(true);
		// Every page once, up to the last (the match is not on the first page).
		const pages = Array.from({ length: Math.ceil(assets.length / 100) }, (_, index) =>
			String(index + 1),
		);
		expect(pages.length).toBeGreaterThan(3);
		expect(s.requests.log.map((request) => request.query.page)).toEqual(pages);
		expect(found.paginationToken).toBeUndefined();
		expect(allText(found)).not.toContain(s.keys.user);
	});
	it('tells apart two assets with the same name by their IDs', async () => {
		const s = sandbox();
		const [first, second] = s.store.listAssets();
		const names = [first.name, second.name];
		s.store.updateAsset(second.id, { name: first.name });
		try {
			const found = await listSearch('searchAssets', credentialsFor(s), first.name);
			const labels = found.results
				.filter((result) => [first.id, second.id].includes(String(result.value)))
				.map((result) => result.name);
			expect(labels).toHaveLength(2);
			expect(new Set(labels).size).toBe(2);
			expect(labels).toContain(`${first.name} (${first.type}, ${first.id})`);
		} finally {
			s.store.updateAsset(second.id, { name: names[1] });
		}
	});
});

describe('searchTemplates (Template picker)', () => {
	it('searches by name on the service and names each template with its type', async () => {
		const s = sandbox();
		const found = await listSearch(
			'searchTemplates',
			credentialsFor(s, s.keys.orgAdmin),
			'welcome onboarding',
		);
		expect(found.results).toContainEqual({
			name: `${s.known.stockTemplateName} (stock)`,
			value: s.known.stockTemplateId,
		});
	});

	it('a key that may not list templates finds one by its exact name or ID typed in the search box', async () => {
		const s = sandbox();
		const user = credentialsFor(s);
		const byName = await listSearch('searchTemplates', user, s.known.stockTemplateName);
		expect(byName.results).toEqual([
			{ name: s.known.stockTemplateName, value: s.known.stockTemplateId },
		]);
		const byId = await listSearch('searchTemplates', user, ` ${s.known.brandTemplateId} `);
		expect(byId.results.map((result) => result.value)).toEqual([s.known.brandTemplateId]);
		// A lookup matches whole names only.
		expect((await listSearch('searchTemplates', user, 'welcome')).results).toEqual([]);
	});

	it('without a search text, says in one line what such a key can do', async () => {
		const s = sandbox();
		const refused = await listSearch('searchTemplates', credentialsFor(s)).catch(
			(error: Error & { description?: string }) => error,
		);
		expect(refused).toBeInstanceOf(Error);
		expect((refused as Error).message).toBe(
			"Your API key may not list templates (only admins may). Type a template's exact name or ID in the search box, or choose By name.",
		);
		expect((refused as { description?: string }).description ?? '').toBe('');
	});
});

describe('the pickers page with the discovery Get Many uses (transport/pagination.ts)', () => {
	const small = useSandbox({ graphql: { maxLimit: 10, overLimit: 'reject' } });

	async function allPages(
		method: 'searchTemplates' | 'searchAssets',
		key: string,
		filter?: string,
	) {
		const pages: Array<{ values: string[]; token?: string }> = [];
		let token: string | undefined;
		do {
			const found = await listSearch(method, credentialsFor(small(), key), filter, token);
			token = found.paginationToken;
			pages.push({ values: found.results.map((result) => String(result.value)), token });
		} while (token !== undefined && pages.length < 20);
		return pages;
	}

	it('Template picker: a service whose query pages are at most 10 (refusing 50) lists every template once, 10 a page', async () => {
		const s = small();
		s.requests.clear();
		const pages = await allPages('searchTemplates', s.keys.admin);
		const all = pages.flatMap((page) => page.values);
		expect(new Set(all).size).toBe(all.length);
		expect(all.sort()).toEqual([...s.store.templates.keys()].sort());
		expect(pages.map((page) => page.values.length)).toEqual([10, 10, 10, all.length - 30]);
		expect(pages.map((page) => page.token)).toEqual(['2:10', '3:10', '4:10', undefined]);
		// The refused size is asked once, on the first page (4 pages, 5 queries); the token carries the size found.
		expect(s.requests.log.filter((request) => request.path === '/v1/graphql')).toHaveLength(5);
	});

	it('Template picker: a service that caps silently at 10 sets the size too', async () => {
		const s = small();
		s.store.graphql = { maxLimit: 10, overLimit: 'cap' };
		try {
			const pages = await allPages('searchTemplates', s.keys.admin);
			const all = pages.flatMap((page) => page.values);
			expect(all.sort()).toEqual([...s.store.templates.keys()].sort());
			expect(pages[0].token).toBe('2:10');
		} finally {
			s.store.graphql = { maxLimit: 10, overLimit: 'reject' };
		}
	});

	it('Asset picker: the token carries the REST page size the first page was read with', async () => {
		const s = small();
		const first = await listSearch('searchAssets', credentialsFor(s));
		expect(first.paginationToken).toMatch(/^2:\d+$/);
	});
});

describe('readPageToken', () => {
	it.each([
		[undefined, { page: 1 }],
		['', { page: 1 }],
		['3', { page: 3 }],
		['3:25', { page: 3, size: 25 }],
		['x:y', { page: 1 }],
		['0:0', { page: 1 }],
	])('reads %p as %p', (token, expected) => {
		expect(readPageToken(token)).toEqual(expected);
	});
});
