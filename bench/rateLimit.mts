// Benchmark 6: at the service's rate limit (issue 12). The sandbox's limiter (a token bucket of R
// requests per second with a burst of B, Retry-After in whole seconds rounded up, RateLimit-*
// headers on) in front of Create 1,000 videos and Return All of 10,000 assets, at (R, B) =
// (10, 10), (10, 2), (10, 1), (2, 2). In each case, at the same time and each with its own API
// key (so its own bucket): the node through n8n's engine in a child process, time-boxed; the
// minimal client pacing itself from 429s and Retry-After only; and the same reading the headers.
// Time against N/R, the share of requests answered 429 (the limiter's own counters), and for
// Create the videos in the sandbox's store: each item created exactly once?
//   npm run bench:rate-limit
//   BENCH_RATE_CASES=10/1,2/2 BENCH_RATE_OPERATIONS=create npm run bench:rate-limit   (a subset)
//   BENCH_RATE_TIMEBOX=6 (the node's time box, in N/R; default 6)
import './lib/env.mts';

import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import type { VideoInfo } from '../sandbox/index.mts';
import { pacedCreate, pacedReturnAll, type PacedOutcome } from './lib/pacedClient.mts';
import type { NodeRunJob, NodeRunReport } from './lib/rateLimitNodeChild.mts';
import { startRemoteSandbox, type RemoteSandbox } from './lib/remoteSandbox.mts';
import { round, writeResults, type Figure, type Row } from './lib/report.mts';

const COMMAND = 'npm run bench:rate-limit';
const VIDEOS = 1000;
const ASSETS = 10_000;
const PAGE_SIZE = 100;
const TIME_BOX = Number(process.env.BENCH_RATE_TIMEBOX ?? 6);
/** Issue 12's goal for the node. */
const TARGET_TIME = 1.15;
const TARGET_SHARE = 0.02;

const ALL_CASES: Array<[number, number]> = [
	[10, 10],
	[10, 2],
	[10, 1],
	[2, 2],
];
const CASES = process.env.BENCH_RATE_CASES
	? process.env.BENCH_RATE_CASES.split(',').map(
			(text) => text.split('/').map(Number) as [number, number],
		)
	: ALL_CASES;
type Operation = 'create' | 'return-all';
const OPERATIONS = (process.env.BENCH_RATE_OPERATIONS?.split(',') ?? [
	'create',
	'return-all',
]) as Operation[];

const KEYS = {
	paced429: 'vpk_bench_paced_429s_5c1e7a',
	pacedHeaders: 'vpk_bench_paced_headers_93d04b',
};
const NODE = 'node';
const PACED_429 = 'minimal client, 429s + Retry-After';
const PACED_HEADERS = 'minimal client, RateLimit headers';

/** The node's own concurrency, read from the built modules, so the minimal client matches it. */
function nodeConcurrency(): { items: number; pages: number } {
	const load = createRequire(import.meta.url);
	const dist = join(process.cwd(), 'dist', 'nodes', 'VideoPersonalization');
	const router = load(join(dist, 'actions', 'router.js')) as { ITEM_CONCURRENCY: number };
	const pagination = load(join(dist, 'transport', 'pagination.js')) as { PAGE_CONCURRENCY: number };
	return { items: router.ITEM_CONCURRENCY, pages: pagination.PAGE_CONCURRENCY };
}

interface Run {
	contender: string;
	/** finished | failed | time box */
	outcome: 'finished' | 'failed' | 'did not finish';
	seconds: number;
	ok: number;
	error?: string;
	requests: number;
	limited: number;
	/** Create: distinct items with a video in the store, videos beyond one per item, items without one. */
	created?: number;
	duplicates?: number;
	missing?: number;
	pace?: number;
}

interface CaseResult {
	operation: Operation;
	rate: number;
	burst: number;
	/** Requests the operation needs: one per video, one per page. */
	n: number;
	runs: Run[];
}

/** The node in a child process: engine loaded first, then 'go' at the given moment, killed at the time box. */
function startNode(job: NodeRunJob): {
	ready: Promise<void>;
	go: (
		timeBoxMs: number,
	) => Promise<{ report?: NodeRunReport; timedOut: boolean; seconds: number }>;
} {
	const child = fork(
		join(process.cwd(), 'bench', 'lib', 'rateLimitNodeChild.mts'),
		[JSON.stringify(job)],
		{
			execArgv: ['--import', 'tsx'],
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		},
	);
	let report: NodeRunReport | undefined;
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const ready = new Promise<void>((resolve, reject) => {
		child.on('message', (message: { ready?: boolean } & Partial<NodeRunReport>) => {
			if (message.ready) resolve();
			else report = message as NodeRunReport;
		});
		void exited.then(() => reject(new Error('node child exited before it was ready')));
	});
	return {
		ready,
		go: async (timeBoxMs) => {
			const started = performance.now();
			child.send('go');
			let timedOut = false;
			const timer = setTimeout(() => {
				timedOut = true;
				child.kill('SIGTERM');
				setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
			}, timeBoxMs);
			await exited;
			clearTimeout(timer);
			return {
				report: timedOut ? undefined : report,
				timedOut,
				seconds: (performance.now() - started) / 1000,
			};
		},
	};
}

/** Per item index: how many videos in the store carry its title. */
function createdOnce(
	videos: VideoInfo[],
	prefix: string,
	count: number,
): { created: number; duplicates: number; missing: number } {
	const perItem = new Array<number>(count).fill(0);
	for (const video of videos) {
		if (!video.title.startsWith(prefix)) continue;
		const index = Number(video.title.slice(prefix.length));
		if (Number.isInteger(index) && index >= 0 && index < count) perItem[index]++;
	}
	return {
		created: perItem.filter((n) => n > 0).length,
		duplicates: perItem.reduce((sum, n) => sum + Math.max(0, n - 1), 0),
		missing: perItem.filter((n) => n === 0).length,
	};
}

async function runCase(
	sandbox: RemoteSandbox,
	concurrency: { items: number; pages: number },
	operation: Operation,
	rate: number,
	burst: number,
): Promise<CaseResult> {
	const n = operation === 'create' ? VIDEOS : Math.ceil(ASSETS / PAGE_SIZE);
	const ideal = n / rate;
	const deadlineSeconds = TIME_BOX * ideal;
	const tag = `rl ${operation} ${rate}/${burst}`;
	const prefixes: Record<string, string> = {
		[NODE]: `${tag} node #`,
		[PACED_429]: `${tag} 429s #`,
		[PACED_HEADERS]: `${tag} headers #`,
	};
	console.log(
		`\n${operation} at R=${rate}/s, B=${burst}: N/R = ${ideal} s, time box ${round(deadlineSeconds, 0)} s`,
	);

	const node = startNode({
		operation,
		baseUrl: sandbox.baseUrl,
		apiKey: sandbox.keys.user,
		templateId: sandbox.known.stockTemplateId,
		count: VIDEOS,
		titlePrefix: prefixes[NODE],
	});
	await node.ready;
	await sandbox.call('store.setCredits', { organisationId: 'org_acme', credits: 1_000_000_000 });
	await sandbox.call('store.setCredits', {
		brandId: sandbox.known.primaryBrandId,
		credits: 1_000_000_000,
	});
	// Full buckets and counters at 0, for every key, from here.
	await sandbox.call('rateLimit.set', { rate, burst, headers: 'ratelimit' });
	const started = performance.now();
	const deadline = started + deadlineSeconds * 1000;
	const paced = async (
		name: string,
		apiKey: string,
		useHeaders: boolean,
	): Promise<{
		name: string;
		outcome: PacedOutcome & { timedOut: boolean };
		ids?: string[];
		seconds: number;
	}> => {
		const target = {
			baseUrl: sandbox.baseUrl,
			apiKey,
			useHeaders,
			deadline,
			concurrency: operation === 'create' ? concurrency.items : concurrency.pages,
		};
		const outcome =
			operation === 'create'
				? await pacedCreate(target, VIDEOS, prefixes[name], sandbox.known.stockTemplateId)
				: await pacedReturnAll(target, PAGE_SIZE);
		return {
			name,
			outcome,
			ids: 'ids' in outcome ? (outcome.ids as string[]) : undefined,
			seconds: (performance.now() - started) / 1000,
		};
	};
	const [nodeRun, ...pacedRuns] = await Promise.all([
		node.go(deadlineSeconds * 1000),
		paced(PACED_429, KEYS.paced429, false),
		paced(PACED_HEADERS, KEYS.pacedHeaders, true),
	]);
	const counters = await sandbox.call<{
		byKey: Record<string, { requests: number; limited: number }>;
	}>('rateLimit.counters');
	await sandbox.call('rateLimit.clear');
	const videos = operation === 'create' ? await sandbox.call<VideoInfo[]>('store.listVideos') : [];
	const count = (key: string) => counters.byKey[key] ?? { requests: 0, limited: 0 };
	const check = (name: string) =>
		operation === 'create' ? createdOnce(videos, prefixes[name], VIDEOS) : {};
	const wanted = operation === 'create' ? VIDEOS : ASSETS;

	const nodeReport = nodeRun.report;
	const nodeOk = nodeReport ? (operation === 'create' ? nodeReport.ok : nodeReport.distinct) : 0;
	const runs: Run[] = [
		{
			contender: NODE,
			outcome: nodeRun.timedOut
				? 'did not finish'
				: nodeReport?.error || nodeOk !== wanted
					? 'failed'
					: 'finished',
			seconds: nodeRun.timedOut ? nodeRun.seconds : (nodeReport?.ms ?? 0) / 1000,
			ok: nodeOk,
			error: nodeRun.timedOut ? `stopped at the time box (${TIME_BOX} × N/R)` : nodeReport?.error,
			...count(sandbox.keys.user),
			...check(NODE),
		},
		...pacedRuns.map((run): Run => {
			const ok = run.ids ? new Set(run.ids).size : run.outcome.ok;
			return {
				contender: run.name,
				outcome: run.outcome.timedOut
					? 'did not finish'
					: run.outcome.failed > 0 || ok !== wanted
						? 'failed'
						: 'finished',
				seconds: run.seconds,
				ok,
				error: run.outcome.firstError,
				...count(run.name === PACED_429 ? KEYS.paced429 : KEYS.pacedHeaders),
				...check(run.name),
				pace: run.outcome.pace,
			};
		}),
	];
	for (const run of runs) {
		console.log(
			`  ${run.contender.padEnd(36)} ${run.outcome.padEnd(14)} ${round(run.seconds, 1)} s = ${round(run.seconds / ideal, 2)} × N/R; ${run.requests} requests, ${run.limited} answered 429 (${round((100 * run.limited) / Math.max(1, run.requests), 1)} %)${run.created === undefined ? '' : `; created ${run.created}, duplicates ${run.duplicates}, missing ${run.missing}`}${run.error ? `; ${run.error}` : ''}`,
		);
	}
	return { operation, rate, burst, n, runs };
}

function share(run: Run): number {
	return run.requests ? run.limited / run.requests : 0;
}

function meets(result: CaseResult, run: Run): boolean {
	const exactlyOnce =
		result.operation !== 'create' || (run.created === VIDEOS && run.duplicates === 0);
	return (
		run.outcome === 'finished' &&
		run.seconds / (result.n / result.rate) <= TARGET_TIME &&
		share(run) <= TARGET_SHARE &&
		exactlyOnce
	);
}

async function main(): Promise<void> {
	const concurrency = nodeConcurrency();
	const sandbox = await startRemoteSandbox({
		dataset: { videos: 100, assets: ASSETS },
		clock: 'real',
		extraKeys: [
			{ key: KEYS.paced429, role: 'ROLE_USER' },
			{ key: KEYS.pacedHeaders, role: 'ROLE_USER' },
		],
	});
	const started = performance.now();
	const results: CaseResult[] = [];
	try {
		for (const operation of OPERATIONS) {
			for (const [rate, burst] of CASES)
				results.push(await runCase(sandbox, concurrency, operation, rate, burst));
		}
	} finally {
		await sandbox.close();
	}
	const minutes = (performance.now() - started) / 60_000;

	const label = (result: CaseResult) =>
		`${result.operation === 'create' ? `Create ${VIDEOS.toLocaleString('en-US')}` : `Return All ${ASSETS.toLocaleString('en-US')}`} at R=${result.rate}/s, B=${result.burst}`;
	const rows: Row[] = results.flatMap((result) =>
		result.runs.map((run) => ({
			operation:
				result.operation === 'create'
					? `Create ${VIDEOS.toLocaleString('en-US')}`
					: `Return All ${ASSETS.toLocaleString('en-US')}`,
			'R/s, B': `${result.rate}, ${result.burst}`,
			'N/R s': result.n / result.rate,
			contender: run.contender,
			outcome:
				run.outcome === 'finished' ? 'finished' : `${run.outcome} after ${round(run.seconds, 0)} s`,
			s: round(run.seconds, 1),
			'× N/R': round(run.seconds / (result.n / result.rate), 2),
			requests: run.requests,
			'429s': run.limited,
			'429 share': `${round(100 * share(run), 1)} %`,
			'items ok': run.ok,
			'created once':
				result.operation === 'create'
					? `${run.created} of ${VIDEOS}${run.duplicates ? `, ${run.duplicates} duplicates` : ''}`
					: '',
			'error / note':
				run.error ?? (run.pace === undefined ? '' : `ended pacing at ${round(run.pace, 2)}/s`),
		})),
	);
	const figures: Figure[] = results.flatMap((result) =>
		result.runs
			.filter((run) => run.contender !== PACED_HEADERS)
			.map((run) => ({
				name: `${label(result)}: ${run.contender}, time / (N/R)`,
				value: round(run.seconds / (result.n / result.rate), 2),
				unit:
					run.outcome === 'finished' ? '×' : `× (${run.outcome} after ${round(run.seconds, 0)} s)`,
				target: `<= ${TARGET_TIME} and <= ${TARGET_SHARE * 100} % 429${result.operation === 'create' ? ', each video once' : ''}`,
				met: meets(result, run),
				repetitions: 1,
				note: `${round(100 * share(run), 1)} % of ${run.requests} requests answered 429${run.created === undefined ? '' : `; ${run.created} of ${VIDEOS} created${run.duplicates ? `, ${run.duplicates} duplicates` : ''}`}${run.error ? `; ${run.error}` : ''}`,
			})),
	);
	const title = `At the rate limit: one run per case, the three contenders at the same time, each with its own API key (its own bucket); node time-boxed at ${TIME_BOX} × N/R; ${round(minutes, 1)} min in all`;
	writeResults(
		'rate-limit',
		COMMAND,
		figures,
		{ title, rows },
		{
			videos: VIDEOS,
			assets: ASSETS,
			pageSize: PAGE_SIZE,
			timeBox: TIME_BOX,
			concurrency,
			minutes,
			cases: CASES,
			operations: OPERATIONS,
			results,
		},
	);
}

await main();
