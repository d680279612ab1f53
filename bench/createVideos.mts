// Benchmark 3: Create 1,000 videos. The node vs. n8n's HTTP Request node, in the same engine,
// against one sandbox in a child process: without faults, and with 10% injected 429s
// (Retry-After 0 s and 1 s). Wall time, requests sent, videos really created.
//   npm run bench:create            (BENCH_REPS=n to change the repetitions)
import './lib/env.mts';

import type { INodeExecutionData } from 'n8n-workflow';

import type { RequestRecord } from '../sandbox/index.mts';
import { runNode } from '../test/harness/engine.mts';
import {
	HTTP_REQUEST_TYPE,
	httpRequestCreateVideoParameters,
	httpRequestNode,
} from './lib/httpRequestNode.mts';
import { startRemoteSandbox, type RemoteSandbox } from './lib/remoteSandbox.mts';
import { median, round, rotated, timed, writeResults, type Figure } from './lib/report.mts';

const VIDEOS = 1000;
const REPS = Number(process.env.BENCH_REPS ?? 3);
const FAULT_RATE = 0.1;
const COMMAND = 'npm run bench:create';

interface Scenario {
	name: string;
	retryAfter?: number;
}

const SCENARIOS: Scenario[] = [
	{ name: 'no faults' },
	{ name: '10% 429, Retry-After 0', retryAfter: 0 },
	{ name: '10% 429, Retry-After 1', retryAfter: 1 },
];

interface Outcome {
	/** Items that came out as created videos. */
	ok: number;
	/** Items that came out as errors, or all of them when the run failed. */
	failed: number;
	runError?: string;
}

interface Contender {
	name: string;
	/** Only with faults: without them the HTTP Request variants are the same run. */
	faultsOnly?: boolean;
	run: (items: INodeExecutionData[], scenario: Scenario) => Promise<Outcome>;
}

const inputItems = (): INodeExecutionData[] =>
	Array.from({ length: VIDEOS }, (_, index) => ({ json: { name: `Customer ${index}` } }));

function outcomeOf(items: INodeExecutionData[], error: Error | undefined): Outcome {
	if (error) return { ok: 0, failed: VIDEOS, runError: error.message.slice(0, 120) };
	const ok = items.filter(
		(item) => typeof item.json.id === 'string' && item.json.error === undefined,
	).length;
	return { ok, failed: items.length - ok };
}

function contenders(sandbox: RemoteSandbox, httpVersion: number | undefined): Contender[] {
	const credentials = { apiKey: sandbox.keys.user, baseUrl: sandbox.baseUrl };
	const list: Contender[] = [
		{
			name: 'node',
			run: async (items) => {
				const result = await runNode({
					parameters: {
						resource: 'video',
						operation: 'create',
						title: '={{ "Video for " + $json.name }}',
						template: { __rl: true, mode: 'id', value: sandbox.known.stockTemplateId },
						customerDataMode: 'keyValue',
						customerData: { values: [{ key: 'first_name', value: '={{ $json.name }}' }] },
					},
					credentials,
					items,
				});
				return outcomeOf(result.items, result.error);
			},
		},
	];
	if (httpVersion === undefined) return list;
	const http = (items: INodeExecutionData[], node: Record<string, unknown> = {}) =>
		runNode({
			nodeType: HTTP_REQUEST_TYPE,
			node: { typeVersion: httpVersion, ...node },
			parameters: httpRequestCreateVideoParameters(
				`${sandbox.baseUrl}/videos`,
				sandbox.known.stockTemplateId,
			),
			credentials,
			items,
		});
	list.push(
		{
			name: 'HTTP Request node',
			run: async (items) => {
				const result = await http(items);
				return outcomeOf(result.items, result.error);
			},
		},
		{
			// n8n's node setting "Retry On Fail" with its defaults: the whole node runs again.
			name: 'HTTP Request + Retry On Fail (3 tries, 1 s)',
			faultsOnly: true,
			run: async (items) => {
				const result = await http(items, {
					retryOnFail: true,
					maxTries: 3,
					waitBetweenTries: 1000,
				});
				return outcomeOf(result.items, result.error);
			},
		},
		{
			// What a careful user builds: "On Error: Continue", failed items through a Wait node
			// (as long as Retry-After, which the HTTP Request node cannot read) and back in.
			name: 'HTTP Request + error loop with Wait',
			faultsOnly: true,
			run: async (items, scenario) => {
				let pending = items;
				let ok = 0;
				for (let pass = 0; pass < 20 && pending.length > 0; pass++) {
					if (pass > 0)
						await new Promise((resolve) => setTimeout(resolve, (scenario.retryAfter ?? 0) * 1000));
					const result = await http(pending, { onError: 'continueRegularOutput' });
					if (result.error)
						return { ok, failed: pending.length, runError: result.error.message.slice(0, 120) };
					const failedIndexes = new Set<number>();
					for (const item of result.items) {
						const paired = item.pairedItem as { item: number } | undefined;
						if (item.json.error !== undefined && paired) failedIndexes.add(paired.item);
						else ok++;
					}
					pending = pending.filter((_, index) => failedIndexes.has(index));
				}
				return { ok, failed: pending.length };
			},
		},
	);
	return list;
}

interface Measurement {
	ms: number;
	outcome: Outcome;
	posts: number;
	created: number;
	rateLimited: number;
}

async function measure(
	sandbox: RemoteSandbox,
	contender: Contender,
	scenario: Scenario,
	seed: number,
): Promise<Measurement> {
	await sandbox.call('requests.clear');
	await sandbox.call('faults.clear');
	if (scenario.retryAfter !== undefined) {
		await sandbox.call('faults.random', {
			rate: FAULT_RATE,
			kinds: ['429'],
			retryAfter: scenario.retryAfter,
			seed,
			match: { method: 'POST', path: '/v1/videos' },
		});
	}
	const { ms, value: outcome } = await timed(() => contender.run(inputItems(), scenario));
	await sandbox.call('faults.clear');
	const log = await sandbox.call<RequestRecord[]>('requests.log');
	const posts = log.filter((record) => record.method === 'POST' && record.path === '/v1/videos');
	return {
		ms,
		outcome,
		posts: posts.length,
		created: posts.filter((record) => record.status === 201).length,
		rateLimited: posts.filter((record) => record.status === 429).length,
	};
}

async function main(): Promise<void> {
	const http = await httpRequestNode();
	if (!http.ok) console.warn(`HTTP Request node not measured: ${http.reason}`);
	const sandbox = await startRemoteSandbox({ dataset: { videos: 100, assets: 4 } });
	const results: Record<string, Record<string, Measurement[]>> = {};
	try {
		const list = contenders(sandbox, http.ok ? http.version : undefined);
		for (const [index, scenario] of SCENARIOS.entries()) {
			const runnable = list.filter(
				(contender) => scenario.retryAfter !== undefined || !contender.faultsOnly,
			);
			results[scenario.name] = Object.fromEntries(
				runnable.map((contender) => [contender.name, []]),
			);
			// Rep -1 warms up (engine, JIT, connections) once, in the first scenario.
			for (let rep = index === 0 ? -1 : 0; rep < REPS; rep++) {
				for (const contender of rotated(runnable, Math.max(0, rep))) {
					await sandbox.call('store.setCredits', {
						organisationId: 'org_acme',
						credits: 1_000_000_000,
					});
					await sandbox.call('store.setCredits', {
						brandId: sandbox.known.primaryBrandId,
						credits: 1_000_000_000,
					});
					const measurement = await measure(sandbox, contender, scenario, 100 + Math.max(0, rep));
					if (rep >= 0) results[scenario.name][contender.name].push(measurement);
				}
			}
		}
	} finally {
		await sandbox.close();
	}

	const rows = Object.entries(results).flatMap(([scenario, byContender]) =>
		Object.entries(byContender).map(([contender, runs]) => ({
			scenario,
			contender,
			'median s': round(median(runs.map((run) => run.ms)) / 1000, 2),
			'POST requests': median(runs.map((run) => run.posts)),
			'429s': median(runs.map((run) => run.rateLimited)),
			'videos created': median(runs.map((run) => run.created)),
			'items ok': median(runs.map((run) => run.outcome.ok)),
			'items failed': median(runs.map((run) => run.outcome.failed)),
			'run error': runs.find((run) => run.outcome.runError)?.outcome.runError ?? '',
		})),
	);
	const title = `Create ${VIDEOS.toLocaleString('en-US')} videos, ${REPS} interleaved repetitions per scenario after one warm-up (medians)`;

	const figures: Figure[] = [];
	const at = (scenario: string, contender: string) => results[scenario]?.[contender];
	for (const scenario of SCENARIOS) {
		const node = at(scenario.name, 'node') ?? [];
		const nodeMs = median(node.map((run) => run.ms));
		figures.push({
			name: `Create ${VIDEOS.toLocaleString('en-US')} (${scenario.name}): node wall time`,
			value: round(nodeMs / 1000, 2),
			unit: 's',
			repetitions: REPS,
			note: `${median(node.map((run) => run.posts))} POSTs, ${median(node.map((run) => run.created))} videos created, ${median(node.map((run) => run.outcome.ok))} items ok`,
		});
		const reference = at(
			scenario.name,
			scenario.retryAfter === undefined
				? 'HTTP Request node'
				: 'HTTP Request + error loop with Wait',
		);
		if (reference) {
			const refMs = median(reference.map((run) => run.ms));
			figures.push({
				name: `Create ${VIDEOS.toLocaleString('en-US')} (${scenario.name}): node time / HTTP Request${scenario.retryAfter === undefined ? '' : ' (error loop)'} time`,
				value: round(nodeMs / refMs, 2),
				unit: '×',
				repetitions: REPS,
				note: `${round(nodeMs / 1000, 2)} s vs ${round(refMs / 1000, 2)} s; POSTs ${median(node.map((run) => run.posts))} vs ${median(reference.map((run) => run.posts))}`,
			});
		}
	}
	writeResults(
		'create',
		COMMAND,
		figures,
		{ title, rows },
		{ videos: VIDEOS, repetitions: REPS, faultRate: FAULT_RATE, rows, results },
	);
}

await main();
