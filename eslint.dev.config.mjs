// Lint for the dev-only code (sandbox, tests, benchmarks, scripts), run by `npm run lint:dev`.
// n8n's strict lint (eslint.config.mjs, kept at its default) covers the published code in
// nodes/ and credentials/; it only matches *.ts, which is why dev-only code is written as *.mts.
// This config also holds issue 30's size limits on the published code (n8n's config cannot be
// edited in strict mode); its import-cycle rule is in .dependency-cruiser.cjs, run by the same script.
import js from '@eslint/js';
import { readFileSync } from 'node:fs';
import tseslint from 'typescript-eslint';

const PUBLISHED_CODE = ['nodes/**/*.ts', 'credentials/**/*.ts'];
// Issue 30: no file over 250 lines (as wc -l counts), no function over 50 (blank and comment lines
// count too, as written).
const MAX_FILE_LINES = { max: 250, skipBlankLines: false, skipComments: false };
const MAX_FUNCTION_LINES = { max: 50, skipBlankLines: false, skipComments: false, IIFEs: true };

/** Today's files over 250 lines: warned about, not failed. Must shrink to empty (the file says how). */
const KNOWN = JSON.parse(readFileSync(new URL('./known-offenders.json', import.meta.url), 'utf8'));

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', '.n8n-e2e/**', 'coverage/**'] },
	{
		files: ['**/*.mts'],
		extends: [js.configs.recommended, tseslint.configs.recommended],
		rules: {
			'@typescript-eslint/no-explicit-any': 'error',
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
		},
	},
	{
		files: PUBLISHED_CODE,
		languageOptions: { parser: tseslint.parser },
		// The size limits hold without exceptions: an eslint-disable comment cannot lift them.
		linterOptions: { noInlineConfig: true },
		rules: {
			'max-lines': ['error', MAX_FILE_LINES],
			'max-lines-per-function': ['error', MAX_FUNCTION_LINES],
		},
	},
	...(KNOWN.filesOver250Lines.length > 0
		? [{ files: KNOWN.filesOver250Lines, rules: { 'max-lines': ['warn', MAX_FILE_LINES] } }]
		: []),
);
