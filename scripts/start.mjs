#!/usr/bin/env node
// `npm start`: the sandbox, plus a real n8n (installed on first use into .n8n-e2e/) with this
// package installed, an owner account, a credential pointing at the sandbox and the example
// workflows. Ctrl-C stops everything it started. `npm start -- --help` for the flags.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
	N8N_VERSION,
	OWNER,
	findRoot,
	makeLogger,
	portInUse,
	projectPaths,
	stopProcess,
	tail,
} from './lib/n8n.mjs';
import { startStack } from './lib/stack.mjs';

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

	const { url, owner, credential, imported, sandbox, logs } = await startStack({
		paths,
		log,
		home,
		ports: { n8n: port, sandbox: sandboxPort, cdn: cdnPort },
		build: flags.build,
		reset: flags.reset,
		// Community nodes as AI-agent tools (the MCP example: README, "As tools for AI agents").
		n8nExtraEnv: { N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE: 'true' },
		onStarted: (child, name, logFile) => {
			children.push(child);
			watch(child, name, logFile);
			if (name === 'n8n') log(`Starting n8n ${N8N_VERSION} (log: ${logFile})`);
		},
	});
	log(`Sandbox: ${sandbox.baseUrl} (CDN ${sandbox.cdnUrl}; renders take 4-9 s)`);

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
				`"${credential.name}" -> ${sandbox.baseUrl} (${credential.created ? 'created' : 'updated'})`,
			),
			line(
				'Workflows',
				imported
					.map((w) => `${w.name}${w.imported ? '' : ' (already there)'}`)
					.join('\n' + ' '.repeat(width + 3)),
			),
			line('Sandbox', `${sandbox.controlUrl}/info (keys, ids; control API in sandbox/README.md)`),
			line('Logs', `${logs.n8n}, ${logs.sandbox}`),
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
