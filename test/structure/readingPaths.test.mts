/**
 * docs/architecture.md, "Reading paths": an operation traced from the node file to the HTTP call
 * opens at most six files. Each step names what the file calls and the next file defines, so a
 * refactor that moves a step fails here until the paths (and the doc) say where it went.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const NODE_DIR = join(__dirname, '..', '..', 'nodes', 'VideoPersonalization');
const read = (file: string) => readFileSync(join(NODE_DIR, file), 'utf8');

/** [file, what it calls that the next file defines]; the last file makes the HTTP call. */
type Path = Array<[file: string, calls: string]>;

const PATHS: Record<string, Path> = {
	'Video > Get Many': [
		['VideoPersonalization.node.ts', 'router'],
		['actions/router.ts', 'execute'],
		['actions/video/getAll.operation.ts', 'restRecords'],
		['actions/common.ts', 'getMany'],
		['transport/pagination.ts', 'sendForObject'],
		['transport/client.ts', ''],
	],
	'Video > Create': [
		['VideoPersonalization.node.ts', 'router'],
		['actions/router.ts', 'executeAll'],
		['actions/video/create.operation.ts', 'sendForObject'],
		['transport/client.ts', ''],
	],
};

const defines = (source: string, name: string) =>
	new RegExp(
		`export (async )?(function|const) ${name}\\b|^\\s*(async )?${name}(<[^>]*>)?\\(`,
		'm',
	).test(source);

describe.each(Object.entries(PATHS))('reading path of %s', (_operation, path) => {
	it('opens at most six files, and ends at the HTTP call', () => {
		expect(path.length).toBeLessThanOrEqual(6);
		expect(read(path[path.length - 1][0])).toContain('httpRequestWithAuthentication');
	});

	it.each(path.slice(0, -1).map((step, index) => [step[0], step[1], path[index + 1][0]]))(
		'%s calls %s, which %s defines',
		(file, calls, next) => {
			expect(read(file)).toMatch(new RegExp(`\\b${calls}\\b`));
			expect(defines(read(next), calls)).toBe(true);
		},
	);
});

it('the registry names the operation files the router calls', () => {
	const registry = read('actions/registry.ts');
	expect(registry).toContain("from './video/getAll.operation'");
	expect(registry).toContain("from './video/create.operation'");
});
