// `npm run start:queue` as a user runs it (`npm run test:queue` runs this file after the
// queue-mode test): one worker, the database and Redis key prefix it is given (--database,
// --redis-prefix), free ports. The worker is killed with SIGKILL, as a crash or the kernel's
// out-of-memory killer would: the script must start it again while the main and the sandbox
// keep running, then stop everything on Ctrl-C.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { findRoot, freePort, makeLogger, projectPaths, sleep } from '../../scripts/lib/n8n.mjs';
import {
	databaseExists,
	deleteRedisKeys,
	dropDatabase,
	serviceAddresses,
	testDatabaseName,
} from '../../scripts/lib/queue.mjs';

const log = makeLogger('start:queue test');
const addresses = serviceAddresses();
const paths = projectPaths(findRoot());
const database = testDatabaseName();
const prefix = `${database.replace(/_/g, '-')}-start`;
let script: ChildProcess | undefined;
let output = '';

/** Waits until the script's output matches `pattern` after `from`; returns the match. */
async function waitForOutput(pattern: RegExp, from: number, timeoutMs: number, what: string) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const match = pattern.exec(output.slice(from));
		if (match) return match;
		if (script?.exitCode !== null || Date.now() > deadline)
			throw new Error(`no ${what} (exit ${script?.exitCode}); output:\n${output.slice(-4000)}`);
		await sleep(250);
	}
}

async function redisKeys(pattern: string): Promise<number> {
	const client = new Redis({
		host: addresses.redis.host,
		port: addresses.redis.port,
		lazyConnect: true,
	});
	await client.connect();
	try {
		return (await client.keys(pattern)).length;
	} finally {
		client.disconnect();
	}
}

const mainAnswers = async (port: number) =>
	(await fetch(`http://127.0.0.1:${port}/healthz/readiness`).catch(() => undefined))?.status ===
	200;

after(async () => {
	if (script && script.exitCode === null && script.pid) {
		try {
			process.kill(-script.pid, 'SIGKILL');
		} catch {
			// gone
		}
	}
	await dropDatabase(addresses.postgres, database).catch(() => undefined);
	await deleteRedisKeys(addresses.redis, [`${prefix}-bull`, `${prefix}-n8n`]).catch(
		() => undefined,
	);
	rmSync(join(paths.base, `queue-home-${database}`), { recursive: true, force: true });
});

describe('npm run start:queue', { timeout: 10 * 60_000 }, () => {
	it('starts a worker that dies again while the main keeps running, on the database and Redis prefix it is given', async () => {
		const port = await freePort();
		script = spawn(
			process.execPath,
			[
				join('scripts', 'start-queue.mjs'),
				'--workers',
				'1',
				'--port',
				String(port),
				'--sandbox-port',
				String(await freePort()),
				'--cdn-port',
				String(await freePort()),
				'--database',
				database,
				'--redis-prefix',
				prefix,
			],
			{ cwd: paths.root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
		);
		script.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
		script.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

		await waitForOutput(/is ready \(\d+ s\)/, 0, 240_000, 'ready line');
		const first = await waitForOutput(
			/worker-1 ready in [\d.]+ s \(pid (\d+)\)/,
			0,
			1000,
			'worker pid',
		);
		assert.ok(await databaseExists(addresses.postgres, database), `database ${database}`);
		assert.ok((await redisKeys(`${prefix}-bull:*`)) > 0, `Redis keys under ${prefix}-bull`);
		assert.match(output, new RegExp(`PostgreSQL database ${database}, Redis keys ${prefix}-\\*`));

		const killedAt = output.length;
		process.kill(-Number(first[1]), 'SIGKILL');
		log(`killed worker-1 (pid ${first[1]}) with SIGKILL`);
		await waitForOutput(
			/worker-1 stopped unexpectedly \(SIGKILL\)/,
			killedAt,
			30_000,
			'notice of the dead worker',
		);
		assert.ok(await mainAnswers(port), 'the main answers while the worker is down');
		const again = await waitForOutput(
			/worker-1 ready in [\d.]+ s \(pid (\d+)\)/,
			killedAt,
			120_000,
			'a new worker',
		);
		assert.notEqual(again[1], first[1]);
		log(`worker-1 started again (pid ${again[1]})`);
		assert.ok(await mainAnswers(port), 'the main answers after the worker came back');
		assert.equal(script.exitCode, null, 'the script still runs');

		const exited = new Promise<number | null>((resolve) =>
			script?.once('exit', (code) => resolve(code)),
		);
		script.kill('SIGINT');
		assert.equal(await exited, 0);
		assert.match(output, /Stopped\./);
		assert.equal(await mainAnswers(port), false, 'the main is stopped');
	});
});
