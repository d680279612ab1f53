// n8n in queue mode for `npm run test:queue`, `npm run start:queue` and `npm run bench:queue`:
// one main and workers of the n8n 2.41.1 that n8n.mjs installs, on PostgreSQL and Redis, each
// process with its own user folder and its own copy of this package. The n8n settings every
// process shares come from queue-mode.env, the file docker-compose.yml reads too.
// Plain .mjs (no build step); types in queue.d.mts.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import {
	freePort,
	installPackage,
	n8nEnv,
	sleep,
	startN8nProcess,
	stopProcess,
	tail,
	waitForN8n,
} from './n8n.mjs';

export const QUEUE_ENV_FILE = 'queue-mode.env';
/** Databases made by test:queue are named so, with their creation time, so stale ones can be swept. */
export const TEST_DATABASE_PREFIX = 'n8n_queue_test_';

/**
 * Reads an env file of plain KEY=VALUE lines (# comments, blank lines). Quotes, inline comments,
 * `export` and `$` references are refused: Docker Compose would read them differently from a
 * plain reader, and the point of the file is that both read the same settings.
 */
export function parseEnvFile(text, fileName = 'env file') {
	const env = {};
	text.split(/\r?\n/).forEach((line, index) => {
		const trimmed = line.trim();
		if (trimmed === '' || trimmed.startsWith('#')) return;
		const where = `${fileName}:${index + 1}`;
		const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(trimmed);
		if (!match) throw new Error(`${where}: expected KEY=VALUE, found ${JSON.stringify(line)}`);
		const [, key, value] = match;
		if (/^["']|\s#|\$|^\s|\s$/.test(value)) {
			throw new Error(
				`${where}: ${key} has quotes, an inline comment, a $ reference or surrounding spaces; write the plain value`,
			);
		}
		if (Object.hasOwn(env, key)) throw new Error(`${where}: ${key} is set twice`);
		env[key] = value;
	});
	return env;
}

/** The shared n8n settings of queue mode (queue-mode.env at the repository root). */
export function readQueueEnv(root) {
	return parseEnvFile(readFileSync(join(root, QUEUE_ENV_FILE), 'utf8'), QUEUE_ENV_FILE);
}

/**
 * One process's environment: its own settings plus the shared ones. A process may add settings
 * but not change a shared one, so what runs is what queue-mode.env says.
 */
export function withSharedEnv(shared, own) {
	for (const [key, value] of Object.entries(own)) {
		if (Object.hasOwn(shared, key) && shared[key] !== String(value)) {
			throw new Error(
				`${key} comes from ${QUEUE_ENV_FILE} (${shared[key]}); a process may not change it (${value})`,
			);
		}
	}
	return { ...own, ...shared };
}

function port(value, name, fallback) {
	if (value === undefined || value === '') return fallback;
	const n = Number(value);
	if (!Number.isInteger(n) || n < 1 || n > 65535)
		throw new Error(`${name} must be a TCP port, not ${JSON.stringify(value)}`);
	return n;
}

/**
 * Where PostgreSQL and Redis are: 127.0.0.1:5432 (user postgres) and 127.0.0.1:6379 unless the
 * environment says otherwise (PGHOST, PGPORT, PGUSER, PGPASSWORD as for psql; REDIS_HOST,
 * REDIS_PORT, REDIS_PASSWORD).
 */
export function serviceAddresses(env = process.env) {
	return {
		postgres: {
			host: env.PGHOST || '127.0.0.1',
			port: port(env.PGPORT, 'PGPORT', 5432),
			user: env.PGUSER || 'postgres',
			password: env.PGPASSWORD || '',
		},
		redis: {
			host: env.REDIS_HOST || '127.0.0.1',
			port: port(env.REDIS_PORT, 'REDIS_PORT', 6379),
			password: env.REDIS_PASSWORD || '',
		},
	};
}

function pgClient(postgres, database = 'postgres') {
	return new pg.Client({
		host: postgres.host,
		port: postgres.port,
		user: postgres.user,
		password: postgres.password,
		database,
		connectionTimeoutMillis: 5000,
	});
}

function redisClient(redis) {
	return new Redis({
		host: redis.host,
		port: redis.port,
		password: redis.password || undefined,
		lazyConnect: true,
		connectTimeout: 5000,
		maxRetriesPerRequest: 0,
		retryStrategy: () => null,
		enableOfflineQueue: false,
		// A socket that never connected is otherwise kept for 2 s after disconnect().
		disconnectTimeout: 100,
	});
}

function reason(error) {
	const fields = error !== null && typeof error === 'object' ? error : {};
	const text = String(fields.message || fields.code || fields.name || error);
	return text.replace(/\s+/g, ' ').trim() || 'no answer';
}

/** Raised when PostgreSQL or Redis cannot be reached; its message names which and how to fix it. */
export class ServiceUnavailableError extends Error {
	constructor(services, message) {
		super(message);
		this.name = 'ServiceUnavailableError';
		/** 'PostgreSQL', 'Redis' or both. */
		this.services = services;
	}
}

/**
 * Connects to PostgreSQL and Redis once each. Throws a ServiceUnavailableError naming every
 * service that did not answer; otherwise returns their versions.
 */
export async function checkServices(addresses) {
	const problems = [];
	const missing = [];
	let postgresVersion;
	let redisVersion;
	const { postgres, redis } = addresses;
	const client = pgClient(postgres);
	try {
		await client.connect();
		postgresVersion = (await client.query('SHOW server_version')).rows[0].server_version;
	} catch (error) {
		missing.push('PostgreSQL');
		problems.push(
			`PostgreSQL is not reachable at ${postgres.host}:${postgres.port} as user "${postgres.user}" (${reason(error)}). ` +
				'Start PostgreSQL there, or set PGHOST, PGPORT, PGUSER and PGPASSWORD to one that runs.',
		);
	} finally {
		await client.end().catch(() => undefined);
	}
	const redisConnection = redisClient(redis);
	// ioredis rejects with "Connection is closed."; the cause comes as an 'error' event.
	let connectionError;
	redisConnection.on('error', (error) => (connectionError ??= error));
	try {
		await redisConnection.connect();
		const info = await redisConnection.info('server');
		redisVersion = /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
	} catch (error) {
		missing.push('Redis');
		problems.push(
			`Redis is not reachable at ${redis.host}:${redis.port} (${reason(connectionError ?? error)}). Start Redis there, or set REDIS_HOST, REDIS_PORT (and REDIS_PASSWORD) to one that runs.`,
		);
	} finally {
		redisConnection.disconnect();
	}
	if (problems.length > 0) throw new ServiceUnavailableError(missing, problems.join('\n'));
	return { postgresVersion, redisVersion };
}

function quoteIdentifier(name) {
	if (!/^[a-z0-9_]+$/.test(name))
		throw new Error(`Unexpected database name ${JSON.stringify(name)}`);
	return `"${name}"`;
}

/** A new, empty database for one test run, named with its creation time (UTC). */
export function testDatabaseName(now = new Date()) {
	const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
	return `${TEST_DATABASE_PREFIX}${stamp}_${randomBytes(3).toString('hex')}`;
}

/** When a database made by testDatabaseName was created, or undefined for other names. */
export function testDatabaseCreatedAt(name) {
	const match = new RegExp(
		`^${TEST_DATABASE_PREFIX}(\\d{4})(\\d{2})(\\d{2})(\\d{2})(\\d{2})(\\d{2})_[0-9a-f]{6}$`,
	).exec(name);
	if (!match) return undefined;
	const [, y, mo, d, h, mi, s] = match;
	return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
}

export async function createDatabase(postgres, name) {
	const client = pgClient(postgres);
	await client.connect();
	try {
		await client.query(`CREATE DATABASE ${quoteIdentifier(name)}`);
	} finally {
		await client.end();
	}
}

export async function databaseExists(postgres, name) {
	const client = pgClient(postgres);
	await client.connect();
	try {
		return (
			(await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1
		);
	} finally {
		await client.end();
	}
}

export async function dropDatabase(postgres, name) {
	const client = pgClient(postgres);
	await client.connect();
	try {
		await client.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`);
	} finally {
		await client.end();
	}
}

/**
 * Drops test databases left by runs that could not clean up (killed with SIGKILL), once they
 * are older than `olderThanMs`: a run never lasts that long, so no running test loses its own.
 */
export async function sweepTestDatabases(postgres, olderThanMs = 6 * 3_600_000, now = Date.now()) {
	const client = pgClient(postgres);
	await client.connect();
	const dropped = [];
	try {
		const { rows } = await client.query('SELECT datname FROM pg_database WHERE datname LIKE $1', [
			`${TEST_DATABASE_PREFIX}%`,
		]);
		for (const { datname } of rows) {
			const created = testDatabaseCreatedAt(datname);
			if (created !== undefined && now - created > olderThanMs) {
				await client.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(datname)} WITH (FORCE)`);
				dropped.push(datname);
			}
		}
	} finally {
		await client.end();
	}
	return dropped;
}

/** Deletes every Redis key under the given prefixes (`<prefix>:*`); returns how many. */
export async function deleteRedisKeys(redis, prefixes) {
	const client = redisClient(redis);
	client.on('error', () => undefined);
	await client.connect();
	let deleted = 0;
	try {
		for (const prefix of prefixes) {
			let cursor = '0';
			do {
				const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
				cursor = next;
				if (keys.length > 0) deleted += await client.del(...keys);
			} while (cursor !== '0');
		}
	} finally {
		client.disconnect();
	}
	return deleted;
}

/** The log lines of an n8n process that logs JSON (N8N_LOG_FORMAT=json); other lines are skipped. */
export function parseJsonLog(text) {
	const entries = [];
	for (const line of text.split('\n')) {
		if (!line.startsWith('{')) continue;
		try {
			const entry = JSON.parse(line);
			if (entry && typeof entry === 'object' && typeof entry.message === 'string')
				entries.push(entry);
		} catch {
			// a line that only looks like JSON
		}
	}
	return entries;
}

/** Ids of the executions a worker's log says it started (`Worker started execution <id>`), in order. */
export function executionsStarted(entries) {
	const ids = [];
	for (const entry of entries) {
		const match = /^Worker started execution (\S+) /.exec(entry.message);
		if (match) ids.push(match[1]);
	}
	return ids;
}

/**
 * One main and `workers` workers of n8n in queue mode. Each process has its own user folder
 * (<dir>/<name>) with this package installed, its own log (<dir>/<name>.log, JSON lines) and
 * its own ports; all share queue-mode.env, one database and one Redis key prefix.
 */
export class QueueCluster {
	constructor({
		paths,
		runtime,
		dir,
		addresses,
		database,
		redisPrefix,
		encryptionKey,
		workers = 2,
		logLevel = 'info',
		mainPort,
		extraEnv = {},
		log = () => undefined,
	}) {
		this.paths = paths;
		this.runtime = runtime;
		this.dir = dir;
		this.addresses = addresses;
		this.database = database;
		this.redisPrefix = redisPrefix;
		this.encryptionKey = encryptionKey;
		this.workerCount = workers;
		this.logLevel = logLevel;
		this.requestedMainPort = mainPort;
		this.extraEnv = extraEnv;
		this.log = log;
		this.shared = readQueueEnv(paths.root);
		/** name -> { name, role, userFolder, logFile, env, child, healthPort } */
		this.processes = new Map();
		this.mainUrl = '';
	}

	get workerNames() {
		return [...this.processes.values()].filter((p) => p.role === 'worker').map((p) => p.name);
	}

	/** The settings only this deployment has: addresses, database, key prefix, encryption key. */
	deploymentEnv() {
		const { postgres, redis } = this.addresses;
		return {
			DB_POSTGRESDB_HOST: postgres.host,
			DB_POSTGRESDB_PORT: String(postgres.port),
			DB_POSTGRESDB_USER: postgres.user,
			DB_POSTGRESDB_PASSWORD: postgres.password,
			DB_POSTGRESDB_DATABASE: this.database,
			QUEUE_BULL_REDIS_HOST: redis.host,
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			...(redis.password ? { QUEUE_BULL_REDIS_PASSWORD: redis.password } : {}),
			// Bull's keys and n8n's own Redis keys (cache, pubsub bookkeeping) under this run's prefix,
			// so runs sharing one Redis do not see each other.
			QUEUE_BULL_PREFIX: `${this.redisPrefix}-bull`,
			N8N_REDIS_KEY_PREFIX: `${this.redisPrefix}-n8n`,
			N8N_ENCRYPTION_KEY: this.encryptionKey,
			N8N_LOG_FORMAT: 'json',
		};
	}

	/** The Redis key prefixes this cluster writes under (for cleanup). */
	get redisPrefixes() {
		return [`${this.redisPrefix}-bull`, `${this.redisPrefix}-n8n`];
	}

	async prepare() {
		const mainPort = this.requestedMainPort ?? (await freePort());
		this.mainUrl = `http://127.0.0.1:${mainPort}`;
		const add = async (name, role) => {
			const userFolder = join(this.dir, name);
			mkdirSync(userFolder, { recursive: true });
			installPackage(this.paths, userFolder);
			const healthPort = role === 'worker' ? await freePort() : undefined;
			const own = {
				...this.deploymentEnv(),
				...(role === 'worker'
					? { QUEUE_HEALTH_CHECK_PORT: String(healthPort), N8N_WORKER_SERVER_ADDRESS: '127.0.0.1' }
					: {}),
				...this.extraEnv,
			};
			// Workers get the main's port for N8N_PORT so that the URLs they build (WEBHOOK_URL,
			// a Wait node's $execution.resumeUrl) point at the main, which takes every request.
			const base = n8nEnv(this.runtime, {
				userFolder,
				port: mainPort,
				brokerPort: await freePort(),
				logLevel: this.logLevel,
			});
			const env = { ...base, ...withSharedEnv(this.shared, own) };
			this.processes.set(name, {
				name,
				role,
				userFolder,
				logFile: join(this.dir, `${name}.log`),
				env,
				child: undefined,
				healthPort,
			});
		};
		await add('main', 'main');
		for (let index = 1; index <= this.workerCount; index++) await add(`worker-${index}`, 'worker');
	}

	process(name) {
		const entry = this.processes.get(name);
		if (!entry) throw new Error(`No n8n process named ${name}`);
		return entry;
	}

	isRunning(name) {
		const { child } = this.process(name);
		return Boolean(child && child.exitCode === null && child.signalCode === null);
	}

	/** Starts one process and waits until it answers its readiness check. */
	async startProcess(name, { timeoutMs = 180_000 } = {}) {
		const entry = this.process(name);
		if (this.isRunning(name)) throw new Error(`${name} is already running`);
		const started = Date.now();
		entry.child = startN8nProcess(
			this.runtime,
			entry.env,
			entry.logFile,
			entry.role === 'worker' ? ['worker'] : ['start'],
		);
		const url = entry.role === 'worker' ? `http://127.0.0.1:${entry.healthPort}` : this.mainUrl;
		await waitForN8n(url, entry.child, { timeoutMs, logFile: entry.logFile });
		const seconds = (Date.now() - started) / 1000;
		this.log(`${name} ready in ${seconds.toFixed(1)} s (pid ${entry.child.pid})`);
		return seconds;
	}

	/** Starts the workers and the main at once; resolves when all are ready. */
	async start() {
		if (this.processes.size === 0) await this.prepare();
		// The main first creates the schema in a new database; workers started at the same time
		// would race it, so they start once the main is ready.
		await this.startProcess('main');
		await Promise.all(this.workerNames.map((name) => this.startProcess(name)));
	}

	/** SIGTERM (n8n shuts down gracefully, up to N8N_GRACEFUL_SHUTDOWN_TIMEOUT), SIGKILL after graceMs. */
	async stop(name, graceMs = 20_000) {
		const entry = this.process(name);
		const started = Date.now();
		await stopProcess(entry.child, graceMs);
		return (Date.now() - started) / 1000;
	}

	/** SIGKILL to the process group: no shutdown at all, as when a machine or container dies. */
	async kill(name) {
		const entry = this.process(name);
		const child = entry.child;
		if (!child || child.exitCode !== null || child.signalCode !== null) return;
		const exited = new Promise((resolvePromise) => child.once('exit', resolvePromise));
		try {
			process.kill(-child.pid, 'SIGKILL');
		} catch {
			child.kill('SIGKILL');
		}
		await exited;
	}

	async stopAll(graceMs = 20_000) {
		await Promise.all([...this.processes.keys()].map((name) => this.stop(name, graceMs)));
	}

	/** The JSON log entries of one process, from all its starts. */
	logEntries(name) {
		let text = '';
		try {
			text = readFileSync(this.process(name).logFile, 'utf8');
		} catch {
			return [];
		}
		return parseJsonLog(text);
	}

	/** execution id -> names of the workers that ran (part of) it, from the workers' own logs. */
	executionsByWorker() {
		const ranOn = new Map();
		for (const name of this.workerNames) {
			for (const id of executionsStarted(this.logEntries(name))) {
				const list = ranOn.get(id) ?? [];
				list.push(name);
				ranOn.set(id, list);
			}
		}
		return ranOn;
	}

	/** Waits until `predicate()` is truthy (checked every `everyMs`); returns its value. */
	static async until(predicate, { timeoutMs, everyMs = 1000, what }) {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const value = await predicate();
			if (value) return value;
			if (Date.now() > deadline)
				throw new Error(`Timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
			await sleep(everyMs);
		}
	}

	tail(name, lines = 40) {
		return tail(this.process(name).logFile, lines);
	}
}
