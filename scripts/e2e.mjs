#!/usr/bin/env node
// `npm run test:e2e`: builds the package, gets n8n 2.41.1 (installed on first use into
// .n8n-e2e/, progress shown), then runs test/e2e/*.e2e.mts with node:test under tsx against the
// real n8n and the sandbox. Not part of `npm test`. Extra arguments go to node (e.g.
// --test-name-pattern=trigger). Every process the tests start is watched by lib/netwatch.cjs:
// a DNS lookup or a connection off this machine fails the run (README, "Security").
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
	ensureBuilt,
	ensureN8n,
	findRoot,
	makeLogger,
	projectPaths,
	reportNetwork,
	watchNetwork,
} from './lib/n8n.mjs';

const log = makeLogger('e2e');
const root = findRoot(dirname(fileURLToPath(import.meta.url)));
const paths = projectPaths(root);
const started = Date.now();
const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`;

try {
	ensureBuilt(paths, log, true);
	await ensureN8n(paths, log);
} catch (error) {
	log(`Setup failed: ${error instanceof Error ? error.message : String(error)}`);
	process.exit(1);
}
log(`n8n ready after ${seconds()}; running the end-to-end tests`);

const dir = join(root, 'test', 'e2e');
const files = readdirSync(dir)
	.filter((f) => f.endsWith('.e2e.mts'))
	.sort()
	.map((f) => join('test', 'e2e', f));
const networkLog = join(paths.base, 'netwatch-e2e.log');
const watched = { ...process.env, ...watchNetwork(networkLog) };
// Each file runs in its own process (it starts its own sandbox and n8n); node:test reports as it goes.
let failed = false;
for (const file of files) {
	const code = await new Promise((resolvePromise) => {
		const child = spawn(
			process.execPath,
			['--import', 'tsx', '--test-reporter=spec', ...process.argv.slice(2), file],
			{ cwd: root, stdio: 'inherit', env: watched },
		);
		const forward = (signal) => child.kill(signal);
		process.on('SIGINT', forward);
		process.on('SIGTERM', forward);
		child.on('exit', (exitCode, signal) => {
			process.off('SIGINT', forward);
			process.off('SIGTERM', forward);
			resolvePromise(exitCode ?? (signal ? 1 : 0));
		});
	});
	if (code !== 0) failed = true;
}
if (!reportNetwork(log, networkLog)) failed = true;
log(
	`${failed ? 'FAILED' : 'passed'} in ${seconds()} (including the build${files.length ? '' : '; no test files found'})`,
);
process.exit(failed ? 1 : 0);
