#!/usr/bin/env node
// `npm run screenshot`: regenerates docs/editor.jpg (the Create node's panel after a run of the
// CRM example) and docs/crm-workflow.jpg (the CRM example on the canvas after the run), from
// the same setup as `npm start` (the sandbox, a fresh n8n, owner, credential, examples), with
// headless Debian Chromium (apt-get install chromium) driven by playwright-core. JPEG only: the
// package build copies *.png and *.svg into dist/.
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import {
	EXAMPLE_CREDENTIAL,
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
	waitForN8n,
} from './lib/n8n.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// Flags that work on the project's machines (closed network: no background connections).
const CHROMIUM_FLAGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];
// The ports of `npm start`, so the URLs in the picture are the ones users see.
const PORTS = { n8n: 5678, sandbox: 5680, cdn: 5681 };

const log = makeLogger('screenshot');
const root = findRoot(dirname(fileURLToPath(import.meta.url)));
const paths = projectPaths(root);
const userFolder = join(paths.base, 'screenshot');
const docs = join(root, 'docs');
const children = [];

async function stopAll() {
	await Promise.all(children.map((child) => stopProcess(child)));
}
for (const signal of ['SIGINT', 'SIGTERM'])
	process.on(signal, () => void stopAll().then(() => process.exit(130)));

async function main() {
	if (!existsSync(CHROMIUM))
		throw new Error(
			`No Chromium at ${CHROMIUM}: install Debian's package (sudo apt-get install chromium) or set CHROMIUM_PATH`,
		);
	for (const [name, port] of Object.entries(PORTS)) {
		if (await portInUse(port))
			throw new Error(
				`Port ${port} (${name}) is in use: stop \`npm start\` first (the screenshot uses its ports and a fresh n8n of its own)`,
			);
	}
	ensureBuilt(paths, log, true);
	const runtime = await ensureN8n(paths, log);
	rmSync(userFolder, { recursive: true, force: true });
	mkdirSync(userFolder, { recursive: true });
	installPackage(paths, userFolder);

	const sandbox = await startSandboxProcess(
		paths,
		[
			'--clock',
			'real',
			'--port',
			String(PORTS.sandbox),
			'--cdn-port',
			String(PORTS.cdn),
			'--queue-ms',
			'1000',
			'--render-min-ms',
			'3000',
			'--render-max-ms',
			'4000',
			'--failure-share',
			'0',
			'--quiet',
		],
		{ logFile: join(userFolder, 'sandbox.log') },
	);
	children.push(sandbox.child);
	const n8nLog = join(userFolder, 'n8n.log');
	const n8n = startN8nProcess(
		runtime,
		n8nEnv(runtime, { userFolder, port: PORTS.n8n, brokerPort: await freePort() }),
		n8nLog,
	);
	children.push(n8n);
	const url = `http://127.0.0.1:${PORTS.n8n}`;
	await waitForN8n(url, n8n, { logFile: n8nLog });
	const api = new N8nApi(url);
	await api.ensureOwner();
	const credential = await api.ensureSandboxCredential(EXAMPLE_CREDENTIAL.name, {
		apiKey: sandbox.info.keys.admin,
		baseUrl: sandbox.info.baseUrl,
		graphqlEndpoint: '',
	});
	const imported = await importExamplesViaApi(api, paths, credential);
	const crm = imported.find((w) => w.file === 'crm-contact-to-video.json');
	if (!crm?.id) throw new Error('The CRM example was not imported');

	log(`Chromium ${CHROMIUM}: signing in, running the CRM example in the editor`);
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		headless: true,
		args: CHROMIUM_FLAGS,
	});
	try {
		const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
		await page.goto(`${url}/signin`);
		await page.fill('input[name=emailOrLdapLoginId]', OWNER.email);
		await page.fill('input[name=password]', OWNER.password);
		await page.click('[data-test-id=form-submit-button]');
		await page.waitForURL(/\/home\//);
		await page.goto(`${url}/workflow/${crm.id}`);
		await page.waitForSelector('[data-test-id=canvas-node][data-node-name="Create welcome video"]');

		const button = '[data-test-id=execute-workflow-button]';
		await page.click(button);
		await page.waitForFunction(
			(sel) => document.querySelector(sel)?.textContent?.includes('Executing'),
			button,
			{ timeout: 15_000 },
		);
		await page.waitForFunction(
			(sel) => !document.querySelector(sel)?.textContent?.includes('Executing'),
			button,
			{ timeout: 180_000 },
		);
		await page.waitForSelector(
			'[data-test-id=canvas-node][data-node-name="CRM update (video URL)"]',
		);
		// Let the success toast go away.
		await page
			.locator('.el-notification')
			.first()
			.waitFor({ state: 'detached', timeout: 15_000 })
			.catch(() => undefined);
		await page.waitForTimeout(500);
		mkdirSync(docs, { recursive: true });
		const canvasFile = join(docs, 'crm-workflow.jpg');
		await page.screenshot({ path: canvasFile, type: 'jpeg', quality: 82 });

		await page
			.locator('[data-test-id=canvas-node][data-node-name="Create welcome video"]')
			.dblclick();
		const output = page.locator('[data-test-id=output-panel]');
		await output.waitFor();
		await output.getByText('JSON', { exact: true }).click();
		await output.getByText('published').first().waitFor();
		await page.waitForTimeout(1000);
		const panelFile = join(docs, 'editor.jpg');
		await page.screenshot({ path: panelFile, type: 'jpeg', quality: 82 });
		for (const file of [panelFile, canvasFile])
			log(`${file} (${Math.round(statSync(file).size / 1024)} KB)`);
	} finally {
		await browser.close();
	}
}

try {
	await main();
	await stopAll();
} catch (error) {
	log(`failed: ${error instanceof Error ? error.message : String(error)}`);
	await stopAll();
	process.exit(1);
}
