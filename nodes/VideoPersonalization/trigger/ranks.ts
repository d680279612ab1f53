import type { ListOrder } from '../helpers/videoList';

/** Order used for arithmetic while the real one is unknown (all timestamps equal, or < 2 videos). */
export function effectiveOrder(order: ListOrder): Exclude<ListOrder, 'unknown'> {
	return order === 'oldest-first' ? 'oldest-first' : 'newest-first';
}

/** Rank (index from the oldest end) of the item at `index` on `page`. */
export function rankAt(order: ListOrder, total: number, page: number, index: number, pageSize: number): number {
	const position = (page - 1) * pageSize + index;
	return effectiveOrder(order) === 'oldest-first' ? position : total - 1 - position;
}

/** Page that holds a rank, given the list's current total. */
export function pageOfRank(order: ListOrder, total: number, rank: number, pageSize: number): number {
	const position = effectiveOrder(order) === 'oldest-first' ? rank : total - 1 - rank;
	return Math.floor(Math.max(0, position) / pageSize) + 1;
}

/** Pages holding the ranks [from, to), from the page of the oldest rank to that of the newest. */
export function pagesForRanks(order: ListOrder, total: number, from: number, to: number, pageSize: number): number[] {
	if (to <= from) return [];
	const first = pageOfRank(order, total, from, pageSize);
	const last = pageOfRank(order, total, to - 1, pageSize);
	const step = first <= last ? 1 : -1;
	return Array.from({ length: Math.abs(last - first) + 1 }, (_, index) => first + index * step);
}

export function pageCount(total: number, pageSize: number): number {
	return Math.max(1, Math.ceil(total / pageSize));
}
