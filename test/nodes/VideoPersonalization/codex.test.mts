/**
 * What the editor's node panel search finds: n8n's own search (sublimeSearch from @n8n/utils, the
 * version n8n-workflow 2.41 ships) over the package's entry as n8n builds it. n8n merges the
 * trigger into the action node and keeps the action node's codex, so its aliases are the ones
 * searched (generateMergedNodesAndActions in n8n's editor).
 */
import { createRequire } from 'node:module';

import { engine, NODE_TYPE } from '../../harness/engine.mts';

type Element = { key: string; properties: { displayName: string; codex?: unknown } };
const { sublimeSearch } = createRequire(require.resolve('n8n-workflow'))(
	'@n8n/utils/search/sublime-search',
) as { sublimeSearch: (filter: string, data: Element[]) => Array<{ item: Element }> };

async function panelEntry(): Promise<Element> {
	const { description } = (await engine()).nodeTypes.getByNameAndVersion(NODE_TYPE);
	return {
		key: NODE_TYPE,
		properties: { displayName: description.displayName, codex: description.codex },
	};
}

describe("the node panel's search", () => {
	it.each([
		'upload asset',
		'asset upload',
		'upload',
		'asset',
		'upload image',
		'upload video',
		'create video',
		'personalized video',
		'video template',
		'video published',
		'render finished',
		'crm',
	])('finds the package for "%s"', async (words) => {
		expect(sublimeSearch(words, [await panelEntry()]).map(({ item }) => item.key)).toEqual([
			NODE_TYPE,
		]);
	});

	it("is n8n's fuzzy search, which finds nothing for words in no name or alias", async () => {
		const entry = await panelEntry();
		expect(sublimeSearch('spreadsheet', [entry])).toEqual([]);
		// Each word alone matches an alias; both together match only an alias holding both.
		const withoutPhrases = {
			...entry,
			properties: { ...entry.properties, codex: { alias: ['upload', 'asset'] } },
		};
		expect(sublimeSearch('upload asset', [withoutPhrases])).toEqual([]);
	});
});
