/** `npm run test:quick`: the inner loop, under a minute. Every suite that starts neither n8n's
 * engine nor a sandbox (the unit tests), and a short run of the trigger's model test
 * (MODEL_RUNS=80 unless set). `npm test` stays the full gate. */
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const base = require('./jest.config.cjs');

const startsAServer = /harness\/engine|sandbox\//;
const unitSuites = readdirSync(join(__dirname, 'test'), { recursive: true })
	.filter((file) => file.endsWith('.test.mts'))
	.map((file) => join(__dirname, 'test', file))
	.filter((file) => !startsAServer.test(readFileSync(file, 'utf8')));

module.exports = {
	...base,
	setupFiles: [...base.setupFiles, '<rootDir>/test/harness/quick.mts'],
	testMatch: undefined,
	testRegex: unitSuites.map((file) => `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
};
