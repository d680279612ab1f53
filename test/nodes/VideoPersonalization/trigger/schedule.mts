/**
 * Random schedules for the trigger's model-based test: ordinary traffic and the hard cases
 * (same-second batches, re-renders, deletions, late arrivals, overlapping polls, polls cut short
 * by their time budget, a process that dies mid-poll, restarts from what n8n saved, faults),
 * interleaved with the poll's own requests. Each schedule is one seed; `runSchedule(seed)`
 * replays it exactly.
 */
import type { IDataObject } from 'n8n-workflow';

import { LAG_MS } from '../../../../nodes/VideoPersonalization/trigger/ledger.ts';
import { pollOnce } from '../../../../nodes/VideoPersonalization/trigger/poll.ts';
import { mixSeed, Rng } from '../../../../sandbox/rng.mts';
import {
	type Emitted,
	judge,
	Killed,
	ModelService,
	type ModelVideo,
	type Order,
	type Verdict,
} from './model.mts';

/** n8n's two ways of keeping static data (see the platform notes). */
export type Scheduler = 'legacy' | 'durable';

export interface ScheduleResult {
	seed: number;
	verdict: Verdict;
	polls: number;
	events: number;
	requests: number;
	summary: string;
	/** Videos listed beyond LAG_MS, renders of them missed (finished when listed), videos reported late. */
	beyondLag: { videos: number; missed: number; reported: number };
}

const MINUTE = 60_000;
const START = Date.UTC(2026, 10, 23, 9, 0, 0);

let processes = 0;

/** One trigger under one scheduler: its static data in memory, what n8n saved, its lease key. */
class TriggerUnderTest {
	staticData: IDataObject = {};

	saved = '{}';

	key = `model-${++processes}`;

	activated = false;

	readonly emitted: Emitted[] = [];

	/** Videos the polls reported listed later than the lag allowed (a restart may report one again). */
	reportedLate = 0;

	constructor(private readonly scheduler: Scheduler) {}

	/** The process restarts: memory is gone, the saved static data comes back. */
	restart(): void {
		this.staticData = JSON.parse(this.saved) as IDataObject;
		this.key = `model-${++processes}`;
	}

	async poll(
		model: ModelService,
		budgetMs: number,
	): Promise<'done' | 'busy' | 'failed' | 'killed'> {
		try {
			const run = await pollOnce({
				key: this.key,
				staticData: this.staticData,
				source: model,
				now: () => model.now,
				budgetMs,
			});
			if (run.status !== 'done') return 'busy';
			this.reportedLate += run.outcome.late ?? 0;
			for (const event of run.outcome.events) {
				this.emitted.push({
					id: String(event.video.id),
					episode: Number(event.video._episode),
					status: event.status,
				});
			}
			const activation = !this.activated && run.outcome.state !== undefined;
			this.activated ||= activation;
			if (this.scheduler === 'durable' || activation || run.outcome.events.length > 0)
				this.saved = JSON.stringify(this.staticData);
			return 'done';
		} catch (error) {
			if (error instanceof Killed) return 'killed';
			return 'failed';
		}
	}
}

/** What a seed decides about the account and its traffic. */
function accountFor(rng: Rng) {
	return {
		order: (rng.float() < 0.5 ? 'newest-first' : 'oldest-first') as Order,
		maxPageSize: [100, 100, 50, 20, 7][rng.int(0, 4)],
		initial: rng.int(0, 3) === 0 ? 0 : rng.int(1, 400),
		/** A new account whose first bulk batch is all in one second (order unknown at first). */
		oneSecondStart: rng.float() < 0.15,
		changeRate: [0.05, 0.2, 0.5][rng.int(0, 2)],
		polls: rng.int(8, 30),
		/** Share of finished videos rendered again at the start: in flight, spread over the history. */
		inFlightAtStart: [0.2, 0.2, 0.6][rng.int(0, 2)],
		/** Share of changes that render a finished video again (each forces a full read of the lists). */
		rerenders: [0, 0.03, 0.08][rng.int(0, 2)],
		/** Share of changes that are late arrivals (a video listed up to 60 s after its created_at). */
		lateArrivals: [0, 0.1, 0.3][rng.int(0, 2)],
	};
}

/**
 * A late arrival: a video of any status, created now, that the list shows only up to 60 s later,
 * at its created_at place (below videos listed before it); it may finish before it is shown. An
 * account with long lags (`longLags`, its own random stream) lists some 65 s to 6 min late.
 */
function lateArrival(model: ModelService, rng: Rng, longLags?: Rng): void {
	const statuses = ['draft', 'processing', 'published', 'failed'] as const;
	for (let count = rng.int(1, 3); count > 0; count--) {
		const [status, sameSecond, lagMs] = [
			statuses[rng.int(0, 3)],
			rng.float() < 0.5,
			rng.int(0, 60_000),
		];
		const long = longLags && longLags.float() < 0.3 ? longLags.int(65_001, 360_000) : undefined;
		model.create(1, { status, sameSecond, lagMs: long ?? lagMs });
	}
}

/** Applies one random change to the model (called between requests). */
function change(
	model: ModelService,
	rng: Rng,
	account: ReturnType<typeof accountFor>,
	longLags?: Rng,
): void {
	const rerenders = account.rerenders;
	if (account.lateArrivals > 0 && rng.float() < account.lateArrivals)
		return lateArrival(model, rng, longLags);
	const roll = rng.float();
	const pick = <T,>(list: T[]): T | undefined =>
		list.length ? list[rng.int(0, list.length - 1)] : undefined;
	if (roll < 0.25) model.create(1, { sameSecond: rng.float() < 0.5 });
	else if (roll < 0.32)
		model.create(rng.int(2, 120), {
			sameSecond: true,
			status: rng.float() < 0.2 ? 'published' : undefined,
		});
	else if (roll < 0.62) {
		const video = pick(model.inFlight());
		if (video) model.finish(video, rng.float() < 0.8 ? 'published' : 'failed');
	} else if (roll < 0.72) {
		const video = pick(model.inFlight());
		if (video) model.start(video);
	} else if (roll < 0.72 + rerenders) {
		const video = pick(model.finished());
		if (video) model.rerender(video);
	} else if (roll < 0.74 + rerenders) {
		// Long lags are counted net of deletions (a deletion hides one): none on such an account.
		if (longLags) return;
		const video = pick(model.videos.filter((candidate) => candidate.deletedAt === undefined));
		if (video) model.delete(video);
	} else {
		model.now += rng.int(100, 3000);
	}
}

/**
 * Beyond the lag allowed: a render may be missed only if its video was listed more than LAG_MS
 * late, and each such miss is reported, unless the list showed the video while a poll was reading
 * (between its read of that part of the list and its read of the horizon's rank). Nothing is
 * reported on an account whose list never showed a video that late.
 */
function judgeLongLags(
	model: ModelService,
	verdict: Verdict,
	reported: number,
	pollSpans: Array<[number, number]>,
): ScheduleResult['beyondLag'] {
	const byId = new Map(model.videos.map((video) => [video.id, video]));
	const lagOf = (video: ModelVideo | undefined) =>
		video?.listedAt === undefined ? 0 : video.listedAt - video.createdAt;
	// A render's key is `${id}#${episode}:${status}`.
	const videoOf = (key: string) => byId.get(key.split('#')[0]);
	const long = verdict.missed.filter((key) => lagOf(videoOf(key)) > LAG_MS);
	verdict.missed = verdict.missed.filter((key) => lagOf(videoOf(key)) <= LAG_MS);
	const duringPoll = (key: string) => {
		const listedAt = videoOf(key)?.listedAt ?? 0;
		return pollSpans.some(([from, to]) => from <= listedAt && listedAt <= to);
	};
	const countable = long.filter((key) => !duringPoll(key));
	if (countable.length > reported)
		verdict.missed.push(
			`${countable.length} listed beyond the lag, ${reported} reported: ${countable.join()}`,
		);
	const videos = model.videos.filter((video) => lagOf(video) > LAG_MS).length;
	if (reported > 0 && videos === 0) verdict.unexpected.push(`${reported} reported late, none was`);
	return { videos, missed: long.length, reported };
}

export async function runSchedule(
	seed: number,
	scheduler: Scheduler,
	order?: Order,
): Promise<ScheduleResult> {
	const rng = new Rng(mixSeed(seed, 0x7419));
	const account = accountFor(rng);
	const model = new ModelService(rng, order ?? account.order, account.maxPageSize, START);
	if (account.oneSecondStart) model.create(account.initial, { sameSecond: true });
	else {
		for (let made = 0; made < account.initial; made += 10) {
			model.create(10, { status: 'published', sameSecond: rng.float() < 0.5 });
			model.now += rng.int(0, 5000);
		}
		for (const video of model.videos)
			if (rng.float() < account.inFlightAtStart) model.rerender(video);
	}
	// A third of the accounts with late arrivals list some of them beyond LAG_MS (own stream: the
	// other accounts' schedules stay as they were).
	const longRng = new Rng(mixSeed(seed, 0x1a7e));
	const longLags = account.lateArrivals > 0 && longRng.float() < 0.34 ? longRng : undefined;
	const pollSpans: Array<[number, number]> = [];
	const trigger = new TriggerUnderTest(scheduler);
	let activatedFrom = Number.NaN;
	let activatedAt = Number.NaN;
	const log: string[] = [];

	let polls = 0;
	let killAt = -1;
	let overlapAt = -1;
	let changing = true;
	model.beforeRequest = async () => {
		if (killAt === model.requests) throw new Killed('the process died');
		if (overlapAt === model.requests) {
			// n8n starts the next poll on time while this one is still reading: it must not emit.
			const overlapping = await trigger.poll(model, 40_000);
			if (overlapping === 'done') log.push('overlapping poll was not refused');
		}
		if (changing && rng.float() < account.changeRate) change(model, rng, account, longLags);
		if (changing && rng.float() < 0.03) throw new Error('503 from the service');
	};

	const pollOnceMore = async (options: { faults: boolean }) => {
		polls++;
		const before = model.now;
		const cut = options.faults && rng.float() < 0.15;
		killAt = options.faults && rng.float() < 0.05 ? model.requests + rng.int(1, 8) : -1;
		overlapAt = options.faults && rng.float() < 0.1 ? model.requests + rng.int(1, 6) : -1;
		const outcome = await trigger.poll(model, cut ? rng.int(200, 3000) : 40_000);
		pollSpans.push([before, model.now]);
		if (outcome === 'killed') trigger.restart();
		if (Number.isNaN(activatedAt) && trigger.activated) {
			activatedFrom = before;
			activatedAt = model.now;
		}
		log.push(`poll ${polls}: ${outcome}${cut ? ' (short budget)' : ''}`);
		if (process.env.TRACE_VIDEO) {
			const state = (trigger.staticData.videoTrigger ?? {}) as IDataObject;
			const id = process.env.TRACE_VIDEO;
			process.stdout.write(
				`poll ${polls} ${outcome}: order ${String(state.order)} below ${String(state.below)} total ${String(state.total)} horizon ${String(state.horizon)} tracked ${JSON.stringify((state.tracked as IDataObject | undefined)?.[id])} edge ${JSON.stringify((state.edge as IDataObject | undefined)?.[id])} emitted ${trigger.emitted.filter((event) => event.id === id).length}\n`,
			);
		}
		model.now = Math.max(model.now, before + MINUTE);
		if (options.faults && rng.float() < 0.08) {
			trigger.restart();
			log.push('restart');
		}
	};

	for (let poll = 0; poll < account.polls; poll++) await pollOnceMore({ faults: true });
	// Drain: no more changes or faults; every render ends; polls until the full read has run.
	changing = false;
	killAt = -1;
	overlapAt = -1;
	for (const video of model.inFlight()) model.finish(video, 'published');
	// Until the trigger has caught up (a backlog may take several polls): nothing tracked and the
	// horizon no longer moving, twice in a row.
	const progress = () => {
		const state = (trigger.staticData.videoTrigger ?? {}) as IDataObject;
		return `${Object.keys((state.tracked ?? {}) as IDataObject).length}:${String(state.horizon)}:${String(state.below)}`;
	};
	for (let poll = 0, quiet = 0, last = ''; poll < 60 && quiet < 2; poll++) {
		model.now += 11 * MINUTE;
		await pollOnceMore({ faults: false });
		const now = progress();
		quiet = trigger.activated && now.startsWith('0:') && now === last ? quiet + 1 : 0;
		last = now;
	}
	const verdict = judge(model, trigger.emitted, activatedFrom, activatedAt);
	const beyondLag = judgeLongLags(model, verdict, trigger.reportedLate, pollSpans);
	if (process.env.TRACE_VIDEO)
		process.stdout.write(
			`${JSON.stringify(trigger.emitted.filter((event) => event.id === process.env.TRACE_VIDEO))} ${JSON.stringify(model.videos.find((video) => video.id === process.env.TRACE_VIDEO))} activated ${activatedFrom}..${activatedAt}\n`,
		);
	if (log.includes('overlapping poll was not refused'))
		verdict.repeated.push('an overlapping poll ran');
	return {
		seed,
		verdict,
		polls,
		events: trigger.emitted.length,
		requests: model.requests,
		beyondLag,
		summary: `${scheduler}, ${model.order}, page size ${account.maxPageSize}, ${model.videos.length} videos${longLags ? `, long lags (reported ${trigger.reportedLate})` : ''}; ${log.join('; ')}`,
	};
}

/**
 * Runs `count` seeds from `first`: the failures (with their seed, for MODEL_SEED=), and the sums
 * of `beyondLag` over all runs.
 */
export async function runMany(
	first: number,
	count: number,
	scheduler: Scheduler,
	order?: Order,
): Promise<{ failures: ScheduleResult[]; beyondLag: ScheduleResult['beyondLag'] }> {
	const failures: ScheduleResult[] = [];
	const beyondLag = { videos: 0, missed: 0, reported: 0 };
	for (let seed = first; seed < first + count; seed++) {
		const result = await runSchedule(seed, scheduler, order);
		const { repeated, missed, unexpected } = result.verdict;
		if (repeated.length || missed.length || unexpected.length) failures.push(result);
		for (const key of ['videos', 'missed', 'reported'] as const)
			beyondLag[key] += result.beyondLag[key];
	}
	return { failures, beyondLag };
}
