// Benchmark 6: at the service's rate limit. The sandbox's limiter (sandbox/README.md, "Rate
// limiter") in front of the node, sending no rate-limit headers (the main mode: the spec shows
// none) and then, for the token-bucket cases, its RateLimit headers (a rate told) and its
// X-RateLimit headers (GitHub's convention: no rate, a reset in Unix seconds). Shapes: a token
// bucket of R requests per second with a burst of B (Retry-After in whole seconds rounded up), a
// fixed and a sliding window, 429s without Retry-After, a limit lowered or raised during the
// run; one, two or three n8n processes on one key (queue-mode workers), started together or one
// joining late. Each n8n process is a child process (its executions share its gate); beside them
// the reference client that knows R, with its own key, at the same time. Time against N/R (for a
// limit that changes, the least time the limit as it was at each moment allows), the share of
// requests answered 429 (the limiter's own counters), for Create each item created exactly once;
// and a picture of each run's pace (bench/results/rate-limit/*.svg; the pictured cases also in
// docs/rate-limit/).
//   npm run bench:rate-limit
//   BENCH_RATE_CASES="Create 1,000, R=10 B=2;workers" BENCH_RATE_HEADERS=none npm run bench:rate-limit
//   (a subset: cases whose "label, R=.. B=.." contains one of the ;-separated parts)
//   BENCH_RATE_TIMEBOX=6 (the node's time box, in N/R; default 6)
import './lib/env.mts';

import { fork } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import type { RequestRecord, VideoInfo } from '../sandbox/index.mts';
import type { RateLimitHeaders } from '../sandbox/types.mts';
import { createdOnce } from './lib/createRuns.mts';
import { pacedCreate, pacedReturnAll, type PacedOutcome } from './lib/pacedClient.mts';
import { ALL_CASES, type Case, type Worker } from './lib/rateLimitCases.mts';
import type { NodeRunJob, NodeRunReport } from './lib/rateLimitNodeChild.mts';
import { startRemoteSandbox, type RemoteSandbox } from './lib/remoteSandbox.mts';
import { RESULTS_DIR, round, writeResults, type Figure, type Row } from './lib/report.mts';
import { timelineSvg } from './lib/timeline.mts';

const COMMAND = 'npm run bench:rate-limit';
const ASSETS = 10_000;
const PAGE_SIZE = 100;
const TIME_BOX = Number(process.env.BENCH_RATE_TIMEBOX ?? 6);
/** Issue 19's goal for the node, in every row. */
const TARGET_TIME = 1.15;
const TARGET_SHARE = 0.02;
const NODE = 'node';
const REFERENCE = 'reference client (knows R)';
const REFERENCE_KEY = 'vpk_bench_reference_5c1e7a';
const PICTURES_DIR = join(process.cwd(), 'docs', 'rate-limit');

const CASES = process.env.BENCH_RATE_CASES
	? ALL_CASES.filter((c) =>
			process.env.BENCH_RATE_CASES?.split(';').some((part) =>
				`${c.label}, R=${c.rate} B=${c.burst}`.includes(part),
			),
		)
	: ALL_CASES;
const HEADERS_ALL: RateLimitHeaders[] = ['none', 'ratelimit', 'x-ratelimit'];
/** How the tables name each mode. */
const HEADER_NAMES = { none: 'none', ratelimit: 'RateLimit', 'x-ratelimit': 'X-RateLimit' };
const headersSaid = (headers: RateLimitHeaders) =>
	headers === 'none' ? 'no headers' : `${HEADER_NAMES[headers]} headers`;
const HEADERS = (process.env.BENCH_RATE_HEADERS?.split(',') ?? HEADERS_ALL) as RateLimitHeaders[];

type CaseResult = { c: Case; headers: RateLimitHeaders; runs: Run[] };

/** A run of some cases keeps the other cases' results of the last run (bench/results), so its file stays whole. */
function earlierResults(fresh: CaseResult[]): CaseResult[] {
	const file = join(RESULTS_DIR, 'rate-limit.json');
	if (!existsSync(file)) return [];
	const earlier =
		(JSON.parse(readFileSync(file, 'utf8')) as { details?: { results?: CaseResult[] } }).details
			?.results ?? [];
	const same = (a: CaseResult, b: CaseResult) =>
		a.headers === b.headers &&
		a.c.label === b.c.label &&
		a.c.rate === b.c.rate &&
		a.c.burst === b.c.burst;
	return earlier.filter((entry) => !fresh.some((run) => same(run, entry)));
}

/** The node's own concurrency, read from the built modules, so the reference client matches it. */
function nodeConcurrency(): { items: number; pages: number } {
	const load = createRequire(import.meta.url);
	const dist = join(process.cwd(), 'dist', 'nodes', 'VideoPersonalization');
	const router = load(join(dist, 'actions', 'router.js')) as { ITEM_CONCURRENCY: number };
	const pagination = load(join(dist, 'transport', 'pagination.js')) as { PAGE_CONCURRENCY: number };
	return { items: router.ITEM_CONCURRENCY, pages: pagination.PAGE_CONCURRENCY };
}

interface Run {
	contender: string;
	outcome: 'finished' | 'failed' | 'did not finish';
	seconds: number;
	ok: number;
	error?: string;
	requests: number;
	limited: number;
	/** Create: items with a video in the store, videos beyond one per item. */
	created?: number;
	duplicates?: number;
	pollMs?: number[];
}

/** One n8n process in a child: engine loaded first, then 'go', killed at the time box. */
function startNode(job: NodeRunJob) {
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
	const go = async (timeBoxMs: number) => {
		child.send('go');
		let timedOut = false;
		const timer = setTimeout(() => {
			timedOut = true;
			child.kill('SIGKILL');
		}, timeBoxMs);
		await exited;
		clearTimeout(timer);
		return { report: timedOut ? undefined : report, timedOut };
	};
	return { ready, go };
}

/** Requests a worker's runs need at the least: one per video, or one per page. */
const neededBy = (c: Case, worker: Worker) =>
	c.operation === 'create' ? worker.executions * worker.items : ASSETS / PAGE_SIZE;
const needed = (c: Case) => c.workers.reduce((sum, worker) => sum + neededBy(c, worker), 0);

/** The limit in force `second` seconds after the start. */
const rateAt = (c: Case, second: number) =>
	(c.limiter?.schedule ?? [])
		.filter((change) => second >= change.at)
		.reduce((rate, change) => change.rate, c.rate);

/** The least time in which the limit, as it was at each moment, lets `requests` through: N/R. */
function leastSeconds(c: Case, requests: number): number {
	let [second, allowed] = [0, 0];
	while (allowed + rateAt(c, second) / 100 < requests)
		[second, allowed] = [second + 0.01, allowed + rateAt(c, second) / 100];
	return second + (requests - allowed) / rateAt(c, second);
}

/**
 * The least time the limit allows the run's work: N/R, where N counts the trigger's polls too
 * (the requests the limiter accepted from the node's key) when the trigger polls beside Create.
 */
const idealSeconds = (c: Case, run: Run) =>
	leastSeconds(
		c,
		c.pollEvery && run.contender !== REFERENCE ? run.requests - run.limited : needed(c),
	);

/** A file name for a case. */
const slug = (c: Case, headers: RateLimitHeaders) =>
	`${c.label} ${c.rate} ${c.burst} ${headers}`
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, '');

/** The picture of a run (bench/results/rate-limit/, and docs/rate-limit/ for the pictured cases). */
async function drawRun(
	c: Case,
	headers: RateLimitHeaders,
	log: RequestRecord[],
	startedAt: number,
	reports: Array<NodeRunReport | undefined>,
	summary: string,
): Promise<void> {
	const seconds = Math.max(...log.map((record) => (record.at - startedAt) / 1000), 1);
	const svg = await timelineSvg({
		title: `${c.label}, ${c.limiter?.shape ?? 'bucket'} R=${c.rate}${c.limiter?.shape ? '' : ` B=${c.burst}`}, ${headersSaid(headers)}: ${summary}`,
		requests: log.map((record) => ({
			second: (record.at - startedAt) / 1000,
			limited: record.rateLimited === true,
		})),
		limit: (second) => rateAt(c, second),
		paces: c.workers.map((worker, index) => ({
			startSecond: worker.startAfter ?? 0,
			values: reports[index]?.paces ?? [],
		})),
		seconds,
	});
	const dir = join(RESULTS_DIR, 'rate-limit');
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, `${slug(c, headers)}.svg`), svg);
	if (c.pictured && headers === 'none') {
		mkdirSync(PICTURES_DIR, { recursive: true });
		writeFileSync(join(PICTURES_DIR, `${slug(c, headers)}.svg`), svg);
	}
}

async function runCase(
	sandbox: RemoteSandbox,
	concurrency: { items: number; pages: number },
	c: Case,
	headers: RateLimitHeaders,
): Promise<Run[]> {
	const ideal = leastSeconds(c, needed(c));
	const processes = c.workers.length;
	const tag = `rl ${c.label} ${c.rate}/${c.burst} ${headers}`;
	console.log(
		`\n${c.label} at R=${c.rate}/s, B=${c.burst}, headers ${headers}: N/R = ${round(ideal, 1)} s`,
	);
	const nodes = c.workers.map((worker, index) =>
		startNode({
			operation: c.operation,
			executions: worker.executions,
			items: worker.items,
			startAfterMs: (worker.startAfter ?? 0) * 1000,
			baseUrl: sandbox.baseUrl,
			apiKey: sandbox.keys.user,
			templateId: sandbox.known.stockTemplateId,
			titlePrefix: `${tag} node ${index}:`,
			pollEveryMs: (c.pollEvery ?? 0) * 1000,
		}),
	);
	await Promise.all(nodes.map(async (node) => await node.ready));
	await sandbox.call('requests.clear');
	// Full buckets and counters at 0, for every key, from here.
	await sandbox.call('rateLimit.set', { ...c.limiter, rate: c.rate, burst: c.burst, headers });
	const startedAt = Date.now();
	const started = performance.now();
	const target = {
		baseUrl: sandbox.baseUrl,
		apiKey: REFERENCE_KEY,
		rate: c.rate,
		schedule: c.limiter?.schedule,
		deadline: started + TIME_BOX * ideal * 1000,
	};
	const executions = c.workers.reduce((sum, worker) => sum + worker.executions, 0);
	const reference = (async (): Promise<PacedOutcome & { ids?: string[]; seconds: number }> => {
		const outcome =
			c.operation === 'create'
				? await pacedCreate(
						{ ...target, concurrency: concurrency.items * executions },
						needed(c),
						`${tag} ref:`,
						sandbox.known.stockTemplateId,
					)
				: await pacedReturnAll({ ...target, concurrency: concurrency.pages }, PAGE_SIZE);
		return { ...outcome, seconds: (performance.now() - started) / 1000 };
	})();
	const nodeRuns = await Promise.all(
		nodes.map(async (node) => await node.go(TIME_BOX * ideal * 1000)),
	);
	const nodeSeconds = (performance.now() - started) / 1000;
	const ref = await reference;
	const counters = await sandbox.call<{
		byKey: Record<string, { requests: number; limited: number }>;
	}>('rateLimit.counters');
	await sandbox.call('rateLimit.clear');
	const nodeLog = (await sandbox.call<RequestRecord[]>('requests.log')).filter(
		(record) => record.server === 'api' && record.authorization?.endsWith(sandbox.keys.user),
	);
	const videos =
		c.operation === 'create' ? await sandbox.call<VideoInfo[]>('store.listVideos') : [];
	const count = (key: string) => counters.byKey[key] ?? { requests: 0, limited: 0 };
	const wanted = c.operation === 'create' ? needed(c) : ASSETS;
	const reports = nodeRuns.map((run) => run.report);
	const timedOut = nodeRuns.some((run) => run.timedOut);
	const nodeOk = reports.reduce(
		(sum, report) => sum + (report ? (c.operation === 'create' ? report.ok : report.distinct) : 0),
		0,
	);
	const nodeError = reports.find((report) => report?.error)?.error;
	const created =
		c.operation === 'create'
			? c.workers.map((worker, index) =>
					createdOnce(videos, `${tag} node ${index}:`, neededBy(c, worker)),
				)
			: [];
	const runs: Run[] = [
		{
			contender: processes > 1 ? `node (${processes} processes)` : NODE,
			outcome: timedOut ? 'did not finish' : nodeError || nodeOk !== wanted ? 'failed' : 'finished',
			seconds: nodeSeconds,
			ok: nodeOk,
			error: timedOut ? `stopped at the time box (${TIME_BOX} × N/R)` : nodeError,
			...count(sandbox.keys.user),
			...(c.operation === 'create'
				? {
						created: created.reduce((sum, each) => sum + each.created, 0),
						duplicates: created.reduce((sum, each) => sum + each.duplicates, 0),
					}
				: {}),
			pollMs: reports.flatMap((report) => report?.pollMs ?? []),
		},
		{
			contender: REFERENCE,
			outcome: ref.timedOut ? 'did not finish' : ref.failed > 0 ? 'failed' : 'finished',
			seconds: ref.seconds,
			ok: ref.ids ? new Set(ref.ids).size : ref.ok,
			error: ref.firstError,
			...count(REFERENCE_KEY),
			...(c.operation === 'create' ? createdOnce(videos, `${tag} ref:`, needed(c)) : {}),
		},
	];
	for (const report of reports)
		if (report) console.log(`  node's pace each second: ${report.paces.join(' ')}`);
	for (const run of runs) {
		const polls = run.pollMs?.length
			? `; trigger: ${run.pollMs.length} polls, longest ${round(Math.max(...run.pollMs) / 1000, 1)} s`
			: '';
		console.log(
			`  ${run.contender.padEnd(28)} ${run.outcome.padEnd(14)} ${round(run.seconds, 1)} s = ${round(run.seconds / ideal, 2)} × N/R; ${run.requests} requests, ${run.limited} answered 429 (${round((100 * run.limited) / Math.max(1, run.requests), 1)} %)${run.created === undefined ? '' : `; created ${run.created}, duplicates ${run.duplicates}`}${polls}${run.error ? `; ${run.error}` : ''}`,
		);
	}
	const node = runs[0];
	await drawRun(
		c,
		headers,
		nodeLog,
		startedAt,
		reports,
		`node ${round(node.seconds / idealSeconds(c, node), 2)} × N/R, ${round((100 * node.limited) / Math.max(1, node.requests), 1)} % 429`,
	);
	return runs;
}

const share = (run: Run) => (run.requests ? run.limited / run.requests : 0);

function meets(c: Case, run: Run): boolean {
	const once = c.operation !== 'create' || (run.created === needed(c) && run.duplicates === 0);
	return (
		run.outcome === 'finished' &&
		run.seconds / idealSeconds(c, run) <= TARGET_TIME &&
		share(run) <= TARGET_SHARE &&
		once
	);
}

async function main(): Promise<void> {
	const concurrency = nodeConcurrency();
	const sandbox = await startRemoteSandbox({
		dataset: { videos: 100, assets: ASSETS },
		clock: 'real',
		extraKeys: [{ key: REFERENCE_KEY, role: 'ROLE_USER' }],
	});
	await sandbox.call('store.setCredits', { organisationId: 'org_acme', credits: 1_000_000_000 });
	await sandbox.call('store.setCredits', {
		brandId: sandbox.known.primaryBrandId,
		credits: 1_000_000_000,
	});
	const started = performance.now();
	const results: CaseResult[] = [];
	try {
		for (const headers of HEADERS)
			for (const c of CASES.filter((each) => headers === 'none' || !each.noHeadersOnly))
				results.push({ c, headers, runs: await runCase(sandbox, concurrency, c, headers) });
	} finally {
		await sandbox.close();
	}
	const minutes = (performance.now() - started) / 60_000;
	results.push(...earlierResults(results));
	const order = (entry: (typeof results)[number]) =>
		HEADERS_ALL.indexOf(entry.headers) * ALL_CASES.length +
		ALL_CASES.findIndex(
			(c) => c.label === entry.c.label && c.rate === entry.c.rate && c.burst === entry.c.burst,
		);
	results.sort((left, right) => order(left) - order(right));
	const rows: Row[] = results.flatMap(({ c, headers, runs }) =>
		runs.map((run) => ({
			case: c.label,
			'R/s, B': c.limiter?.shape ? `${c.rate}, ${c.limiter.shape}` : `${c.rate}, ${c.burst}`,
			headers: HEADER_NAMES[headers],
			'N/R s': round(idealSeconds(c, run), 1),
			contender: run.contender,
			outcome:
				run.outcome === 'finished' ? 'finished' : `${run.outcome} after ${round(run.seconds, 0)} s`,
			'× N/R': round(run.seconds / idealSeconds(c, run), 2),
			requests: run.requests,
			'429s': run.limited,
			'429 share': `${round(100 * share(run), 1)} %`,
			'created once':
				c.operation === 'create'
					? `${run.created} of ${needed(c)}${run.duplicates ? `, ${run.duplicates} twice` : ''}`
					: '',
			// The goal is the node's; the reference client is a floor to compare with, not a contender.
			met: run.contender === REFERENCE ? '(reference)' : meets(c, run) ? 'yes' : 'no',
			note: [
				run.pollMs?.length
					? `trigger: ${run.pollMs.length} polls, longest ${round(Math.max(...run.pollMs) / 1000, 1)} s`
					: '',
				run.error ?? '',
			]
				.filter(Boolean)
				.join('; '),
		})),
	);
	const figures: Figure[] = results.flatMap(({ c, headers, runs }) =>
		runs
			.filter((run) => run.contender !== REFERENCE)
			.map((run) => ({
				name: `${c.label} at R=${c.rate}/s, ${c.limiter?.shape ?? `B=${c.burst}`}, ${headersSaid(headers)}: ${run.contender}, time / (N/R)`,
				value: round(run.seconds / idealSeconds(c, run), 2),
				unit: run.outcome === 'finished' ? '×' : `× (${run.outcome})`,
				target: `<= ${TARGET_TIME} and <= ${TARGET_SHARE * 100} % 429${c.operation === 'create' ? ', each video once' : ''}`,
				met: meets(c, run),
				repetitions: 1,
				note: `${round(100 * share(run), 1)} % of ${run.requests} requests answered 429`,
			})),
	);
	const title = `At the rate limit: one run per case, the node and the reference client at the same time, each with its own key; node time-boxed at ${TIME_BOX} × N/R; ${round(minutes, 1)} min for the cases of this run${CASES.length < ALL_CASES.length || HEADERS.length < HEADERS_ALL.length ? ' (the others from the run before)' : ''}`;
	writeResults(
		'rate-limit',
		COMMAND,
		figures,
		{ title, rows },
		{ timeBox: TIME_BOX, concurrency, minutes, cases: CASES, headers: HEADERS, results },
	);
}

await main();
