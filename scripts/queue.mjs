#!/usr/bin/env node
// `npm run test:queue`: the package in n8n queue mode (one main, two workers, PostgreSQL,
// Redis). Checks first that PostgreSQL and Redis answer (127.0.0.1:5432 and :6379 unless
// PGHOST/PGPORT/PGUSER/PGPASSWORD or REDIS_HOST/REDIS_PORT/REDIS_PASSWORD say otherwise) and
// fails at once, naming the one that does not; then builds the package, gets n8n 2.41.1 (as
// `npm start` does) and runs test/queue/*.queue.mts with node:test under tsx. Not part of
// `npm test`. Extra arguments go to node (e.g. --test-name-pattern=binary). Every process the
// tests start is watched by lib/netwatch.cjs: a DNS lookup or a connection off this machine
// fails the run (README, "Security").
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
import { ServiceUnavailableError, checkServices, serviceAddresses } from './lib/queue.mjs';

const log = makeLogger('test:queue');
const root = findRoot(dirname(fileURLToPath(import.meta.url)));
const paths = projectPaths(root);
const started = Date.now();
const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`;

try {
	const addresses = serviceAddresses();
	const versions = await checkServices(addresses);
	log(`PostgreSQL ${versions.postgresVersion} and Redis ${versions.redisVersion} answer`);
	ensureBuilt(paths, log, true);
	await ensureN8n(paths, log);
} catch (error) {
	if (error instanceof ServiceUnavailableError) {
		log(
			`test:queue needs PostgreSQL and Redis and cannot reach ${error.services.join(' nor ')}; nothing was started.\n${error.message}`,
		);
	} else log(`Setup failed: ${error instanceof Error ? error.message : String(error)}`);
	process.exit(1);
}
log(`n8n ready after ${seconds()}; running the queue-mode tests`);

const dir = join(root, 'test', 'queue');
const files = readdirSync(dir)
	.filter((f) => f.endsWith('.queue.mts'))
	.sort()
	.map((f) => join('test', 'queue', f));
const networkLog = join(paths.base, 'netwatch-queue.log');
const watched = { ...process.env, ...watchNetwork(networkLog) };
let failed = files.length === 0;
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
