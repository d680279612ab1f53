import type { IDataObject } from 'n8n-workflow';

import { detectOrder, type ListOrder } from '../helpers/videoList';
import { type Ledger, placeVideo } from './ledger';
import { pageCountOf, type PollSession, rankAt, type ReadPage } from './session';
import { windowAt, windowEnding } from './windows';

/**
 * How far behind the newest video read the horizon stays: a video stamped a moment before
 * another but listed after it (a slow commit on the service) is still found by the next poll.
 */
export const SETTLE_MS = 1000;

/** What the frontier walk is for. */
export type FrontierGoal =
	/** A running trigger: every video at or after the horizon that is not accounted for is new. */
	| { kind: 'poll' }
	/** Activation: nothing is new; the walk only records the newest second or so. */
	| { kind: 'activate' }
	/** A state from 0.1.0: the videos from rank `covered` on (counted from the oldest end) are new. */
	| { kind: 'legacy'; covered: number };

export interface FrontierResult {
	/** The walk reached the newest end (or, at activation, the horizon) without a gap. */
	complete: boolean;
	order: ListOrder;
	total: number;
	/** How many videos are older than the horizon: where the next walk starts. */
	below: number;
}

/** A window of the list as read: its videos from the oldest to the newest, with their ranks. */
interface Window {
	videos: IDataObject[];
	ranks: number[];
	total: number;
	/** How it was read, to read it again. */
	page: number;
	limit: number;
}

type Direction = 'newer' | 'older';

/** A page listed in the other order than the one known: the service changed it; the next poll follows. */
class OrderChanged extends Error {
	constructor(
		readonly order: ListOrder,
		readonly total: number,
	) {
		super('The list order changed');
	}
}

/**
 * Reads overlapping windows (windows.ts) along the list by rank (index from the oldest end),
 * whichever order the service lists in. Each window must share a video with the edge of the
 * previous one, or it is read again starting further back: no video between them is skipped,
 * however the list shifted in between.
 */
class Walker {
	readonly margin: number;

	constructor(
		private readonly session: PollSession,
		private readonly order: Exclude<ListOrder, 'unknown'>,
		/** The latest total read: on a newest-first list, where a rank is depends on it. */
		private total: number,
	) {
		this.margin = Math.max(1, Math.floor(session.pageSize / 10));
		this.assumedTotal = total;
	}

	/** The total the first read assumed (the last poll's). */
	readonly assumedTotal: number;

	get size(): number {
		return this.session.pageSize;
	}

	/** The window holding `rank` and reaching as far as it can in `direction`. */
	async read(rank: number, direction: Direction): Promise<Window> {
		const size = this.session.pageSize;
		const newestFirst = this.order === 'newest-first';
		const position = Math.max(0, rankAt(this.order, this.total, rank));
		const goesUp = (direction === 'newer') === newestFirst; // towards lower positions
		const { page, size: limit } = goesUp ? windowEnding(position, size) : windowAt(position, size);
		const read: ReadPage = await this.session.read(page, undefined, limit);
		this.total = read.total;
		const seen = detectOrder(read.items);
		if (seen !== 'unknown' && seen !== this.order) throw new OrderChanged(seen, read.total);
		const start = (page - 1) * read.size;
		const ranks = read.items.map((_, index) => rankAt(this.order, read.total, start + index));
		const videos = [...read.items];
		if (newestFirst) {
			videos.reverse();
			ranks.reverse();
		}
		return { videos, ranks, total: read.total, page, limit };
	}

	/** The next window in `direction` after `previous`, sharing one of its videos. */
	async next(previous: Window, direction: Direction): Promise<Window | undefined> {
		// Any video of the previous window will do: a window that holds one covers from it on.
		const edgeIds = new Set(previous.videos.map((video) => placeVideo(video).id));
		const newer = direction === 'newer';
		const from = newer ? previous.ranks[previous.ranks.length - 1] : previous.ranks[0];
		// Overlaps of a tenth of a page, then more; past half a page a window would not move on.
		for (let back = this.margin; back < Math.max(2, this.size / 2); back *= 2) {
			const window = await this.read(
				Math.max(0, newer ? from - back + 1 : from + back - 1),
				direction,
			);
			if (window.videos.length === 0) return window;
			const anchored = window.videos.some((video) => edgeIds.has(placeVideo(video).id));
			const end = newer ? window.ranks[window.ranks.length - 1] : window.ranks[0];
			const movedOn = newer ? end > from || newestEnd(window) : end < from || oldestEnd(window);
			if (anchored && movedOn) return window;
		}
		// No window of an allowed size straddles this point (a small page size divides it): read the
		// next one, then the previous one again; unchanged, nothing moved across the boundary between.
		const beyond = await this.read(Math.max(0, newer ? from + 1 : from - 1), direction);
		const again = await this.session.read(previous.page, undefined, previous.limit);
		const ids = (videos: IDataObject[]) =>
			videos
				.map((video) => placeVideo(video).id)
				.sort()
				.join();
		return ids(again.items) === ids(previous.videos) ? beyond : undefined;
	}
}

const newestEnd = (window: Window) =>
	window.videos.length === 0 || window.ranks[window.ranks.length - 1] >= window.total - 1;
const oldestEnd = (window: Window) => window.videos.length === 0 || window.ranks[0] <= 0;

/** Applies a window to the ledger, oldest video first; returns the newest created_at in it. */
function apply(ledger: Ledger, goal: FrontierGoal, window: Window): number {
	let newest = Number.NEGATIVE_INFINITY;
	window.videos.forEach((video, index) => {
		const { id, createdAt } = placeVideo(video);
		newest = Math.max(newest, createdAt);
		const rank = window.ranks[index];
		if (ledger.seen(video, rank)) return;
		const isNew =
			goal.kind === 'poll'
				? !ledger.accounted(id, createdAt)
				: goal.kind === 'legacy' && rank >= goal.covered && !(id in ledger.edge);
		if (isNew) ledger.newcomer(video, rank);
		// Activation and carry-over: everything read is accounted for; advance() keeps the newest.
		else if (goal.kind !== 'poll') ledger.edge[id] = createdAt;
	});
	return newest;
}

/** Ranks in the window below the first video at or after `horizon`: the new `below`. */
function belowIn(window: Window, horizon: number): number {
	const index = window.videos.findIndex((video) => placeVideo(video).createdAt >= horizon);
	return index === -1 ? (window.ranks[window.ranks.length - 1] ?? -1) + 1 : window.ranks[index];
}

/**
 * Phase 1: the videos created since the last poll. A running trigger walks from just below its
 * horizon towards the newest end, moving the horizon up as it goes, so a poll cut short keeps
 * what it read and a backlog is worked off over several polls. Activation (and a carry-over of
 * an old state) walks from the newest end down to a second before the newest video.
 */
export async function walkFrontier(
	session: PollSession,
	ledger: Ledger,
	goal: FrontierGoal,
	known: { order: ListOrder; total: number; below: number },
): Promise<FrontierResult> {
	let order = known.order;
	let total = known.total;
	if (order === 'unknown') {
		const first = await session.read(1);
		order = detectOrder(first.items);
		total = first.total;
		if (order === 'unknown' && first.total > first.size) {
			const last = await session.read(pageCountOf(first.total, session.pageSize));
			// Two ends of one list only if it held still between the reads; else the next poll tries again.
			if (last.total !== first.total)
				return { complete: false, order: 'unknown', total: last.total, below: ledger.below };
			order = detectOrder([...first.items, ...last.items]);
		}
		if (order === 'unknown') return await readWholeList(session, ledger, goal, first);
	}
	const walker = new Walker(session, order, total);
	const walk =
		goal.kind === 'activate'
			? walkDown(walker, ledger, goal, order, total)
			: walkUp(walker, ledger, goal, order, goal.kind === 'legacy' ? goal.covered : known.below);
	return await walk.catch(async (error: unknown) =>
		error instanceof OrderChanged
			? { complete: false, order: error.order, total: error.total, below: ledger.below }
			: await Promise.reject(error),
	);
}

async function walkUp(
	walker: Walker,
	ledger: Ledger,
	goal: FrontierGoal,
	order: ListOrder,
	below: number,
): Promise<FrontierResult> {
	// Start a little below the horizon, and further down while the window is all at or above it.
	const startRank = Math.max(0, below - walker.margin);
	let window = await walker.read(startRank, 'newer');
	// On a newest-first list a rank's page depends on the total: if it changed, read where it is now.
	if (order === 'newest-first' && window.total !== walker.assumedTotal)
		window = await walker.read(startRank, 'newer');
	const belowHorizon = (candidate: Window) =>
		candidate.videos.some((video) => placeVideo(video).createdAt < ledger.horizon) ||
		oldestEnd(candidate);
	while (goal.kind === 'poll' && !belowHorizon(window)) {
		window = await walker.read(Math.max(0, window.ranks[0] - walker.size), 'newer');
	}
	let newest = Number.NEGATIVE_INFINITY;
	for (;;) {
		newest = Math.max(newest, apply(ledger, goal, window));
		// Everything from the horizon up to this window has been read: the horizon follows.
		if (goal.kind === 'poll') {
			ledger.advance(newest - SETTLE_MS);
			ledger.below = belowIn(window, ledger.horizon);
			ledger.total = window.total;
		}
		if (newestEnd(window)) break;
		const next = await walker.next(window, 'newer');
		if (!next)
			return {
				complete: false,
				order,
				total: window.total,
				below: belowIn(window, ledger.horizon),
			};
		window = next;
	}
	if (goal.kind !== 'poll') ledger.advance(newest - SETTLE_MS);
	return { complete: true, order, total: window.total, below: belowIn(window, ledger.horizon) };
}

async function walkDown(
	walker: Walker,
	ledger: Ledger,
	goal: FrontierGoal,
	order: ListOrder,
	total: number,
): Promise<FrontierResult> {
	let window = await walker.read(Math.max(0, total - 1), 'older');
	// The list grew since its total was read: start again from its newest end, wherever it is now.
	for (let attempt = 0; !newestEnd(window) && attempt < 5; attempt++) {
		window = await walker.read(Math.max(0, window.total - 1), 'older');
	}
	if (!newestEnd(window)) return { complete: false, order, total: window.total, below: 0 };
	let newest = Number.NEGATIVE_INFINITY;
	for (;;) {
		newest = Math.max(newest, apply(ledger, goal, window));
		const target = newest - SETTLE_MS;
		if (oldestEnd(window) || window.videos.some((video) => placeVideo(video).createdAt < target))
			break;
		const next = await walker.next(window, 'older');
		if (!next) return { complete: false, order, total: window.total, below: 0 };
		window = next;
	}
	ledger.advance(newest - SETTLE_MS);
	return { complete: true, order, total: window.total, below: belowIn(window, ledger.horizon) };
}

/** Order unknown on a list longer than a page: every video shares one second, so all pages are read. */
async function readWholeList(
	session: PollSession,
	ledger: Ledger,
	goal: FrontierGoal,
	first: ReadPage,
): Promise<FrontierResult> {
	const ids = new Set<string>();
	let still = true;
	let newest = Number.NEGATIVE_INFINITY;
	const pages = pageCountOf(first.total, first.size);
	for (let pageNumber = 1; pageNumber <= pages; pageNumber++) {
		const page = pageNumber === 1 ? first : await session.read(pageNumber);
		const ranks = page.items.map((_, index) => (pageNumber - 1) * first.size + index);
		newest = Math.max(
			newest,
			apply(ledger, goal, {
				videos: page.items,
				ranks,
				total: page.total,
				page: pageNumber,
				limit: first.size,
			}),
		);
		for (const video of page.items) ids.add(placeVideo(video).id);
		still &&= page.total === first.total;
	}
	// Complete only if the list held still: the same total throughout and every video read.
	const complete = still && ids.size === first.total;
	if (complete) ledger.advance(newest - SETTLE_MS);
	return { complete, order: 'unknown', total: first.total, below: 0 };
}
