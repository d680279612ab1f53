// Benchmark: the package in n8n 2.41.1 queue mode (a main and workers on PostgreSQL and Redis,
// settings from queue-mode.env, as `npm run test:queue` runs it).
//  1. A batch of 200 videos with 1 worker and with 2: the queue-mode example's webhook, 20 calls
//     of 10 customers sent at once, (a) creating without waiting, on loopback and (b) with 500 ms
//     added to every create, and (c) the same workflow with Wait for Completion on (renders of
//     8-10 s). Wall time from the first call to the last answer; every video checked to exist once.
//  2. A worker's peak memory while a 200 MB video is downloaded (HTTP Request node), parked at a
//     Wait node and uploaded (Asset > Upload) with n8n's binary data in `database` mode, the
//     queue-mode default, against `filesystem` mode.
// Writes bench/results/queue.json and its section of BENCHMARKS.md (kept by bench/markdown.mts).
//   npm run bench:queue            (BENCH_REPS=n changes the repetitions; PostgreSQL and Redis as for test:queue)
import { randomBytes } from 'node:crypto';
import {
	closeSync,
	createReadStream,
	mkdirSync,
	mkdtempSync,
	openSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
	writeSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
	N8nApi,
	type Paths,
	type Runtime,
	type WorkflowJson,
	ensureN8n,
	findRoot,
	makeLogger,
	projectPaths,
	sleep,
	withCredential,
} from '../scripts/lib/n8n.mjs';
import {
	QueueCluster,
	checkServices,
	createDatabase,
	deleteRedisKeys,
	dropDatabase,
	serviceAddresses,
	testDatabaseName,
} from '../scripts/lib/queue.mjs';
import { startSandbox, type Sandbox } from '../sandbox/index.mts';
import {
	callWebhook,
	customerBatches,
	listExecutions,
	waitForExecution,
} from '../test/queue/helpers.mts';
import { downloadWaitUpload } from '../test/queue/workflows.mts';
import { median, round, writeResults, type Figure, type Row } from './lib/report.mts';

const REPS = Number(process.env.BENCH_REPS ?? 3);
const COMMAND = 'npm run bench:queue';
const MIB = 1024 * 1024;
/** The largest video the service takes (the spec's 200 MB, decimal, as the node checks it). */
const UPLOAD_BYTES = 200 * 1_000_000;
const BATCH = { videos: 200, perCall: 10 };
const CREATE_HOOK = 'video-personalization-renewals';
const WAIT_HOOK = 'video-personalization-renewals-wait';
const log = makeLogger('bench:queue');
const addresses = serviceAddresses();

interface Environment {
	cluster: QueueCluster;
	api: N8nApi;
	database: string;
	/** webhook path -> workflow id */
	workflowIds: Record<string, string>;
}

/** A fresh database, a main and `workers` workers, an owner and the sandbox credential. */
async function startEnvironment(
	paths: Paths,
	runtime: Runtime,
	sandbox: Sandbox,
	workers: number,
	extraEnv: Record<string, string> = {},
): Promise<Environment & { credential: { id: string; name: string } }> {
	const database = testDatabaseName();
	await createDatabase(addresses.postgres, database);
	const dir = join(paths.base, 'queue-bench', database);
	mkdirSync(dir, { recursive: true });
	const cluster = new QueueCluster({
		paths,
		runtime,
		dir,
		addresses,
		database,
		redisPrefix: database.replace(/_/g, '-'),
		encryptionKey: randomBytes(24).toString('hex'),
		workers,
		extraEnv,
		log,
	});
	starting = { cluster, database };
	await cluster.start();
	const api = new N8nApi(cluster.mainUrl);
	await api.ensureOwner();
	const credential = await api.ensureSandboxCredential('Video Personalization sandbox', {
		apiKey: sandbox.keys.user,
		baseUrl: sandbox.baseUrl,
		graphqlEndpoint: '',
	});
	starting = undefined;
	return { cluster, api, database, credential, workflowIds: {} };
}

/** Stops everything; the logs and user folders are kept when the benchmark failed. */
async function stopEnvironment(
	environment: Environment | undefined,
	keepLogs = false,
): Promise<void> {
	if (!environment) return;
	await environment.cluster.stopAll();
	await dropDatabase(addresses.postgres, environment.database);
	await deleteRedisKeys(addresses.redis, environment.cluster.redisPrefixes);
	const dir = join(environment.cluster.process('main').userFolder, '..');
	if (keepLogs) log(`logs kept in ${dir}`);
	else rmSync(dir, { recursive: true, force: true });
}

/** Runs one worker or two: the second is stopped or started as needed. */
async function useWorkers(cluster: QueueCluster, count: number): Promise<void> {
	const second = cluster.workerNames[1];
	if (count === 1 && cluster.isRunning(second)) await cluster.stop(second);
	if (count === 2 && !cluster.isRunning(second)) await cluster.startProcess(second);
}

/** The example's workflow, or its Wait for Completion variant (same nodes, waiting, own webhook path). */
function batchWorkflow(
	paths: Paths,
	credential: { id: string; name: string },
	wait: boolean,
): Omit<WorkflowJson, 'id'> {
	const example = withCredential(
		JSON.parse(
			readFileSync(
				join(paths.examples, 'queue-mode', 'batch-create-trigger-collects.json'),
				'utf8',
			),
		) as WorkflowJson,
		credential,
	);
	// The creating half only: no trigger polling during the measurements.
	const creating = new Set([
		'New customers (webhook)',
		'Customers from the request',
		'One item per customer',
		'Create renewal videos',
		'Batch sent',
	]);
	const nodes = example.nodes
		.filter((node) => creating.has(node.name))
		.map((node) => {
			if (node.name === 'New customers (webhook)')
				return {
					...node,
					webhookId: undefined,
					parameters: { ...node.parameters, path: wait ? WAIT_HOOK : CREATE_HOOK },
				};
			if (node.name === 'Create renewal videos' && wait)
				return {
					...node,
					parameters: {
						...node.parameters,
						waitForCompletion: true,
						options: { waitTimeout: 5, pollInterval: 2 },
					},
				};
			return node;
		});
	const connections = Object.fromEntries(
		Object.entries(example.connections).filter(([from]) => creating.has(from)),
	);
	return {
		name: `${example.name}${wait ? ' (Wait for Completion)' : ''}`,
		nodes,
		connections,
		settings: example.settings ?? {},
	};
}

interface BatchRun {
	scenario: string;
	workers: number;
	seconds: number;
	executionsPerWorker: Record<string, number>;
}

async function runBatch(
	environment: Environment,
	sandbox: Sandbox,
	scenario: string,
	hook: string,
	workers: number,
): Promise<BatchRun> {
	const { cluster } = environment;
	const tag = `b${randomBytes(3).toString('hex')}`;
	const before = new Map(
		cluster.workerNames.map((name) => [name, cluster.logEntries(name).length]),
	);
	const started = Date.now();
	let unfinished: unknown[] = [];
	const watch = setInterval(() => {
		void listExecutions(environment.api, environment.workflowIds[hook] ?? '')
			.then(
				(list) =>
					(unfinished = list.filter((e) => e.status !== 'success').map((e) => [e.id, e.status])),
			)
			.catch(() => undefined);
	}, 20_000);
	const answers = await Promise.all(
		customerBatches(tag, BATCH.videos, BATCH.perCall).map(async (customers) => {
			const res = await callWebhook(cluster.mainUrl, hook, { customers }, 120_000).catch(
				(error: unknown) => {
					throw new Error(
						`${scenario}: a webhook call got no answer (${String(error)}); executions not finished: ${JSON.stringify(unfinished)}`,
					);
				},
			);
			const text = await res.text();
			if (res.status !== 200)
				throw new Error(`${scenario}: webhook answered ${res.status}: ${text}`);
			return JSON.parse(text) as { created: number; not_created: number };
		}),
	);
	clearInterval(watch);
	const seconds = (Date.now() - started) / 1000;
	const created = sandbox.store.listVideos().filter((video) => video.title.includes(`[${tag}-`));
	const titles = new Set(created.map((video) => video.title));
	const answered = answers.reduce((sum, answer) => sum + answer.created, 0);
	if (
		created.length !== BATCH.videos ||
		titles.size !== BATCH.videos ||
		answered !== BATCH.videos
	) {
		throw new Error(
			`${scenario}: ${created.length} videos (${titles.size} titles, ${answered} answered) for ${BATCH.videos} customers`,
		);
	}
	if (hook === WAIT_HOOK && created.some((video) => video.status !== 'published'))
		throw new Error(`${scenario}: answered before every video was published`);
	const executionsPerWorker: Record<string, number> = {};
	for (const name of cluster.workerNames) {
		const fresh = cluster.logEntries(name).slice(before.get(name) ?? 0);
		executionsPerWorker[name] = fresh.filter((entry) =>
			entry.message.startsWith('Worker started execution '),
		).length;
	}
	log(
		`${scenario}, ${workers} worker(s): ${seconds.toFixed(1)} s (${Object.entries(
			executionsPerWorker,
		)
			.map(([name, n]) => `${name} ${n}`)
			.join(', ')})`,
	);
	return { scenario, workers, seconds, executionsPerWorker };
}

/** The kernel's figures for a process, in MB (10^6 bytes): resident now and the peak since the last reset. */
function memory(pid: number): { rss: number; peak: number } {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const kb = (field: string) =>
		Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1]) * 1024;
	return { rss: kb('VmRSS') / 1e6, peak: kb('VmHWM') / 1e6 };
}

/** Resets the peak (VmHWM) to the current resident size. */
function resetPeak(pid: number): void {
	writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** Resident memory of the worker process (MB): fresh, at its peak in each step, between them. */
interface MemoryRun {
	mode: string;
	startMB: number;
	downloadPeakMB: number;
	afterDownloadMB: number;
	uploadPeakMB: number;
	/** The highest of both peaks, above the fresh worker. */
	peakAboveStartMB: number;
	downloadSeconds: number;
	uploadSeconds: number;
}

async function measureUpload(
	environment: Environment & { credential: { id: string; name: string } },
	paths: Paths,
	sandbox: Sandbox,
	fileUrl: string,
	mode: string,
): Promise<MemoryRun> {
	const { cluster, api } = environment;
	const worker = cluster.workerNames[0];
	// A fresh worker each time: one that handled a large file keeps most of that memory.
	await cluster.stop(worker);
	await cluster.startProcess(worker);
	const pid = cluster.process(worker).child?.pid ?? 0;
	const path = `bench-upload-${randomBytes(3).toString('hex')}`;
	const workflow = await api.createWorkflow(downloadWaitUpload(path, environment.credential));
	await api.activateWorkflow(workflow.id);
	await sleep(5000);
	const startMB = memory(pid).rss;
	resetPeak(pid);
	const downloadStarted = Date.now();
	const res = await callWebhook(cluster.mainUrl, path, { url: fileUrl, name: `${path}.mp4` });
	if (res.status !== 200)
		throw new Error(`upload webhook answered ${res.status}: ${await res.text()}`);
	const first = await QueueCluster.until(async () => (await listExecutions(api, workflow.id))[0], {
		timeoutMs: 30_000,
		everyMs: 200,
		what: 'the upload run',
	});
	const parked = await waitForExecution(api, paths, first.id, {
		orWaiting: true,
		timeoutMs: 600_000,
	});
	if (parked.status !== 'waiting')
		throw new Error(
			`the upload run did not reach its Wait node: ${parked.status} ${parked.data.resultData.error?.message ?? ''}`,
		);
	const downloadSeconds = (Date.now() - downloadStarted) / 1000;
	const downloadPeak = memory(pid).peak;
	const storedAs = String(
		parked.data.resultData.runData['Resume URL'][0].data?.main?.[0]?.[0].binary?.data?.id,
	);
	if (!storedAs.startsWith(mode.startsWith('database') ? 'database:' : 'filesystem'))
		throw new Error(`${mode}: the file was stored as ${storedAs}`);
	await sleep(3000);
	const afterDownloadMB = memory(pid).rss;
	resetPeak(pid);
	const resumeUrl = String(
		parked.data.resultData.runData['Resume URL'][0].data?.main?.[0]?.[0].json.resume_url,
	);
	const uploadStarted = Date.now();
	await fetch(resumeUrl, { method: 'POST' });
	const done = await waitForExecution(api, paths, first.id, { timeoutMs: 600_000 });
	const uploadSeconds = (Date.now() - uploadStarted) / 1000;
	const uploadPeak = memory(pid).peak;
	if (done.status !== 'success')
		throw new Error(`the upload run ended ${done.status}: ${done.data.resultData.error?.message}`);
	const asset = done.data.resultData.runData.Upload[0].data?.main?.[0]?.[0].json;
	const stored = sandbox.store.getAsset(String(asset?.id));
	if (!stored || stored.size !== UPLOAD_BYTES)
		throw new Error(`the sandbox holds ${stored?.size} bytes, not ${UPLOAD_BYTES}`);
	await api.deactivateWorkflow(workflow.id);
	const run: MemoryRun = {
		mode,
		startMB: round(startMB, 1),
		downloadPeakMB: round(downloadPeak, 1),
		afterDownloadMB: round(afterDownloadMB, 1),
		uploadPeakMB: round(uploadPeak, 1),
		peakAboveStartMB: round(Math.max(downloadPeak, uploadPeak) - startMB, 1),
		downloadSeconds: round(downloadSeconds, 1),
		uploadSeconds: round(uploadSeconds, 1),
	};
	log(`${mode}: ${JSON.stringify(run)}`);
	return run;
}

/** Serves one file over HTTP on 127.0.0.1 (what the HTTP Request node downloads). */
async function serveFile(file: string): Promise<{ url: string; close: () => Promise<void> }> {
	const server = createServer((req, res) => {
		res.writeHead(200, {
			'content-type': 'video/mp4',
			'content-length': statSync(file).size,
			'content-disposition': 'attachment; filename="big.mp4"',
		});
		createReadStream(file).pipe(res);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/big.mp4`,
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

function section(runs: BatchRun[], memoryRuns: MemoryRun[], date: string, seconds: number): string {
	const scenarios = [...new Set(runs.map((run) => run.scenario))];
	const medianOf = (scenario: string, workers: number) =>
		median(
			runs
				.filter((run) => run.scenario === scenario && run.workers === workers)
				.map((run) => run.seconds),
		);
	const batchRows = scenarios.map((scenario) => {
		const one = medianOf(scenario, 1);
		const two = medianOf(scenario, 2);
		const twoRuns = runs.filter((run) => run.scenario === scenario && run.workers === 2);
		const split = twoRuns.map((run) => Object.values(run.executionsPerWorker).join('/')).join(', ');
		return `| ${scenario} | ${round(one, 1)} | ${round(two, 1)} | ${round(one / two, 2)} × | ${round(BATCH.videos / one, 0)} / ${round(BATCH.videos / two, 0)} | ${split} |`;
	});
	const memoryModes = [...new Set(memoryRuns.map((run) => run.mode))];
	const memoryRows = memoryModes.map((mode) => {
		const of = memoryRuns.filter((run) => run.mode === mode);
		const pick = (key: keyof MemoryRun) => round(median(of.map((run) => Number(run[key]))), 1);
		const worst = (key: keyof MemoryRun) =>
			round(Math.max(...of.map((run) => Number(run[key]))), 1);
		return `| ${mode} | ${pick('startMB')} | ${pick('downloadPeakMB')} | ${pick('afterDownloadMB')} | ${pick('uploadPeakMB')} | ${pick('peakAboveStartMB')} (worst ${worst('peakAboveStartMB')}) | ${pick('downloadSeconds')} / ${pick('uploadSeconds')} |`;
	});
	const ratio = (scenario: string) => round(medianOf(scenario, 1) / medianOf(scenario, 2), 2);
	const fileMB = UPLOAD_BYTES / 1e6;
	const kept = round(
		median(
			memoryRuns
				.filter((run) => run.mode.startsWith('database'))
				.map((run) => run.afterDownloadMB - run.startMB),
		),
		0,
	);
	const above = (prefix: string, key: 'downloadPeakMB' | 'uploadPeakMB') =>
		round(
			median(
				memoryRuns
					.filter((run) => run.mode.startsWith(prefix))
					.map((run) => run[key] - run.startMB),
			),
			0,
		);
	const helps = (value: number, plural = false) =>
		value >= 1.15
			? `${plural ? 'help' : 'helps'} (${value}×)`
			: `${plural ? 'change' : 'changes'} little (${value}×, within the noise of this shared machine)`;
	const notes = `### What this shows

- **Creating without waiting**, an execution is n8n's own work (queueing, database writes, the run) plus a
  few requests, and on this machine every process shares the same 2 cores: a second worker ${helps(ratio(scenarios[0]))}.
  With a service that takes 500 ms per create, executions wait on the network and a second worker's slots
  ${helps(ratio(scenarios[1]), true)}.
- **With Wait for Completion** every execution holds one of its worker's 10 slots until its videos are finished:
  20 executions take two rounds on one worker and one round on two (${ratio(scenarios[2])}×). Waiting runs need
  worker slots in proportion to the batches waiting at once; creating without waiting (the queue-mode example)
  needs none while the service renders.
- **Binary data in \`database\` mode is held in memory whole**: while storing the ${round(fileMB, 0)} MB file the worker grew
  ${above('database', 'downloadPeakMB')} MB above its fresh size (${round(above('database', 'downloadPeakMB') / fileMB, 1)}× the file), it stayed ${kept} MB larger between the steps, and it peaked
  ${above('database', 'uploadPeakMB')} MB above its fresh size while reading the file back and uploading it (${round(above('database', 'uploadPeakMB') / fileMB, 1)}×). In \`filesystem\` mode the
  same run peaked ${above('filesystem', 'downloadPeakMB')} MB and ${above('filesystem', 'uploadPeakMB')} MB above: the node streams the file, but in \`database\` mode n8n hands
  it a file it has already read into memory.`;
	return `<!-- section:queue -->
## Queue mode: 1 worker vs 2, and binary data in the database

Written by \`${COMMAND}\` (bench/queue.mts), kept as it is by bench/markdown.mts · run ${date} · took ${round(seconds / 60, 1)} min · load average at the end ${loadavg()
		.map((value) => round(value, 2))
		.join(
			' / ',
		)} (1/5/15 min) · ${cpus().length} cores, shared with the sandbox, PostgreSQL, Redis, the n8n main and other work.

n8n 2.41.1 in queue mode as \`npm run test:queue\` runs it (settings from \`queue-mode.env\`, PostgreSQL and Redis on
127.0.0.1, each worker with n8n's default concurrency of 10 executions), the sandbox in the benchmark's process.

**A batch of ${BATCH.videos} videos, 1 worker vs 2.** The queue-mode example (\`examples/queue-mode/\`) through its
webhook: ${BATCH.videos / BATCH.perCall} calls of ${BATCH.perCall} customers sent at once, so ${BATCH.videos / BATCH.perCall} executions queued together. Time from the first
call to the last answer (the webhook answers when its execution has ended); each run checks that every customer has
exactly one video. "Create without waiting" is the example as it is; "+500 ms per create" answers every
\`POST /videos\` 500 ms late (sandbox \`slow\` fault), as a service that takes half a second to accept a video would; "Wait for Completion" is the same workflow
with Wait for Completion on (renders of 8-10 s, Check Every 2 s), the way the scheduled-batch example works. Medians
of ${REPS} runs per cell, 1-worker and 2-worker runs alternating (the second worker stopped or started between them).

| scenario | 1 worker, s | 2 workers, s | 1 / 2 | videos per s (1 / 2) | executions per worker with 2 |
|---|---|---|---|---|---|
${batchRows.join('\n')}

**A 200 MB upload, peak memory of the worker.** One run downloads a ${round(UPLOAD_BYTES / 1e6, 1)} MB (${round(UPLOAD_BYTES / MIB, 1)} MiB) MP4 with
the HTTP Request node, stops at a Wait node, and after the go-ahead uploads it with Asset > Upload; one worker, so it
runs both steps, started afresh for each run. Resident memory of the worker process: when it is ready, at its peak
during each step (the kernel's \`VmHWM\`, reset when the step starts), and between the steps. MB = 10^6 bytes;
medians of ${REPS} runs (worst in brackets). \`database\` is n8n's default in queue mode; \`filesystem\` is for
comparison (in queue mode it needs storage that every worker reaches).

| binary data mode | worker at start, MB | peak, download + store, MB | after, MB | peak, read + upload, MB | highest peak above start, MB | download / upload, s |
|---|---|---|---|---|---|---|
${memoryRows.join('\n')}

${notes}
<!-- /section:queue -->`;
}

function replaceSection(file: string, text: string): void {
	let current = '';
	try {
		current = readFileSync(file, 'utf8');
	} catch {
		// no file yet
	}
	const pattern = /<!-- section:queue -->[\s\S]*?<!-- \/section:queue -->/;
	writeFileSync(
		file,
		pattern.test(current) ? current.replace(pattern, text) : `${current.trimEnd()}\n\n${text}\n`,
	);
}

/** Ctrl-C: stop what was started (n8n runs in its own process groups), then leave. */
let stopOnSignal: (() => Promise<void>) | undefined;
/** An environment between its creation and the end of its start, when Ctrl-C must stop it too. */
let starting: { cluster: QueueCluster; database: string } | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.once(
		signal,
		() => void (stopOnSignal?.() ?? Promise.resolve()).finally(() => process.exit(130)),
	);
}

async function main(): Promise<void> {
	const started = Date.now();
	const paths = projectPaths(findRoot());
	await checkServices(addresses);
	const runtime = await ensureN8n(paths, log);
	const scratch = mkdtempSync(join(tmpdir(), 'vp-queue-bench-'));
	const sandbox = await startSandbox({
		clock: 'real',
		quiet: true,
		render: { queueMs: 500, minMs: 8000, maxMs: 10_000, failureShare: 0 },
	});
	let environment: (Environment & { credential: { id: string; name: string } }) | undefined;
	const runs: BatchRun[] = [];
	const memoryRuns: MemoryRun[] = [];
	stopOnSignal = async () => {
		if (starting)
			await stopEnvironment({ ...starting, api: new N8nApi(''), workflowIds: {} }, true);
		await stopEnvironment(environment, true);
		await sandbox.close();
	};
	try {
		environment = await startEnvironment(paths, runtime, sandbox, 2);
		for (const wait of [false, true]) {
			const workflow = await environment.api.createWorkflow(
				batchWorkflow(paths, environment.credential, wait),
			);
			await environment.api.activateWorkflow(workflow.id);
			environment.workflowIds[wait ? WAIT_HOOK : CREATE_HOOK] = workflow.id;
		}
		// Warm-up: both workflows once with both workers (not counted).
		await runBatch(environment, sandbox, 'warm-up', CREATE_HOOK, 2);
		await runBatch(environment, sandbox, 'warm-up', WAIT_HOOK, 2);
		const scenarios: Array<{ name: string; hook: string; slow: boolean }> = [
			{ name: 'Create without waiting', hook: CREATE_HOOK, slow: false },
			{ name: 'Create without waiting, +500 ms per create', hook: CREATE_HOOK, slow: true },
			{ name: 'Wait for Completion (renders 8-10 s)', hook: WAIT_HOOK, slow: false },
		];
		for (let rep = 0; rep < REPS; rep++) {
			for (const workers of rep % 2 === 0 ? [1, 2] : [2, 1]) {
				await useWorkers(environment.cluster, workers);
				for (const scenario of scenarios) {
					if (scenario.slow)
						sandbox.faults.random({
							rate: 1,
							kinds: ['slow'],
							delayMs: 500,
							match: { method: 'POST', path: '/v1/videos' },
						});
					try {
						runs.push(await runBatch(environment, sandbox, scenario.name, scenario.hook, workers));
					} finally {
						sandbox.faults.clear();
					}
				}
			}
		}
		await useWorkers(environment.cluster, 1);

		const file = join(scratch, 'big.mp4');
		const fd = openSync(file, 'w');
		const block = randomBytes(MIB);
		for (let written = 0; written < UPLOAD_BYTES; written += MIB)
			writeSync(fd, block, 0, Math.min(MIB, UPLOAD_BYTES - written));
		closeSync(fd);
		const server = await serveFile(file);
		try {
			for (let rep = 0; rep < REPS; rep++)
				memoryRuns.push(
					await measureUpload(
						environment,
						paths,
						sandbox,
						server.url,
						'database (queue-mode default)',
					),
				);
			await stopEnvironment(environment);
			environment = await startEnvironment(paths, runtime, sandbox, 1, {
				N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
			});
			for (let rep = 0; rep < REPS; rep++)
				memoryRuns.push(await measureUpload(environment, paths, sandbox, server.url, 'filesystem'));
		} finally {
			await server.close();
		}
	} catch (error) {
		await stopEnvironment(environment, true);
		environment = undefined;
		throw error;
	} finally {
		await stopEnvironment(environment);
		await sandbox.close();
		rmSync(scratch, { recursive: true, force: true });
	}

	const seconds = (Date.now() - started) / 1000;
	const rows: Row[] = runs.map((run) => ({
		scenario: run.scenario,
		workers: run.workers,
		seconds: round(run.seconds, 2),
		split: Object.values(run.executionsPerWorker).join('/'),
	}));
	const figure = (scenario: string): Figure => {
		const one = median(
			runs
				.filter((run) => run.scenario === scenario && run.workers === 1)
				.map((run) => run.seconds),
		);
		const two = median(
			runs
				.filter((run) => run.scenario === scenario && run.workers === 2)
				.map((run) => run.seconds),
		);
		return {
			name: `Batch of 200, ${scenario}: 1 worker / 2 workers`,
			value: round(one / two, 2),
			unit: '×',
			repetitions: REPS,
			note: `medians ${round(one, 1)} s vs ${round(two, 1)} s`,
		};
	};
	const db = memoryRuns.filter((run) => run.mode.startsWith('database'));
	const fs = memoryRuns.filter((run) => run.mode === 'filesystem');
	const figures: Figure[] = [
		...[...new Set(runs.map((run) => run.scenario))].map(figure),
		{
			name: 'Download + upload of 200 MB, database mode: worker peak above its fresh size (worst)',
			value: round(Math.max(...db.map((run) => run.peakAboveStartMB)), 1),
			unit: 'MB',
			repetitions: REPS,
		},
		{
			name: 'Download + upload of 200 MB, filesystem mode: worker peak above its fresh size (worst)',
			value: round(Math.max(...fs.map((run) => run.peakAboveStartMB)), 1),
			unit: 'MB',
			repetitions: REPS,
		},
	];
	writeResults(
		'queue',
		COMMAND,
		figures,
		{ title: 'Queue mode: batch runs (seconds)', rows },
		{ runs, memoryRuns, repetitions: REPS },
	);
	replaceSection(
		join(paths.root, 'BENCHMARKS.md'),
		section(runs, memoryRuns, new Date().toISOString(), seconds),
	);
	log(`BENCHMARKS.md: queue section written (${Math.round(seconds)} s)`);
}

await main();
