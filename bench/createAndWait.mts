// Benchmark 4: Create 1,000 videos with Wait for Completion. The node waits for all items
// together, one shared scan of the video list per round; this counts the rounds and the list
// requests they cost, against the naive one poll per video per round (1,000 per round) and a
// scan of the whole list per round. Real clock, short renders, 10,000 videos already there.
//   npm run bench:create-and-wait            (BENCH_REPS=n to change the repetitions)
import './lib/env.mts';

import type { RequestRecord } from '../sandbox/index.mts';
import { runNode } from '../test/harness/engine.mts';
import { startRemoteSandbox } from './lib/remoteSandbox.mts';
import { median, round, timed, writeResults, type Figure } from './lib/report.mts';

const VIDEOS = 1000;
const EXISTING = 10_000;
const PAGE_SIZE = 100;
const POLL_SECONDS = 2;
const REPS = Number(process.env.BENCH_REPS ?? 3);
const RENDER = { queueMs: 1000, minMs: 3000, maxMs: 12_000, failureShare: 0.1 };
const COMMAND = 'npm run bench:create-and-wait';

interface Run {
	ms: number;
	posts: number;
	rounds: number;
	listRequests: number;
	listRequestsPerRound: number;
	maxPagesInARound: number;
	/** Pages a scan of the whole list would read per round, at the list's size then. */
	fullScanPages: number;
	finished: number;
	published: number;
	failed: number;
}

async function main(): Promise<void> {
	const sandbox = await startRemoteSandbox({
		clock: 'real',
		dataset: { videos: EXISTING, assets: 4 },
		render: RENDER,
	});
	const runs: Run[] = [];
	try {
		await sandbox.call('store.setCredits', { organisationId: 'org_acme', credits: 1_000_000_000 });
		await sandbox.call('store.setCredits', {
			brandId: sandbox.known.primaryBrandId,
			credits: 1_000_000_000,
		});
		await sandbox.call('store.finishAll');
		for (let rep = 0; rep < REPS; rep++) {
			await sandbox.call('requests.clear');
			const { ms, value: result } = await timed(() =>
				runNode({
					parameters: {
						resource: 'video',
						operation: 'create',
						title: '={{ "Video for " + $json.name }}',
						template: { __rl: true, mode: 'id', value: sandbox.known.stockTemplateId },
						customerDataMode: 'keyValue',
						customerData: { values: [{ key: 'first_name', value: '={{ $json.name }}' }] },
						waitForCompletion: true,
						options: { pollInterval: POLL_SECONDS, waitTimeout: 10 },
					},
					credentials: { apiKey: sandbox.keys.user, baseUrl: sandbox.baseUrl },
					items: Array.from({ length: VIDEOS }, (_, index) => ({
						json: { name: `Customer ${index}` },
					})),
				}),
			);
			if (result.error) throw result.error;
			const log = await sandbox.call<RequestRecord[]>('requests.log');
			const lists = log.filter((record) => record.method === 'GET' && record.path === '/v1/videos');
			// Every round's scan starts at page 1 of the list.
			const roundStarts = lists
				.map((record, index) => (record.query.page === '1' ? index : -1))
				.filter((index) => index >= 0);
			const perRound = roundStarts.map(
				(start, index) => (roundStarts[index + 1] ?? lists.length) - start,
			);
			const statuses = result.items.map((item) => item.json.status);
			const total = EXISTING + VIDEOS * (rep + 1);
			runs.push({
				ms,
				posts: log.filter((record) => record.method === 'POST' && record.path === '/v1/videos')
					.length,
				rounds: roundStarts.length,
				listRequests: lists.length,
				listRequestsPerRound: lists.length / roundStarts.length,
				maxPagesInARound: Math.max(...perRound),
				fullScanPages: Math.ceil(total / PAGE_SIZE),
				finished: statuses.filter((status) => status === 'published' || status === 'failed').length,
				published: statuses.filter((status) => status === 'published').length,
				failed: statuses.filter((status) => status === 'failed').length,
			});
			if (runs[rep].finished !== VIDEOS)
				throw new Error(`only ${runs[rep].finished} of ${VIDEOS} videos came out finished`);
		}
	} finally {
		await sandbox.close();
	}

	const rows = runs.map((run, index) => ({
		rep: index + 1,
		's in all': round(run.ms / 1000, 1),
		POSTs: run.posts,
		rounds: run.rounds,
		'list requests': run.listRequests,
		'per round': round(run.listRequestsPerRound, 1),
		'most in a round': run.maxPagesInARound,
		'naive per round': VIDEOS,
		'full scan per round': run.fullScanPages,
		published: run.published,
		failed: run.failed,
	}));
	const title = `Create ${VIDEOS.toLocaleString('en-US')} videos and wait (Check Every ${POLL_SECONDS} s; renders ${RENDER.queueMs / 1000} s queue + ${RENDER.minMs / 1000}..${RENDER.maxMs / 1000} s; ${EXISTING.toLocaleString('en-US')} older videos in the account), one row per repetition`;

	const perRound = median(runs.map((run) => run.listRequestsPerRound));
	const figures: Figure[] = [
		{
			name: `Create-and-wait ${VIDEOS.toLocaleString('en-US')}: rounds`,
			value: median(runs.map((run) => run.rounds)),
			unit: '',
			repetitions: REPS,
		},
		{
			name: `Create-and-wait ${VIDEOS.toLocaleString('en-US')}: list requests spent waiting`,
			value: median(runs.map((run) => run.listRequests)),
			unit: '',
			repetitions: REPS,
		},
		{
			name: `Create-and-wait ${VIDEOS.toLocaleString('en-US')}: list requests per round`,
			value: round(perRound, 1),
			unit: '',
			repetitions: REPS,
		},
		{
			name: `Create-and-wait ${VIDEOS.toLocaleString('en-US')}: naive polls per round (${VIDEOS.toLocaleString('en-US')}) / list requests per round`,
			value: round(VIDEOS / perRound, 1),
			unit: '×',
			target: 'list scans, not 1,000 polls per round',
			met: perRound < VIDEOS / 10,
			repetitions: REPS,
		},
		{
			name: `Create-and-wait ${VIDEOS.toLocaleString('en-US')}: full-list scan per round / list requests per round`,
			value: round(median(runs.map((run) => run.fullScanPages / run.listRequestsPerRound)), 1),
			unit: '×',
			repetitions: REPS,
		},
	];
	writeResults(
		'create-and-wait',
		COMMAND,
		figures,
		{ title, rows },
		{
			videos: VIDEOS,
			existing: EXISTING,
			pollSeconds: POLL_SECONDS,
			render: RENDER,
			repetitions: REPS,
			runs,
		},
	);
}

await main();
