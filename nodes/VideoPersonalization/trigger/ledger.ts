import type { IDataObject } from 'n8n-workflow';

import { type FinalStatus, isFinalStatus, type ListOrder } from '../helpers/videoList';
import type { StateV1, TrackedVideo, TriggerState } from './state';

export interface VideoEvent {
	status: FinalStatus;
	video: IDataObject;
}

/**
 * The listing lag allowed at first: how long after its created_at the list may first show a video
 * (a list served from a search index or a replica): 60 s, and 5 s for an answer to arrive.
 */
export const LAG_MS = 65_000;

/** The most it grows to: each poll of a busy account reads this much of the list again. */
export const MAX_LAG_MS = 15 * 60_000;

/** Why a listed video cannot be placed in the list (no id or no readable created_at), if it cannot. */
export function unplaceable(video: IDataObject): string | undefined {
	const id = video.id;
	if ((typeof id !== 'string' && typeof id !== 'number') || String(id) === '')
		return `a listed video has no id (${JSON.stringify(id)})`;
	if (typeof video.created_at !== 'string' || Number.isNaN(Date.parse(video.created_at)))
		return `video "${String(id)}" has no readable created_at (${JSON.stringify(video.created_at)})`;
	return undefined;
}

/** The id and created_at (ms) of a listed video; both are needed to place it, so neither is guessed. */
export function placeVideo(video: IDataObject): { id: string; createdAt: number } {
	const problem = unplaceable(video);
	if (problem) throw new Error(problem); // an answer out of shape
	return { id: String(video.id), createdAt: Date.parse(String(video.created_at)) };
}

/**
 * What a poll has concluded so far: the state it will commit and the events it owes. Each method
 * is one rule of the invariant (docs/architecture.md); nothing else changes `tracked` or `edge`.
 */
export class Ledger {
	readonly events: VideoEvent[] = [];

	readonly lost: string[] = [];

	horizon: number;

	readonly edge: Record<string, number>;

	readonly tracked: Record<string, TrackedVideo>;

	/** The list's order and total as last read, and how many of its videos are older than the horizon. */
	readonly list: { order: ListOrder; total: number; below: number };

	/** The listing lag allowed (ms): the horizon trails the service's time by it. */
	lag: number;

	/** Videos listed later than the lag allowed, shown by the horizon's rank (their events may be lost). */
	late = 0;

	/** The newest created_at earlier polls read: a newcomer older than it was listed late. */
	private readonly newestRead: number;

	/** A state written before `lag` was kept may hold an approximate `below`: no rank to compare. */
	private readonly rankKept: boolean;

	/** Goes on from the previous poll's state (or 0.1.0's, or none). */
	constructor(previous: TriggerState | StateV1 | undefined) {
		const none = { horizon: -Infinity, edge: {}, total: 0, below: 0, lag: undefined };
		const { horizon, edge, total, below, lag } = previous?.version === 2 ? previous : none;
		this.horizon = horizon;
		this.edge = { ...edge };
		this.tracked = structuredClone(previous?.tracked ?? {});
		this.list = { order: previous?.order ?? 'unknown', total, below };
		[this.lag, this.rankKept] = [lag ?? LAG_MS, lag !== undefined];
		this.newestRead = Math.max(...Object.values(this.edge)); // -Infinity for an empty edge
	}

	/** Created before the horizon, or seen at or after it by an earlier read: an event for it is never new. */
	accounted(id: string, createdAt: number): boolean {
		return createdAt < this.horizon || id in this.edge;
	}

	/** The frontier's first sight of a video no earlier read accounted for: its event now, or track it. */
	newcomer(video: IDataObject, rank: number | undefined): void {
		const { id, createdAt } = placeVideo(video);
		this.edge[id] = createdAt;
		// Listed at least this late: the lag allowed follows, with as much again to spare.
		const listedLate = this.newestRead - createdAt;
		if (2 * listedLate > this.lag) this.lag = Math.min(MAX_LAG_MS, 2 * listedLate);
		if (isFinalStatus(video.status)) this.events.push({ status: video.status, video });
		else this.tracked[id] = { status: String(video.status), createdAt, rank };
	}

	/** A tracked video read again (the frontier or phase 3): finished ends its render with one event. */
	seen(video: IDataObject, rank: number | undefined): boolean {
		const { id, createdAt } = placeVideo(video);
		const entry = this.tracked[id];
		if (!entry) return false;
		if (isFinalStatus(video.status)) {
			delete this.tracked[id];
			this.events.push({ status: video.status, video });
		} else this.tracked[id] = { status: String(video.status), createdAt, rank: rank ?? entry.rank };
		return true;
	}

	/** An accounted video in an in-flight list that is not tracked: it is rendering again. */
	rejoin(video: IDataObject): void {
		const { id, createdAt } = placeVideo(video);
		this.tracked[id] = { status: String(video.status), createdAt };
	}

	/** A tracked video a search showed missing, a third poll in a row: deleted. */
	missed(id: string): void {
		const entry = this.tracked[id];
		entry.misses = (entry.misses ?? 0) + 1;
		if (entry.misses < 3) return;
		delete this.tracked[id];
		this.lost.push(id);
	}

	/**
	 * `count` more videos are older than the horizon than the last poll counted: the list showed
	 * them later than the lag allowed. Counted (a deletion hides one), and the lag allowed doubles.
	 */
	appearedBelow(count: number): void {
		if (!this.rankKept || count <= 0) return;
		this.late += count;
		this.lag = Math.min(MAX_LAG_MS, 2 * this.lag);
	}

	/** Moves the horizon forward once everything from the old one up to `to` has been read. */
	advance(to: number): void {
		if (to <= this.horizon) return;
		this.horizon = to;
		for (const [id, createdAt] of Object.entries(this.edge))
			if (createdAt < to) delete this.edge[id];
	}
}
