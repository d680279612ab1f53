// Benchmark 6, a key used before: the same Create run on a key new to this n8n process and on
// one the trigger polled for a minute first (a gate lives while its key is used, so a key the
// trigger polls is never new). No rate-limit headers. Each run through n8n's engine in this
// process, the sandbox in a child process; the key's gate is forgotten before each pair.
//   npm run bench:used-key
//   BENCH_USED_POLLS=6 BENCH_USED_EVERY_S=10 (the trigger's polls before the run, and their spacing)
//   BENCH_USED_CASES="(10, 10)" (only the cases whose label contains it)
import './lib/env.mts';

import type { VideoInfo } from '../sandbox/index.mts';
import type { RateLimitConfig } from '../sandbox/types.mts';
import { engine, forgetPacing, pollTrigger, runNode } from '../test/harness/engine.mts';
import { createdOnce, createParameters } from './lib/createRuns.mts';
import { startRemoteSandbox, type RemoteSandbox } from './lib/remoteSandbox.mts';
import { round } from './lib/report.mts';

const POLLS = Number(process.env.BENCH_USED_POLLS ?? 6);
const EVERY_S = Number(process.env.BENCH_USED_EVERY_S ?? 10);

type Limiter = Pick<RateLimitConfig, 'rate' | 'burst' | 'shape' | 'window'>;
const CASES: Array<{ label: string; limiter: Limiter; items: number }> = [
	{ label: 'Create 300 at (10, 2)', limiter: { rate: 10, burst: 2 }, items: 300 },
	{ label: 'Create 300 at (10, 10)', limiter: { rate: 10, burst: 10 }, items: 300 },
	{
		label: 'Create 200, fixed window of 50 per 5 s',
		limiter: { rate: 10, burst: 10, shape: 'fixed-window', window: 5 },
		items: 200,
	},
];

type Counters = { byKey: Record<string, { requests: number; limited: number }> };

async function run(sandbox: RemoteSandbox, c: (typeof CASES)[number], used: boolean) {
	const credentials = { apiKey: sandbox.keys.user, baseUrl: sandbox.baseUrl };
	forgetPacing();
	// Full buckets and counters at 0 from here.
	await sandbox.call('rateLimit.set', { ...c.limiter, headers: 'none' });
	const staticData = {};
	for (let poll = 0; used && poll < POLLS; poll++) {
		await pollTrigger({ parameters: { events: ['published', 'failed'] }, credentials, staticData });
		await new Promise((resolve) => setTimeout(resolve, EVERY_S * 1000));
	}
	const count = async () =>
		(await sandbox.call<Counters>('rateLimit.counters')).byKey[sandbox.keys.user] ?? {
			requests: 0,
			limited: 0,
		};
	const before = await count();
	const prefix = `used-key ${c.label} ${used ? 'used' : 'new'}:`;
	const started = performance.now();
	const result = await runNode({
		parameters: createParameters(prefix, sandbox.known.stockTemplateId),
		credentials,
		items: Array.from({ length: c.items }, (_, n) => ({ json: { n } })),
	});
	const seconds = (performance.now() - started) / 1000;
	const after = await count();
	const videos = await sandbox.call<VideoInfo[]>('store.listVideos');
	const { created, duplicates } = createdOnce(videos, prefix, c.items);
	const requests = after.requests - before.requests;
	const limited = after.limited - before.limited;
	return {
		case: c.label,
		key: used ? `polled ${POLLS} times, ${EVERY_S} s apart, first` : 'new',
		'× N/R': round(seconds / (c.items / c.limiter.rate), 2),
		requests,
		'429s': limited,
		'429 share': `${round((100 * limited) / requests, 1)} %`,
		'created once': `${created} of ${c.items}${duplicates ? `, ${duplicates} twice or more` : ''}`,
		error: result.error?.message ?? '',
	};
}

const sandbox = await startRemoteSandbox();
try {
	await engine();
	const rows = [];
	const only = process.env.BENCH_USED_CASES;
	for (const c of CASES.filter((entry) => !only || entry.label.includes(only)))
		for (const used of [false, true]) rows.push(await run(sandbox, c, used));
	console.log(`A key used before (${POLLS} polls of the trigger, ${EVERY_S} s apart), no headers:`);
	console.table(rows);
} finally {
	await sandbox.close();
}
process.exit(0);
