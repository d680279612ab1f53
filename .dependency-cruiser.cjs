// Issue 30: no import cycle in the published code (nodes/, credentials/), type imports included.
// Run by `npm run lint:dev` (`depcruise nodes credentials`). dependency-cruiser rather than an
// ESLint rule: eslint-plugin-import(-x)'s no-cycle skips `import type`, and both cycles the issue
// names run through type imports.
const KNOWN = require('./known-offenders.json');

/** A path as dependency-cruiser matches it: a regular expression over the whole path. */
const exactly = (path) => `^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;

/** Today's files in an import cycle: warned about, not failed. Must shrink to empty. */
const KNOWN_CYCLES = KNOWN.filesInImportCycles.map(exactly);

const cycle = {
	severity: 'error',
	comment:
		'An import cycle (type imports count): move the shared names to a module both can import.',
	to: { circular: true },
};

module.exports = {
	forbidden: [
		{ ...cycle, name: 'no-import-cycle', from: { pathNot: KNOWN_CYCLES } },
		...(KNOWN_CYCLES.length > 0
			? [
					{
						...cycle,
						name: 'known-import-cycle',
						severity: 'warn',
						comment: `${cycle.comment} Known (known-offenders.json): must shrink to empty.`,
						from: { path: KNOWN_CYCLES },
					},
				]
			: []),
	],
	options: {
		// Keep `import type` edges, which TypeScript erases from the build.
		tsPreCompilationDeps: true,
		tsConfig: { fileName: 'tsconfig.json' },
		doNotFollow: { path: 'node_modules' },
		exclude: { path: '^(dist|node_modules)/' },
	},
};
