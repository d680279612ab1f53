#!/usr/bin/env node
// `npm run start:queue`: what `npm start` gives (the sandbox, n8n 2.41.1 with this package, an
// owner, the sandbox credential, the example workflows), with n8n in queue mode: one main and
// workers on PostgreSQL and Redis, the settings of queue-mode.env (those docker-compose.yml
// uses). PostgreSQL and Redis must be running (127.0.0.1:5432 and :6379 unless PGHOST/PGPORT/
// PGUSER/PGPASSWORD or REDIS_HOST/REDIS_PORT/REDIS_PASSWORD say otherwise). A worker that dies
// is started again while the rest keep running. Ctrl-C stops everything it started.
// `npm run start:queue -- --help` for the flags (ports, workers, database, Redis key prefix).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
	EXAMPLE_CREDENTIAL,
	N8N_VERSION,
	N8nApi,
	OWNER,
	ensureBuilt,
	ensureN8n,
	findRoot,
	importExamplesViaApi,
	makeLogger,
	portInUse,
	projectPaths,
	startSandboxProcess,
	stopProcess,
	tail,
	withCredential,
} from './lib/n8n.mjs';
import {
	QUEUE_ENV_FILE,
	QueueCluster,
	ServiceUnavailableError,
	checkServices,
	createDatabase,
	databaseExists,
	deleteRedisKeys,
	dropDatabase,
	serviceAddresses,
} from './lib/queue.mjs';

const DATABASE = 'n8n_video_personalization_demo';
const REDIS_PREFIX = 'n8n-video-personalization-demo';
const QUEUE_EXAMPLES = ['batch-create-trigger-collects.json'];
/** A worker that stops this many times within RESTART_WINDOW_MS is left stopped. */
const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 120_000;

const HELP = `Usage: npm run start:queue -- [flags]
  --port <n>             the n8n main's port (default 5678)
  --workers <n>          how many workers (default 2)
  --sandbox-port <n>     the sandbox API's port (default 5680)
  --cdn-port <n>         the sandbox CDN's port (default 5681)
  --database <name>      the PostgreSQL database n8n uses (default ${DATABASE}; created if missing;
                         user folders and the encryption key in .n8n-e2e/queue-home, or
                         .n8n-e2e/queue-home-<name> for another database)
  --redis-prefix <text>  the prefix of n8n's Redis keys (default ${REDIS_PREFIX})
  --reset                start from an empty n8n (drops the database, its Redis keys and its user folders)
  --build                rebuild the package first (otherwise only when dist/ is missing)
A worker that stops unexpectedly is started again while the main, the other workers and the
sandbox keep running; one that stops ${MAX_RESTARTS} times within ${RESTART_WINDOW_MS / 60_000} minutes is left stopped.
If the main or the sandbox stops, everything stops.`;

const log = makeLogger('start:queue');
const { values: flags } = parseArgs({
	options: {
		port: { type: 'string', default: '5678' },
		workers: { type: 'string', default: '2' },
		'sandbox-port': { type: 'string', default: '5680' },
		'cdn-port': { type: 'string', default: '5681' },
		database: { type: 'string', default: DATABASE },
		'redis-prefix': { type: 'string', default: REDIS_PREFIX },
		reset: { type: 'boolean', default: false },
		build: { type: 'boolean', default: false },
		help: { type: 'boolean', short: 'h', default: false },
	},
});
if (flags.help) {
	console.log(HELP);
	process.exit(0);
}

const root = findRoot(dirname(fileURLToPath(import.meta.url)));
const paths = projectPaths(root);
const database = flags.database;
const redisPrefix = flags['redis-prefix'];
const home = join(paths.base, database === DATABASE ? 'queue-home' : `queue-home-${database}`);
const addresses = serviceAddresses();
let cluster;
let sandbox;
let stopping = false;

async function shutdown(code, why) {
	if (stopping) return;
	stopping = true;
	if (why) log(why);
	log('Stopping n8n (main and workers) and the sandbox ...');
	await Promise.all([cluster?.stopAll(), stopProcess(sandbox)]);
	log('Stopped.');
	process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
	process.on(signal, () => void shutdown(0, `${signal} received`));

function watch(child, name, logFile) {
	child.on('exit', (code, signal) => {
		if (!stopping)
			void shutdown(
				1,
				`${name} stopped unexpectedly (${code ?? signal}); last lines of ${logFile}:\n${tail(logFile, 30)}`,
			);
	});
}

/**
 * Starts a worker again when it stops unexpectedly: the main, the other workers and the sandbox
 * keep running (the runs the worker held are lost: README, "Long renders in queue mode"). One
 * that stops MAX_RESTARTS times within RESTART_WINDOW_MS is left stopped.
 */
function superviseWorker(name) {
	const stops = [];
	const attach = () => {
		const { child, logFile } = cluster.process(name);
		child.once('exit', (code, signal) => {
			if (stopping) return;
			const now = Date.now();
			stops.push(now);
			while (stops[0] < now - RESTART_WINDOW_MS) stops.shift();
			const why = `${name} stopped unexpectedly (${code ?? signal}); last lines of ${logFile}:\n${tail(logFile, 15)}`;
			if (stops.length >= MAX_RESTARTS) {
				log(
					`${why}\n${name} stopped ${stops.length} times within ${RESTART_WINDOW_MS / 60_000} minutes: it is left stopped. ` +
						'The main, the other workers and the sandbox keep running; Ctrl-C and start again to bring it back.',
				);
				return;
			}
			log(
				`${why}\nStarting ${name} again; the main, the other workers and the sandbox keep running.`,
			);
			cluster
				.startProcess(name)
				.then(attach, (error) =>
					log(
						`${name} did not start again (${error instanceof Error ? error.message : String(error)}); the rest keep running.`,
					),
				);
		});
	};
	attach();
}

/** The encryption key of this demo's database, made once and kept beside the user folders. */
function encryptionKey() {
	const file = join(home, 'encryption-key');
	if (!existsSync(file))
		writeFileSync(file, `${randomBytes(24).toString('hex')}\n`, { mode: 0o600 });
	return readFileSync(file, 'utf8').trim();
}

async function main() {
	const started = Date.now();
	const port = Number(flags.port);
	const workers = Number(flags.workers);
	if (!Number.isInteger(workers) || workers < 1) throw new Error('--workers must be 1 or more');
	if (!/^[a-z0-9_]{1,63}$/.test(database))
		throw new Error('--database must be 1 to 63 lower-case letters, digits or underscores');
	if (!/^[A-Za-z0-9_.-]{1,100}$/.test(redisPrefix))
		throw new Error('--redis-prefix must be letters, digits, _ . or - (up to 100)');
	const sandboxPort = Number(flags['sandbox-port']);
	const cdnPort = Number(flags['cdn-port']);
	for (const [name, p] of [
		['n8n', port],
		['sandbox API', sandboxPort],
		['sandbox CDN', cdnPort],
	]) {
		if (await portInUse(p))
			throw new Error(
				`Port ${p} (${name}) is already in use on 127.0.0.1: is \`npm start\` or another \`npm run start:queue\` running? Stop it, or pick other ports (--help).`,
			);
	}
	const versions = await checkServices(addresses);
	log(
		`PostgreSQL ${versions.postgresVersion} at ${addresses.postgres.host}:${addresses.postgres.port}, Redis ${versions.redisVersion} at ${addresses.redis.host}:${addresses.redis.port}`,
	);

	ensureBuilt(paths, log, flags.build);
	const runtime = await ensureN8n(paths, log);
	if (flags.reset) {
		log(`--reset: dropping the database ${database}, its Redis keys and ${home}`);
		await dropDatabase(addresses.postgres, database);
		await deleteRedisKeys(addresses.redis, [`${redisPrefix}-bull`, `${redisPrefix}-n8n`]);
		rmSync(home, { recursive: true, force: true });
	}
	mkdirSync(home, { recursive: true });
	if (!(await databaseExists(addresses.postgres, database)))
		await createDatabase(addresses.postgres, database);

	const sandboxLog = join(home, 'sandbox.log');
	sandbox = (
		await startSandboxProcess(
			paths,
			[
				'--clock',
				'real',
				'--port',
				String(sandboxPort),
				'--cdn-port',
				String(cdnPort),
				'--queue-ms',
				'1000',
				'--render-min-ms',
				'3000',
				'--render-max-ms',
				'8000',
			],
			{ logFile: sandboxLog },
		)
	).child;
	watch(sandbox, 'The sandbox', sandboxLog);
	const sandboxInfo = await (await fetch(`http://127.0.0.1:${sandboxPort}/__sandbox/info`)).json();

	cluster = new QueueCluster({
		paths,
		runtime,
		dir: home,
		addresses,
		database,
		redisPrefix,
		encryptionKey: encryptionKey(),
		workers,
		mainPort: port,
		log,
	});
	await cluster.prepare();
	log(
		`Starting n8n ${N8N_VERSION} in queue mode: main and ${workers} worker(s), settings from ${QUEUE_ENV_FILE}`,
	);
	await cluster.start();
	watch(cluster.process('main').child, 'The n8n main', cluster.process('main').logFile);
	for (const name of cluster.workerNames) superviseWorker(name);

	const api = new N8nApi(cluster.mainUrl);
	const owner = await api.ensureOwner();
	const credential = await api.ensureSandboxCredential(EXAMPLE_CREDENTIAL.name, {
		apiKey: sandboxInfo.keys.admin,
		baseUrl: sandboxInfo.baseUrl,
		graphqlEndpoint: '',
	});
	const imported = await importExamplesViaApi(api, paths, credential);
	const existing = new Set((await api.listWorkflows()).map((w) => w.name));
	for (const file of QUEUE_EXAMPLES) {
		const workflow = withCredential(
			JSON.parse(readFileSync(join(paths.examples, 'queue-mode', file), 'utf8')),
			credential,
		);
		const fresh = !existing.has(workflow.name);
		if (fresh)
			await api.createWorkflow({
				name: workflow.name,
				nodes: workflow.nodes,
				connections: workflow.connections,
				settings: workflow.settings ?? {},
			});
		imported.push({ file, name: workflow.name, imported: fresh });
	}

	const width = 12;
	const line = (label, value) => `  ${label.padEnd(width)} ${value}`;
	console.log(
		[
			'',
			`n8n ${N8N_VERSION} in queue mode with n8n-nodes-video-personalization is ready (${Math.round((Date.now() - started) / 1000)} s):`,
			'',
			line('Editor', cluster.mainUrl),
			line('Email', OWNER.email),
			line(
				'Password',
				`${OWNER.password}${owner === 'created' ? '   (owner account created now)' : ''}`,
			),
			line(
				'Processes',
				`main + ${cluster.workerNames.join(', ')}; executions run on the workers (${QUEUE_ENV_FILE})`,
			),
			line('Services', `PostgreSQL database ${database}, Redis keys ${redisPrefix}-*`),
			line(
				'Credential',
				`"${credential.name}" -> ${sandboxInfo.baseUrl} (${credential.created ? 'created' : 'updated'})`,
			),
			line(
				'Workflows',
				imported
					.map((w) => `${w.name}${w.imported ? '' : ' (already there)'}`)
					.join('\n' + ' '.repeat(width + 3)),
			),
			line('Sandbox', `${sandboxInfo.controlUrl}/info`),
			line('Logs', `${home}/{main,worker-N,sandbox}.log`),
			'',
			`  A worker that stops is started again. Ctrl-C stops n8n and the sandbox. Data stays in the database and ${home} (npm run start:queue -- --reset to start over).`,
			'',
		].join('\n'),
	);
}

main().catch((error) => {
	const message =
		error instanceof ServiceUnavailableError
			? `npm run start:queue needs PostgreSQL and Redis:\n${error.message}`
			: `npm run start:queue failed: ${error instanceof Error ? error.message : String(error)}`;
	void shutdown(1, message);
});
