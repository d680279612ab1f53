/**
 * known-offenders.json lists what issue 30's lint rules only warn about while the refactors land
 * (eslint.dev.config.mjs: files over 250 lines; .dependency-cruiser.cjs: files in an import
 * cycle). An entry that no longer offends must go, or the file it names could offend again
 * unnoticed: this suite fails, naming it, until it is deleted.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import known from '../../known-offenders.json';

const ROOT = join(__dirname, '..', '..');

/** Lines as `wc -l` counts them, and as ESLint's max-lines does (a final newline ends a line). */
function lineCount(file: string): number {
	const text = readFileSync(join(ROOT, file), 'utf8');
	return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

interface Cruise {
	modules: Array<{ source: string; dependencies: Array<{ circular: boolean }> }>;
}

describe('known-offenders.json lists only what still offends', () => {
	// An empty list has nothing to check: the lint rule itself then fails any file over 250 lines.
	(known.filesOver250Lines.length > 0 ? it.each(known.filesOver250Lines) : it.skip.each([['']]))(
		'%s is still over 250 lines',
		(file) => {
			if (!existsSync(join(ROOT, file)))
				throw new Error(
					`${file} is gone: delete it from filesOver250Lines in known-offenders.json.`,
				);
			const lines = lineCount(file);
			if (lines <= 250) {
				throw new Error(
					`${file} has ${lines} lines now, within 250: delete it from filesOver250Lines in known-offenders.json.`,
				);
			}
		},
	);

	const inCycle = () => {
		const result = spawnSync(
			join(ROOT, 'node_modules', '.bin', 'depcruise'),
			['--config', '.dependency-cruiser.cjs', '--output-type', 'json', 'nodes', 'credentials'],
			{ cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
		);
		const cruise = JSON.parse(result.stdout) as Cruise;
		return new Set(
			cruise.modules
				.filter((module) => module.dependencies.some((dependency) => dependency.circular))
				.map((module) => module.source),
		);
	};

	(known.filesInImportCycles.length > 0 ? it : it.skip)(
		'each file in filesInImportCycles is still in an import cycle',
		() => {
			const cyclic = inCycle();
			expect(cyclic.size).toBeGreaterThan(0);
			const outOfCycles = known.filesInImportCycles.filter((file) => !cyclic.has(file));
			if (outOfCycles.length > 0) {
				throw new Error(
					`No longer in an import cycle: ${outOfCycles.join(', ')}. Delete from filesInImportCycles in known-offenders.json.`,
				);
			}
		},
	);
});
