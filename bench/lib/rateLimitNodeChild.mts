// Child process of bench/rateLimit.mts: runs the node through the engine, once, when told to,
// so that the parent can stop a run that outlasts its time box (kill the process).
//   argv: JSON { operation: 'create' | 'return-all', baseUrl, apiKey, templateId, count, titlePrefix }
//   IPC: sends { ready: true } once the engine is loaded, waits for 'go', sends its NodeRunReport.
import './env.mts';

import { engine, runNode } from '../../test/harness/engine.mts';

export interface NodeRunJob {
	operation: 'create' | 'return-all';
	baseUrl: string;
	apiKey: string;
	templateId: string;
	/** Create: the number of items. */
	count: number;
	titlePrefix: string;
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
}

const job = JSON.parse(process.argv[2] ?? '{}') as NodeRunJob;
const credentials = { apiKey: job.apiKey, baseUrl: job.baseUrl };

async function run(): Promise<NodeRunReport> {
	const items = Array.from({ length: job.count }, (_, index) => ({ json: { index } }));
	const started = performance.now();
	const result =
		job.operation === 'create'
			? await runNode({
					parameters: {
						resource: 'video',
						operation: 'create',
						title: `={{ "${job.titlePrefix}" + $json.index }}`,
						template: { __rl: true, mode: 'id', value: job.templateId },
						customerDataMode: 'keyValue',
						customerData: {
							values: [{ key: 'first_name', value: '={{ "Customer " + $json.index }}' }],
						},
					},
					credentials,
					items,
				})
			: await runNode({
					parameters: { resource: 'asset', operation: 'getAll', returnAll: true },
					credentials,
				});
	const ms = performance.now() - started;
	const good = result.items.filter(
		(item) => typeof item.json.id === 'string' && item.json.error === undefined,
	);
	const message = result.error
		? [result.error.message, result.error.description].filter(Boolean).join(' — ')
		: undefined;
	return {
		ms,
		ok: good.length,
		failed: result.items.length - good.length,
		distinct: new Set(good.map((item) => String(item.json.id))).size,
		error: message?.slice(0, 300),
	};
}

await engine();
process.on('message', (message) => {
	if (message !== 'go') return;
	void run().then(
		(report) => process.send?.(report, () => process.exit(0)),
		(error: unknown) =>
			process.send?.(
				{ ms: 0, ok: 0, failed: 0, distinct: 0, error: `harness: ${String(error)}` },
				() => process.exit(1),
			),
	);
});
process.send?.({ ready: true });
