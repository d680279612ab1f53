import { detectOrder, type ListOrder } from '../helpers/videoList';
import { type Ledger, placeVideo } from './ledger';
import { pageCountOf, type PollSession, type ReadPage } from './session';
import { ListReader, newestEnd, oldestEnd, OrderChanged, type Window, windowOf } from './windows';

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
	const index = window.times.findIndex((time) => time >= horizon);
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
	const walker = new ListReader(session, order, total);
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
	walker: ListReader,
	ledger: Ledger,
	goal: FrontierGoal,
	order: ListOrder,
	below: number,
): Promise<FrontierResult> {
	// Start a little below the horizon, and further down while the window is all at or above it.
	const startRank = Math.max(0, below - walker.margin);
	const assumedTotal = walker.total;
	let window = await walker.read(startRank, 'newer');
	// On a newest-first list a rank's page depends on the total: if it changed, read where it is now.
	if (order === 'newest-first' && window.total !== assumedTotal)
		window = await walker.read(startRank, 'newer');
	const belowHorizon = (candidate: Window) =>
		candidate.times.some((time) => time < ledger.horizon) || oldestEnd(candidate);
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
	walker: ListReader,
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
		if (oldestEnd(window) || window.times.some((time) => time < target)) break;
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
		const window = windowOf(page.items, ranks, { ...page, page: pageNumber, limit: first.size });
		newest = Math.max(newest, apply(ledger, goal, window));
		for (const id of window.ids) ids.add(id);
		still &&= page.total === first.total;
	}
	// Complete only if the list held still: the same total throughout and every video read.
	const complete = still && ids.size === first.total;
	if (complete) ledger.advance(newest - SETTLE_MS);
	return { complete, order: 'unknown', total: first.total, below: 0 };
}
