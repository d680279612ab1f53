import type { IDataObject } from 'n8n-workflow';

import { detectOrder } from '../helpers/videoList';
import { type Ledger, placeVideo } from './ledger';
import { pageCountOf, type PollSession, type ReadPage } from './session';
import { type Cut, ListReader, newestEnd, oldestEnd, type Window } from './windows';

const IN_FLIGHT = ['draft', 'processing'] as const;
type InFlightStatus = (typeof IN_FLIGHT)[number];
const listOf = (status: string) => IN_FLIGHT.indexOf(status as InFlightStatus);

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

/** Where a window cuts its list: its first and last change of second, or the list's ends. */
function cutsOf(window: Window): { from?: Cut; to?: Cut } {
	const { times, ranks, total } = window;
	const oldest: Cut = { time: -Infinity, count: 0 };
	const newest: Cut = { time: Infinity, count: total };
	if (times.length === 0) return total === 0 ? { from: oldest, to: newest } : {};
	let from = oldestEnd(window) ? oldest : undefined;
	// At the oldest end, no video is older than the first one: a span to walk on from.
	let to = newestEnd(window) ? newest : from && { time: times[0], count: 0 };
	for (let index = 1; index < times.length; index++) {
		if (times[index] <= times[index - 1]) continue;
		const cut = { time: times[index], count: ranks[index] };
		from ??= cut;
		if (to !== newest) to = cut;
	}
	return { from, to };
}

/**
 * Phase 2: the draft and processing lists (docs/architecture.md). Their first pages' totals against
 * the tracked videos; when they add up, nothing more. Otherwise each list's gaps that do not add
 * up are read (all of both lists for a full read: every FULL_READ_MS, or when a first page shows
 * a rejoin, since counts can hide a render finishing while another starts). Nothing here emits.
 */
export async function readInFlight(
	session: PollSession,
	ledger: Ledger,
	fullReadDue: boolean,
): Promise<InFlightResult> {
	const lists = new InFlightLists(session, ledger);
	const firsts = await Promise.all(IN_FLIGHT.map(async (status) => await session.read(1, status)));
	firsts.forEach((first, index) => lists.see(IN_FLIGHT[index], first.items));
	const tracked = Object.entries(ledger.tracked);
	const inFlight = tracked.filter(([, video]) => listOf(video.status) !== -1);
	const full = fullReadDue || lists.rejoined;
	if (!full && firsts[0].total + firsts[1].total === inFlight.length + lists.newcomers)
		return { complete: true, fullRead: false, suspects: [] };
	for (const [id, { status, createdAt }] of inFlight)
		if (Number.isFinite(createdAt)) lists.expected[status as InFlightStatus].set(id, createdAt);
	// Both lists are done before the phase is, also when one fails: no read of phase 2 may
	// overlap phase 3's (a video tracked again while phase 3 sees its last render finished).
	const searches = IN_FLIGHT.map((status, index) => lists.search(status, firsts[index], full));
	await Promise.allSettled(searches);
	const spans = await Promise.all(searches);
	const complete = !spans.includes(undefined);
	const suspects = tracked.filter(([id, { status, createdAt }]) => {
		const read = spans[listOf(status)] ?? (full && complete ? 'all' : []);
		const covered = (span: Span) => span.from.time <= createdAt && createdAt < span.to.time;
		return !lists.present.has(id) && (read === 'all' || read.some(covered));
	});
	return { complete, fullRead: full && complete, suspects: suspects.map(([id]) => id) };
}

/** What phase 2 has seen of the two lists, and how it reads them. */
class InFlightLists {
	readonly present = new Set<string>();

	/** Per list, id -> created_at of what it should hold: its tracked videos and every video seen in it. */
	readonly expected = { draft: new Map<string, number>(), processing: new Map<string, number>() };

	newcomers = 0;

	rejoined = false;

	constructor(
		private readonly session: PollSession,
		private readonly ledger: Ledger,
	) {}

	see(status: InFlightStatus, videos: IDataObject[]): void {
		for (const video of videos) {
			const { id, createdAt } = placeVideo(video);
			this.present.add(id);
			this.expected[status].set(id, createdAt);
			const tracked = this.ledger.tracked[id];
			if (tracked) tracked.status = status;
			else if (!this.ledger.accounted(id, createdAt)) this.newcomers++;
			else {
				this.ledger.rejoin(video);
				this.rejoined = true;
			}
		}
	}

	/**
	 * Reads the gaps of one list that do not add up (with `full`, every gap): a long one is halved
	 * by reading its middle; a short one, or one mostly changed, is walked from the span before it.
	 * The spans read ('all' after a full read), or undefined if it could not finish.
	 */
	async search(status: InFlightStatus, first: ReadPage, full: boolean) {
		const seen = detectOrder(first.items);
		const order = seen === 'unknown' ? this.ledger.list.order : seen;
		const reader = new ListReader(this.session, order, first.total, status);
		const spans: Span[] = [];
		/** Adds what a window covers; false if it covers nothing (one second throughout). */
		const add = (window: Window, extending?: Span): boolean => {
			this.see(status, window.videos);
			const { from, to } = cutsOf(window);
			if (extending) {
				extending.last = window;
				if (to && to.time > extending.to.time) extending.to = to;
			} else if (from && to && from.time < to.time) spans.push({ from, to, last: window });
			else return false;
			return true;
		};
		add(reader.window(first, 1, first.size));
		let halving = !full;
		for (let reads = 0; reads <= 3 * pageCountOf(first.total, reader.size) + 10; reads++) {
			const gap = firstGap(spans, this.expected[status], reader.total, full);
			if (!gap) return full ? 'all' : spans;
			const { left, from, to, mismatch } = gap;
			const positions = to.count - from.count;
			if (!left) {
				if (!add(await reader.read(0, 'newer'))) return undefined;
			} else if (!halving || positions <= 2 * reader.size || 2 * Math.abs(mismatch) >= positions) {
				const next = await reader.next(left.last, 'newer');
				if (!next) return undefined;
				add(next, left);
			} else {
				// A window all in one second cuts nothing: walk from then on.
				const middle = Math.floor((from.count + to.count - reader.size) / 2);
				halving = add(await reader.read(middle, 'newer'));
			}
		}
		return undefined;
	}
}

/** The oldest gap between the spans whose count differs from the expected one (with `full`, any). */
function firstGap(spans: Span[], expected: Map<string, number>, total: number, full: boolean) {
	const times = [...expected.values()];
	const olderThan = (time: number) => times.filter((at) => at < time).length;
	let left: Span | undefined;
	let from: Cut = { time: -Infinity, count: 0 };
	for (const span of [...spans.sort((a, b) => a.from.time - b.from.time), undefined]) {
		const to = span?.from ?? { time: Infinity, count: total };
		const mismatch = olderThan(to.time) - olderThan(from.time) - (to.count - from.count);
		if (to.time > from.time && (full || mismatch !== 0)) return { left, from, to, mismatch };
		if (span && span.to.time > from.time) [left, from] = [span, span.to];
	}
	return undefined;
}
