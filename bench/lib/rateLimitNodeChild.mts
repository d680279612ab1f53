// Child process of bench/rateLimit.mts: one n8n process's worth of node runs through the engine,
// started together when told to, so the parent can stop a run that outlasts its time box (kill
// the process). Every run uses the same credential, so they share the key's one gate, as the
// executions of one n8n process (or one queue-mode worker) do.
//   argv: JSON NodeRunJob. IPC: sends { ready: true } once the engine is loaded, waits for 'go',
//   sends its NodeRunReport.
import './env.mts';

import { createRequire } from 'node:module';
import { join } from 'node:path';

import { engine, pollTrigger, runNode } from '../../test/harness/engine.mts';
import { createParameters } from './createRuns.mts';
import { round } from './report.mts';

export interface NodeRunJob {
	operation: 'create' | 'return-all';
	/** Executions started together, each of `items` items (Create). */
	executions: number;
	items: number;
	baseUrl: string;
	apiKey: string;
	templateId: string;
	titlePrefix: string;
	/** The trigger polls the same key every this many ms while the runs go (0: no trigger). */
	pollEveryMs: number;
	/** Waits this long after 'go' before starting (a worker that joins late). */
	startAfterMs?: number;
}

export interface NodeRunReport {
	ms: number;
	/** Output items that are a created video (Create) or an asset (Return All). */
	ok: number;
	/** Output items that carry an error (Continue On Fail is off, so normally none). */
	failed: number;
	/** Distinct asset ids in the output (Return All). */
	distinct: number;
	error?: string;
	/** The trigger's polls during the runs: how long each took. */
	pollMs: number[];
	/** The key's pace (requests per second, 0 before it limits) each second of the run. */
	paces: number[];
}

const job = JSON.parse(process.argv[2] ?? '{}') as NodeRunJob;
const credentials = { apiKey: job.apiKey, baseUrl: job.baseUrl };

async function execution(index: number) {
	if (job.operation === 'return-all')
		return await runNode({
			parameters: { resource: 'asset', operation: 'getAll', returnAll: true },
			credentials,
		});
	const items = Array.from({ length: job.items }, (_, item) => ({
		json: { n: index * job.items + item },
	}));
	return await runNode({
		parameters: createParameters(job.titlePrefix, job.templateId),
		credentials,
		items,
	});
}

/**
 * Polls the trigger on the same key until `done`, one poll at a time, every `pollEveryMs`. The run
 * ends with the poll in progress when `done` comes (its requests count in N), not with the wait
 * after it: that wait sends nothing, and counting it once cost up to 10 s (0.2 × N/R).
 */
async function pollWhile(done: Promise<unknown>): Promise<number[]> {
	const durations: number[] = [];
	const staticData = {};
	let finished = false;
	const ended = done.finally(() => (finished = true)).catch(() => undefined);
	while (!finished) {
		const started = performance.now();
		await pollTrigger({ parameters: { events: ['published', 'failed'] }, credentials, staticData });
		durations.push(performance.now() - started);
		let timer: NodeJS.Timeout | undefined;
		await Promise.race([
			ended,
			new Promise((resolve) => (timer = setTimeout(resolve, job.pollEveryMs))),
		]);
		clearTimeout(timer);
	}
	return durations;
}

/** The pace of the process's one gate (the built module's registry), once a second. */
function samplePaces(): { paces: number[]; stop: () => void } {
	const load = createRequire(import.meta.url);
	const gatePath = join(
		process.cwd(),
		'dist',
		'nodes',
		'VideoPersonalization',
		'transport',
		'gate.js',
	);
	const { keyGates } = load(gatePath) as { keyGates: Map<string, { pacer: { pace?: number } }> };
	const paces: number[] = [];
	const timer = setInterval(() => {
		for (const gate of keyGates.values()) paces.push(round(gate.pacer.pace ?? 0, 2));
	}, 1000);
	return { paces, stop: () => clearInterval(timer) };
}

async function run(): Promise<NodeRunReport> {
	await new Promise((resolve) => setTimeout(resolve, job.startAfterMs ?? 0));
	const sampler = samplePaces();
	const started = performance.now();
	const runs = Promise.all(
		Array.from({ length: job.executions }, async (_, index) => await execution(index)),
	);
	const polls = job.pollEveryMs > 0 ? pollWhile(runs) : Promise.resolve([]);
	const results = await runs;
	const ms = performance.now() - started;
	sampler.stop();
	const items = results.flatMap((result) => result.items);
	const good = items.filter(
		(item) => typeof item.json.id === 'string' && item.json.error === undefined,
	);
	const errors = results.flatMap((result) =>
		result.error
			? [[result.error.message, result.error.description].filter(Boolean).join(' — ')]
			: [],
	);
	return {
		ms,
		ok: good.length,
		failed: items.length - good.length + errors.length,
		distinct: new Set(good.map((item) => String(item.json.id))).size,
		error: errors[0]?.slice(0, 300),
		pollMs: await polls,
		paces: sampler.paces,
	};
}

await engine();
process.on('message', (message) => {
	if (message !== 'go') return;
	void run().then(
		(report) => process.send?.(report, () => process.exit(0)),
		(error: unknown) =>
			process.send?.(
				{
					ms: 0,
					ok: 0,
					failed: 0,
					distinct: 0,
					error: `harness: ${String(error)}`,
					pollMs: [],
					paces: [],
				},
				() => process.exit(1),
			),
	);
});
process.send?.({ ready: true });
