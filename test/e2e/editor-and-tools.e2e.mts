// The node in a running n8n 2.41.1, as the editor and AI agents use it (`npm run test:e2e`).
// n8n starts with community nodes allowed as tools (N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE=true)
// and publishes the MCP example (examples/mcp/video-tools-mcp-server.json: an MCP Server Trigger
// offering Video Create, Video Get Many and Template Get Many with $fromAI parameters); the
// official MCP TypeScript SDK client lists the tools, reads their descriptions and calls them,
// and the sandbox shows the effect. The same n8n answers the editor's own calls: the credential
// test, Create's Template Fields (resource mapper) and the Template picker.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
	projectPaths,
	runN8nCli,
	sleep,
	startN8nProcess,
	stopProcess,
	tail,
	waitForN8n,
} from '../../scripts/lib/n8n.mjs';
import { startSandbox, type Sandbox } from '../../sandbox/index.mts';
import { connectMcp, type McpConnection, type McpTool, type McpToolResult } from './mcpClient.mjs';

const WORKFLOW_FILE = join('examples', 'mcp', 'video-tools-mcp-server.json');
const WORKFLOW_ID = 'vpExampleMcp0001';
const TOOL_NAMES = ['create_video', 'list_templates', 'list_videos'];
const log = makeLogger('e2e-editor');

let paths: Paths;
let sandbox: Sandbox;
let n8n: ChildProcess | undefined;
let logFile: string;
let mcp: McpConnection | undefined;
let tools: McpTool[] = [];
let api: N8nApi;

interface ExampleNode {
	name: string;
	parameters: Record<string, unknown>;
}

function exampleNodes(): ExampleNode[] {
	return (
		JSON.parse(readFileSync(join(paths.root, WORKFLOW_FILE), 'utf8')) as { nodes: ExampleNode[] }
	).nodes;
}

/** The JSON a tool answered with (n8n puts the node's output items in the first text part). */
function answer(result: McpToolResult): unknown {
	assert.notEqual(result.isError, true, `the tool call failed: ${JSON.stringify(result.content)}`);
	const text = result.content.find((part) => part.type === 'text')?.text;
	assert.ok(text, `no text in ${JSON.stringify(result)}`);
	return JSON.parse(text);
}

/** Records out of a tool's answer, whatever list shape n8n wraps them in. */
function records(result: McpToolResult): Array<Record<string, unknown>> {
	const value = answer(result);
	const list = Array.isArray(value) ? value : [value];
	return list.map(
		(entry) => ((entry as { json?: unknown }).json ?? entry) as Record<string, unknown>,
	);
}

const stopAll = async () => {
	await mcp?.close().catch(() => undefined);
	await stopProcess(n8n);
	n8n = undefined;
	await sandbox?.close();
};

describe(
	"the node in a running n8n: MCP tools, the editor's calls, the credential test",
	{ timeout: 15 * 60_000 },
	() => {
		before(async () => {
			paths = projectPaths(findRoot());
			const runtime: Runtime = await ensureN8n(paths, log);
			sandbox = await startSandbox({
				clock: 'real',
				quiet: true,
				render: { queueMs: 300, minMs: 1500, maxMs: 2500, failureShare: 0 },
			});
			const userFolder = join(paths.base, 'e2e-editor');
			rmSync(userFolder, { recursive: true, force: true });
			mkdirSync(userFolder, { recursive: true });
			installPackage(paths, userFolder);
			const port = await freePort();
			const env = n8nEnv(runtime, {
				userFolder,
				port,
				brokerPort: await freePort(),
				// What n8n 2.41 needs to offer a community node as a tool; SSRF protection on, the
				// sandbox allowed by IP range (README "Security").
				extra: { N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE: 'true', ...SSRF_PROTECTION_ENV },
			});
			// Listing templates needs admin access (spec, section 5): the tools use an admin's key.
			const credentialsFile = join(userFolder, 'credentials.json');
			writeFileSync(
				credentialsFile,
				JSON.stringify([
					{
						id: EXAMPLE_CREDENTIAL.id,
						name: EXAMPLE_CREDENTIAL.name,
						type: CREDENTIAL_TYPE,
						data: { apiKey: sandbox.keys.admin, baseUrl: sandbox.baseUrl, graphqlEndpoint: '' },
					},
				]),
			);
			const creds = await runN8nCli(runtime, env, [
				'import:credentials',
				`--input=${credentialsFile}`,
			]);
			assert.equal(creds.code, 0, creds.stdout + creds.stderr);
			const imported = await runN8nCli(runtime, env, [
				'import:workflow',
				`--input=${join(paths.root, WORKFLOW_FILE)}`,
			]);
			assert.equal(imported.code, 0, imported.stdout + imported.stderr);

			logFile = join(userFolder, 'n8n.log');
			n8n = startN8nProcess(runtime, env, logFile);
			const url = `http://127.0.0.1:${port}`;
			await waitForN8n(url, n8n, { logFile });
			api = new N8nApi(url);
			await api.ensureOwner();
			const activated = await api.activateWorkflow(WORKFLOW_ID);
			assert.equal(
				activated.active,
				true,
				`the MCP workflow did not publish; n8n log:\n${tail(logFile, 40)}`,
			);
			// n8n 2.41 publishes through an outbox: the production webhook is registered moments later.
			const deadline = Date.now() + 60_000;
			for (;;) {
				try {
					mcp = await connectMcp(`${url}/mcp/video-personalization`);
					break;
				} catch (error) {
					if ((error as { code?: number }).code !== 404 || Date.now() > deadline) throw error;
					await sleep(500);
				}
			}
			log(
				`connected to the MCP server "${mcp.serverVersion?.name ?? '?'}" at ${url}/mcp/video-personalization`,
			);
		});

		after(stopAll);

		it('lists the three tools by the names and descriptions a model reads', async () => {
			assert.ok(mcp);
			tools = await mcp.listTools();
			assert.deepEqual(
				tools.map((tool) => tool.name).sort(),
				TOOL_NAMES,
				`tools: ${JSON.stringify(tools)}; n8n log:\n${tail(logFile, 30)}`,
			);
			const nodes = exampleNodes();
			for (const tool of tools) {
				const node = nodes.find((candidate) => candidate.name === tool.name);
				assert.ok(node, tool.name);
				// The description the model reads is the one written for it, whole.
				assert.equal(tool.description, node.parameters.toolDescription);
				assert.ok(
					(tool.description ?? '').length >= 100,
					`${tool.name}: a description a model can act on`,
				);
				assert.doesNotMatch(tool.description ?? '', /undefined|\[object|\{\{/);
			}
		});

		it('asks the model for exactly the $fromAI parameters, each described and typed', () => {
			const expected: Record<string, Record<string, string>> = {
				// $fromAI's 'json' type leaves the JSON type open (any value): the node checks it is an object.
				create_video: { title: 'string', template_id: 'string', customer_data: 'json' },
				list_videos: { limit: 'number', status: 'string' },
				list_templates: { limit: 'number', search: 'string' },
			};
			for (const tool of tools) {
				const properties = tool.inputSchema.properties ?? {};
				assert.deepEqual(
					Object.keys(properties).sort(),
					Object.keys(expected[tool.name]).sort(),
					`${tool.name}: ${JSON.stringify(tool.inputSchema)}`,
				);
				for (const [key, type] of Object.entries(expected[tool.name])) {
					assert.equal(
						properties[key].type,
						type === 'json' ? undefined : type,
						`${tool.name}.${key}: ${JSON.stringify(properties[key])}`,
					);
					assert.ok(
						(properties[key].description ?? '').length >= 20,
						`${tool.name}.${key} is described`,
					);
				}
			}
			// Parameters with a default are optional for the model.
			const listVideos = tools.find((tool) => tool.name === 'list_videos');
			assert.ok(!(listVideos?.inputSchema.required ?? []).includes('status'));
		});

		it('list_templates finds a template by name, with the fields create_video takes', async () => {
			assert.ok(mcp);
			const found = records(await mcp.callTool('list_templates', { search: 'welcome', limit: 5 }));
			const welcome = found.find((template) => template.id === sandbox.known.stockTemplateId);
			assert.ok(welcome, `no ${sandbox.known.stockTemplateId} in ${JSON.stringify(found)}`);
			assert.equal(welcome.name, sandbox.known.stockTemplateName);
			assert.ok(
				Array.isArray(welcome.fields) &&
					welcome.fields.some((field) => (field as { name?: string }).name === 'title'),
			);
			assert.ok(found.every((template) => String(template.name).toLowerCase().includes('welcome')));
		});

		it('create_video makes the video in the sandbox; list_videos shows it, and once rendered with its URL', async () => {
			assert.ok(mcp);
			const before = sandbox.store.listVideos().length;
			const [created] = records(
				await mcp.callTool('create_video', {
					title: 'Welcome, Ana! (MCP)',
					template_id: sandbox.known.stockTemplateId,
					customer_data: { first_name: 'Ana', company: 'Acme' },
				}),
			);
			const id = String(created.id);
			const stored = sandbox.store.getVideo(id);
			assert.ok(stored, `the sandbox has no video ${id}: ${JSON.stringify(created)}`);
			assert.equal(sandbox.store.listVideos().length, before + 1, 'one call, one video');
			assert.equal(stored.title, 'Welcome, Ana! (MCP)');
			assert.equal(stored.templateId, sandbox.known.stockTemplateId);
			assert.deepEqual(stored.customerData, { first_name: 'Ana', company: 'Acme' });

			const latest = records(await mcp.callTool('list_videos', { limit: 5 }));
			assert.ok(
				latest.some((video) => video.id === id),
				`list_videos (no status) lacks ${id}`,
			);

			const deadline = Date.now() + 30_000;
			while (sandbox.store.getVideo(id)?.status !== 'published' && Date.now() < deadline)
				await sleep(500);
			const published = records(
				await mcp.callTool('list_videos', { limit: 10, status: 'published' }),
			);
			const video = published.find((entry) => entry.id === id);
			assert.ok(video, `list_videos (published) lacks ${id}`);
			assert.equal(video.url, `${sandbox.cdnUrl}/videos/${id}.mp4`);
			assert.ok(published.every((entry) => entry.status === 'published'));
		});

		it('a call the service refuses comes back as an error the model can read, naming the field', async () => {
			assert.ok(mcp);
			const before = sandbox.store.listVideos().length;
			const result = await mcp.callTool('create_video', {
				title: 'Bad data',
				template_id: sandbox.known.stockTemplateId,
				customer_data: ['not', 'an', 'object'],
			});
			const text = result.content.map((part) => part.text ?? '').join(' ');
			assert.match(text, /Customer Data \(JSON\): must be a JSON object/, text);
			assert.equal(sandbox.store.listVideos().length, before, 'nothing was created');
		});

		// The credential test as the editor's Test button runs it (n8n's CredentialsTester), here
		// because this file has a running n8n with the package loaded.
		it('the credential test checks the query endpoint and words each problem', async () => {
			const test = async (data: Record<string, string>) =>
				(await api.request('POST', '/credentials/test', {
					credentials: {
						id: EXAMPLE_CREDENTIAL.id,
						name: EXAMPLE_CREDENTIAL.name,
						type: CREDENTIAL_TYPE,
						data: { graphqlEndpoint: '', ...data },
					},
				})) as { status: string; message: string };
			const before = sandbox.requests.log.length;
			assert.deepEqual(await test({ apiKey: sandbox.keys.user, baseUrl: sandbox.baseUrl }), {
				status: 'OK',
				message: 'Connection successful!',
			});
			assert.deepEqual(
				sandbox.requests.log.slice(before).map((request) => `${request.method} ${request.path}`),
				['POST /v1/graphql'],
				'one query, where the operations send theirs',
			);
			const wrongEndpoint = await test({
				apiKey: sandbox.keys.user,
				baseUrl: sandbox.baseUrl,
				graphqlEndpoint: `${sandbox.baseUrl}/queries`,
			});
			assert.equal(wrongEndpoint.status, 'Error');
			assert.match(
				wrongEndpoint.message,
				/^Nothing takes queries at the GraphQL endpoint \(404\).*GraphQL Endpoint field/,
			);
			const badKey = await test({ apiKey: 'vpk_wrong_key_000000', baseUrl: sandbox.baseUrl });
			assert.match(badKey.message, /rejected the API key/);
			const sent = sandbox.requests.log.length;
			for (const [baseUrl, message] of [
				['api example com', /^The Base URL is not a valid address\./],
				['http://api.example.com/v1', /^The Base URL must use https:\/\/.*The key was not sent\./],
				['https://api.example.com/v2', /^The Base URL must end in \/v1/],
			] as const) {
				const result = await test({ apiKey: sandbox.keys.user, baseUrl });
				assert.equal(result.status, 'Error', baseUrl);
				assert.match(result.message, message, `${baseUrl}: ${result.message}`);
				assert.doesNotMatch(result.message, /ERR_INVALID_URL|Invalid URL/);
			}
			assert.equal(sandbox.requests.log.length, sent, 'a refused address is never called');
		});

		const NODE_TYPE_AND_VERSION = {
			name: 'n8n-nodes-video-personalization.videoPersonalization',
			version: 2,
		};
		const CREDENTIALS = {
			[CREDENTIAL_TYPE]: { id: EXAMPLE_CREDENTIAL.id, name: EXAMPLE_CREDENTIAL.name },
		};

		it("the editor loads Create's Template Fields through n8n's resource mapper endpoint, per template", async () => {
			const fields = async (value: string) =>
				(await api.request('POST', '/dynamic-node-parameters/resource-mapper-fields', {
					nodeTypeAndVersion: NODE_TYPE_AND_VERSION,
					path: 'parameters.templateFields',
					methodName: 'getTemplateFields',
					currentNodeParameters: {
						resource: 'video',
						operation: 'create',
						customerDataMode: 'templateFields',
						template: { __rl: true, mode: 'list', value },
					},
					credentials: CREDENTIALS,
				})) as {
					fields: Array<{ id: string; displayName: string; required: boolean }>;
					emptyFieldsNotice?: string;
				};
			const welcome = await fields(sandbox.known.stockTemplateId);
			assert.deepEqual(
				welcome.fields.map((field) => field.id),
				sandbox.store.templates
					.get(sandbox.known.stockTemplateId)
					?.fields.map((field) => field.name),
			);
			const logo = welcome.fields.find((field) => field.id === 'logo');
			assert.equal(logo?.displayName, 'logo (image)');
			// Required with a default: an item may leave it out.
			assert.equal(welcome.fields.find((field) => field.id === 'title')?.required, false);
			const endcard = await fields('tpl_endcard_platform_cta');
			assert.ok(
				!endcard.fields.some((field) => field.id === 'subtitle'),
				'another template, other fields',
			);
			const none = await fields('');
			assert.deepEqual(none.fields, []);
			assert.match(none.emptyFieldsNotice ?? '', /Choose a Template/);
		});

		it('the Template picker pages at the size the service takes (at most 10 here)', async () => {
			sandbox.store.graphql = { maxLimit: 10, overLimit: 'reject' };
			try {
				const page = async (paginationToken?: string) =>
					(await api.request('POST', '/dynamic-node-parameters/resource-locator-results', {
						nodeTypeAndVersion: NODE_TYPE_AND_VERSION,
						path: 'parameters.template',
						methodName: 'searchTemplates',
						currentNodeParameters: {
							resource: 'video',
							operation: 'create',
							template: { __rl: true, mode: 'list', value: '' },
						},
						credentials: CREDENTIALS,
						...(paginationToken ? { paginationToken } : {}),
					})) as { results: Array<{ value: string }>; paginationToken?: string };
				const seen: string[] = [];
				let token: string | undefined;
				do {
					const result = await page(token);
					seen.push(...result.results.map((entry) => entry.value));
					token = result.paginationToken;
				} while (token);
				assert.deepEqual(
					[...seen].sort(),
					[...sandbox.store.templates.keys()].sort(),
					'every template once',
				);
			} finally {
				sandbox.store.graphql = { maxLimit: 100, overLimit: 'cap' };
			}
		});
	},
);
