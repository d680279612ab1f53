/**
 * Rank arithmetic of the trigger. A rank is an index from the oldest end of the video list
 * (0 = oldest); a page shows the list in its order, newest-first or oldest-first.
 */
import type { ListOrder } from '../../../../nodes/VideoPersonalization/helpers/videoList.ts';
import { effectiveOrder, pageCount, pageOfRank, pagesForRanks, rankAt } from '../../../../nodes/VideoPersonalization/trigger/ranks.ts';

const ORDERS: ListOrder[] = ['newest-first', 'oldest-first', 'unknown'];
const TOTALS = [1, 2, 3, 19, 20, 21, 99, 100, 101, 250, 1000];
const SIZES = [1, 3, 20, 100];

/** Position (0-based, in the order the list is served) of a rank, straight from the definition. */
function position(order: 'newest-first' | 'oldest-first', total: number, rank: number): number {
	return order === 'oldest-first' ? rank : total - 1 - rank;
}

/** Some ranks of a list: all of a small one, the ends and a stride of a large one. */
function ranksOf(total: number): number[] {
	if (total <= 300) return Array.from({ length: total }, (_, rank) => rank);
	const ranks = new Set<number>([0, 1, 2, total - 3, total - 2, total - 1]);
	for (let rank = 0; rank < total; rank += 37) ranks.add(rank);
	return [...ranks];
}

describe('effectiveOrder', () => {
	it('keeps a known order and picks a known one for unknown', () => {
		expect(effectiveOrder('newest-first')).toBe('newest-first');
		expect(effectiveOrder('oldest-first')).toBe('oldest-first');
		expect(['newest-first', 'oldest-first']).toContain(effectiveOrder('unknown'));
	});

	it('an unknown order is computed exactly like the order it stands for', () => {
		const stand = effectiveOrder('unknown');
		for (const total of [1, 20, 101]) {
			for (let rank = 0; rank < total; rank++) expect(pageOfRank('unknown', total, rank, 20)).toBe(pageOfRank(stand, total, rank, 20));
			for (let index = 0; index < 20; index++) expect(rankAt('unknown', total, 1, index, 20)).toBe(rankAt(stand, total, 1, index, 20));
		}
	});
});

describe('pageCount', () => {
	it.each([
		[0, 100, 1],
		[1, 100, 1],
		[99, 100, 1],
		[100, 100, 1],
		[101, 100, 2],
		[250, 100, 3],
		[45, 20, 3],
		[7, 1, 7],
	])('%i videos, %i a page: %i pages', (total, size, pages) => {
		expect(pageCount(total, size)).toBe(pages);
	});
});

describe('rankAt', () => {
	it('oldest-first: the first item of page 1 is the oldest (rank 0)', () => {
		expect(rankAt('oldest-first', 250, 1, 0, 100)).toBe(0);
		expect(rankAt('oldest-first', 250, 2, 5, 100)).toBe(105);
		expect(rankAt('oldest-first', 250, 3, 49, 100)).toBe(249);
	});

	it('newest-first: the first item of page 1 is the newest (rank total-1)', () => {
		expect(rankAt('newest-first', 250, 1, 0, 100)).toBe(249);
		expect(rankAt('newest-first', 250, 2, 5, 100)).toBe(144);
		expect(rankAt('newest-first', 250, 3, 49, 100)).toBe(0);
	});

	it.each(['newest-first', 'oldest-first'] as const)('%s: matches the definition everywhere', (order) => {
		const wrong: string[] = [];
		for (const total of TOTALS) {
			for (const size of SIZES) {
				for (let page = 1; page <= pageCount(total, size); page++) {
					for (let index = 0; index < size && (page - 1) * size + index < total; index++) {
						if (position(order, total, rankAt(order, total, page, index, size)) !== (page - 1) * size + index) wrong.push(`${total}/${size}/${page}/${index}`);
					}
				}
			}
		}
		expect(wrong).toEqual([]);
	});
});

describe('rankAt and pageOfRank are inverse', () => {
	it.each(ORDERS)('%s: the page of a rank holds that rank, and a rank read off a page maps back to it', (order) => {
		const wrong: string[] = [];
		for (const total of TOTALS) {
			for (const size of SIZES) {
				const pages = pageCount(total, size);
				for (const rank of ranksOf(total)) {
					const page = pageOfRank(order, total, rank, size);
					const indexes = Array.from({ length: size }, (_, index) => index);
					const holding = indexes.filter((index) => rankAt(order, total, page, index, size) === rank);
					if (page < 1 || page > pages || holding.length !== 1) wrong.push(`rank ${rank} of ${total}, ${size} a page: page ${page}`);
				}
				for (let page = 1; page <= pages; page++) {
					for (let index = 0; index < size && (page - 1) * size + index < total; index++) {
						const back = pageOfRank(order, total, rankAt(order, total, page, index, size), size);
						if (back !== page) wrong.push(`page ${page} index ${index} of ${total}, ${size} a page: back on ${back}`);
					}
				}
			}
		}
		expect(wrong).toEqual([]);
	});

	it.each(ORDERS)('%s: every rank of the list is on exactly one page, no page holds more than a page size', (order) => {
		for (const total of [1, 20, 21, 101, 250]) {
			for (const size of SIZES) {
				const perPage = new Map<number, number>();
				for (let rank = 0; rank < total; rank++) {
					const page = pageOfRank(order, total, rank, size);
					perPage.set(page, (perPage.get(page) ?? 0) + 1);
				}
				expect([...perPage.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: pageCount(total, size) }, (_, index) => index + 1));
				for (const count of perPage.values()) expect(count).toBeLessThanOrEqual(size);
				expect([...perPage.values()].reduce((sum, count) => sum + count, 0)).toBe(total);
			}
		}
	});
});

describe('pagesForRanks', () => {
	/** The pages holding ranks [from, to), found by reading every slot of every page. */
	function bruteForce(order: ListOrder, total: number, from: number, to: number, size: number): number[] {
		const pages = new Set<number>();
		for (let page = 1; page <= pageCount(total, size); page++) {
			for (let index = 0; index < size && (page - 1) * size + index < total; index++) {
				const rank = rankAt(order, total, page, index, size);
				if (rank >= from && rank < to) pages.add(page);
			}
		}
		return [...pages];
	}

	it.each(ORDERS)('%s: covers exactly the pages of the range, from the oldest rank to the newest, no page twice', (order) => {
		const wrong: string[] = [];
		for (const total of [1, 2, 20, 21, 45, 101, 250]) {
			for (const size of [1, 7, 20, 100]) {
				const bounds = [...new Set([0, 1, size - 1, size, size + 1, Math.floor(total / 2), total - size, total - 1, total])].filter((bound) => bound >= 0 && bound <= total);
				for (const from of bounds) {
					for (const to of bounds) {
						const pages = pagesForRanks(order, total, from, to, size);
						const label = `[${from}, ${to}) of ${total}, ${size} a page: ${JSON.stringify(pages)}`;
						if (to <= from) {
							if (pages.length > 0) wrong.push(label);
							continue;
						}
						const expected = bruteForce(order, total, from, to, size).sort((a, b) => a - b);
						const steps = pages.slice(1).every((page, index) => Math.abs(page - pages[index]) === 1);
						if (
							JSON.stringify([...pages].sort((a, b) => a - b)) !== JSON.stringify(expected) ||
							new Set(pages).size !== pages.length ||
							pages[0] !== pageOfRank(order, total, from, size) ||
							pages[pages.length - 1] !== pageOfRank(order, total, to - 1, size) ||
							!steps
						) {
							wrong.push(label);
						}
					}
				}
			}
		}
		expect(wrong).toEqual([]);
	});

	it('newest-first: the newest videos are on page 1, so new ranks walk backwards to it', () => {
		// 250 videos, 100 a page, newest first: ranks 150..249 are page 1, 50..149 page 2, 0..49 page 3.
		expect(pagesForRanks('newest-first', 250, 0, 250, 100)).toEqual([3, 2, 1]);
		expect(pagesForRanks('newest-first', 250, 240, 250, 100)).toEqual([1]);
		expect(pagesForRanks('newest-first', 250, 140, 160, 100)).toEqual([2, 1]);
	});

	it('oldest-first: the newest videos are on the last page', () => {
		expect(pagesForRanks('oldest-first', 250, 0, 250, 100)).toEqual([1, 2, 3]);
		expect(pagesForRanks('oldest-first', 250, 240, 250, 100)).toEqual([3]);
		expect(pagesForRanks('oldest-first', 250, 99, 101, 100)).toEqual([1, 2]);
	});

	it('an empty range has no pages', () => {
		for (const order of ORDERS) {
			expect(pagesForRanks(order, 250, 10, 10, 100)).toEqual([]);
			expect(pagesForRanks(order, 250, 20, 10, 100)).toEqual([]);
			expect(pagesForRanks(order, 0, 0, 0, 100)).toEqual([]);
		}
	});
});
