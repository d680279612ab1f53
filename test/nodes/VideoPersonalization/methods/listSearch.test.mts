/** The editor's pickers (From list), called as n8n's editor calls them: a LoadOptionsContext. */
import { allText, listSearch } from '../../../harness/engine.mts';
import { credentialsFor, useSandbox } from '../../../harness/fixtures.mts';

const sandbox = useSandbox({ dataset: { videos: 10, assets: 404 } });

describe('searchAssets (Asset picker)', () => {
	it('lists one page of 100 with a token for the next when there is no search text', async () => {
		const s = sandbox();
		const first = await listSearch('searchAssets', credentialsFor(s));
		expect(first.results).toHaveLength(100);
		expect(first.paginationToken).toBe('2');
		const second = await listSearch('searchAssets', credentialsFor(s), undefined, first.paginationToken);
		expect(second.results.map((result) => result.value)).not.toContain(first.results[0].value);
	});

	it('finds a name that is only on a later page, reading on until enough match', async () => {
		const s = sandbox();
		const assets = s.store.listAssets();
		const deep = assets[350];
		s.requests.clear();
		const found = await listSearch('searchAssets', credentialsFor(s), deep.name.toUpperCase());
		expect(found.results).toContainEqual(expect.objectContaining({ value: deep.id, name: `${deep.name} (${deep.type})` }));
		expect(found.results.every((result) => String(result.name).toLowerCase().includes(deep.name.toLowerCase()))).toBe(true);
		// Every page once, up to the last (the match is not on the first page).
		const pages = Array.from({ length: Math.ceil(assets.length / 100) }, (_, index) => String(index + 1));
		expect(pages.length).toBeGreaterThan(3);
		expect(s.requests.log.map((request) => request.query.page)).toEqual(pages);
		expect(found.paginationToken).toBeUndefined();
		expect(allText(found)).not.toContain(s.keys.user);
	});
});

describe('searchTemplates (Template picker)', () => {
	it('searches by name on the service and names each template with its type', async () => {
		const s = sandbox();
		const found = await listSearch('searchTemplates', credentialsFor(s, s.keys.orgAdmin), 'welcome onboarding');
		expect(found.results).toContainEqual({ name: `${s.known.stockTemplateName} (stock)`, value: s.known.stockTemplateId });
	});

	it('explains that a plain user picks the template by ID or name when the list is refused', async () => {
		const s = sandbox();
		const refused = await listSearch('searchTemplates', credentialsFor(s), 'welcome').catch((error: Error & { description?: string }) => error);
		expect(refused).toBeInstanceOf(Error);
		expect((refused as Error).message).toMatch(/may not list templates for the picker \(403\)/);
		expect((refused as { description?: string }).description).toMatch(/choose the template By ID or By Name instead/);
	});
});
