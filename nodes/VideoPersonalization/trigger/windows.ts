import type { IDataObject } from 'n8n-workflow';

import { detectOrder, type ListOrder } from '../helpers/videoList';
import { placeVideo } from './ledger';
import { type PollSession, rankAt, type ReadPage } from './session';

/**
 * Overlapping windows over an offset-paged list. Pages of one size never overlap, so a list that
 * loses items while it is read (a render finishing) shifts an item from the next page onto the
 * one already read, and the read skips it. A window that starts a few items before the previous
 * one ended, and shares an item with it, proves nothing between them was skipped. Page sizes
 * from half the largest up to it are tried, and the one that reaches furthest is used.
 */

const sizesUpTo = (maxSize: number) =>
	Array.from(
		{ length: maxSize - Math.max(1, Math.ceil(maxSize / 2)) + 1 },
		(_, index) => maxSize - index,
	);

/** The page and size whose window starts at or before position `start` and ends furthest after it. */
export function windowAt(start: number, maxSize: number): { page: number; size: number } {
	let best = { page: 1, size: maxSize, end: -1 };
	for (const size of sizesUpTo(maxSize)) {
		const page = Math.floor(start / size) + 1;
		if (page * size > best.end) best = { page, size, end: page * size };
	}
	return { page: best.page, size: best.size };
}

/** The page and size whose window ends after position `last` and starts furthest before it. */
export function windowEnding(last: number, maxSize: number): { page: number; size: number } {
	let best = { page: 1, size: maxSize, start: Number.POSITIVE_INFINITY };
	for (const size of sizesUpTo(maxSize)) {
		const page = Math.floor(last / size) + 1;
		if ((page - 1) * size < best.start) best = { page, size, start: (page - 1) * size };
	}
	return { page: best.page, size: best.size };
}

/** A window of a list as read: its videos from the oldest to the newest, with their ranks. */
export interface Window {
	videos: IDataObject[];
	ids: string[];
	/** created_at of each, in ms. */
	times: number[];
	ranks: number[];
	total: number;
	/** How it was read, to read it again. */
	page: number;
	limit: number;
}

export type Direction = 'newer' | 'older';

/** A page listed in the other order than the one known: the service changed it; the next poll follows. */
export class OrderChanged extends Error {
	constructor(
		readonly order: ListOrder,
		readonly total: number,
	) {
		super('The list order changed');
	}
}

/** A window of `videos` (oldest first) at `ranks`. */
export function windowOf(
	videos: IDataObject[],
	ranks: number[],
	read: { total: number; page: number; limit: number },
): Window {
	const placed = videos.map(placeVideo);
	const ids = placed.map((video) => video.id);
	return { videos, ids, times: placed.map((video) => video.createdAt), ranks, ...read };
}

export const newestEnd = (window: Window): boolean =>
	window.videos.length === 0 || window.ranks[window.ranks.length - 1] >= window.total - 1;
export const oldestEnd = (window: Window): boolean =>
	window.videos.length === 0 || window.ranks[0] <= 0;

/**
 * Reads one list (the whole video list, or one status) in windows by rank (index from the oldest
 * end), whichever order the service lists in. Each window `next` reads must share a video with
 * the one before it, or it is read again starting further back: no video between them is
 * skipped, however the list shifted in between.
 */
export class ListReader {
	readonly margin: number;

	constructor(
		private readonly session: PollSession,
		readonly order: Exclude<ListOrder, 'unknown'>,
		/** The latest total read: on a newest-first list, where a rank is depends on it. */
		public total: number,
		private readonly status?: string,
	) {
		this.margin = Math.max(1, Math.floor(session.pageSize / 10));
	}

	get size(): number {
		return this.session.pageSize;
	}

	/** The window holding `rank` and reaching as far as it can in `direction`. */
	async read(rank: number, direction: Direction): Promise<Window> {
		const newestFirst = this.order === 'newest-first';
		const position = Math.max(0, rankAt(this.order, this.total, rank));
		const goesUp = (direction === 'newer') === newestFirst; // towards lower positions
		const { page, size } = (goesUp ? windowEnding : windowAt)(position, this.size);
		return this.window(await this.session.read(page, this.status, size), page, size);
	}

	/** A page already read, as a window. */
	window(read: ReadPage, page: number, limit: number): Window {
		this.total = read.total;
		const seen = detectOrder(read.items);
		if (seen !== 'unknown' && seen !== this.order) throw new OrderChanged(seen, read.total);
		const start = (page - 1) * read.size;
		const ranks = read.items.map((_, index) => rankAt(this.order, read.total, start + index));
		const videos = [...read.items];
		if (this.order === 'newest-first') {
			videos.reverse();
			ranks.reverse();
		}
		return windowOf(videos, ranks, { total: read.total, page, limit });
	}

	/** The next window in `direction` after `previous`, sharing one of its videos. */
	async next(previous: Window, direction: Direction): Promise<Window | undefined> {
		// Any video of the previous window will do: a window that holds one covers from it on.
		const ids = new Set(previous.ids);
		const newer = direction === 'newer';
		const from = newer ? previous.ranks[previous.ranks.length - 1] : previous.ranks[0];
		// Overlaps of a tenth of a page, then more; past half a page a window would not move on.
		for (let back = this.margin; back < Math.max(2, this.size / 2); back *= 2) {
			const window = await this.read(
				Math.max(0, newer ? from - back + 1 : from + back - 1),
				direction,
			);
			if (window.videos.length === 0) return window;
			const anchored = window.ids.some((id) => ids.has(id));
			const end = newer ? window.ranks[window.ranks.length - 1] : window.ranks[0];
			const movedOn = newer ? end > from || newestEnd(window) : end < from || oldestEnd(window);
			if (anchored && movedOn) return window;
		}
		// No window of an allowed size straddles this point (a small page size divides it): read the
		// next one, then the previous one again; unchanged, nothing moved across the boundary between.
		const beyond = await this.read(Math.max(0, newer ? from + 1 : from - 1), direction);
		const again = await this.session.read(previous.page, this.status, previous.limit);
		const sorted = (ids: string[]) => [...ids].sort().join();
		return sorted(again.items.map((video) => placeVideo(video).id)) === sorted(previous.ids)
			? beyond
			: undefined;
	}
}
