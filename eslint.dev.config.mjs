// Lint for the dev-only code (sandbox, tests, benchmarks, scripts), run by `npm run lint:dev`.
// n8n's strict lint (eslint.config.mjs, kept at its default) covers the published code in
// nodes/ and credentials/; it only matches *.ts, which is why dev-only code is written as *.mts.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
);
