import type { IDataObject } from 'n8n-workflow';

import { detectOrder } from '../helpers/videoList';
import { type Ledger, placeVideo } from './ledger';
import { pageCountOf, type PollSession } from './session';
import { type Cut, ListReader, newestEnd, oldestEnd, type Window } from './windows';

const IN_FLIGHT_STATUSES = ['draft', 'processing'] as const;
type InFlightStatus = (typeof IN_FLIGHT_STATUSES)[number];
const listOf = (status: string) => IN_FLIGHT_STATUSES.indexOf(status as InFlightStatus);

export interface InFlightResult {
	/** Every gap of both lists that did not add up was read (with a full read: both lists). */
	complete: boolean;
	/** Both lists were read in full: every tracked video was looked for. */
	fullRead: boolean;
	/** Tracked videos missing from a span read: for phase 3. */
	suspects: string[];
}

/** A span of a list: read without a gap, it showed every video created in [from.time, to.time) that stayed. */
interface Span {
	from: Cut;
	to: Cut;
	/** Its newest window, to walk on from. */
	last: Window;
}

interface Search {
	complete: boolean;
	/** Whether a span read covers this created_at. */
	covers: (time: number) => boolean;
}

/** What phase 2 has seen of the two lists. */
class Sightings {
	readonly present = new Set<string>();

	/** Per list, id -> created_at of what it should hold: its tracked videos and every video seen in it. */
	readonly expected = { draft: new Map<string, number>(), processing: new Map<string, number>() };

	unaccounted = 0;

	rejoined = false;

	constructor(private readonly ledger: Ledger) {}

	see(status: InFlightStatus, videos: IDataObject[]): void {
		for (const video of videos) {
			const { id, createdAt } = placeVideo(video);
			this.present.add(id);
			this.expected[status].set(id, createdAt);
			const tracked = this.ledger.tracked[id];
			if (tracked) tracked.status = status;
			else if (!this.ledger.accounted(id, createdAt)) this.unaccounted++;
			else {
				this.ledger.rejoin(video);
				this.rejoined = true;
			}
		}
	}
}

/**
 * Phase 2: the draft and processing lists (docs/trigger.md). Their first pages' totals against
 * the tracked videos; when they add up, nothing more. Otherwise each list's gaps that do not add
 * up are read (all of both lists for a full read: every FULL_READ_MS, or when a first page shows
 * a rejoin, since counts can hide a render finishing while another starts). Nothing here emits.
 */
export async function readInFlight(
	session: PollSession,
	ledger: Ledger,
	fullReadDue: boolean,
): Promise<InFlightResult> {
	const firsts = await Promise.all(
		IN_FLIGHT_STATUSES.map(async (status) => await session.read(1, status)),
	);
	const seen = new Sightings(ledger);
	firsts.forEach((first, index) => seen.see(IN_FLIGHT_STATUSES[index], first.items));
	const tracked = Object.entries(ledger.tracked);
	const inFlight = tracked.filter(([, video]) => listOf(video.status) !== -1);
	const total = firsts[0].total + firsts[1].total;
	if (!fullReadDue && !seen.rejoined && total === inFlight.length + seen.unaccounted)
		return { complete: true, fullRead: false, suspects: [] };

	const full = fullReadDue || seen.rejoined;
	for (const [id, { status, createdAt }] of inFlight)
		if (Number.isFinite(createdAt)) seen.expected[status as InFlightStatus].set(id, createdAt);
	// Both searches end before the phase does, also when one fails: no read of phase 2 may
	// overlap phase 3's (a video tracked again while phase 3 sees its last render finished).
	const settled = await Promise.allSettled(
		IN_FLIGHT_STATUSES.map(async (status, index) => {
			const first = firsts[index];
			const order = detectOrder(first.items);
			const listOrder = order !== 'unknown' ? order : ledger.list.order;
			const reader = new ListReader(
				session,
				listOrder === 'unknown' ? 'oldest-first' : listOrder,
				first.total,
				status,
			);
			const see = (window: Window) => seen.see(status, window.videos);
			const window = reader.window(first, 1, first.size);
			return await searchList(reader, window, seen.expected[status], full, see);
		}),
	);
	const searches: Search[] = [];
	for (const search of settled) {
		if (search.status === 'rejected') throw search.reason;
		searches.push(search.value);
	}
	const complete = searches.every((search) => search.complete);
	const suspects = tracked.filter(([id, video]) => {
		const list = listOf(video.status);
		if (seen.present.has(id)) return false;
		return list === -1 ? full && complete : searches[list].covers(video.createdAt);
	});
	return { complete, fullRead: full && complete, suspects: suspects.map(([id]) => id) };
}

/** Where a window cuts its list: its first and last change of second, or the list's ends. */
function cutsOf(window: Window): { from?: Cut; to?: Cut } {
	const { times, ranks, total } = window;
	if (times.length === 0)
		return total === 0
			? { from: { time: -Infinity, count: 0 }, to: { time: Infinity, count: 0 } }
			: {};
	let from = oldestEnd(window) ? { time: -Infinity, count: 0 } : undefined;
	// At the oldest end, no video is older than the first one: a span to walk on from.
	let to = newestEnd(window)
		? { time: Infinity, count: total }
		: from && { time: times[0], count: 0 };
	for (let index = 1; index < times.length; index++) {
		if (times[index] <= times[index - 1]) continue;
		const cut = { time: times[index], count: ranks[index] };
		from ??= cut;
		if (!newestEnd(window)) to = cut;
	}
	return { from, to };
}

/**
 * Reads the gaps of one list that do not add up (with `full`, every gap): a long one is halved by
 * reading its middle; a short one, or one mostly changed, is walked from the span before it.
 */
async function searchList(
	reader: ListReader,
	first: Window,
	expected: Map<string, number>,
	full: boolean,
	see: (window: Window) => void,
): Promise<Search> {
	const spans: Span[] = [];
	/** Adds what a window covers; false if it covers nothing (one second throughout). */
	const add = (window: Window, extending?: Span): boolean => {
		see(window);
		const { from, to } = cutsOf(window);
		if (extending) {
			extending.last = window;
			if (to && to.time > extending.to.time) extending.to = to;
		} else if (from && to && from.time < to.time) spans.push({ from, to, last: window });
		else return false;
		return true;
	};
	const covers = (time: number) =>
		spans.some((span) => span.from.time <= time && time < span.to.time);
	add(first);
	let probing = !full;
	for (let reads = 0; reads <= 3 * pageCountOf(first.total, reader.size) + 10; reads++) {
		const gap = firstGap(spans, expected, reader.total, full);
		if (!gap) return { complete: true, covers: full ? () => true : covers };
		const { left, from, to, mismatch } = gap;
		const positions = to.count - from.count;
		if (!left) {
			if (!add(await reader.read(0, 'newer'))) break;
		} else if (!probing || positions <= 2 * reader.size || 2 * Math.abs(mismatch) >= positions) {
			const next = await reader.next(left.last, 'newer');
			if (!next) break;
			add(next, left);
		} else {
			// A window all in one second cuts nothing: walk from then on.
			probing = add(
				await reader.read(Math.floor((from.count + to.count - reader.size) / 2), 'newer'),
			);
		}
	}
	return { complete: false, covers };
}

/** The oldest gap between the spans whose count differs from the expected one (with `full`, any). */
function firstGap(spans: Span[], expected: Map<string, number>, total: number, full: boolean) {
	spans.sort((left, right) => left.from.time - right.from.time);
	for (let index = 1; index < spans.length; index++) {
		const [before, span] = [spans[index - 1], spans[index]];
		if (span.from.time > before.to.time) continue;
		if (span.to.time > before.to.time) Object.assign(before, { to: span.to, last: span.last });
		spans.splice(index--, 1);
	}
	const times = [...expected.values()].sort((left, right) => left - right);
	const olderThan = (time: number) => {
		let [low, high] = [0, times.length];
		while (low < high) {
			const middle = (low + high) >> 1;
			[low, high] = times[middle] < time ? [middle + 1, high] : [low, middle];
		}
		return low;
	};
	let left: Span | undefined;
	let from: Cut = { time: -Infinity, count: 0 };
	for (const span of [...spans, undefined]) {
		const to = span?.from ?? { time: Infinity, count: total };
		const mismatch = olderThan(to.time) - olderThan(from.time) - (to.count - from.count);
		if (to.time > from.time && (full || mismatch !== 0)) return { left, from, to, mismatch };
		if (!span) break;
		[left, from] = [span, span.to];
	}
	return undefined;
}
