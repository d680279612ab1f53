import type { IDataObject } from 'n8n-workflow';

import { detectOrder, type ListOrder } from '../helpers/videoList';
import { placeVideo } from './ledger';
import type { PollSession, ReadPage } from './session';

/**
 * Windows over an offset-paged list (docs/architecture.md). Pages of one size never overlap, so
 * a list that loses items while it is read shifts an item from the next page onto the one already
 * read, and the read skips it. The next window of a walk starts a margin (a tenth of a page)
 * before the previous one ended and must share a video with it (be anchored): nothing between
 * them was skipped.
 */

export type Order = Exclude<ListOrder, 'unknown'>;
export type Direction = 'newer' | 'older';

/** A cut of a list: `count` of its videos were created before `time` (as one window showed). */
export interface Cut {
	time: number;
	count: number;
}

/** A window of a list as read: its videos oldest first, with their ids, created_at (ms) and ranks. */
export interface Window {
	videos: IDataObject[];
	ids: string[];
	times: number[];
	ranks: number[];
	total: number;
	/** How it was read, to read it again. */
	page: number;
	limit: number;
}

/**
 * A page listed in the other order than the one known: the service changed it; the next poll
 * follows. The reader that read it has taken its total.
 */
export class OrderChanged extends Error {
	constructor(readonly order: ListOrder) {
		super('The list order changed');
	}
}

/** The rank of the video at `position` in a list of `total`, or the position of a rank (its own inverse). */
export const rankAt = (order: Order, total: number, position: number): number =>
	order === 'oldest-first' ? position : total - 1 - position;

export const newestEnd = (window: Window): boolean =>
	window.videos.length === 0 || window.ranks[window.ranks.length - 1] >= window.total - 1;
export const oldestEnd = (window: Window): boolean =>
	window.videos.length === 0 || window.ranks[0] <= 0;

/**
 * The page and size (half the page size up to it) of the window holding `position` that reaches
 * furthest to higher positions, or with `down` to lower ones.
 */
export function windowAt(position: number, maxSize: number, down = false) {
	let best = { page: 1, size: maxSize, reach: Number.NEGATIVE_INFINITY };
	for (let size = maxSize; size >= Math.max(1, Math.ceil(maxSize / 2)); size--) {
		const page = Math.floor(position / size) + 1;
		const reach = down ? (1 - page) * size : page * size;
		if (reach > best.reach) best = { page, size, reach };
	}
	return best;
}

/** How a window was read: the list's total then, and the page and size to read it again. */
type WindowRead = Pick<Window, 'total' | 'page' | 'limit'>;

export function windowOf(videos: IDataObject[], ranks: number[], read: WindowRead): Window {
	const placed = videos.map(placeVideo);
	const ids = placed.map((video) => video.id);
	return { videos, ids, times: placed.map((video) => video.createdAt), ranks, ...read };
}

/** Reads one list (the whole video list, or one status) in windows by rank, in either order. */
export class ListReader {
	readonly margin: number;

	/** Unknown (every video read shares one second) is read as oldest first. */
	readonly order: Order;

	constructor(
		readonly session: PollSession,
		order: ListOrder,
		/** The latest total read: on a newest-first list, where a rank is depends on it. */
		public total: number,
		private readonly status?: string,
	) {
		this.margin = Math.max(1, Math.floor(session.pageSize / 10));
		this.order = order === 'unknown' ? 'oldest-first' : order;
	}

	get size(): number {
		return this.session.pageSize;
	}

	/** The window holding `rank` and reaching as far as it can in `direction`. */
	async read(rank: number, direction: Direction): Promise<Window> {
		const position = Math.max(0, rankAt(this.order, this.total, rank));
		const down = (direction === 'newer') === (this.order === 'newest-first');
		const { page, size } = windowAt(position, this.size, down);
		return this.window(await this.session.read(page, this.status, size), page, size);
	}

	/** A page already read, as a window. */
	window(read: ReadPage, page: number, limit: number): Window {
		this.total = read.total;
		const seen = detectOrder(read.items);
		if (seen !== 'unknown' && seen !== this.order) throw new OrderChanged(seen);
		const start = (page - 1) * read.size;
		const ranks = read.items.map((_, index) => rankAt(this.order, read.total, start + index));
		// Held oldest first.
		const flip = <T>(list: T[]) => (this.order === 'newest-first' ? list.reverse() : list);
		return windowOf(flip([...read.items]), flip(ranks), { total: read.total, page, limit });
	}

	/** The next window in `direction` after `previous`, anchored to it; undefined if none could be. */
	async next(previous: Window, direction: Direction): Promise<Window | undefined> {
		const newer = direction === 'newer';
		const from = newer ? previous.ranks[previous.ranks.length - 1] : previous.ranks[0];
		// Overlaps of a tenth of a page, then more; past half a page a window would not move on.
		for (let back = this.margin; back < Math.max(2, this.size / 2); back *= 2) {
			const rank = Math.max(0, newer ? from - back + 1 : from + back - 1);
			const window = await this.read(rank, direction);
			if (window.videos.length === 0) return window;
			const end = newer ? window.ranks[window.ranks.length - 1] : window.ranks[0];
			const movedOn = newer ? end > from || newestEnd(window) : end < from || oldestEnd(window);
			if (movedOn && window.ids.some((id) => previous.ids.includes(id))) return window;
		}
		// No window of an allowed size straddles this point (a small page size divides it): read the
		// next one, then the previous one again; unchanged, nothing moved across the boundary between.
		const beyond = await this.read(Math.max(0, newer ? from + 1 : from - 1), direction);
		const again = await this.session.read(previous.page, this.status, previous.limit);
		const ids = (videos: IDataObject[]) =>
			String(videos.map((video) => placeVideo(video).id).sort());
		return ids(again.items) === ids(previous.videos) ? beyond : undefined;
	}

	/** Reads on from `from` until `visit` says so or the list ends; the last window, or undefined if unanchored. */
	async walk(
		from: Window,
		direction: Direction,
		visit: (window: Window) => boolean,
	): Promise<Window | undefined> {
		const atEnd = direction === 'newer' ? newestEnd : oldestEnd;
		for (let window: Window | undefined = from; ; ) {
			if (atEnd(window)) return window;
			window = await this.next(window, direction);
			if (!window || visit(window)) return window;
		}
	}
}
