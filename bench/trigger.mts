// Benchmark 5: requests per poll of the trigger, through a real PollContext, at 1,000 / 10,000
// / 100,000 videos in the account: idle, 50 in-flight videos finished since the last poll, and
// 50 videos both created and finished since the last poll. Manual sandbox clock; the videos the
// seed leaves in flight stay in flight (as a busy account has some), so the in-flight lists are
// never empty. Compared with a scan of the whole list (total / 100 pages) per poll.
//   npm run bench:trigger            (BENCH_REPS=n to change the repetitions)
import './lib/env.mts';

import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../sandbox/index.mts';
import { pollTrigger } from '../test/harness/engine.mts';
import { median, round, timed, writeResults, type Figure } from './lib/report.mts';

const SIZES = [1000, 10_000, 100_000];
const REPS = Number(process.env.BENCH_REPS ?? 5);
const FINISHED = 50;
const PAGE_SIZE = 100;
const IDLE_TARGET = 3;
const COMMAND = 'npm run bench:trigger';

interface Poll {
	requests: number;
	events: number;
	ms: number;
}

/** One poll, its static data round-tripped through JSON as n8n stores it. */
class Trigger {
	private staticData = '{}';

	constructor(private readonly sandbox: Sandbox) {}

	async poll(): Promise<Poll> {
		const staticData = JSON.parse(this.staticData) as IDataObject;
		this.sandbox.requests.clear();
		const { ms, value } = await timed(() =>
			pollTrigger({
				parameters: { events: ['published', 'failed'] },
				credentials: { apiKey: this.sandbox.keys.user, baseUrl: this.sandbox.baseUrl },
				staticData,
			}),
		);
		this.staticData = JSON.stringify(staticData);
		return { requests: this.sandbox.requests.count(), events: value?.[0]?.length ?? 0, ms };
	}
}

interface SizeResult {
	videos: number;
	inFlight: number;
	firstPoll: Poll;
	idle: Poll[];
	finished: Poll[];
	newAndFinished: Poll[];
	/** 50 of the seed's in-flight videos (in flight since before the trigger was published) finished. */
	seededFinished: Poll;
	fullScanPages: number;
}

async function measureSize(videos: number): Promise<SizeResult> {
	const sandbox = await startSandbox({ quiet: true, dataset: { videos, assets: 4 } });
	try {
		const { store, clock } = sandbox;
		// The seed's in-flight videos stay where they are for the whole run.
		const inFlight = [
			...store.listVideos(undefined, { status: 'draft' }),
			...store.listVideos(undefined, { status: 'processing' }),
		];
		for (const video of inFlight)
			store.setVideoOutcome(video.id, {
				status: video.status === 'draft' ? 'draft' : 'processing',
			});

		const trigger = new Trigger(sandbox);
		const firstPoll = await trigger.poll();
		const result: Omit<SizeResult, 'seededFinished'> = {
			videos,
			inFlight: inFlight.length,
			firstPoll,
			idle: [],
			finished: [],
			newAndFinished: [],
			fullScanPages: 0,
		};
		for (let rep = 0; rep < REPS; rep++) {
			// Idle: nothing changed since the last poll.
			clock.advance(60_000);
			result.idle.push(await trigger.poll());

			// 50 videos created (seen in flight by one poll), then finished before the next.
			clock.advance(1000);
			const created = store.addVideos(FINISHED, {
				createdAt: clock.now(),
				finishAt: clock.now() + 3_600_000,
			});
			clock.advance(60_000);
			const seen = await trigger.poll();
			if (seen.events !== 0)
				throw new Error(`${seen.events} events while the ${FINISHED} videos were in flight`);
			clock.advance(60_000);
			for (const video of created) store.setVideoOutcome(video.id, { status: 'published' });
			const finished = await trigger.poll();
			if (finished.events !== FINISHED)
				throw new Error(`${finished.events} events for ${FINISHED} finished videos (${videos})`);
			result.finished.push(finished);

			// 50 videos created and finished between two polls.
			clock.advance(1000);
			store.addVideos(FINISHED, {
				createdAt: clock.now(),
				finishAt: clock.now() + 500,
				outcome: 'published',
			});
			clock.advance(60_000);
			const fresh = await trigger.poll();
			if (fresh.events !== FINISHED)
				throw new Error(`${fresh.events} events for ${FINISHED} new finished videos (${videos})`);
			result.newAndFinished.push(fresh);
		}
		// Last (it uses them up): 50 of the seed's in-flight videos finish.
		clock.advance(60_000);
		for (const video of inFlight.slice(0, FINISHED))
			store.setVideoOutcome(video.id, { status: 'failed' });
		const seededFinished = await trigger.poll();
		if (seededFinished.events !== Math.min(FINISHED, inFlight.length))
			throw new Error(`${seededFinished.events} events for the seed's videos (${videos})`);
		return { ...result, seededFinished, fullScanPages: Math.ceil(videos / PAGE_SIZE) };
	} finally {
		await sandbox.close();
	}
}

/** A busy account: 10,000 drafts and 8,000 renders in flight (issue 11's case; 0.1.0 made 184 requests per idle poll). */
async function measureBusy(): Promise<{ idle: Poll[]; oneFinished: Poll; fiftyFinished: Poll }> {
	const sandbox = await startSandbox({ quiet: true, dataset: { videos: 1000, assets: 4 } });
	try {
		const { store, clock } = sandbox;
		for (const video of [
			...store.listVideos(undefined, { status: 'draft' }),
			...store.listVideos(undefined, { status: 'processing' }),
		]) {
			store.setVideoOutcome(video.id, {
				status: video.status === 'draft' ? 'draft' : 'processing',
			});
		}
		const now = clock.now();
		const drafts = store.addVideos(10_000, {
			createdAt: { from: now - 86_400_000, to: now - 3_600_000 },
			finishAt: now + 1e12,
		});
		for (const video of drafts) store.setVideoOutcome(video.id, { status: 'draft' });
		const renders = store.addVideos(8000, {
			createdAt: { from: now - 3_600_000, to: now - 60_000 },
			finishAt: now + 1e12,
		});
		for (const video of renders) store.setVideoOutcome(video.id, { status: 'processing' });
		const trigger = new Trigger(sandbox);
		await trigger.poll();
		const idle: Poll[] = [];
		for (let rep = 0; rep < REPS; rep++) {
			clock.advance(60_000);
			idle.push(await trigger.poll());
		}
		clock.advance(60_000);
		store.setVideoOutcome(renders[4000].id, { status: 'published' });
		const oneFinished = await trigger.poll();
		clock.advance(60_000);
		for (const video of renders.slice(6000, 6000 + FINISHED))
			store.setVideoOutcome(video.id, { status: 'published' });
		const fiftyFinished = await trigger.poll();
		if (oneFinished.events !== 1 || fiftyFinished.events !== FINISHED)
			throw new Error(`busy account: ${oneFinished.events} and ${fiftyFinished.events} events`);
		return { idle, oneFinished, fiftyFinished };
	} finally {
		await sandbox.close();
	}
}

async function main(): Promise<void> {
	const results: SizeResult[] = [];
	for (const size of SIZES) results.push(await measureSize(size));
	const busy = await measureBusy();

	const med = (polls: Poll[], key: keyof Poll) => median(polls.map((poll) => poll[key]));
	const rows = results.map((result) => ({
		videos: result.videos,
		'in flight': result.inFlight,
		'first poll': result.firstPoll.requests,
		idle: med(result.idle, 'requests'),
		'idle max': Math.max(...result.idle.map((poll) => poll.requests)),
		[`${FINISHED} finished`]: med(result.finished, 'requests'),
		[`${FINISHED} new+finished`]: med(result.newAndFinished, 'requests'),
		[`${FINISHED} seed's finished (1 poll)`]: result.seededFinished.requests,
		'full scan': result.fullScanPages,
		'idle ms': round(med(result.idle, 'ms'), 1),
		[`${FINISHED} finished ms`]: round(med(result.finished, 'ms'), 1),
	}));
	const title = `Trigger: requests per poll (medians of ${REPS} polls each; "full scan" = pages of the whole list at its starting size)`;

	const figures: Figure[] = results.flatMap((result) => {
		const idleMax = Math.max(...result.idle.map((poll) => poll.requests));
		const finished = med(result.finished, 'requests');
		return [
			{
				name: `Trigger, ${result.videos.toLocaleString('en-US')} videos: requests per idle poll (max of ${REPS})`,
				value: idleMax,
				unit: '',
				target: `<= ${IDLE_TARGET}`,
				met: idleMax <= IDLE_TARGET,
				repetitions: REPS,
			},
			{
				name: `Trigger, ${result.videos.toLocaleString('en-US')} videos: requests per poll, ${FINISHED} finished since the last`,
				value: finished,
				unit: '',
				repetitions: REPS,
				note: `${med(result.newAndFinished, 'requests')} when the ${FINISHED} were also created since the last poll; ${result.seededFinished.requests} for ${FINISHED} of the seed's in-flight videos; full scan ${result.fullScanPages}`,
			},
			{
				name: `Trigger, ${result.videos.toLocaleString('en-US')} videos: full-list scan / poll with ${FINISHED} finished`,
				value: round(result.fullScanPages / finished, 1),
				unit: '×',
				repetitions: REPS,
			},
		];
	});
	const busyIdle = Math.max(...busy.idle.map((poll) => poll.requests));
	figures.push(
		{
			name: 'Trigger, 10,000 drafts + 8,000 renders in flight: requests per idle poll (max)',
			value: busyIdle,
			unit: '',
			target: '<= 5',
			met: busyIdle <= 5,
			repetitions: REPS,
			note: '0.1.0: 184',
		},
		{
			name: 'Trigger, 10,000 drafts + 8,000 renders in flight: requests per poll, 1 / 50 finished',
			value: busy.oneFinished.requests,
			unit: '',
			repetitions: 1,
			note: `${busy.fiftyFinished.requests} for ${FINISHED} finished: the in-flight lists are read in full (overlapping pages) when their counts change`,
		},
	);
	writeResults(
		'trigger',
		COMMAND,
		figures,
		{ title, rows },
		{ repetitions: REPS, finished: FINISHED, rows, results },
	);
}

await main();
