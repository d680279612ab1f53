// Where the time of the node's Return All goes: 20 runs of Asset > Get Many (Return All, 10,000
// assets) in the engine under the V8 sampling profiler, after a warm-up. Prints self time by
// package and the inclusive time of the calls that matter; writes bench/results/return-all.cpuprofile
// (open it in Chrome DevTools > Performance).
//   npm run bench:profile
import './lib/env.mts';

import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

import { runNode } from '../test/harness/engine.mts';
import { startRemoteSandbox } from './lib/remoteSandbox.mts';
import { RESULTS_DIR, round, table } from './lib/report.mts';

interface CallFrame {
	functionName: string;
	url: string;
	lineNumber: number;
}

interface ProfileNode {
	id: number;
	callFrame: CallFrame;
	children?: number[];
}

interface Profile {
	nodes: ProfileNode[];
	samples: number[];
	timeDeltas: number[];
}

const RUNS = 20;
const COMMAND = 'npm run bench:profile';

function packageOf(url: string, functionName: string): string {
	const match = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
	if (match) return match[1];
	if (url.startsWith('node:')) return 'node (built-in)';
	if (url.includes('/dist/')) return 'this package (dist)';
	if (url.includes('/test/harness/')) return 'test harness (stands in for n8n CredentialsHelper)';
	if (!url) return `(${functionName})`;
	return 'other';
}

/** Inclusive time of calls whose frame matches, counted once per sample. */
const WATCHED: Array<[string, (frame: CallFrame) => boolean]> = [
	[
		'httpRequestWithAuthentication (n8n-core)',
		(f) =>
			f.functionName === 'httpRequestWithAuthentication' && f.url.includes('authentication.js'),
	],
	['↳ getCredentials → getDecrypted → getNodeParameters', (f) => f.functionName === 'getDecrypted'],
	// ~0 since the credential's notices use startsWith/endsWith (23e8362): kept to show it stays so.
	[
		'↳↳ of which regex display conditions in a vm (safe-regex; the credential has none)',
		(f) => f.functionName === 'run' && f.url.includes('safe-regex'),
	],
	[
		'↳ authenticate (credential expression)',
		(f) => f.functionName === 'authenticate' && f.url.includes('harness'),
	],
	[
		'↳ httpRequest (@n8n/backend-network, axios): sending only, answers are parsed in callbacks',
		(f) => f.functionName === 'httpRequest' && f.url.includes('backend-network'),
	],
	[
		'↳ new TCP connections, one per request (net connect)',
		(f) => f.functionName === 'internalConnect',
	],
	['node: mergePages', (f) => f.functionName === 'mergePages'],
	['node: router (items out)', (f) => f.functionName === 'router'],
	['garbage collector', (f) => f.functionName === '(garbage collector)'],
	['idle (waiting for the server)', (f) => f.functionName === '(idle)'],
];

interface Summary {
	runs: number;
	msPerRun: number;
	packages: Array<Record<string, string | number>>;
	calls: Array<Record<string, string | number>>;
}

function analyse(profile: Profile): Summary {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map<number, number>();
	for (const node of profile.nodes)
		for (const child of node.children ?? []) parent.set(child, node.id);
	const selfTime = new Map<number, number>();
	profile.samples.forEach((id, index) =>
		selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)),
	);
	const total = [...selfTime.values()].reduce((sum, value) => sum + value, 0);

	const packages = new Map<string, number>();
	const watched = new Map<string, number>(WATCHED.map(([label]) => [label, 0]));
	for (const [id, time] of selfTime) {
		const node = byId.get(id);
		if (!node) continue;
		const name = packageOf(node.callFrame.url, node.callFrame.functionName);
		packages.set(name, (packages.get(name) ?? 0) + time);
		const hit = new Set<string>();
		for (
			let current: number | undefined = id;
			current !== undefined;
			current = parent.get(current)
		) {
			const frame = byId.get(current)?.callFrame;
			if (!frame) break;
			for (const [label, matches] of WATCHED) if (!hit.has(label) && matches(frame)) hit.add(label);
		}
		for (const label of hit) watched.set(label, (watched.get(label) ?? 0) + time);
	}
	const perRun = (micros: number) => round(micros / 1000 / RUNS, 1);
	const share = (micros: number) => `${round((100 * micros) / total, 1)}%`;
	const summary: Summary = {
		runs: RUNS,
		msPerRun: perRun(total),
		packages: [...packages]
			.sort((a, b) => b[1] - a[1])
			.slice(0, 12)
			.map(([name, time]) => ({ package: name, 'ms per run': perRun(time), share: share(time) })),
		calls: [...watched].map(([label, time]) => ({
			call: label,
			'ms per run': perRun(time),
			share: share(time),
		})),
	};
	console.log(
		`\nProfile of ${RUNS} Return All runs: ${summary.msPerRun} ms per run in all (sampled)`,
	);
	console.log('\nSelf time by package');
	console.log(table(summary.packages));
	console.log('\nInclusive time of the calls that matter');
	console.log(table(summary.calls));
	return summary;
}

async function main(): Promise<void> {
	const sandbox = await startRemoteSandbox({ dataset: { videos: 100, assets: 10_000 } });
	try {
		const run = () =>
			runNode({
				parameters: { resource: 'asset', operation: 'getAll', returnAll: true },
				credentials: { apiKey: sandbox.keys.user, baseUrl: sandbox.baseUrl },
			});
		for (let index = 0; index < 3; index++) await run();
		const session = new Session();
		session.connect();
		await session.post('Profiler.enable');
		await session.post('Profiler.setSamplingInterval', { interval: 200 });
		await session.post('Profiler.start');
		for (let index = 0; index < RUNS; index++) await run();
		const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
		session.disconnect();
		mkdirSync(RESULTS_DIR, { recursive: true });
		writeFileSync(join(RESULTS_DIR, 'return-all.cpuprofile'), JSON.stringify(profile));
		const summary = analyse(profile);
		writeFileSync(
			join(RESULTS_DIR, 'profile.json'),
			`${JSON.stringify({ date: new Date().toISOString(), command: COMMAND, ...summary }, null, 2)}\n`,
		);
		console.log(
			'\n(written to bench/results/return-all.cpuprofile and bench/results/profile.json)',
		);
	} finally {
		await sandbox.close();
	}
}

await main();
