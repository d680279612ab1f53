/**
 * A model of the service's video list for the trigger's model-based tests: an in-process list
 * that changes between any two requests, and the history the invariant is judged against.
 */
import type { IDataObject } from 'n8n-workflow';

import type { RestPage } from '../../../../nodes/VideoPersonalization/transport/pagination.ts';
import type { PageSource } from '../../../../nodes/VideoPersonalization/trigger/session.ts';
import { Rng } from '../../../../sandbox/rng.mts';

export type Order = 'newest-first' | 'oldest-first';
type Status = 'draft' | 'processing' | 'published' | 'failed';

interface Episode {
	/** 1 for the first render, 2+ for renders started again after a finish. */
	number: number;
	final?: 'published' | 'failed';
	finishedAt?: number;
}

export interface ModelVideo {
	id: string;
	seq: number;
	createdAt: number;
	status: Status;
	deletedAt?: number;
	/** A late arrival: the list shows it only from this time on (a search index or replica lagging). */
	listedAt?: number;
	episodes: Episode[];
}

const isFinal = (status: Status) => status === 'published' || status === 'failed';

/** TRACE_VIDEO=<id>: every read is printed, with what it showed of that video. */
const TRACE = process.env.TRACE_VIDEO;

/** Thrown by a request when the model's process "dies": the poll never returns normally. */
export class Killed extends Error {}

export class ModelService implements PageSource {
	now: number;

	readonly videos: ModelVideo[] = [];

	requests = 0;

	/** Called before each request is answered: the schedule changes the list here. */
	beforeRequest: (() => void | Promise<void>) | undefined;

	private seq = 0;

	constructor(
		readonly rng: Rng,
		public order: Order,
		readonly maxPageSize: number,
		start: number,
	) {
		this.now = start;
	}

	private sorted(status?: string): ModelVideo[] {
		const visible = this.videos.filter(
			(video) =>
				video.deletedAt === undefined &&
				(video.listedAt ?? 0) <= this.now &&
				(!status || video.status === status),
		);
		visible.sort((left, right) => left.createdAt - right.createdAt || left.seq - right.seq);
		return this.order === 'newest-first' ? visible.reverse() : visible;
	}

	async page(page: number, limit: number, status: string | undefined): Promise<RestPage> {
		this.requests++;
		await this.beforeRequest?.();
		this.now += this.rng.int(5, 400);
		const size = Math.min(limit, this.maxPageSize);
		const all = this.sorted(status);
		const items = all.slice((page - 1) * size, page * size).map(
			(video): IDataObject => ({
				id: video.id,
				status: video.status,
				created_at: new Date(video.createdAt).toISOString(),
				_episode: video.episodes.length,
			}),
		);
		if (TRACE) {
			const hit = items.find((item) => item.id === TRACE);
			const video = this.videos.find((candidate) => candidate.id === TRACE);
			process.stdout.write(
				`  read ${status ?? 'all'} p${page}/${size} total ${all.length} at ${this.now}${hit ? ` HAS ${TRACE} ${String(hit.status)}` : ''} (${TRACE} now ${video?.status ?? '-'} created ${video?.createdAt ?? '-'})\n`,
			);
		}
		const answer: RestPage = {
			items,
			total: all.length,
			page,
			limit: size,
			nextPage: page * size < all.length ? page + 1 : null,
		};
		// Answers may arrive in another order than they were read in.
		for (let tick = this.rng.int(0, 3); tick > 0; tick--) await Promise.resolve();
		return answer;
	}

	// --- changes -----------------------------------------------------------------------------

	/** `count` videos created now; a batch shares one created_at second, as a bulk job's would. */
	create(
		count: number,
		options: { status?: Status; sameSecond?: boolean; lagMs?: number } = {},
	): ModelVideo[] {
		const second = Math.floor(this.now / 1000) * 1000;
		const made: ModelVideo[] = [];
		for (let index = 0; index < count; index++) {
			const status = options.status ?? (this.rng.float() < 0.3 ? 'draft' : 'processing');
			const video: ModelVideo = {
				id: `vid_${(++this.seq).toString(36)}`,
				seq: this.seq,
				createdAt: options.sameSecond === false ? this.now : second,
				status,
				episodes: [{ number: 1 }],
			};
			if (options.lagMs !== undefined) video.listedAt = video.createdAt + options.lagMs;
			if (isFinal(status))
				Object.assign(video.episodes[0], { final: status, finishedAt: this.now });
			this.videos.push(video);
			made.push(video);
		}
		return made;
	}

	inFlight(): ModelVideo[] {
		return this.videos.filter((video) => video.deletedAt === undefined && !isFinal(video.status));
	}

	finished(): ModelVideo[] {
		return this.videos.filter((video) => video.deletedAt === undefined && isFinal(video.status));
	}

	start(video: ModelVideo): void {
		if (video.status === 'draft') video.status = 'processing';
	}

	finish(video: ModelVideo, outcome: 'published' | 'failed'): void {
		if (isFinal(video.status) || video.deletedAt !== undefined) return;
		video.status = outcome;
		const episode = video.episodes[video.episodes.length - 1];
		episode.final = outcome;
		episode.finishedAt = this.now;
	}

	/** A finished video rendered again: a new episode, in flight. */
	rerender(video: ModelVideo): void {
		if (!isFinal(video.status) || video.deletedAt !== undefined) return;
		video.status = 'processing';
		video.episodes.push({ number: video.episodes.length + 1 });
	}

	delete(video: ModelVideo): void {
		video.deletedAt ??= this.now;
	}
}

/** An event as the trigger emitted it. */
export interface Emitted {
	id: string;
	episode: number;
	status: string;
}

export interface Verdict {
	repeated: string[];
	missed: string[];
	unexpected: string[];
}

/**
 * Judges the emitted events against the model's history. Activation ran from `activatedFrom` to
 * `activatedAt`. No render is emitted twice, and none that finished before activation began.
 * The first render of a video that finishes after activation and is never rendered again must
 * be emitted. A render started again (the spec does not show re-renders) is emitted at most
 * once, and so is a first render followed by another: a video that finishes and starts again
 * between two polls looks to any client as if it never stopped. Deleted videos may go either way,
 * and so may a render that finished before activation began on a video listed only after.
 */
export function judge(
	model: ModelService,
	emitted: Emitted[],
	activatedFrom: number,
	activatedAt: number,
): Verdict {
	const count = new Map<string, number>();
	for (const event of emitted)
		count.set(
			`${event.id}#${event.episode}:${event.status}`,
			(count.get(`${event.id}#${event.episode}:${event.status}`) ?? 0) + 1,
		);
	const verdict: Verdict = { repeated: [], missed: [], unexpected: [] };
	const known = new Set<string>();
	for (const video of model.videos) {
		for (const episode of video.episodes) {
			if (!episode.final || episode.finishedAt === undefined) continue;
			const key = `${video.id}#${episode.number}:${episode.final}`;
			known.add(key);
			const times = count.get(key) ?? 0;
			if (times > 1) verdict.repeated.push(key);
			// Listed only after activation began: the trigger could not know it finished before.
			const listedBefore = (video.listedAt ?? 0) <= activatedFrom;
			if (episode.finishedAt < activatedFrom && times > 0 && listedBefore)
				verdict.unexpected.push(`${key} (finished before activation)`);
			const mandatory =
				video.episodes.length === 1 &&
				episode.finishedAt > activatedAt &&
				video.deletedAt === undefined;
			if (mandatory && times === 0) verdict.missed.push(key);
		}
	}
	for (const key of count.keys())
		if (!known.has(key)) verdict.unexpected.push(`${key} (no such render)`);
	return verdict;
}
