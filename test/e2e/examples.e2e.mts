// End to end in a real n8n 2.41.1 against the sandbox (`npm run test:e2e`, which installs n8n
// first and runs this file with node:test under tsx). The three example workflows are imported
// unchanged with `n8n import:workflow` (their credential id imported with
// `n8n import:credentials`), run with `n8n execute --id`, and their output is checked against
// what the sandbox holds; then the trigger example is published in a running n8n and must fire
// for a video that finishes afterwards. n8n runs with its SSRF protection on (the sandbox allowed
// by IP range), as a security-minded administrator runs it.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
	CREDENTIAL_TYPE,
	EXAMPLE_CREDENTIAL,
	N8nApi,
	type Paths,
	type Runtime,
	SSRF_PROTECTION_ENV,
	ensureN8n,
	findRoot,
	freePort,
	installPackage,
	makeLogger,
	n8nEnv,
	parseRawOutput,
	projectPaths,
	readExamples,
	runN8nCli,
	sha256,
	sleep,
	startN8nProcess,
	stopProcess,
	tail,
	waitForN8n,
} from '../../scripts/lib/n8n.mjs';
import { startSandbox, type Sandbox } from '../../sandbox/index.mts';

type Json = Record<string, unknown>;
interface Item {
	json: Json;
	binary?: Record<string, { id?: string; mimeType?: string; fileName?: string; bytes?: number }>;
}
interface NodeRun {
	executionStatus?: string;
	error?: { message?: string };
	data?: { main?: Array<Item[] | null> };
}
interface RunResult {
	data: { resultData: { runData: Record<string, NodeRun[]>; error?: { message?: string } } };
	status?: string;
}

const WORKFLOW_IDS = {
	crm: 'vpExampleCrm0001',
	batch: 'vpExampleBatch01',
	trigger: 'vpExampleTrig001',
};
const log = makeLogger('e2e');

let paths: Paths;
let runtime: Runtime;
let sandbox: Sandbox;
let userFolder: string;
let env: NodeJS.ProcessEnv;
let n8n: ChildProcess | undefined;
let testStarted: number;

/** The items a node put out on one output in its first run. */
function output(result: RunResult, node: string, index = 0): Item[] {
	const runs = result.data.resultData.runData[node];
	assert.ok(
		runs?.length,
		`node "${node}" did not run; nodes that ran: ${Object.keys(result.data.resultData.runData).join(', ')}`,
	);
	assert.equal(
		runs[0].executionStatus,
		'success',
		`node "${node}": ${runs[0].error?.message ?? runs[0].executionStatus}`,
	);
	return runs[0].data?.main?.[index] ?? [];
}

async function execute(workflowId: string): Promise<RunResult> {
	const started = Date.now();
	const r = await runN8nCli(runtime, env, ['execute', `--id=${workflowId}`, '--rawOutput']);
	log(
		`n8n execute --id=${workflowId}: exit ${r.code} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
	);
	assert.equal(
		r.code,
		0,
		`n8n execute --id=${workflowId} failed:\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`,
	);
	const result = parseRawOutput(r.stdout) as RunResult;
	assert.equal(
		result.data.resultData.error,
		undefined,
		`execution error: ${result.data.resultData.error?.message}`,
	);
	return result;
}

/** Where n8n's filesystem binary store keeps a binary item. */
function binaryFile(id: string): string {
	const m = /^filesystem-v2:(.+)$/.exec(id);
	assert.ok(m, `binary data id ${id} is not in the filesystem store`);
	return join(userFolder, '.n8n', 'storage', m[1]);
}

const stopAll = async () => {
	await stopProcess(n8n);
	n8n = undefined;
	await sandbox?.close();
};
// Ctrl-C: stop n8n (its own process group) before leaving. Repeated signals change nothing.
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.on(signal, () => {
		if (interrupted) return;
		interrupted = true;
		void stopAll().then(() => process.exit(130));
	});
}

describe('example workflows in a real n8n', { timeout: 20 * 60_000 }, () => {
	before(async () => {
		testStarted = Date.now();
		paths = projectPaths(findRoot());
		runtime = await ensureN8n(paths, log);
		sandbox = await startSandbox({
			clock: 'real',
			quiet: true,
			// Short renders; no random failures (the batch test makes one fail on purpose).
			render: { queueMs: 500, minMs: 2000, maxMs: 4000, failureShare: 0 },
		});
		userFolder = join(paths.base, 'e2e');
		rmSync(userFolder, { recursive: true, force: true });
		mkdirSync(userFolder, { recursive: true });
		installPackage(paths, userFolder);
		// n8n's SSRF protection on, the sandbox allowed by IP range (README "Security").
		env = n8nEnv(runtime, {
			userFolder,
			port: await freePort(),
			brokerPort: await freePort(),
			extra: SSRF_PROTECTION_ENV,
		});
		log(`n8n user folder ${userFolder}; sandbox ${sandbox.baseUrl}, CDN ${sandbox.cdnUrl}`);
	});

	after(stopAll);

	/** Imports (or replaces) the examples' credential, pointing at the sandbox unless told otherwise. */
	async function importCredential(data: Json = {}): Promise<void> {
		const credentialsFile = join(userFolder, 'credentials.json');
		writeFileSync(
			credentialsFile,
			JSON.stringify([
				{
					id: EXAMPLE_CREDENTIAL.id,
					name: EXAMPLE_CREDENTIAL.name,
					type: CREDENTIAL_TYPE,
					data: {
						apiKey: sandbox.keys.user,
						baseUrl: sandbox.baseUrl,
						graphqlEndpoint: '',
						...data,
					},
				},
			]),
		);
		const creds = await runN8nCli(runtime, env, [
			'import:credentials',
			`--input=${credentialsFile}`,
		]);
		assert.equal(creds.code, 0, creds.stdout + creds.stderr);
		assert.match(creds.stdout, /Successfully imported 1 credential/);
	}

	it('imports the credential and the three examples unchanged (import:credentials, import:workflow)', async () => {
		await importCredential();

		const examples = readExamples(paths);
		assert.deepEqual(examples.map((e) => e.workflow.id).sort(), Object.values(WORKFLOW_IDS).sort());
		for (const { file, workflow } of examples) {
			const ours = workflow.nodes.filter((n) =>
				n.type.startsWith('n8n-nodes-video-personalization.'),
			);
			assert.ok(ours.length > 0, `${file} uses no Video Personalization node`);
			for (const node of ours)
				assert.deepEqual(
					node.credentials?.[CREDENTIAL_TYPE],
					EXAMPLE_CREDENTIAL,
					`${file}: ${node.name}`,
				);
			for (const node of workflow.nodes) {
				assert.match(
					node.type,
					/^(n8n-nodes-base|n8n-nodes-video-personalization)\./,
					`${file}: ${node.name} is ${node.type}`,
				);
			}
		}
		const workflows = await runN8nCli(runtime, env, [
			'import:workflow',
			'--separate',
			`--input=${paths.examples}`,
		]);
		assert.equal(workflows.code, 0, workflows.stdout + workflows.stderr);
		assert.match(workflows.stdout, /Successfully imported 3 workflows/);
	});

	it('(a) CRM contact to video: writes back the CDN URL of the published video', async () => {
		const result = await execute(WORKFLOW_IDS.crm);
		const [video] = output(result, 'Create welcome video');
		const id = String(video.json.id);
		const stored = sandbox.store.getVideo(id);
		assert.ok(stored, `the sandbox has no video ${id}`);
		assert.equal(stored.status, 'published');
		assert.equal(stored.title, 'Welcome, Ana!');
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
		assert.ok(stored.createdAt >= testStarted, 'the video was created by this run');

		assert.equal(
			output(result, 'Published?', 1).length,
			0,
			'nothing on the "render failed" branch',
		);
		const updates = output(result, 'CRM update (video URL)');
		assert.equal(updates.length, 1);
		assert.deepEqual(updates[0].json, {
			contact_id: 'crm-1001',
			email: 'ana.garcia@example.com',
			personalized_video_url: `${sandbox.cdnUrl}/videos/${id}.mp4`,
			personalized_video_thumbnail: `${sandbox.cdnUrl}/videos/${id}.jpg`,
			personalized_video_id: id,
			personalized_video_status: 'published',
		});
		const res = await fetch(String(updates[0].json.personalized_video_url));
		assert.equal(res.status, 200);
		assert.equal(res.headers.get('content-type'), 'video/mp4');
		await res.arrayBuffer();
	});

	it('(b) scheduled batch: one video per customer, the summary counts what the sandbox holds', async () => {
		// Make Ben's video fail, so the summary has both outcomes.
		const failTitle = 'Renewal reminder for Ben Okafor';
		let forced: string | undefined;
		let watching = true;
		const watcher = (async () => {
			while (watching && !forced) {
				const video = sandbox.store
					.listVideos()
					.find((v) => v.title === failTitle && v.createdAt >= testStarted);
				if (video) {
					assert.ok(
						video.status === 'draft' || video.status === 'processing',
						`already ${video.status}`,
					);
					sandbox.store.setVideoOutcome(video.id, { status: 'failed' });
					forced = video.id;
				}
				await sleep(50);
			}
		})();
		const since = Date.now();
		let result: RunResult;
		try {
			result = await execute(WORKFLOW_IDS.batch);
		} finally {
			watching = false;
			await watcher;
		}
		assert.ok(forced, `no video "${failTitle}" appeared`);

		const created = sandbox.store
			.listVideos()
			.filter((v) => v.createdAt >= since && v.title.startsWith('Renewal reminder for '));
		assert.equal(created.length, 5, 'one video per customer who passed the checks');
		assert.ok(!created.some((v) => v.title.includes('Schmidt')), 'no video for the refused one');
		// Check Only: one item per customer, the one without a first name refused by field.
		const checked = output(result, 'Check customers (no credits)').map((item) => item.json);
		assert.deepEqual(
			checked.map((item) => item.ok),
			[true, true, true, true, true, false],
		);
		assert.deepEqual(checked[5].problems, [
			'Customer Data: "first_name" is required by the template (template "Renewal Reminder") [item 5]',
		]);
		assert.deepEqual(checked[0].template, { id: 'tpl_stock_renewal', name: 'Renewal Reminder' });
		const videos = output(result, 'Create renewal videos');
		assert.deepEqual(videos.map((v) => v.json.id).sort(), created.map((v) => v.id).sort());

		const [summary] = output(result, 'Summary').map((item) => item.json);
		const published = created.filter((v) => v.status === 'published');
		const failed = created.filter((v) => v.status === 'failed');
		assert.deepEqual(
			{
				total: summary.total,
				refused: summary.refused,
				published: summary.published,
				failed: summary.failed,
				not_finished: summary.not_finished,
				not_created: summary.not_created,
			},
			{
				total: 6,
				refused: 1,
				published: published.length,
				failed: failed.length,
				not_finished: 0,
				not_created: 0,
			},
		);
		assert.deepEqual(summary.refused_customers, [
			{ customer_id: 'cus-206', email: 'f.schmidt@example.com', problems: checked[5].problems },
		]);
		assert.equal(output(result, 'Nothing created?').length, 0, 'videos were created');
		assert.equal(result.data.resultData.runData['Stop: no video created'], undefined);
		assert.equal(published.length, 4);
		assert.deepEqual(
			failed.map((v) => v.id),
			[forced],
		);
		assert.deepEqual(
			[...(summary.urls as string[])].sort(),
			published.map((v) => `${sandbox.cdnUrl}/videos/${v.id}.mp4`).sort(),
		);
		for (const entry of summary.videos as Json[]) {
			const stored = sandbox.store.getVideo(String(entry.id));
			assert.ok(stored, `summary names unknown video ${String(entry.id)}`);
			assert.equal(entry.status, stored.status);
			assert.equal(entry.title, stored.title);
			assert.equal(
				entry.url,
				stored.status === 'published' ? `${sandbox.cdnUrl}/videos/${stored.id}.mp4` : null,
			);
		}
		const ben = created.find((v) => v.id === forced);
		assert.deepEqual(ben?.customerData, {
			first_name: 'Ben',
			company: 'Blue Harbor',
			plan: 'Team',
			renewal_date: '2026-12-03',
		});
		assert.equal(ben?.aspectRatio, '16:9');
	});

	it('(b) scheduled batch whose template lookup n8n refuses: fails at the check, naming the item and the setting, and creates nothing', async () => {
		// The credential's GraphQL Endpoint on 127.0.0.2, which SSRF protection blocks (only
		// 127.0.0.1/32 is allowed): the one template lookup of the batch is refused, nothing is sent.
		await importCredential({
			graphqlEndpoint: `http://127.0.0.2:${new URL(sandbox.baseUrl).port}/v1/graphql`,
		});
		sandbox.requests.clear();
		try {
			const r = await runN8nCli(runtime, env, [
				'execute',
				`--id=${WORKFLOW_IDS.batch}`,
				'--rawOutput',
			]);
			const text = r.stdout + r.stderr;
			assert.notEqual(r.code, 0, `the batch must not end as a success:\n${text.slice(-3000)}`);
			const result = parseRawOutput(r.stdout) as RunResult & {
				data: { resultData: { runData: Record<string, Array<{ error?: Json }>> } };
			};
			assert.equal(result.status, 'error');
			const [check] = result.data.resultData.runData['Check customers (no credits)'];
			assert.match(
				String(check.error?.message),
				/^n8n's SSRF protection refused to find the template with Template ID "tpl_stock_renewal": 127\.0\.0\.2 is a blocked address, so nothing was sent\. To allow it, add 127\.0\.0\.2\/32 to N8N_SSRF_ALLOWED_IP_RANGES and restart n8n \[item 0\]$/,
			);
			for (const node of ['Create renewal videos', 'Summary'])
				assert.equal(result.data.resultData.runData[node], undefined, `${node} ran`);
			assert.equal(sandbox.requests.log.length, 0, 'nothing reached the service');
		} finally {
			await importCredential();
		}
	});

	it('(c) download published videos, run by hand: downloads the MP4 of the latest published video', async () => {
		const result = await execute(WORKFLOW_IDS.trigger);
		const latest = sandbox.store.listVideos(undefined, { status: 'published' })[0];
		const [video] = output(result, 'Latest published video');
		assert.equal(video.json.id, latest.id);
		const handedOn = output(result, 'Hand off (replace with upload)');
		assert.equal(handedOn.length, 1);
		const file = handedOn[0].binary?.data;
		assert.ok(file?.id, 'the hand-off node receives the MP4 as binary data "data"');
		assert.equal(file.mimeType, 'video/mp4');
		assert.equal(file.fileName, `${latest.id}.mp4`);
		const stored = binaryFile(file.id);
		assert.ok(existsSync(stored), stored);
		assert.equal(
			sha256(stored),
			sha256(join(paths.root, 'sandbox', 'media', 'video.mp4')),
			'the downloaded file is the rendered MP4',
		);
	});

	it(
		'(c) published in a running n8n, the trigger fires for a video that finishes afterwards',
		{ timeout: 6 * 60_000 },
		async () => {
			const port = Number(env.N8N_PORT);
			const logFile = join(userFolder, 'n8n.log');
			n8n = startN8nProcess(runtime, env, logFile);
			const url = `http://127.0.0.1:${port}`;
			await waitForN8n(url, n8n, { logFile });
			const api = new N8nApi(url);
			assert.equal(await api.ensureOwner(), 'created');
			const imported = await api.listWorkflows();
			assert.deepEqual(
				imported.map((w) => w.id).sort(),
				Object.values(WORKFLOW_IDS).sort(),
				'the owner sees the imported examples',
			);

			const activated = await api.activateWorkflow(WORKFLOW_IDS.trigger);
			assert.equal(activated.active, true);
			const publishedAt = Date.now();
			// Videos that finished before publishing must not fire; this one finishes after.
			const res = await fetch(`${sandbox.baseUrl}/videos`, {
				method: 'POST',
				headers: {
					authorization: `Bearer ${sandbox.keys.user}`,
					'content-type': 'application/json',
				},
				body: JSON.stringify({
					title: 'Trigger e2e',
					template_id: 'tpl_stock_thank_you',
					customer_data: { first_name: 'Trig' },
				}),
			});
			assert.equal(res.status, 201);
			const created = (await res.json()) as { id: string };
			log(
				`published the trigger workflow; created ${created.id}; waiting for the next poll (every minute)`,
			);

			const flatted = createRequire(join(paths.n8nDir, 'node_modules', 'n8n', 'package.json'))(
				'flatted',
			) as { parse(text: string): unknown };
			const deadline = Date.now() + 150_000;
			let found:
				| { execution: { id: string; status: string; mode: string }; result: RunResult }
				| undefined;
			const seen = new Set<string>();
			while (!found && Date.now() < deadline) {
				await sleep(3000);
				for (const summary of await api.listExecutions(WORKFLOW_IDS.trigger)) {
					if (seen.has(summary.id) || summary.status === 'running' || summary.status === 'new')
						continue;
					seen.add(summary.id);
					const execution = await api.getExecution(summary.id);
					if (!execution.data.includes(created.id)) continue;
					found = {
						execution,
						result: {
							data: flatted.parse(execution.data) as RunResult['data'],
							status: execution.status,
						},
					};
				}
			}
			assert.ok(
				found,
				`no execution contains ${created.id} within 150 s of publishing (executions seen: ${[...seen].join(', ') || 'none'}); n8n log:\n${tail(logFile, 40)}`,
			);
			log(
				`execution ${found.execution.id} fired ${Math.round((Date.now() - publishedAt) / 1000)} s after publishing`,
			);
			assert.equal(found.execution.mode, 'trigger');
			assert.equal(found.execution.status, 'success');
			const events = output(found.result, 'When a video is published').map((item) => item.json);
			const event = events.find((e) => e.id === created.id);
			assert.ok(event, 'the trigger item is the video');
			assert.equal(event.event, 'video.published');
			assert.equal(event.status, 'published');
			assert.equal(event.url, `${sandbox.cdnUrl}/videos/${created.id}.mp4`);
			for (const e of events) {
				const stored = sandbox.store.getVideo(String(e.id));
				assert.ok(
					stored && stored.status === 'published',
					`event for ${String(e.id)} (${stored?.status})`,
				);
				assert.ok(
					stored.finishAt >= publishedAt - 1000,
					`${stored.id} finished before the workflow was published`,
				);
			}
			const downloaded = output(found.result, 'Hand off (replace with upload)').find(
				(item) => item.json.id === created.id,
			);
			assert.equal(downloaded?.binary?.data?.mimeType, 'video/mp4');
			assert.equal(downloaded?.binary?.data?.fileName, `${created.id}.mp4`);

			await api.deactivateWorkflow(WORKFLOW_IDS.trigger);
		},
	);
});
