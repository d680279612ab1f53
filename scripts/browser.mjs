#!/usr/bin/env node
// `npm run test:browser`: the n8n editor as a user meets it, in Debian's Chromium (headless,
// driven by playwright-core), against what `npm start` runs (scripts/lib/stack.mjs: the sandbox,
// n8n 2.41.1 with this package, owner, credential and examples), on free ports in a fresh user
// folder (.n8n-e2e/browser). It signs in, finds the node in the node panel, builds Video > Create
// (templates from the list, by name and by ID, Template Fields mapped, a value the template
// refuses, then a video), runs the CRM example, fetches the trigger's test event, and tests the
// credential with a good and an expired key. Any error shown where none is expected fails it;
// a failed step does not stop the others (each starts from a page of its own).
// Screenshots of every step stay in .n8n-e2e/browser/screenshots; `--update-docs` (what
// `npm run screenshot` runs) also writes the README's pictures, docs/editor.jpg and
// docs/crm-workflow.jpg, on the ports of `npm start`.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import {
	OWNER,
	findRoot,
	freePort,
	makeLogger,
	portInUse,
	projectPaths,
	stopProcess,
} from './lib/n8n.mjs';
import { startStack } from './lib/stack.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// Headless on a machine without a display, and no connections of its own (closed network).
const CHROMIUM_FLAGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run',
];
const NPM_START_PORTS = { n8n: 5678, sandbox: 5680, cdn: 5681 };
const CRM_WORKFLOW_ID = 'vpExampleCrm0001';

const { values: flags } = parseArgs({ options: { 'update-docs': { type: 'boolean' } } });
const log = makeLogger('browser');
const root = findRoot(dirname(fileURLToPath(import.meta.url)));
const paths = projectPaths(root);
const home = join(paths.base, 'browser');
const shots = join(home, 'screenshots');

/** Everything on the page a user reads as an error: red text, error toasts, node errors, issues. */
const ERROR_SELECTORS = [
	'.el-notification:has(.el-notification--error)',
	'[data-test-id=node-error-message]',
	'[data-test-id=parameter-issues]',
	'[class*="_danger_"]',
	'.el-tag--danger',
	'text=/Could not load/',
];

async function visibleErrors(scope) {
	const found = [];
	for (const selector of ERROR_SELECTORS) {
		for (const element of await scope.locator(selector).all()) {
			if (!(await element.isVisible())) continue;
			const text = (await element.innerText().catch(() => '')).trim();
			found.push(text || `(${selector})`);
		}
	}
	return found;
}

async function expectNoErrors(page, where) {
	const errors = await visibleErrors(page);
	if (errors.length > 0) throw new Error(`${where}: error shown: ${errors.join(' | ')}`);
}

function assert(condition, message) {
	if (!condition) throw new Error(message);
}

/** The JSON the output panel shows, read off the panel's JSON view. */
async function outputJson(page) {
	const output = page.locator('[data-test-id=output-panel]');
	await output.locator('[data-test-id=radio-button-json]').click();
	const text = await output.locator('[data-test-id=ndv-data-container]').innerText();
	return JSON.parse(text.replace(/\u00a0/g, ' '));
}

async function sandboxGet(stack, path) {
	const response = await fetch(`${stack.sandbox.baseUrl}${path}`, {
		headers: { authorization: `Bearer ${stack.sandbox.keys.admin}` },
	});
	assert(response.ok, `GET ${path} answered ${response.status}`);
	return await response.json();
}

async function createCount(stack) {
	const url = `${stack.sandbox.controlUrl}/requests?method=POST&path=/v1/videos`;
	return (await (await fetch(url)).json()).count;
}

// ---------------------------------------------------------------- the user's steps

async function signIn(page, stack) {
	await page.goto(`${stack.url}/signin`);
	await page.fill('input[name=emailOrLdapLoginId]', OWNER.email);
	await page.fill('input[name=password]', OWNER.password);
	await page.click('[data-test-id=form-submit-button]');
	await page.waitForURL(/\/home\//);
	await expectNoErrors(page, 'after signing in');
}

function nodeCreatorSearch(page) {
	return page
		.locator(
			'[data-test-id=node-creator-search-bar] input, input[data-test-id=node-creator-search-bar]',
		)
		.first();
}

function creatorItem(page, name) {
	return page.locator('[data-test-id=node-creator-item-name]', { hasText: name }).first();
}

async function addCreateNode(page, stack) {
	await page.goto(`${stack.url}/workflow/new`);
	await page.click('[data-test-id=canvas-add-button]');
	await nodeCreatorSearch(page).fill('manual');
	await creatorItem(page, 'Manual Trigger').click();
	await page.click('[data-test-id=canvas-handle-plus]');
	// Searches a user may start from find the node (codex aliases).
	for (const words of ['upload', 'upload asset', 'personalized video', 'video published']) {
		await nodeCreatorSearch(page).fill(words);
		await creatorItem(page, 'Video Personalization').waitFor();
	}
	await creatorItem(page, 'Video Personalization').click();
	// n8n shows one entry for the package, with the trigger's description: written for both nodes.
	await page
		.getByText('Create personalized videos from templates and customer data')
		.filter({ visible: true })
		.first()
		.waitFor();
	await page.screenshot({ path: join(shots, '01-node-panel.png') });
	await creatorItem(page, 'Create a video').click();
	await page.locator('[data-test-id=ndv]').waitFor();
	await expectNoErrors(page, 'Video > Create, just added');
}

const templateInput = (page) =>
	page.locator('[data-test-id=resource-locator-template] [data-test-id=rlc-input]');
const mapperField = (page, key) =>
	page.locator(
		`[data-test-id=mapping-fields-container] [data-test-id=parameter-input-${key}] input`,
	);

async function templateMode(page, mode) {
	await page
		.locator('[data-test-id=resource-locator-template] [data-test-id=rlc-mode-selector]')
		.click();
	await page.locator(`[data-test-id=mode-${mode}]`).click();
}

/** The notice Template Fields shows in place of fields, with no red line anywhere. */
async function expectFieldsNotice(page, text, where) {
	await page.locator('[data-test-id=empty-fields-notice]', { hasText: text }).waitFor();
	await expectNoErrors(page, where);
}

/** Waits until Template Fields lists the fields `has` and none of `lacks` (it reloads on a new template). */
async function expectTemplateFields(page, where, { has, lacks = [] }) {
	const labels = page.locator('[data-test-id=mapping-fields-container] label');
	const deadline = Date.now() + 30_000;
	let texts = [];
	for (;;) {
		texts = (await labels.allInnerTexts()).map((text) => text.split('\n')[0]);
		const complete = has.every((label) => texts.includes(label));
		if (complete && !lacks.some((label) => texts.includes(label))) break;
		if (Date.now() > deadline)
			throw new Error(`${where}: Template Fields show ${texts.join(', ')}`);
		await page.waitForTimeout(250);
	}
	await expectNoErrors(page, where);
}

async function chooseTemplates(page) {
	// By name is the default mode: every API key may look a template up by name.
	const mode = page.locator(
		'[data-test-id=resource-locator-template] [data-test-id=rlc-mode-selector] input',
	);
	assert(
		(await mode.inputValue()) === 'By name',
		`the Template starts in ${await mode.inputValue()}`,
	);
	await expectFieldsNotice(page, 'Choose a Template above', 'Template Fields before a template');

	await templateMode(page, 'id');
	await templateInput(page).fill('tpl_does_not_exist');
	await expectFieldsNotice(page, 'No template has the ID "tpl_does_not_exist"', 'an unknown ID');

	await templateMode(page, 'list');
	await templateInput(page).click();
	await page
		.locator('[data-test-id=rlc-search] input, input[data-test-id=rlc-search]')
		.first()
		.fill('welcome');
	await page.locator('[data-test-id=rlc-item]', { hasText: 'Welcome Onboarding' }).click();
	// Labelled by the keys Map Automatically matches, with what each takes.
	const welcome = [
		'title (max 60)',
		'subtitle (max 80)',
		'logo (image)',
		'background_clip (video)',
	];
	await expectTemplateFields(page, 'a template from the list', { has: welcome });
	await page.screenshot({ path: join(shots, '02-template-from-list.png') });

	await templateMode(page, 'name');
	// An end card: other fields (no subtitle), so the list is seen to reload.
	await templateInput(page).fill('Acme Logo Endcard');
	await templateInput(page).blur();
	await expectTemplateFields(page, 'a template by name', {
		has: ['title (max 60)', 'primary_color (#RRGGBB)'],
		lacks: ['subtitle (max 80)'],
	});
}

/** Clicks the NDV's execute button and waits for the run's outcome ('success' or 'danger'). */
async function executeStep(page, outcome) {
	await page.click('[data-test-id=node-execute-button]');
	const output = page.locator('[data-test-id=output-panel]');
	await output.locator(`[data-test-id=node-run-status-${outcome}]`).waitFor({ timeout: 120_000 });
	return output;
}

/** Closes every toast; with `expectError`, first waits for the error toast a failed run brings (it comes just after the run's status). */
async function closeToasts(page, expectError = false) {
	if (expectError)
		await page
			.locator(ERROR_SELECTORS[0])
			.first()
			.waitFor({ timeout: 10_000 })
			.catch(() => undefined);
	for (let round = 0; round < 10 && (await page.locator('.el-notification').count()) > 0; round++) {
		for (const close of await page.locator('.el-notification__closeBtn').all())
			await close.click().catch(() => undefined);
		await page
			.locator('.el-notification')
			.first()
			.waitFor({ state: 'detached', timeout: 2000 })
			.catch(() => undefined);
	}
}

/** The Check Only switch under Options (added to the collection the first time). */
async function checkOnlySwitch(page) {
	const input = page.locator('[data-test-id=parameter-input-checkOnly]');
	if (!(await input.count())) {
		// n8n 2.41 shows a collection's "Add Option" as a select.
		await page
			.locator('[data-test-id=collection-parameter-add] input[placeholder="Add Option"]')
			.click();
		await page
			.locator('.el-select-dropdown__item', {
				hasText: 'Check Only (No Credits Spent)',
			})
			.filter({ visible: true })
			.first()
			.click();
	}
	return input.locator('.el-switch').first();
}

/** Options > Check Only: the refused colour is named in the output, and no video is made. */
async function checkOnly(page, stack, before) {
	await (await checkOnlySwitch(page)).click();
	const output = await executeStep(page, 'success');
	await output.locator('[data-test-id=radio-button-json]').click();
	// The JSON view renders after the click: wait for it (once the run took longer to show, the read was empty).
	const container = output.locator('[data-test-id=ndv-data-container]');
	await container
		.filter({ hasText: 'problems' })
		.waitFor({ timeout: 15_000 })
		.catch(() => {});
	// Read as text: the JSON view breaks a long string over lines.
	const shown = (await container.innerText()).replace(/\s+/g, ' ').replace(/\\"/g, '"');
	assert(
		/"ok": ?false/.test(shown) && shown.includes('"primary_color" must be a colour such as'),
		`Check Only output: ${shown}`,
	);
	assert((await createCount(stack)) === before, 'Check Only created a video');
	await page.screenshot({ path: join(shots, '03a-check-only.png') });
	await (await checkOnlySwitch(page)).click();
}

async function mapAndCreate(page, stack) {
	await page
		.locator('[data-test-id=parameter-input-title] input')
		.first()
		.fill('Welcome, Ana! (browser test)');
	await mapperField(page, 'title').fill('Welcome, Ana!');
	await mapperField(page, 'primary_color').fill('reddish');
	const before = await createCount(stack);
	await checkOnly(page, stack, before);
	// A value the template refuses: said for the item and the field, before any video is made.
	const refused = await executeStep(page, 'danger');
	await refused.getByText('"primary_color" must be a colour').first().waitFor();
	assert((await createCount(stack)) === before, 'a video was created despite the refused colour');
	await closeToasts(page, true);

	await mapperField(page, 'primary_color').fill('#0B6E4F');
	const output = await executeStep(page, 'success');
	await expectNoErrors(page, 'Video > Create, executed');
	const [video] = await outputJson(page);
	assert(
		video?.status === 'draft' && /^vid_/.test(String(video.id)),
		`output: ${JSON.stringify(video)}`,
	);
	const { data } = await sandboxGet(stack, '/videos?limit=20');
	const stored = data.find((entry) => entry.id === video.id);
	assert(
		stored?.title === 'Welcome, Ana! (browser test)',
		`the sandbox has ${JSON.stringify(stored)}`,
	);
	await output.screenshot({ path: join(shots, '03-create-output.png') });
}

async function runCrmExample(page, stack) {
	await page.goto(`${stack.url}/workflow/${CRM_WORKFLOW_ID}`);
	const createNode = page.locator(
		'[data-test-id=canvas-node][data-node-name="Create welcome video"]',
	);
	await createNode.waitFor();
	const button = page.locator('[data-test-id=execute-workflow-button]');
	await button.click();
	await page
		.locator(
			'[data-test-id=canvas-node][data-node-name="CRM update (video URL)"] [data-test-id=canvas-node-status-success]',
		)
		.waitFor({ timeout: 180_000 });
	await closeToasts(page);
	await expectNoErrors(page, 'the CRM example after its run');
	const canvasFile = join(shots, 'crm-workflow.png');
	await page.screenshot({ path: canvasFile });

	await createNode.dblclick();
	// Its saved Template Fields are the template's fields as they are now: nothing to refresh.
	const fields = page.locator('[data-test-id=mapping-fields-container]');
	await fields.getByText('primary_color (#RRGGBB)').waitFor();
	assert(
		(await page
			.getByText(/outdated|Refresh to see the updated fields/)
			.filter({ visible: true })
			.count()) === 0,
		'Template Fields are flagged as outdated',
	);
	const output = page.locator('[data-test-id=output-panel]');
	await output.getByText('JSON', { exact: true }).click();
	await output.getByText('published').first().waitFor();
	await expectNoErrors(page, 'the CRM example, Create welcome video');
	await page.screenshot({ path: join(shots, 'editor.png') });
	if (flags['update-docs']) {
		await page.screenshot({ path: join(root, 'docs', 'editor.jpg'), type: 'jpeg', quality: 82 });
		await page.keyboard.press('Escape');
		await page.locator('[data-test-id=ndv]').waitFor({ state: 'hidden' });
		await page.screenshot({
			path: join(root, 'docs', 'crm-workflow.jpg'),
			type: 'jpeg',
			quality: 82,
		});
	}
}

async function testCredential(page, stack) {
	await page.goto(`${stack.url}/workflow/${CRM_WORKFLOW_ID}`);
	await page
		.locator('[data-test-id=canvas-node][data-node-name="Create welcome video"]')
		.dblclick();
	await page.click('[data-test-id=credential-edit-button]');
	const modal = page.locator('[data-test-id=editCredential-modal]');
	// Opening a saved credential tests it.
	await modal.getByText('Connection tested successfully').waitFor({ timeout: 60_000 });
	await expectNoErrors(modal, 'the credential with the sandbox key');

	const key = modal.locator('[data-test-id=parameter-input-apiKey] input');
	let said;
	try {
		await key.fill(stack.sandbox.keys.expired);
		await modal.locator('[data-test-id=credential-save-button]').click();
		const banner = modal.locator('.el-tag--danger', { hasText: 'connect with these settings' });
		await banner.getByText('More details').click();
		said = await banner.innerText();
		await page.screenshot({ path: join(shots, '06-credential-expired-key.png') });
	} finally {
		// The other steps need the good key back, whatever happened.
		await key.fill(stack.sandbox.keys.admin);
		await modal.locator('[data-test-id=credential-save-button]').click();
		await modal.getByText('Connection tested successfully').waitFor({ timeout: 60_000 });
		await page.keyboard.press('Escape');
		await modal.waitFor({ state: 'hidden' });
	}
	// The service's reason reaches the form, whatever the words around it.
	assert(
		/expired/i.test(said),
		`the credential test does not say why the key was refused: ${said}`,
	);
}

async function fetchTestEvent(page, stack) {
	await page.goto(`${stack.url}/workflow/new`);
	await page.click('[data-test-id=canvas-add-button]');
	await nodeCreatorSearch(page).fill('personalized video');
	await creatorItem(page, 'Video Personalization').click();
	await creatorItem(page, 'On video published').click();
	await page.locator('[data-test-id=ndv]').waitFor();
	await executeStep(page, 'success');
	await expectNoErrors(page, 'the trigger after Fetch Test Event');
	const [event] = await outputJson(page);
	assert(
		event?.event === 'video.published' && event.status === 'published',
		`event: ${JSON.stringify(event)}`,
	);
	await page.screenshot({ path: join(shots, '05-trigger-test-event.png') });
}

// ---------------------------------------------------------------- the run

async function ports() {
	if (!flags['update-docs'])
		return { n8n: await freePort(), sandbox: await freePort(), cdn: await freePort() };
	// The README's pictures show the addresses of `npm start`.
	for (const [name, port] of Object.entries(NPM_START_PORTS))
		if (await portInUse(port))
			throw new Error(
				`Port ${port} (${name}) is in use: stop \`npm start\` first (--update-docs uses its ports)`,
			);
	return NPM_START_PORTS;
}

/** The processes started, so that Ctrl-C stops them too (they run in process groups of their own). */
const running = [];
for (const signal of ['SIGINT', 'SIGTERM'])
	process.on(signal, () => {
		log(`${signal}: stopping n8n and the sandbox`);
		void Promise.all(running.map((child) => stopProcess(child))).then(() => process.exit(130));
	});

async function main() {
	if (!existsSync(CHROMIUM))
		throw new Error(
			`No Chromium at ${CHROMIUM}: apt-get install chromium (Debian), or set CHROMIUM_PATH`,
		);
	const started = Date.now();
	rmSync(home, { recursive: true, force: true });
	mkdirSync(shots, { recursive: true });
	const stack = await startStack({
		onStarted: (child) => running.push(child),
		paths,
		log,
		home,
		ports: await ports(),
		build: true,
		// Short renders that always publish: the runs wait for them.
		render: { queueMs: 500, minMs: 2000, maxMs: 3000, failureShare: 0 },
	});
	log(
		`n8n ${stack.url}, sandbox ${stack.sandbox.baseUrl} (${Math.round((Date.now() - started) / 1000)} s)`,
	);
	let failed = false;
	let context;
	try {
		// A fresh profile for every run (the user folder was just emptied).
		context = await chromium.launchPersistentContext(join(home, 'chromium'), {
			executablePath: CHROMIUM,
			headless: true,
			args: CHROMIUM_FLAGS,
			viewport: { width: 1440, height: 900 },
		});
		const page = context.pages()[0] ?? (await context.newPage());
		page.setDefaultTimeout(30_000);
		const steps = [
			['signs in', signIn],
			['finds the node in the node panel and adds Video > Create', addCreateNode],
			[
				'Template Fields: notices before a template, fields from the list and by name',
				chooseTemplates,
			],
			[
				'maps fields; a value the template refuses is stopped; executes and reads the output',
				mapAndCreate,
			],
			['runs the CRM example and reads its Create node', runCrmExample],
			["fetches the trigger's test event", fetchTestEvent],
			['tests the credential with a good and an expired key', testCredential],
		];
		for (const [name, step] of steps) {
			const stepStarted = Date.now();
			try {
				await step(page, stack);
				log(`ok   ${name} (${((Date.now() - stepStarted) / 1000).toFixed(1)} s)`);
			} catch (error) {
				failed = true;
				const file = join(shots, `failed-${steps.findIndex(([n]) => n === name) + 1}.png`);
				await page.screenshot({ path: file }).catch(() => undefined);
				log(
					`FAIL ${name}: ${error instanceof Error ? error.message : String(error)} (screenshot ${file})`,
				);
			}
		}
	} finally {
		await context?.close();
		await stack.stop();
	}
	log(
		`${failed ? 'FAILED' : 'passed'} in ${Math.round((Date.now() - started) / 1000)} s; screenshots in ${shots}`,
	);
	return failed ? 1 : 0;
}

main().then(
	(code) => process.exit(code),
	(error) => {
		log(`failed: ${error instanceof Error ? error.message : String(error)}`);
		process.exit(1);
	},
);
