/**
 * Issue 30's code-line budgets for the published code: lines that are neither blank nor comment,
 * as cloc counts them (sloc counts the same; the last test checks it against cloc where cloc is
 * installed). An area named in known-offenders.json's areasOverBudget is still being cut: its
 * test passes while it is over budget, says so loudly, and fails once it is within, until the
 * entry is deleted.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sloc from 'sloc';

import known from '../../known-offenders.json';

const ROOT = join(__dirname, '..', '..');
const NODE = 'nodes/VideoPersonalization';

/** Issue 30's table: each area, its budget, the folders and files it is made of. */
const BUDGETS: Array<{ area: string; budget: number; paths: string[] }> = [
	{ area: 'transport/', budget: 1300, paths: [`${NODE}/transport/`] },
	{
		area: 'trigger/ + trigger node',
		budget: 900,
		paths: [`${NODE}/trigger/`, `${NODE}/VideoPersonalizationTrigger.node.ts`],
	},
	{
		area: 'actions/ + action node',
		budget: 1650,
		paths: [`${NODE}/actions/`, `${NODE}/VideoPersonalization.node.ts`],
	},
	{ area: 'helpers/ + methods/', budget: 600, paths: [`${NODE}/helpers/`, `${NODE}/methods/`] },
	{ area: 'credentials/', budget: 100, paths: ['credentials/'] },
];
const TOTAL_BUDGET = 4550;

/** Every TypeScript file of the published code (nodes/, credentials/), with its code lines. */
const codeLines = new Map(
	['nodes', 'credentials']
		.flatMap((folder) =>
			readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' }).map(
				(file) => `${folder}/${file}`,
			),
		)
		.filter((file) => file.endsWith('.ts'))
		.map((file) => [file, sloc(readFileSync(join(ROOT, file), 'utf8'), 'ts').source]),
);

const inArea = (paths: string[]) => (file: string) =>
	paths.some((path) => (path.endsWith('/') ? file.startsWith(path) : file === path));

interface Measured {
	area: string;
	budget: number;
	lines: number;
	files: Array<[string, number]>;
}

const measured: Measured[] = [
	...BUDGETS.map(({ area, budget, paths }) => {
		const files = [...codeLines].filter(([file]) => inArea(paths)(file));
		return { area, budget, lines: files.reduce((sum, [, lines]) => sum + lines, 0), files };
	}),
];
measured.push({
	area: 'total',
	budget: TOTAL_BUDGET,
	lines: measured.reduce((sum, { lines }) => sum + lines, 0),
	files: [],
});

/** "transport/: 1,836 code lines, budget 1,300 (536 over)", then its files, largest first. */
function report({ area, budget, lines, files }: Measured): string {
	const over = lines > budget ? ` (${(lines - budget).toLocaleString('en')} over)` : '';
	const byFile = [...files]
		.sort((a, b) => b[1] - a[1])
		.map(([file, count]) => `\n    ${String(count).padStart(5)}  ${file}`)
		.join('');
	return `${area}: ${lines.toLocaleString('en')} code lines, budget ${budget.toLocaleString('en')}${over}${byFile}`;
}

const knownOver = new Set<string>(known.areasOverBudget);

afterAll(() => {
	const stillOver = measured.filter(({ area }) => knownOver.has(area));
	if (stillOver.length === 0) return;
	const lines = stillOver.map((area) => report({ ...area, files: [] }));
	console.warn(
		`KNOWN OVER BUDGET (issue 30): known-offenders.json's areasOverBudget must shrink to empty; delete each area once it is within.\n  ${lines.join('\n  ')}`,
	);
});

describe("issue 30's code-line budgets", () => {
	it('names each area of the table once in areasOverBudget, if at all', () => {
		const areas = measured.map(({ area }) => area);
		expect(known.areasOverBudget.filter((area) => !areas.includes(area))).toEqual([]);
		expect(new Set(known.areasOverBudget).size).toBe(known.areasOverBudget.length);
		expect(BUDGETS.reduce((sum, { budget }) => sum + budget, 0)).toBe(TOTAL_BUDGET);
	});

	it('counts every file of the published code in exactly one area', () => {
		const unplaced = [...codeLines.keys()].filter(
			(file) => BUDGETS.filter(({ paths }) => inArea(paths)(file)).length !== 1,
		);
		expect(unplaced).toEqual([]);
		expect(codeLines.size).toBeGreaterThan(20);
	});

	const title = ({ area, budget, lines }: Measured) =>
		`${area}: ${lines} code lines, budget ${budget}${knownOver.has(area) ? ' (KNOWN OVER BUDGET)' : ''}`;
	it.each(measured.map((area) => [title(area), area]))('%s', (_title, area) => {
		const over = area.lines > area.budget;
		if (knownOver.has(area.area) && !over) {
			throw new Error(
				`${report(area)}\n${area.area} is within its budget now: delete "${area.area}" from areasOverBudget in known-offenders.json.`,
			);
		}
		if (!knownOver.has(area.area) && over) throw new Error(`Over budget: ${report(area)}`);
	});

	const cloc = spawnSync('cloc', ['--version'], { encoding: 'utf8' });
	(cloc.status === 0 ? it : it.skip)('counts as cloc does (within 2 lines an area)', () => {
		for (const { area, lines, files } of measured.filter(({ files }) => files.length > 0)) {
			const result = spawnSync(
				'cloc',
				['--quiet', '--sum-one', '--csv', ...files.map(([file]) => join(ROOT, file))],
				{ encoding: 'utf8' },
			);
			const sum = result.stdout.trim().split('\n').at(-1)!.split(',');
			expect([area, Math.abs(Number(sum[4]) - lines) <= 2]).toEqual([area, true]);
		}
	});
});
