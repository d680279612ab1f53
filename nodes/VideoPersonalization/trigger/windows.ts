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
