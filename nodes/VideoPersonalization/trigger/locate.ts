import type { ListOrder } from '../helpers/videoList';
import type { Ledger } from './ledger';
import type { PollSession } from './session';
import { type Direction, ListReader, newestEnd, oldestEnd, type Window } from './windows';

/** A point of the list: `count` videos were created before `time`. */
interface Point {
	time: number;
	count: number;
}

/**
 * Phase 3: finds the suspects (tracked videos missing from the in-flight lists) in the full
 * list. Every page read here is read after phase 2, so a suspect seen finished has finished
 * since it was tracked: one event. A suspect seen in flight was skipped by a shifting page and
 * stays tracked. One that a window showing its whole second does not hold is missed (deleted
 * after 3 polls); a search that cannot show that proves nothing and counts no miss.
 *
 * Where to look: where it was last seen (its rank), else where the points read so far put it.
 * Between two points the videos are the tracked ones (their times are known) plus finished ones
 * assumed spread evenly over the time between; every second probe halves instead, so a list
 * that is not even costs no more than a binary search. Suspects are taken oldest first, and a
 * page read for one shows every other it holds.
 */
export async function locateSuspects(
	session: PollSession,
	ledger: Ledger,
	suspects: string[],
	list: { order: ListOrder; total: number },
): Promise<void> {
	const known = list.order !== 'unknown';
	// Order unknown: every video shares one second; the search then reads the list end to end.
	const reader = new ListReader(
		session,
		list.order === 'unknown' ? 'oldest-first' : list.order,
		list.total,
	);
	const remaining = new Set(suspects);
	const windows: Window[] = [];
	const see = (window: Window) => {
		windows.push(window);
		window.videos.forEach((video, index) => {
			if (ledger.seen(video, known ? window.ranks[index] : undefined))
				remaining.delete(window.ids[index]);
		});
		return window;
	};
	const trackedTimes = Object.values(ledger.tracked)
		.map((video) => video.createdAt)
		.filter(Number.isFinite)
		.sort((left, right) => left - right);
	const byTime = [...remaining].sort(
		(left, right) => ledger.tracked[left].createdAt - ledger.tracked[right].createdAt,
	);
	for (const id of byTime) {
		if (!remaining.has(id)) continue;
		const { createdAt, rank } = ledger.tracked[id];
		const found = await search(reader, createdAt, rank, {
			see,
			windows,
			isFound: () => !remaining.has(id),
			estimate: (low, high) => estimate(trackedTimes, createdAt, low, high),
			horizon: { time: ledger.horizon, count: ledger.below },
		});
		if (found === 'missing') ledger.missed(id);
	}
}

interface SearchContext {
	see: (window: Window) => Window;
	windows: Window[];
	isFound: () => boolean;
	estimate: (low: Point, high: Point) => number;
	horizon: Point;
}

/** Looks for a video created at `time` until a window (or windows sharing videos) shows its whole second. */
async function search(
	reader: ListReader,
	time: number,
	rank: number | undefined,
	context: SearchContext,
): Promise<'found' | 'missing' | 'unsure'> {
	const { see, windows, isFound } = context;
	const maxProbes = 3 * Math.ceil(Math.log2(reader.total / reader.size + 2)) + 4;
	let guess = rank;
	/** Estimates that missed in a row: the third probe halves instead. */
	let missed = 0;
	for (let probe = 0; probe < maxProbes; probe++) {
		if (windows.some((window) => holds(window, time))) return 'missing';
		const { low, high } = bounds(windows, time, context.horizon, reader.total);
		if (guess === undefined) {
			const halve = missed === 2;
			guess = halve ? (low.count + high.count) / 2 : context.estimate(low, high);
			missed = halve || low.time === -Infinity ? 0 : missed + 1;
		}
		// A window around the guess, not below what is known to be older.
		const start = Math.max(low.count, Math.min(guess - reader.size / 2, high.count - reader.size));
		const window = see(await reader.read(Math.max(0, Math.round(start)), 'newer'));
		guess = undefined;
		if (isFound()) return 'found';
		if (sideOf(window, time) !== 'touches') continue;
		// The window reaches the video's second: read on where the second goes on past its edges.
		for (const direction of ['older', 'newer'] as Direction[]) {
			for (let edge: Window | undefined = window; edge && !reaches(edge, time, direction); ) {
				edge = await reader.next(edge, direction);
				if (!edge) return 'unsure';
				see(edge);
				if (isFound()) return 'found';
			}
		}
		return 'missing';
	}
	return 'unsure';
}

/** The window shows every video created in `time`'s second: one before it and one after, or the list's ends. */
const holds = (window: Window, time: number) =>
	reaches(window, time, 'older') && reaches(window, time, 'newer');

function reaches(window: Window, time: number, direction: Direction): boolean {
	if (window.videos.length === 0) return window.total === 0;
	if (direction === 'older') return oldestEnd(window) || window.times[0] < time;
	return newestEnd(window) || window.times[window.times.length - 1] > time;
}

/** Whether the window lies all before `time`'s second, all after it, or reaches it. */
function sideOf(window: Window, time: number): 'before' | 'after' | 'touches' {
	if (window.videos.length === 0) return window.total === 0 ? 'touches' : 'before';
	if (!newestEnd(window) && window.times[window.times.length - 1] < time) return 'before';
	if (!oldestEnd(window) && window.times[0] > time) return 'after';
	return 'touches';
}

/** The closest points read around `time`: the newest video before it and the oldest after it. */
function bounds(
	windows: Window[],
	time: number,
	horizon: Point,
	total: number,
): { low: Point; high: Point } {
	let low: Point = { time: -Infinity, count: 0 };
	let high: Point = horizon.time > time ? horizon : { time: Infinity, count: total };
	for (const window of windows) {
		window.times.forEach((at, index) => {
			const rank = window.ranks[index];
			if (at < time && (at > low.time || (at === low.time && rank >= low.count)))
				low = { time: at, count: rank + 1 };
			if (at > time && (at < high.time || (at === high.time && rank < high.count)))
				high = { time: at, count: rank };
		});
	}
	return { low, high };
}

/**
 * Where a video created at `time` should be, between two points: after the tracked videos
 * created between `low` and it, and after its share of the others, spread evenly over the time.
 * With nothing read below it, the oldest end.
 */
function estimate(tracked: number[], time: number, low: Point, high: Point): number {
	if (low.time === -Infinity) return 0;
	if (Number.isNaN(time)) return (low.count + high.count) / 2;
	const between = (from: number, to: number) => tracked.filter((at) => at > from && at < to).length;
	const others = Math.max(0, high.count - low.count - between(low.time, high.time));
	const share = high.time === Infinity ? 0 : (time - low.time) / (high.time - low.time);
	return low.count + between(low.time, time) + others * share;
}
