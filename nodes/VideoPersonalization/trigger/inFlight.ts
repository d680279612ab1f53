import type { IDataObject } from 'n8n-workflow';

import { detectOrder, type ListOrder } from '../helpers/videoList';
import { type Ledger, placeVideo } from './ledger';
import type { PollSession } from './session';
import { ListReader, newestEnd, oldestEnd, type Window } from './windows';

const IN_FLIGHT_STATUSES = ['draft', 'processing'] as const;
type InFlightStatus = (typeof IN_FLIGHT_STATUSES)[number];

export interface InFlightResult {
	/** Every part of both lists whose counts did not add up was read (or both were read in full). */
	complete: boolean;
	/** Both lists were read in full: every tracked video was looked for. */
	fullRead: boolean;
	/** Tracked videos that left the lists: read where they would be and not seen. For phase 3. */
	suspects: string[];
}

/** A count read off one window: `count` videos of the list were created before `time`. */
interface Cut {
	time: number;
	count: number;
}

/**
 * A stretch of a list read without a gap: every video created in [from.time, to.time) that stayed
 * in the list while it was read was seen. `last` is its newest window, to read on from.
 */
interface Span {
	from: Cut;
	to: Cut;
	last: Window;
}

/** Where a window can be cut by creation time: its first and last change of second, or the list's ends. */
function cutsOf(window: Window): { from?: Cut; to?: Cut } {
	if (window.videos.length === 0)
		return window.total === 0
			? { from: { time: -Infinity, count: 0 }, to: { time: Infinity, count: 0 } }
			: {};
	let from = oldestEnd(window) ? { time: -Infinity, count: 0 } : undefined;
	let to = newestEnd(window) ? { time: Infinity, count: window.total } : undefined;
	const times = window.times;
	// At the oldest end, no video is older than the first one: a stretch to read on from.
	if (from && !to) to = { time: times[0], count: 0 };
	for (let index = 1; index < times.length; index++) {
		if (times[index] <= times[index - 1]) continue;
		const cut = { time: times[index], count: window.ranks[index] };
		from ??= cut;
		if (!newestEnd(window)) to = cut;
	}
	return { from, to };
}

/**
 * Phase 2: the draft and processing lists. Their first pages come with their totals; when
 * draft + processing equals the tracked videos plus the unaccounted ones those pages show, and
 * every accounted video they show is tracked, no tracked video can have left the lists unless
 * another video started rendering again at the same time (the one case counts cannot show; a
 * full read every FULL_READ_MS settles it). Otherwise each list is searched for the parts where
 * it holds fewer (or more) videos than expected: a window at a rank tells how many videos of the
 * list are older than each second it shows, to compare with the tracked ones; parts that add up
 * are not read. An accounted video in flight that is not tracked is rendering again and is
 * tracked; a tracked one missing from a part read is a suspect. Nothing here emits: a video in
 * flight owes no event yet.
 */
export async function readInFlight(
	session: PollSession,
	ledger: Ledger,
	forceFull: boolean,
	order: ListOrder,
): Promise<InFlightResult> {
	const firsts = await Promise.all(
		IN_FLIGHT_STATUSES.map(async (status) => await session.read(1, status)),
	);
	const present = new Set<string>();
	/** Per list: what it should hold, by id -> created_at: the tracked videos and every video seen in it. */
	const expected = { draft: new Map<string, number>(), processing: new Map<string, number>() };
	let unaccounted = 0;
	let rejoined = false;
	const observe = (status: InFlightStatus) => (videos: IDataObject[]) => {
		for (const video of videos) {
			const { id, createdAt } = placeVideo(video);
			present.add(id);
			expected[status].set(id, createdAt);
			const tracked = ledger.tracked[id];
			if (tracked) tracked.status = status;
			else if (!ledger.accounted(id, createdAt)) unaccounted++;
			else {
				ledger.rejoin(video);
				rejoined = true;
			}
		}
	};
	firsts.forEach((first, index) => observe(IN_FLIGHT_STATUSES[index])(first.items));
	const tracked = Object.entries(ledger.tracked);
	const listOf = (status: string) => IN_FLIGHT_STATUSES.indexOf(status as InFlightStatus);
	const inFlight = tracked.filter(([, video]) => listOf(video.status) !== -1);
	const total = firsts[0].total + firsts[1].total;
	if (!forceFull && !rejoined && total === inFlight.length + unaccounted)
		return { complete: true, fullRead: false, suspects: [] };

	// A rejoin on a first page shows a render started again: counts may hide one that finished.
	const full = forceFull || rejoined;
	for (const [id, video] of inFlight)
		if (Number.isFinite(video.createdAt))
			expected[video.status as InFlightStatus].set(id, video.createdAt);
	// Both searches end before the phase does, also when one fails: no read of phase 2 may
	// overlap phase 3's (a video tracked again while phase 3 sees its last render finished).
	const settled = await Promise.allSettled(
		IN_FLIGHT_STATUSES.map(async (status, index) => {
			const first = firsts[index];
			const seen = detectOrder(first.items);
			const listOrder = seen !== 'unknown' ? seen : order !== 'unknown' ? order : 'oldest-first';
			const reader = new ListReader(session, listOrder, first.total, status);
			const window = reader.window(first, 1, first.size);
			const see = (next: Window) => observe(status)(next.videos);
			return full
				? await readAll(reader, window, see)
				: await searchList(reader, window, expected[status], see);
		}),
	);
	const searches: Search[] = [];
	for (const search of settled) {
		if (search.status === 'rejected') throw search.reason;
		searches.push(search.value);
	}
	const suspects = tracked
		.filter(([id, video]) => {
			const list = listOf(video.status);
			return !present.has(id) && (list === -1 ? full : searches[list].covers(video.createdAt));
		})
		.map(([id]) => id);
	const complete = searches.every((search) => search.complete);
	return { complete, fullRead: full && complete, suspects };
}

interface Search {
	complete: boolean;
	/** Whether a tracked video created at this time, not seen, has left the list. */
	covers: (time: number) => boolean;
}

/** The whole list from its first page on, each window sharing a video with the one before. */
async function readAll(
	reader: ListReader,
	first: Window,
	see: (window: Window) => void,
): Promise<Search> {
	const direction = reader.order === 'newest-first' ? 'older' : 'newer';
	const atEnd = direction === 'newer' ? newestEnd : oldestEnd;
	for (let window: Window | undefined = first; !atEnd(window); ) {
		window = await reader.next(window, direction);
		if (!window) return { complete: false, covers: () => false };
		see(window);
	}
	return { complete: true, covers: () => true };
}

/**
 * The parts of one list whose counts do not add up. Between two stretches already read, the list
 * holds `to.count - from.count` videos and should hold the expected ones created in that time; a
 * part where the two differ is halved by reading its middle, or read on from the stretch before
 * it when it is short or most of it changed. Counts read at different moments may hide a change
 * (the full read every FULL_READ_MS finds it); a suspect is only ever what a window showed missing.
 */
async function searchList(
	reader: ListReader,
	first: Window,
	expected: Map<string, number>,
	see: (window: Window) => void,
): Promise<Search> {
	const spans: Span[] = [];
	/** Adds what a window covers; false if it covers nothing (one second throughout). */
	const add = (window: Window, extending?: Span) => {
		see(window);
		const { from, to } = cutsOf(window);
		if (extending) {
			if (to && to.time > extending.to.time) extending.to = to;
			extending.last = window;
			return true;
		}
		if (!from || !to || from.time >= to.time) return false;
		spans.push({ from, to, last: window });
		return true;
	};
	const covers = (time: number) =>
		spans.some((span) => span.from.time <= time && time < span.to.time);
	add(first);
	let probing = true;
	const pages = Math.ceil(first.total / reader.size);
	for (let reads = 0; reads <= 3 * pages + 10; reads++) {
		const gap = firstGap(spans, expected, reader.total);
		if (!gap) return { complete: true, covers };
		const positions = gap.to.count - gap.from.count;
		let progress: boolean;
		if (!gap.left) progress = add(await reader.read(0, 'newer'));
		else if (!probing || positions <= 2 * reader.size || 2 * Math.abs(gap.mismatch) >= positions) {
			const next = await reader.next(gap.left.last, 'newer');
			progress = next !== undefined && add(next, gap.left);
		} else {
			const middle = Math.floor((gap.from.count + gap.to.count - reader.size) / 2);
			// A window all in one second cuts nothing: walk from then on.
			probing = add(await reader.read(middle, 'newer'));
			progress = true;
		}
		if (!progress) break;
	}
	// Stuck (a window all in one second, a list moving too fast to anchor): the whole list, then.
	return await readAll(reader, first, see);
}

/** The oldest part between the stretches read whose count of videos differs from the expected one. */
function firstGap(
	spans: Span[],
	expected: Map<string, number>,
	total: number,
): { left?: Span; from: Cut; to: Cut; mismatch: number } | undefined {
	spans.sort((left, right) => left.from.time - right.from.time);
	for (let index = 1; index < spans.length; index++) {
		const [before, span] = [spans[index - 1], spans[index]];
		if (span.from.time > before.to.time) continue;
		if (span.to.time > before.to.time) Object.assign(before, { to: span.to, last: span.last });
		spans.splice(index--, 1);
	}
	const times = [...expected.values()].sort((left, right) => left - right);
	const below = (time: number) => {
		let [low, high] = [0, times.length];
		while (low < high) {
			const middle = (low + high) >> 1;
			if (times[middle] < time) low = middle + 1;
			else high = middle;
		}
		return low;
	};
	let left: Span | undefined;
	let from: Cut = { time: -Infinity, count: 0 };
	for (const span of [...spans, undefined]) {
		const to = span?.from ?? { time: Infinity, count: total };
		if (to.time > from.time) {
			const mismatch = below(to.time) - below(from.time) - (to.count - from.count);
			if (mismatch !== 0) return { left, from, to, mismatch };
		}
		if (!span) break;
		left = span;
		from = span.to;
	}
	return undefined;
}
