/** Dev-only code is written as .mts so the node lint rules (which forbid process, node:http, ...)
 * do not apply to it; swc turns it into CommonJS so jest, n8n-core and the built package share
 * one module registry. */
const swc = [
	'@swc/jest',
	{
		jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
		module: { type: 'commonjs' },
	},
];

module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.mts'],
	moduleFileExtensions: ['mts', 'ts', 'js', 'mjs', 'cjs', 'json'],
	transform: { '^.+\\.(m?ts|mjs)$': swc },
	setupFiles: ['<rootDir>/test/harness/env.mts'],
	setupFilesAfterEnv: ['<rootDir>/test/harness/cleanup.mts'],
	testTimeout: 60000,
};
