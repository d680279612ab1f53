// The n8n Cloud rules the community-package scanner applies to the packed `dist/` (restricted
// globals, imports and dangerous functions), run on the built JavaScript by `npm run lint:dist`.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const fromCli = createRequire(require.resolve('@n8n/node-cli/eslint'));
const { n8nCommunityNodesPlugin } = await import(
	fromCli.resolve('@n8n/eslint-plugin-community-nodes')
);

export default [
	{
		files: ['dist/**/*.js'],
		languageOptions: {
			sourceType: 'commonjs',
			ecmaVersion: 2022,
			globals: { require: 'readonly', exports: 'writable', module: 'writable' },
		},
		plugins: { '@n8n/community-nodes': n8nCommunityNodesPlugin },
		rules: {
			'@n8n/community-nodes/no-restricted-globals': 'error',
			'@n8n/community-nodes/no-restricted-imports': 'error',
			'@n8n/community-nodes/no-dangerous-functions': 'error',
		},
	},
];
