import { detectOrder } from '../helpers/videoList';
import type { Ledger } from './ledger';
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
	/** A state from 0.1.0: the videos from rank `covered` on are new. */
	| { kind: 'carry-over'; covered: number };

/** Applies a window to the ledger, oldest video first; returns the newest created_at in it. */
function applyWindow(ledger: Ledger, goal: FrontierGoal, window: Window): number {
	window.videos.forEach((video, index) => {
		const [id, createdAt, rank] = [window.ids[index], window.times[index], window.ranks[index]];
		if (ledger.seen(video, rank)) return;
		const isNew =
			goal.kind === 'poll'
				? !ledger.accounted(id, createdAt)
				: goal.kind === 'carry-over' && rank >= goal.covered && !(id in ledger.edge);
		if (isNew) ledger.newcomer(video, rank);
		// Activation and carry-over: everything read is accounted for; advance() keeps the newest.
		else if (goal.kind !== 'poll') ledger.edge[id] = createdAt;
	});
	return Math.max(Number.NEGATIVE_INFINITY, ...window.times);
}

/**
 * The horizon's rank (how many videos are older) in the windows a walk read, oldest first: the
 * rank of the first video at or after it, or one past the last if the list was read on from there
 * (`readOn`); undefined when every video read is older and nothing says how many more are.
 */
function rankOf(windows: Window[], horizon: number, readOn: boolean): number | undefined {
	for (const window of windows) {
		const index = window.times.findIndex((time) => time >= horizon);
		if (index !== -1) return window.ranks[index];
	}
	const last = windows[windows.length - 1];
	return readOn ? (last.ranks[last.ranks.length - 1] ?? -1) + 1 : undefined;
}

/**
 * How far the horizon may go, once the walk's first read is in: the lag allowed behind a lower
 * bound of the service's time at that read (the poll's `floor`, or the newest created_at it shows).
 */
const capOf = (session: PollSession, ledger: Ledger, first: number[]) =>
	Math.max(session.floor, ...first) - ledger.lag;

/**
 * Phase 1: the videos created since the last poll. A running trigger walks from just below its
 * horizon to the newest end, moving the horizon up window by window, so a poll cut short keeps
 * what it read and a backlog is worked off over several polls. Activation (and a carry-over of
 * an old state) walks from the newest end down to a second before the newest video. True when
 * the walk went through without a gap; the list's order and total go to the ledger.
 */
export async function walkFrontier(
	session: PollSession,
	ledger: Ledger,
	goal: FrontierGoal,
): Promise<boolean> {
	const list = ledger.list;
	let { order, total } = list;
	if (order === 'unknown') {
		const first = await session.read(1);
		[order, total] = [detectOrder(first.items), first.total];
		if (order === 'unknown' && first.total > first.size) {
			const last = await session.read(pageCountOf(first.total, session.pageSize));
			// Two ends of one list only if it held still between the reads; else the next poll tries again.
			if (last.total !== first.total) {
				list.total = last.total;
				return false;
			}
			order = detectOrder([...first.items, ...last.items]);
		}
		if (order === 'unknown') return await readWholeList(session, ledger, goal, first);
	}
	const reader = new ListReader(session, order, total);
	const walk = goal.kind === 'activate' ? walkDown(reader, ledger) : walkUp(reader, ledger, goal);
	const complete = await walk.catch((error: unknown) => {
		if (!(error instanceof OrderChanged)) throw error;
		[order, list.total] = [error.order, reader.total];
		return false;
	});
	list.order = order;
	return complete;
}

async function walkUp(reader: ListReader, ledger: Ledger, goal: FrontierGoal): Promise<boolean> {
	const list = ledger.list;
	// Start a little below the horizon, and further down while the window is all at or above it.
	const below = goal.kind === 'carry-over' ? goal.covered : list.below;
	const startRank = Math.max(0, below - reader.margin);
	const assumedTotal = reader.total;
	let window = await reader.read(startRank, 'newer');
	// On a newest-first list a rank's page depends on the total: if it changed, read where it is now.
	if (reader.order === 'newest-first' && window.total !== assumedTotal)
		window = await reader.read(startRank, 'newer');
	const aboveHorizon = () => window.times.every((time) => time >= ledger.horizon);
	while (goal.kind === 'poll' && !oldestEnd(window) && aboveHorizon())
		window = await reader.read(Math.max(0, window.ranks[0] - reader.size), 'newer');
	const cap = capOf(reader.session, ledger, window.times);
	let newest = Number.NEGATIVE_INFINITY;
	const read: Window[] = [];
	const moveHorizon = (last: Window) => {
		ledger.advance(Math.min(newest - SETTLE_MS, cap));
		// A window all older than the horizon is not needed for its rank again.
		while (read.length > 1 && read[0].times.every((time) => time < ledger.horizon)) read.shift();
		// Unknown: the horizon did not move.
		list.below = rankOf(read, ledger.horizon, newestEnd(last)) ?? list.below;
	};
	let counted = goal.kind !== 'poll';
	const take = (next: Window) => {
		read.push(next);
		// More videos older than the horizon than the last poll counted (at the first read that
		// shows how many, before the horizon moves): the list showed them since, late.
		const rankNow = counted ? undefined : rankOf(read, ledger.horizon, newestEnd(next));
		if (rankNow !== undefined) ledger.appearedBelow(rankNow - list.below);
		counted ||= rankNow !== undefined;
		newest = Math.max(newest, applyWindow(ledger, goal, next));
		list.total = next.total;
		// Everything from the horizon up to this window has been read: the horizon follows.
		if (goal.kind === 'poll') moveHorizon(next);
		return false;
	};
	take(window);
	const last = await reader.walk(window, 'newer', take);
	if (last && goal.kind !== 'poll') moveHorizon(last);
	return last !== undefined;
}

async function walkDown(reader: ListReader, ledger: Ledger): Promise<boolean> {
	let window = await reader.read(Math.max(0, reader.total - 1), 'older');
	// The list grew since its total was read: start again from its newest end, wherever it is now.
	for (let attempt = 0; !newestEnd(window) && attempt < 5; attempt++)
		window = await reader.read(Math.max(0, window.total - 1), 'older');
	if (!newestEnd(window)) return false;
	const cap = capOf(reader.session, ledger, window.times);
	const target = Math.min(Math.max(...window.times) - SETTLE_MS, cap);
	const reached = (next: Window) => {
		applyWindow(ledger, { kind: 'activate' }, next);
		return next.times.some((time) => time < target);
	};
	const last = reached(window) ? window : await reader.walk(window, 'older', reached);
	if (!last) return false;
	ledger.advance(target);
	[ledger.list.total, ledger.list.below] = [last.total, rankOf([last], ledger.horizon, true) ?? 0];
	return true;
}

/** Order unknown on a list longer than a page: every video shares one second, so all pages are read. */
async function readWholeList(
	session: PollSession,
	ledger: Ledger,
	goal: FrontierGoal,
	first: ReadPage,
): Promise<boolean> {
	const ids = new Set<string>();
	let heldStill = true;
	let [newest, cap] = [Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY];
	for (let page = 1; page <= pageCountOf(first.total, first.size); page++) {
		const read = page === 1 ? first : await session.read(page);
		const ranks = read.items.map((_, index) => (page - 1) * first.size + index);
		const window = windowOf(read.items, ranks, { ...read, page, limit: first.size });
		newest = Math.max(newest, applyWindow(ledger, goal, window));
		if (page === 1) cap = capOf(session, ledger, window.times);
		for (const id of window.ids) ids.add(id);
		heldStill &&= read.total === first.total;
	}
	// Complete only if the list held still: the same total throughout and every video read.
	const complete = heldStill && ids.size === first.total;
	if (complete) ledger.advance(Math.min(newest - SETTLE_MS, cap));
	[ledger.list.total, ledger.list.below] = [first.total, 0];
	return complete;
}
