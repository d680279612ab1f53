#!/usr/bin/env node
// `npm start`: the sandbox, plus a real n8n (installed on first use into .n8n-e2e/) with this
// package installed, an owner account, a credential pointing at the sandbox and the example
// workflows. Ctrl-C stops everything it started. `npm start -- --help` for the flags.
import { mkdirSync, rmSync } from 'node:fs';
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
	freePort,
	importExamplesViaApi,
	installPackage,
	makeLogger,
	n8nEnv,
	portInUse,
	projectPaths,
	startN8nProcess,
	startSandboxProcess,
	stopProcess,
	tail,
	waitForN8n,
} from './lib/n8n.mjs';

const HELP = `Usage: npm start -- [flags]
  --port <n>           n8n's port (default 5678)
  --sandbox-port <n>   the sandbox API's port (default 5680)
  --cdn-port <n>       the sandbox CDN's port (default 5681)
  --reset              start from an empty n8n (removes .n8n-e2e/home: workflows, executions, account)
  --build              rebuild the package first (otherwise only when dist/ is missing)`;

const log = makeLogger('start');
const { values: flags } = parseArgs({
	options: {
		port: { type: 'string', default: '5678' },
		'sandbox-port': { type: 'string', default: '5680' },
		'cdn-port': { type: 'string', default: '5681' },
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
const home = join(paths.base, 'home');
const children = [];
let stopping = false;

async function shutdown(code, why) {
	if (stopping) return;
	stopping = true;
	if (why) log(why);
	if (children.length) log('Stopping n8n and the sandbox ...');
	await Promise.all(children.map((child) => stopProcess(child)));
	if (children.length) log('Stopped.');
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

async function main() {
	const started = Date.now();
	const port = Number(flags.port);
	const sandboxPort = Number(flags['sandbox-port']);
	const cdnPort = Number(flags['cdn-port']);
	for (const [name, p] of [
		['n8n', port],
		['sandbox API', sandboxPort],
		['sandbox CDN', cdnPort],
	]) {
		if (await portInUse(p))
			throw new Error(
				`Port ${p} (${name}) is already in use on 127.0.0.1: is another \`npm start\` running? Stop it, or pick other ports (npm start -- --help).`,
			);
	}

	ensureBuilt(paths, log, flags.build);
	const runtime = await ensureN8n(paths, log);
	if (flags.reset) {
		log(`--reset: removing ${home}`);
		rmSync(home, { recursive: true, force: true });
	}
	mkdirSync(home, { recursive: true });
	installPackage(paths, home);

	const sandboxLog = join(home, 'sandbox.log');
	const sandbox = await startSandboxProcess(
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
	);
	children.push(sandbox.child);
	watch(sandbox.child, 'The sandbox', sandboxLog);
	log(`Sandbox: ${sandbox.info.baseUrl} (CDN ${sandbox.info.cdnUrl}; renders take 4-9 s)`);

	const n8nLog = join(home, 'n8n.log');
	// Community nodes as AI-agent tools (the MCP example: README, "As tools for AI agents").
	const env = n8nEnv(runtime, {
		userFolder: home,
		port,
		brokerPort: await freePort(),
		extra: { N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE: 'true' },
	});
	log(`Starting n8n ${N8N_VERSION} on Node ${runtime.version} (log: ${n8nLog})`);
	const n8n = startN8nProcess(runtime, env, n8nLog);
	children.push(n8n);
	watch(n8n, 'n8n', n8nLog);
	const url = `http://127.0.0.1:${port}`;
	await waitForN8n(url, n8n, { logFile: n8nLog });

	const api = new N8nApi(url);
	const owner = await api.ensureOwner();
	// The admin key: the editor's "From List" of templates needs admin access.
	const credential = await api.ensureSandboxCredential(EXAMPLE_CREDENTIAL.name, {
		apiKey: sandbox.info.keys.admin,
		baseUrl: sandbox.info.baseUrl,
		graphqlEndpoint: '',
	});
	const imported = await importExamplesViaApi(api, paths, credential);

	const width = 12;
	const line = (label, value) => `  ${label.padEnd(width)} ${value}`;
	console.log(
		[
			'',
			`n8n ${N8N_VERSION} with n8n-nodes-video-personalization is ready (${Math.round((Date.now() - started) / 1000)} s):`,
			'',
			line('Editor', url),
			line('Email', OWNER.email),
			line(
				'Password',
				`${OWNER.password}${owner === 'created' ? '   (owner account created now)' : ''}`,
			),
			line(
				'Credential',
				`"${credential.name}" -> ${sandbox.info.baseUrl} (${credential.created ? 'created' : 'updated'})`,
			),
			line(
				'Workflows',
				imported
					.map((w) => `${w.name}${w.imported ? '' : ' (already there)'}`)
					.join('\n' + ' '.repeat(width + 3)),
			),
			line(
				'Sandbox',
				`${sandbox.info.controlUrl}/info (keys, ids; control API in sandbox/README.md)`,
			),
			line('Logs', `${n8nLog}, ${sandboxLog}`),
			'',
			'  Ctrl-C stops n8n and the sandbox. Workflows and executions are kept in .n8n-e2e/home (npm start -- --reset to start over).',
			'',
		].join('\n'),
	);
}

main().catch(
	(error) =>
		void shutdown(1, `npm start failed: ${error instanceof Error ? error.message : String(error)}`),
);
