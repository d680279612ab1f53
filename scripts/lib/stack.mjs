// What `npm start` runs, as one call: the sandbox, a real n8n with this package installed, the
// owner account, a credential pointing at the sandbox and the example workflows. `npm start` and
// the browser test (`npm run test:browser`) both start it; the browser test on free ports and in
// a fresh user folder. Plain .mjs like n8n.mjs.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
	EXAMPLE_CREDENTIAL,
	N8nApi,
	ensureBuilt,
	ensureN8n,
	freePort,
	importExamplesViaApi,
	installPackage,
	n8nEnv,
	startN8nProcess,
	startSandboxProcess,
	stopProcess,
	waitForN8n,
} from './n8n.mjs';

/** The sandbox's render settings for `npm start`: a new video is published 4-9 s after it is created. */
export const DEMO_RENDER = { queueMs: 1000, minMs: 3000, maxMs: 8000, failureShare: 0.1 };

/**
 * Starts the stack and returns it; `onStarted(child, name, logFile)` is called for each process
 * as it starts (`npm start` watches them). `stop()` stops every process it started.
 */
export async function startStack({
	paths,
	log,
	home,
	ports,
	build = false,
	reset = false,
	render = DEMO_RENDER,
	n8nExtraEnv = {},
	onStarted = () => undefined,
}) {
	const children = [];
	const stop = async () => {
		await Promise.all(children.map((child) => stopProcess(child)));
	};
	try {
		ensureBuilt(paths, log, build);
		const runtime = await ensureN8n(paths, log);
		if (reset) {
			log(`Starting from an empty n8n: removing ${home}`);
			rmSync(home, { recursive: true, force: true });
		}
		mkdirSync(home, { recursive: true });
		installPackage(paths, home);

		const sandboxLog = join(home, 'sandbox.log');
		// prettier-ignore
		const sandbox = await startSandboxProcess(paths, [
			'--clock', 'real', '--port', String(ports.sandbox), '--cdn-port', String(ports.cdn),
			'--queue-ms', String(render.queueMs), '--render-min-ms', String(render.minMs),
			'--render-max-ms', String(render.maxMs), '--failure-share', String(render.failureShare),
		], { logFile: sandboxLog });
		children.push(sandbox.child);
		onStarted(sandbox.child, 'The sandbox', sandboxLog);

		const n8nLog = join(home, 'n8n.log');
		const env = n8nEnv(runtime, {
			userFolder: home,
			port: ports.n8n,
			brokerPort: await freePort(),
			extra: n8nExtraEnv,
		});
		const n8n = startN8nProcess(runtime, env, n8nLog);
		children.push(n8n);
		onStarted(n8n, 'n8n', n8nLog);
		const url = `http://127.0.0.1:${ports.n8n}`;
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
		return {
			url,
			api,
			owner,
			credential,
			imported,
			runtime,
			sandbox: sandbox.info,
			logs: { n8n: n8nLog, sandbox: sandboxLog },
			stop,
		};
	} catch (error) {
		await stop();
		throw error;
	}
}
