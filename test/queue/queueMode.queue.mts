// n8n 2.41.1 in queue mode (`npm run test:queue`, which runs this file with node:test under tsx):
// one main and two workers on PostgreSQL and Redis, settings from queue-mode.env, a new
// database and Redis key prefix for the run, one user folder per process with this package
// installed, the sandbox as the service. Where an execution ran is read from n8n itself: each
// worker logs `Worker started execution <id>` in its own log.
//
// Checked: the three examples run on workers with the results of the single-process e2e (the
// CRM one while its worker is stopped gracefully mid-wait); a file downloaded by one worker is
// uploaded by the other after a Wait, byte for byte; the queue-mode example creates a batch of
// 200 videos split over both workers, each video once, and its trigger (polling on the main,
// its executions on the workers) reports each finished video exactly once although a worker
// is killed mid-batch (taking a Wait for Completion run with it), the main is restarted
// cleanly and then killed with SIGKILL.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
	EXAMPLE_CREDENTIAL,
	N8nApi,
	type Paths,
	type WorkflowJson,
	ensureN8n,
	findRoot,
	importExamplesViaApi,
	makeLogger,
	projectPaths,
	sha256,
	sleep,
	withCredential,
} from '../../scripts/lib/n8n.mjs';
import {
	QueueCluster,
	checkServices,
	createDatabase,
	deleteRedisKeys,
	dropDatabase,
	serviceAddresses,
	sweepTestDatabases,
	testDatabaseName,
} from '../../scripts/lib/queue.mjs';
import { startSandbox, type Sandbox, type VideoInfo } from '../../sandbox/index.mts';
import * as helpers from './helpers.mts';
import { type Execution, FINAL, type Item, type Json, customerBatches } from './helpers.mts';
import { downloadWaitUpload } from './workflows.mts';

const log = makeLogger('queue');
const QUEUE_EXAMPLE = join('examples', 'queue-mode', 'batch-create-trigger-collects.json');
const BATCH_WEBHOOK = 'video-personalization-renewals';

let paths: Paths;
let sandbox: Sandbox;
let cluster: QueueCluster;
let api: N8nApi;
let database: string | undefined;
let credential: { id: string; name: string };
const workflowIds: Record<string, string> = {};
const addresses = serviceAddresses();

/** The items a node put out on one output in its first run. */
function output(execution: Execution, node: string, index = 0): Item[] {
	const runs = execution.data.resultData.runData[node];
	assert.ok(
		runs?.length,
		`execution ${execution.id}: node "${node}" did not run; nodes that ran: ${Object.keys(execution.data.resultData.runData).join(', ')}`,
	);
	assert.equal(
		runs[0].executionStatus,
		'success',
		`execution ${execution.id}, node "${node}": ${runs[0].error?.message ?? runs[0].executionStatus}`,
	);
	return runs[0].data?.main?.[index] ?? [];
}

const getExecution = (id: string) => helpers.getExecution(api, paths, id);
const listExecutions = (workflowId: string) => helpers.listExecutions(api, workflowId);
const waitForExecution = (id: string, options?: { timeoutMs?: number; orWaiting?: boolean }) =>
	helpers.waitForExecution(api, paths, id, options);
const runManually = (workflowId: string, trigger: string) =>
	helpers.runManually(api, workflowId, trigger);
const callWebhook = (path: string, body: unknown) =>
	helpers.callWebhook(cluster.mainUrl, path, body);

/** The workers whose logs say they ran (part of) an execution. */
function ranOn(executionId: string): string[] {
	return cluster.executionsByWorker().get(executionId) ?? [];
}

async function waitForWorkerOf(executionId: string): Promise<string> {
	const workers = await QueueCluster.until(
		() => (ranOn(executionId).length > 0 ? ranOn(executionId) : undefined),
		{
			timeoutMs: 30_000,
			everyMs: 200,
			what: `a worker to start execution ${executionId}`,
		},
	);
	return workers[0];
}

/** Times (sandbox clock) at which the trigger polled: each poll asks for the draft list. */
function pollTimes(): number[] {
	return sandbox.requests.log
		.filter((r) => r.method === 'GET' && r.path === '/v1/videos' && r.query.status === 'draft')
		.map((r) => r.at);
}

/** Waits for the trigger's next poll after `since`, then until its executions have had time to finish. */
async function afterNextPoll(since: number, what: string): Promise<number> {
	const polled = await QueueCluster.until(() => pollTimes().find((at) => at > since), {
		timeoutMs: 100_000,
		everyMs: 250,
		what,
	});
	await sleep(15_000);
	return polled;
}

function createdSince(since: number, title: RegExp): VideoInfo[] {
	return sandbox.store.listVideos().filter((v) => v.createdAt >= since && title.test(v.title));
}

async function stopEverything(): Promise<void> {
	await cluster?.stopAll(25_000).catch((error: unknown) => log(`stopping n8n: ${String(error)}`));
	await sandbox?.close();
	if (database)
		await dropDatabase(addresses.postgres, database).catch((error: unknown) =>
			log(`dropping ${database}: ${String(error)}`),
		);
	if (cluster)
		await deleteRedisKeys(addresses.redis, cluster.redisPrefixes).catch((error: unknown) =>
			log(`cleaning Redis: ${String(error)}`),
		);
	database = undefined;
}
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.on(signal, () => {
		if (interrupted) return;
		interrupted = true;
		void stopEverything().then(() => process.exit(130));
	});
}

describe(
	'the package in n8n queue mode (main + 2 workers, PostgreSQL, Redis)',
	{ timeout: 30 * 60_000 },
	() => {
		before(async () => {
			paths = projectPaths(findRoot());
			const versions = await checkServices(addresses);
			log(
				`PostgreSQL ${versions.postgresVersion} at ${addresses.postgres.host}:${addresses.postgres.port}, Redis ${versions.redisVersion} at ${addresses.redis.host}:${addresses.redis.port}`,
			);
			const swept = await sweepTestDatabases(addresses.postgres);
			if (swept.length)
				log(`dropped ${swept.length} test database(s) left by earlier runs: ${swept.join(', ')}`);
			const runtime = await ensureN8n(paths, log);

			// Short renders for the examples; the batch test sets longer ones.
			sandbox = await startSandbox({
				clock: 'real',
				quiet: true,
				render: { queueMs: 500, minMs: 2000, maxMs: 4000, failureShare: 0 },
			});

			database = testDatabaseName();
			await createDatabase(addresses.postgres, database);
			const runsDir = join(paths.base, 'queue');
			mkdirSync(runsDir, { recursive: true });
			for (const old of readdirSync(runsDir))
				rmSync(join(runsDir, old), { recursive: true, force: true });
			const dir = join(runsDir, database);
			mkdirSync(dir, { recursive: true });
			cluster = new QueueCluster({
				paths,
				runtime,
				dir,
				addresses,
				database,
				redisPrefix: database.replace(/_/g, '-'),
				encryptionKey: randomBytes(24).toString('hex'),
				workers: 2,
				log,
			});
			log(`database ${database}; logs and user folders in ${dir}`);
			await cluster.start();
			api = new N8nApi(cluster.mainUrl);
			assert.equal(await api.ensureOwner(), 'created', 'a new database has no owner yet');
			credential = await api.ensureSandboxCredential(EXAMPLE_CREDENTIAL.name, {
				apiKey: sandbox.keys.user,
				baseUrl: sandbox.baseUrl,
				graphqlEndpoint: '',
			});
			for (const example of await importExamplesViaApi(api, paths, credential)) {
				assert.ok(example.id, `${example.file} was not imported`);
				workflowIds[example.file] = example.id;
			}
			const queueExample = withCredential(
				JSON.parse(readFileSync(join(paths.root, QUEUE_EXAMPLE), 'utf8')) as WorkflowJson,
				credential,
			);
			workflowIds.queue = (
				await api.createWorkflow({
					name: queueExample.name,
					nodes: queueExample.nodes,
					connections: queueExample.connections,
					settings: queueExample.settings ?? {},
				})
			).id;
		});

		after(stopEverything);

		it('runs every n8n process from its own user folder, each with the package installed, and the shared settings of queue-mode.env', () => {
			const folders = [...cluster.processes.values()].map((p) => p.userFolder);
			assert.equal(new Set(folders).size, 3);
			for (const entry of cluster.processes.values()) {
				const installed = JSON.parse(
					readFileSync(
						join(
							entry.userFolder,
							'.n8n',
							'nodes',
							'node_modules',
							'n8n-nodes-video-personalization',
							'package.json',
						),
						'utf8',
					),
				) as { name: string };
				assert.equal(installed.name, 'n8n-nodes-video-personalization');
				for (const [key, value] of Object.entries(cluster.shared))
					assert.equal(entry.env[key], value, `${entry.name}: ${key}`);
				assert.equal(entry.env.EXECUTIONS_MODE, 'queue');
				assert.equal(
					entry.env.N8N_DEFAULT_BINARY_DATA_MODE,
					undefined,
					'binary data in the queue-mode default (database)',
				);
				assert.doesNotMatch(cluster.tail(entry.name, 400), /Last session crashed/);
			}
		});

		it(
			'(a) CRM contact to video runs on a worker; stopped gracefully mid-wait, the worker finishes the run first',
			{ timeout: 5 * 60_000 },
			async () => {
				sandbox.store.render = { queueMs: 1000, minMs: 8000, maxMs: 9000, failureShare: 0 };
				const since = Date.now();
				const executionId = await runManually(
					workflowIds['crm-contact-to-video.json'],
					'When clicking ‘Execute workflow’',
				);
				const worker = await waitForWorkerOf(executionId);
				// The video exists: the node is now waiting for its render (about 9-10 s).
				await QueueCluster.until(() => createdSince(since, /^Welcome, Ana!$/).length === 1, {
					timeoutMs: 30_000,
					everyMs: 100,
					what: 'the CRM video',
				});
				await sleep(1000);
				const stopping = Date.now();
				const stopSeconds = await cluster.stop(worker, 120_000);
				const execution = await waitForExecution(executionId);
				log(
					`(a) execution ${executionId} on ${worker}; SIGTERM during its wait, ${worker} exited ${stopSeconds.toFixed(1)} s later`,
				);
				assert.equal(execution.status, 'success');
				assert.deepEqual(ranOn(executionId), [worker]);
				const finishedAt = cluster
					.logEntries(worker)
					.find((e) => e.message.startsWith(`Worker finished execution ${executionId} `));
				assert.ok(finishedAt, `${worker} did not log the end of execution ${executionId}`);
				assert.ok(
					Date.parse(String((finishedAt.metadata as Json).timestamp)) >= stopping,
					'the execution ended after the stop signal: the worker let it finish',
				);

				const [video] = output(execution, 'Create welcome video');
				const id = String(video.json.id);
				const stored = sandbox.store.getVideo(id);
				assert.ok(stored, `the sandbox has no video ${id}`);
				assert.equal(stored.status, 'published');
				assert.equal(stored.templateId, 'tpl_stock_welcome');
				// Template Fields (resource mapper) beside keys of its own; fields left empty stay out.
				assert.deepEqual(stored.customerData, {
					title: 'Welcome, Ana!',
					subtitle: 'Northwind Coffee is on board',
					primary_color: '#0B6E4F',
					first_name: 'Ana',
					last_name: 'García',
					company: 'Northwind Coffee',
				});
				assert.equal(
					output(execution, 'Published?', 1).length,
					0,
					'nothing on the "render failed" branch',
				);
				assert.deepEqual(
					output(execution, 'CRM update (video URL)').map((item) => item.json),
					[
						{
							contact_id: 'crm-1001',
							email: 'ana.garcia@example.com',
							personalized_video_url: `${sandbox.cdnUrl}/videos/${id}.mp4`,
							personalized_video_thumbnail: `${sandbox.cdnUrl}/videos/${id}.jpg`,
							personalized_video_id: id,
							personalized_video_status: 'published',
						},
					],
				);
				await cluster.startProcess(worker);
				sandbox.store.render = { queueMs: 500, minMs: 2000, maxMs: 4000, failureShare: 0 };
			},
		);

		it('(b) scheduled batch runs on a worker: one video per customer, the summary counts what the sandbox holds', async () => {
			const failTitle = 'Renewal reminder for Ben Okafor';
			const since = Date.now();
			let forced: string | undefined;
			let watching = true;
			const watcher = (async () => {
				while (watching && !forced) {
					const video = createdSince(since, new RegExp(`^${failTitle}$`))[0];
					if (video) {
						sandbox.store.setVideoOutcome(video.id, { status: 'failed' });
						forced = video.id;
					}
					await sleep(50);
				}
			})();
			let execution: Execution;
			try {
				const executionId = await runManually(
					workflowIds['scheduled-batch-videos.json'],
					'Run now',
				);
				execution = await waitForExecution(executionId);
				assert.equal(ranOn(executionId).length, 1, `ran on ${ranOn(executionId).join(', ')}`);
			} finally {
				watching = false;
				await watcher;
			}
			assert.equal(execution.status, 'success');
			assert.ok(forced, `no video "${failTitle}" appeared`);
			const created = createdSince(since, /^Renewal reminder for /);
			assert.equal(created.length, 5, 'one video per customer who passed the checks');
			assert.deepEqual(
				output(execution, 'Create renewal videos')
					.map((v) => v.json.id)
					.sort(),
				created.map((v) => v.id).sort(),
			);
			const [summary] = output(execution, 'Summary').map((item) => item.json);
			const published = created.filter((v) => v.status === 'published');
			assert.deepEqual(
				{
					total: summary.total,
					refused: summary.refused,
					published: summary.published,
					failed: summary.failed,
					not_finished: summary.not_finished,
					not_created: summary.not_created,
				},
				{ total: 6, refused: 1, published: 4, failed: 1, not_finished: 0, not_created: 0 },
			);
			assert.deepEqual(
				[...(summary.urls as string[])].sort(),
				published.map((v) => `${sandbox.cdnUrl}/videos/${v.id}.mp4`).sort(),
			);
		});

		it("(c) download published videos, run by hand on a worker: the MP4 lands in n8n's database binary store, byte for byte", async () => {
			const executionId = await runManually(
				workflowIds['video-published-download.json'],
				'Test with the latest video',
			);
			const execution = await waitForExecution(executionId);
			assert.equal(execution.status, 'success');
			assert.equal(ranOn(executionId).length, 1);
			const latest = sandbox.store.listVideos(undefined, { status: 'published' })[0];
			assert.equal(output(execution, 'Latest published video')[0].json.id, latest.id);
			const [handedOn] = output(execution, 'Hand off (replace with upload)');
			const file = handedOn.binary?.data;
			assert.ok(file?.id, 'the hand-off node receives the MP4 as binary data "data"');
			assert.match(
				file.id,
				/^database:/,
				'queue mode keeps binary data in the database by default',
			);
			assert.equal(file.fileName, `${latest.id}.mp4`);
			const res = await fetch(
				`${cluster.mainUrl}/rest/binary-data?id=${encodeURIComponent(file.id)}&action=download`,
				{ headers: { cookie: api.cookie, 'browser-id': api.browserId } },
			);
			assert.equal(res.status, 200);
			const bytes = Buffer.from(await res.arrayBuffer());
			assert.equal(sha256Of(bytes), sha256(join(paths.root, 'sandbox', 'media', 'video.mp4')));
		});

		it(
			'a file downloaded by one worker is uploaded by the other after a Wait, byte for byte',
			{ timeout: 5 * 60_000 },
			async () => {
				const path = `queue-binary-${randomBytes(4).toString('hex')}`;
				const workflow = await api.createWorkflow(downloadWaitUpload(path, credential));
				assert.equal((await api.activateWorkflow(workflow.id)).active, true);
				const video = sandbox.store.listVideos(undefined, { status: 'published' })[0];
				const assetName = `${path}.mp4`;
				const res = await callWebhook(path, {
					url: `${sandbox.cdnUrl}/videos/${video.id}.mp4`,
					name: assetName,
				});
				assert.equal(res.status, 200, await res.text());
				const started = await QueueCluster.until(
					async () => (await listExecutions(workflow.id))[0],
					{ timeoutMs: 30_000, everyMs: 250, what: 'the execution' },
				);
				const waiting = await waitForExecution(started.id, { orWaiting: true });
				assert.equal(
					waiting.status,
					'waiting',
					`execution ${started.id} did not reach the Wait node`,
				);
				const [downloader] = ranOn(started.id);
				const [parked] = output(waiting, 'Resume URL');
				assert.match(String(parked.binary?.data?.id), /^database:/);

				// Only the other worker is left to take the execution up again.
				await cluster.stop(downloader);
				const goAhead = Date.now();
				const resumed = await fetch(String(parked.json.resume_url), { method: 'POST' });
				assert.equal(resumed.status, 200, await resumed.text());
				const execution = await waitForExecution(started.id);
				await cluster.startProcess(downloader);
				assert.equal(execution.status, 'success', execution.data.resultData.error?.message);
				const workers = ranOn(started.id);
				assert.equal(workers.length, 2, `ran on ${workers.join(', ')}`);
				const uploader = workers.find((name) => name !== downloader) ?? '';
				const resumedAt = cluster
					.logEntries(uploader)
					.find((e) => e.message.startsWith(`Worker started execution ${started.id} `))
					?.metadata?.timestamp;
				assert.ok(
					Date.parse(String(resumedAt)) >= goAhead,
					`${uploader} took the execution up after the go-ahead`,
				);
				log(`download on ${downloader}, upload on ${uploader} (execution ${started.id})`);

				const [asset] = output(execution, 'Upload').map((item) => item.json);
				assert.equal(asset.name, assetName);
				assert.equal(asset.type, 'video');
				const uploaded = await fetch(String(asset.url));
				assert.equal(uploaded.status, 200);
				assert.equal(
					sha256Of(Buffer.from(await uploaded.arrayBuffer())),
					sha256(join(paths.root, 'sandbox', 'media', 'video.mp4')),
					'the service received the same bytes',
				);
				await api.deactivateWorkflow(workflow.id);
			},
		);

		it(
			'queue-mode example: 200 videos over both workers, each created once; the trigger polls on the main and reports each finished video exactly once across a worker killed mid-batch, a clean restart and a SIGKILL of the main',
			{ timeout: 15 * 60_000 },
			async () => {
				const queueId = workflowIds.queue;
				// Renders of 30-100 s, so that videos finish across the restarts below; 10% fail.
				sandbox.store.render = { queueMs: 2000, minMs: 30_000, maxMs: 100_000, failureShare: 0.1 };
				const activatedAt = sandbox.clock.now();
				assert.equal((await api.activateWorkflow(queueId)).active, true);
				await QueueCluster.until(() => pollTimes().some((at) => at >= activatedAt), {
					timeoutMs: 30_000,
					everyMs: 200,
					what: 'the first poll after publishing',
				});

				// The batch: 20 calls of 10 customers, as a CRM or a script would send them.
				const batchStarted = Date.now();
				const runTag = randomBytes(2).toString('hex');
				const chunks = customerBatches(`q${runTag}`, 200, 10);
				const answers = await Promise.all(
					chunks.map(async (customers) => {
						const res = await callWebhook(BATCH_WEBHOOK, { customers });
						assert.equal(res.status, 200);
						return (await res.json()) as {
							created: number;
							not_created: number;
							video_ids: string[];
						};
					}),
				);
				log(
					`batch of 200: ${((Date.now() - batchStarted) / 1000).toFixed(1)} s for 20 webhook calls`,
				);
				const answeredIds = answers.flatMap((answer) => answer.video_ids);
				assert.deepEqual(
					answers.map((a) => [a.created, a.not_created]),
					chunks.map(() => [10, 0]),
				);
				const batch = createdSince(batchStarted, new RegExp(`\\[q${runTag}-\\d+\\]$`));
				assert.equal(batch.length, 200, 'each customer has exactly one video');
				assert.equal(new Set(batch.map((v) => v.title)).size, 200);
				assert.deepEqual([...answeredIds].sort(), batch.map((v) => v.id).sort());
				const batchRuns = (await listExecutions(queueId)).filter((e) => e.mode === 'webhook');
				assert.equal(batchRuns.length, 20);
				const batchWorkers = batchRuns.map((e) => ranOn(e.id));
				assert.ok(
					batchWorkers.every((w) => w.length === 1),
					'each batch call ran on one worker',
				);
				assert.deepEqual(
					[...new Set(batchWorkers.flat())].sort(),
					cluster.workerNames,
					'the batch was split over both workers',
				);

				// A Wait for Completion run of the same kind, killed with its worker mid-wait, while the
				// batch renders. The other worker is stopped too: with no worker at all, the main goes
				// on polling and queues the trigger's runs until workers come back.
				const waitSince = Date.now();
				const sampleTitles =
					/^Renewal reminder for (Ana García|Ben Okafor|Chloé Martin|Dev Patel|Eva Novak)$/;
				const waitingRunId = await runManually(
					workflowIds['scheduled-batch-videos.json'],
					'Run now',
				);
				const waitingWorker = await waitForWorkerOf(waitingRunId);
				await QueueCluster.until(() => createdSince(waitSince, sampleTitles).length === 5, {
					timeoutMs: 30_000,
					everyMs: 200,
					what: 'the Wait for Completion batch',
				});
				await afterNextPoll(sandbox.clock.now(), 'a poll before killing a worker');
				const running = (await listExecutions(queueId)).filter((e) => !FINAL.has(e.status));
				assert.deepEqual(running, [], 'no trigger run in progress on the worker about to die');
				const killedAt = Date.now();
				await cluster.kill(waitingWorker);
				const otherWorker = cluster.workerNames.find((name) => name !== waitingWorker) ?? '';
				await cluster.stop(otherWorker);
				const noWorkersFrom = sandbox.clock.now();
				log(
					`killed ${waitingWorker} (SIGKILL) during Wait for Completion run ${waitingRunId}, stopped ${otherWorker}`,
				);
				// A video that finishes now, so that the next poll has something to report.
				const [extra] = sandbox.store.addVideos(1, {
					title: 'Queue test: finished while no worker runs',
					createdAt: Date.now(),
					finishAt: Date.now() + 1000,
					outcome: 'published',
				});
				const queuedRun = await QueueCluster.until(
					async () =>
						(await listExecutions(queueId)).find(
							(e) => e.mode === 'trigger' && !FINAL.has(e.status),
						),
					{ timeoutMs: 150_000, everyMs: 1000, what: 'a trigger run queued while no worker runs' },
				);
				const polledWithoutWorkers = pollTimes().filter((at) => at > noWorkersFrom);
				assert.ok(polledWithoutWorkers.length > 0, 'the main polled while no worker was running');
				assert.deepEqual(ranOn(queuedRun.id), [], `trigger run ${queuedRun.id} waits for a worker`);
				await Promise.all(cluster.workerNames.map((name) => cluster.startProcess(name)));
				const queuedDone = await waitForExecution(queuedRun.id, { timeoutMs: 60_000 });
				assert.equal(queuedDone.status, 'success');
				assert.equal(
					ranOn(queuedRun.id).length,
					1,
					'the queued trigger run ran once the workers were back',
				);

				// A clean restart of the main, between two polls; then a SIGKILL of the main.
				const starts: Array<[number, number]> = [];
				const startMain = async () => {
					const spawned = sandbox.clock.now();
					await cluster.startProcess('main');
					starts.push([spawned, sandbox.clock.now()]);
				};
				await afterNextPoll(sandbox.clock.now(), 'a poll before restarting the main');
				const stopSeconds = await cluster.stop('main', 60_000);
				await startMain();
				log(`main restarted cleanly (stopped in ${stopSeconds.toFixed(1)} s)`);
				await afterNextPoll(starts[0][0], 'a poll after the restart');
				await cluster.kill('main');
				await startMain();
				api = new N8nApi(cluster.mainUrl);
				await api.ensureOwner();
				log('main killed (SIGKILL) and started again');

				// Every video of both batches finished, and a poll after the last one found it.
				const watched = [...batch, ...createdSince(waitSince, sampleTitles), extra];
				const lastFinish = Math.max(
					...watched.map((v) => sandbox.store.getVideo(v.id)?.finishAt ?? Infinity),
				);
				const finalPoll = await QueueCluster.until(
					() => pollTimes().find((at) => at > lastFinish + 1000),
					{ timeoutMs: 240_000, everyMs: 1000, what: 'a poll after the last render finished' },
				);
				const triggerRuns = await QueueCluster.until(
					async () => {
						await sleep(2000);
						const runs = (await listExecutions(queueId)).filter((e) => e.mode === 'trigger');
						return runs.every((e) => FINAL.has(e.status)) ? runs : undefined;
					},
					{ timeoutMs: 60_000, everyMs: 1000, what: 'the trigger runs to finish' },
				);
				const waitingRun = await waitForExecution(waitingRunId, { timeoutMs: 300_000 });
				log(
					`trigger: ${triggerRuns.length} runs; final poll ${Math.round((finalPoll - activatedAt) / 1000)} s after publishing; ` +
						`the killed Wait for Completion run is "${waitingRun.status}" ${Math.round((Date.now() - killedAt) / 1000)} s after the kill`,
				);

				// Exactly once: every event of every trigger run, counted by video.
				const events = new Map<string, Array<{ run: string; event: string }>>();
				for (const summary of triggerRuns) {
					const run = await getExecution(summary.id);
					assert.equal(
						run.status,
						'success',
						`trigger run ${run.id}: ${run.data.resultData.error?.message ?? run.status}`,
					);
					const ran = ranOn(run.id);
					assert.equal(
						ran.length,
						1,
						`trigger run ${run.id} ran on ${ran.join(', ') || 'no worker'}`,
					);
					for (const item of output(run, 'When a renewal video finishes')) {
						const list = events.get(String(item.json.id)) ?? [];
						list.push({ run: run.id, event: String(item.json.event) });
						events.set(String(item.json.id), list);
					}
					// Runs whose videos are all someone else's stop at the filter.
					const mapped = run.data.resultData.runData['Customer and video']
						? output(run, 'Customer and video')
						: [];
					for (const item of mapped) {
						const video = sandbox.store.getVideo(String(item.json.video_id));
						assert.ok(
							video && video.title.endsWith(`[${String(item.json.customer_id)}]`),
							`customer id read back from "${video?.title}"`,
						);
					}
				}
				const repeated = [...events].filter(([, list]) => list.length > 1);
				assert.deepEqual(repeated, [], 'no video fires twice');
				for (const { id } of watched) {
					const video = sandbox.store.getVideo(id);
					const fired = events.get(id);
					assert.ok(fired, `${id} ("${video?.title}", ${video?.status}) never fired`);
					assert.equal(fired[0].event, `video.${video?.status}`, id);
				}
				for (const [id] of events) {
					const video = sandbox.store.getVideo(id);
					assert.ok(
						video &&
							(video.status === 'published' || video.status === 'failed') &&
							video.finishAt >= activatedAt - 1000,
						`${id} fired but finished before publishing`,
					);
				}

				// Every start of the main polls at once.
				for (const [spawned, ready] of starts) {
					const first = pollTimes().find((at) => at >= spawned);
					log(
						`main ready ${Math.round((ready - spawned) / 1000)} s after its start, first poll ${first === undefined ? 'never' : `${Math.round((first - spawned) / 1000)} s`} after it`,
					);
					assert.ok(
						first !== undefined && first <= ready + 10_000,
						'the main polls as soon as it has started',
					);
				}

				// The Wait for Completion run died with its worker: no output, although its videos exist
				// and were reported by the trigger.
				assert.notEqual(waitingRun.status, 'success');
				// What the user sees on that execution (README, "Long renders in queue mode").
				const lost = waitingRun.data.resultData.error?.message ?? '';
				log(`the killed Wait for Completion run: status "${waitingRun.status}", error "${lost}"`);
				assert.match(
					lost,
					/^This execution failed to be processed too many times and will no longer retry\./,
				);
				assert.equal(
					waitingRun.data.resultData.runData['Summary'],
					undefined,
					'the killed run has no summary',
				);
				await api.deactivateWorkflow(queueId);
			},
		);
	},
);

function sha256Of(bytes: Buffer): string {
	return createHash('sha256').update(bytes).digest('hex');
}
