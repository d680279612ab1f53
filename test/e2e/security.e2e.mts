// The package in a locked-down n8n 2.41.1 (`npm run test:e2e`): n8n's SSRF protection on with its
// default blocked ranges and the sandbox allowed by IP range (N8N_SSRF_ALLOWED_IP_RANGES=
// 127.0.0.1/32, README "Security"). A recording server on 127.0.0.2 stands for an address the
// administrator did not allow: being loopback, nothing sent there could leave the machine, and
// every test checks that nothing reached it. Then what n8n itself reaches: with the MCP registry
// module on (as n8n ships), n8n looks up api.n8n.io, which scripts/lib/netwatch.cjs records, so the
// watch that `npm run test:e2e` and `test:queue` put on every process is shown to see it; the
// project's setting (N8N_DISABLED_MODULES=mcp-registry) stops it.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
	CREDENTIAL_TYPE,
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
	netwatchEnv,
	parseRawOutput,
	projectPaths,
	readNetwatch,
	runN8nCli,
	sleep,
	startN8nProcess,
	startSandboxProcess,
	stopProcess,
	tail,
	waitForN8n,
} from '../../scripts/lib/n8n.mjs';
import { startSandbox, type Sandbox } from '../../sandbox/index.mts';
import { sendJson, startTestServer, type TestServer } from '../harness/httpServer.mts';

type Json = Record<string, unknown>;
interface RunResult {
	data: {
		resultData: {
			runData: Record<string, Array<{ data?: { main?: Array<Array<{ json: Json }> | null> } }>>;
			error?: { message?: string };
		};
	};
}

const log = makeLogger('e2e-security');
const NODE_TYPE = 'n8n-nodes-video-personalization.videoPersonalization';
const TRIGGER_TYPE = 'n8n-nodes-video-personalization.videoPersonalizationTrigger';
const CREDENTIALS = {
	sandbox: { id: 'vpSecuritySandbox', name: 'Sandbox (allowed)' },
	blocked: { id: 'vpSecurityBlocked', name: 'Service on 127.0.0.2 (blocked)' },
};
const WORKFLOWS = {
	download: 'vpSecDownload001',
	create: 'vpSecCreate00001',
	trigger: 'vpSecTrigger0001',
};

let paths: Paths;
let runtime: Runtime;
let sandbox: Sandbox;
let blocked: TestServer;
let userFolder: string;
let env: NodeJS.ProcessEnv;
let n8n: ChildProcess | undefined;
let api: N8nApi;

const REFUSED =
	/^n8n's SSRF protection refused to (.+): 127\.0\.0\.2 is a blocked address, so nothing was sent\. To allow it, add 127\.0\.0\.2\/32 to N8N_SSRF_ALLOWED_IP_RANGES and restart n8n/;

function createNode(name: string, credential: keyof typeof CREDENTIALS, options: Json = {}) {
	return {
		id: `${name}-id`,
		name,
		type: NODE_TYPE,
		typeVersion: 2,
		position: [200, 0],
		onError: 'continueRegularOutput',
		parameters: {
			resource: 'video',
			operation: 'create',
			title: name,
			template: { __rl: true, mode: 'id', value: 'tpl_stock_welcome' },
			customerDataMode: 'keyValue',
			customerData: { values: [{ key: 'first_name', value: 'Ana' }] },
			...options,
		},
		credentials: { [CREDENTIAL_TYPE]: CREDENTIALS[credential] },
	};
}

function manualWorkflow(id: string, node: ReturnType<typeof createNode>) {
	return {
		id,
		name: id,
		nodes: [
			{
				id: 'start',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			node,
		],
		connections: { Start: { main: [[{ node: node.name, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

async function execute(workflowId: string, node: string): Promise<Json[]> {
	const r = await runN8nCli(runtime, env, ['execute', `--id=${workflowId}`, '--rawOutput']);
	assert.equal(
		r.code,
		0,
		`n8n execute --id=${workflowId}:\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`,
	);
	const result = parseRawOutput(r.stdout) as RunResult;
	return (result.data.resultData.runData[node]?.[0]?.data?.main?.[0] ?? []).map(
		(item) => item.json,
	);
}

const stopAll = async () => {
	await stopProcess(n8n);
	n8n = undefined;
	await sandbox?.close();
	await blocked?.close();
};

describe(
	'the package in a locked-down n8n: SSRF protection on, nothing leaves the machine',
	{ timeout: 15 * 60_000 },
	() => {
		before(async () => {
			paths = projectPaths(findRoot());
			runtime = await ensureN8n(paths, log);
			sandbox = await startSandbox({
				clock: 'real',
				quiet: true,
				render: { queueMs: 300, minMs: 1000, maxMs: 2000, failureShare: 0 },
			});
			blocked = await startTestServer(
				(_request, response) => sendJson(response, 200, {}),
				'127.0.0.2',
			);
			userFolder = join(paths.base, 'e2e-security');
			rmSync(userFolder, { recursive: true, force: true });
			mkdirSync(userFolder, { recursive: true });
			installPackage(paths, userFolder);
			env = n8nEnv(runtime, {
				userFolder,
				port: await freePort(),
				brokerPort: await freePort(),
				extra: SSRF_PROTECTION_ENV,
			});
			const file = (name: string, data: unknown) => {
				const path = join(userFolder, name);
				writeFileSync(path, JSON.stringify(data));
				return path;
			};
			const credentials = file('credentials.json', [
				{
					...CREDENTIALS.sandbox,
					type: CREDENTIAL_TYPE,
					data: { apiKey: sandbox.keys.user, baseUrl: sandbox.baseUrl, graphqlEndpoint: '' },
				},
				{
					...CREDENTIALS.blocked,
					type: CREDENTIAL_TYPE,
					// Queries go to the allowed sandbox, so Create gets as far as creating the video.
					data: {
						apiKey: sandbox.keys.user,
						baseUrl: `${blocked.url}/v1`,
						graphqlEndpoint: sandbox.graphqlUrl,
					},
				},
			]);
			const imported = await runN8nCli(runtime, env, [
				'import:credentials',
				`--input=${credentials}`,
			]);
			assert.equal(imported.code, 0, imported.stdout + imported.stderr);
			const workflowDir = join(userFolder, 'workflows');
			mkdirSync(workflowDir);
			writeFileSync(
				join(workflowDir, 'download.json'),
				JSON.stringify(
					manualWorkflow(
						WORKFLOWS.download,
						createNode('Create and download', 'sandbox', {
							waitForCompletion: true,
							options: { pollInterval: 1, waitTimeout: 2, downloadVideo: true },
						}),
					),
				),
			);
			writeFileSync(
				join(workflowDir, 'create.json'),
				JSON.stringify(
					manualWorkflow(WORKFLOWS.create, createNode('Create on a blocked address', 'blocked')),
				),
			);
			writeFileSync(
				join(workflowDir, 'trigger.json'),
				JSON.stringify({
					id: WORKFLOWS.trigger,
					name: WORKFLOWS.trigger,
					nodes: [
						{
							id: 'trigger',
							name: 'When a video is published',
							type: TRIGGER_TYPE,
							typeVersion: 1,
							position: [0, 0],
							parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, events: ['published'] },
							credentials: { [CREDENTIAL_TYPE]: CREDENTIALS.blocked },
						},
					],
					connections: {},
					settings: { executionOrder: 'v1' },
				}),
			);
			const workflows = await runN8nCli(runtime, env, [
				'import:workflow',
				'--separate',
				`--input=${workflowDir}`,
			]);
			assert.equal(workflows.code, 0, workflows.stdout + workflows.stderr);
		});

		after(stopAll);

		it('Download Video: a file on an address the protection refuses is not fetched, and the item keeps the video', async () => {
			sandbox.store.fileBaseUrl = blocked.url;
			let items: Json[];
			try {
				items = await execute(WORKFLOWS.download, 'Create and download');
			} finally {
				sandbox.store.fileBaseUrl = undefined;
			}
			assert.equal(items.length, 1);
			const [video] = items;
			const id = String(video.id);
			assert.equal(sandbox.store.getVideo(id)?.status, 'published');
			assert.equal(video.status, 'published');
			assert.equal(video.url, `${blocked.url}/videos/${id}.mp4`);
			assert.match(String(video.error), REFUSED);
			assert.equal(
				REFUSED.exec(String(video.error))?.[1],
				`download ${id}.mp4 of the video "${id}"`,
			);
			assert.match(String(video.details), /comes from the file address the service gave/);
			assert.equal(blocked.requests.length, 0, 'nothing reached the blocked address');
		});

		it('Create on a blocked Base URL says the protection refused it and that nothing was sent', async () => {
			const before = sandbox.store.listVideos().length;
			const [item] = await execute(WORKFLOWS.create, 'Create on a blocked address');
			assert.match(String(item.error), REFUSED);
			assert.match(String(item.error), /refused to create the video "Create on a blocked address"/);
			assert.match(
				String(item.details),
				/Base URL in the credential \(now http:\/\/127\.0\.0\.2:\d+\/v1\)/,
			);
			assert.doesNotMatch(String(item.error) + String(item.details), /may have carried it out/);
			assert.equal(sandbox.store.listVideos().length, before, 'no video was created');
			assert.equal(blocked.requests.length, 0, 'nothing reached the blocked address');
		});

		it('in a running n8n: the credential test keeps its sentences; publishing the trigger says why it cannot', async () => {
			const port = Number(env.N8N_PORT);
			const logFile = join(userFolder, 'n8n.log');
			n8n = startN8nProcess(runtime, env, logFile);
			await waitForN8n(`http://127.0.0.1:${port}`, n8n, { logFile });
			api = new N8nApi(`http://127.0.0.1:${port}`);
			await api.ensureOwner();
			const test = async (data: Json) =>
				(await api.request('POST', '/credentials/test', {
					credentials: {
						...CREDENTIALS.sandbox,
						type: CREDENTIAL_TYPE,
						data: { graphqlEndpoint: '', ...data },
					},
				})) as { status: string; message: string };

			assert.deepEqual(await test({ apiKey: sandbox.keys.user, baseUrl: sandbox.baseUrl }), {
				status: 'OK',
				message: 'Connection successful!',
			});
			for (const [data, message] of [
				[{ baseUrl: '' }, /^The Base URL is empty\./],
				[{ baseUrl: 'not a url' }, /^The Base URL is not a valid address\./],
				[
					{ baseUrl: 'http://api.example.com/v1' },
					/^The Base URL must use https:\/\/.*The key was not sent\./,
				],
				[{ baseUrl: 'https://api.example.com/v2' }, /^The Base URL must end in \/v1/],
				[
					{ baseUrl: sandbox.baseUrl, graphqlEndpoint: 'not a url' },
					/^The GraphQL Endpoint is not a valid address\./,
				],
			] as const) {
				const result = await test({ apiKey: sandbox.keys.user, ...data });
				assert.equal(result.status, 'Error', JSON.stringify(data));
				assert.match(result.message, message, `${JSON.stringify(data)}: ${result.message}`);
			}
			// n8n's own sentence: a credential test cannot word an error that has no answer.
			assert.deepEqual(await test({ apiKey: sandbox.keys.user, baseUrl: `${blocked.url}/v1` }), {
				status: 'Error',
				message: 'The request was blocked because it resolves to a restricted IP address',
			});

			// n8n 2.41 publishes through an outbox and reports a trigger that fails to start as
			// "There was a problem activating the workflow: ..." (its log, the editor's message).
			await api.activateWorkflow(WORKFLOWS.trigger).catch((error: Error) => log(error.message));
			const problem = /There was a problem activating the workflow: (.*)/;
			const deadline = Date.now() + 60_000;
			while (!problem.test(tail(logFile, 400)) && Date.now() < deadline) await sleep(1000);
			const activation = problem.exec(tail(logFile, 400))?.[1] ?? '';
			log(`publishing the trigger: ${activation}`);
			// The activation error is all an administrator sees: it names the setting that allows the address.
			assert.match(
				activation,
				/SSRF protection refused to list all videos to look for finished renders: 127\.0\.0\.2 is a blocked address, so nothing was sent\. To allow it, add 127\.0\.0\.2\/32 to N8N_SSRF_ALLOWED_IP_RANGES and restart n8n/,
			);
			assert.equal(blocked.requests.length, 0, 'nothing reached the blocked address');
			await stopProcess(n8n);
			n8n = undefined;
			assert.doesNotMatch(tail(logFile, 400), /ENOTFOUND|EAI_AGAIN/, 'n8n looked up no name');
		});

		it("n8n's MCP registry module looks up api.n8n.io, which the watch sees; the scripts' setting stops it", async () => {
			const watchFile = join(userFolder, 'netwatch-mcp-registry.log');
			writeFileSync(watchFile, '');
			const folder = join(userFolder, 'mcp-registry-on');
			mkdirSync(folder, { recursive: true });
			const port = await freePort();
			const withRegistry = n8nEnv(runtime, {
				userFolder: folder,
				port,
				brokerPort: await freePort(),
				extra: { N8N_DISABLED_MODULES: '', ...netwatchEnv({ VP_NETWATCH: watchFile }) },
			});
			const logFile = join(folder, 'n8n.log');
			const child = startN8nProcess(runtime, withRegistry, logFile);
			try {
				await waitForN8n(`http://127.0.0.1:${port}`, child, { logFile });
				const deadline = Date.now() + 90_000;
				while (
					!readNetwatch(watchFile).some((entry) => entry.host === 'api.n8n.io') &&
					Date.now() < deadline
				)
					await sleep(1000);
			} finally {
				await stopProcess(child);
			}
			const seen = readNetwatch(watchFile);
			log(
				`with the MCP registry module on, the watch saw: ${seen.map((entry) => `${entry.kind} ${entry.host}`).join(', ')}`,
			);
			assert.ok(
				seen.some((entry) => entry.kind === 'dns.lookup' && entry.host === 'api.n8n.io'),
				`no lookup of api.n8n.io seen: ${JSON.stringify(seen)}`,
			);
			assert.equal(
				env.N8N_DISABLED_MODULES,
				'mcp-registry',
				"the scripts' n8n environment turns it off",
			);
		});

		it('the sandbox as `npm start` runs it (its own process) answers on loopback', async () => {
			const port = await freePort();
			const { child, info } = await startSandboxProcess(
				paths,
				['--port', String(port), '--cdn-port', String(await freePort())],
				{
					logFile: join(userFolder, 'sandbox.log'),
				},
			);
			try {
				const answer = await fetch(`${info.baseUrl}/videos?limit=1`, {
					headers: { authorization: `Bearer ${info.keys.user}` },
				});
				assert.equal(answer.status, 200);
			} finally {
				await stopProcess(child);
			}
		});

		it(
			'no process of this file looked up a name or connected off this machine',
			{ skip: !process.env.VP_NETWATCH },
			() => {
				const calls = readNetwatch(String(process.env.VP_NETWATCH));
				assert.deepEqual(calls, [], JSON.stringify(calls, null, 1));
			},
		);
	},
);
