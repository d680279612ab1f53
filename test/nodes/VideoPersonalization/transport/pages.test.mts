/** The page arithmetic of Get Many (docs/service-facts.md: REST pages of at most 100). */
import type { IDataObject } from 'n8n-workflow';

import type { ServiceClient } from '../../../../nodes/VideoPersonalization/transport/client.ts';
import {
	isLimitRefusal,
	type ListPage,
	type ListSelection,
	type ListStyle,
	mergePages,
	remainingPages,
	servedPageSize,
} from '../../../../nodes/VideoPersonalization/transport/pages.ts';
import {
	getMany,
	REST_MAX_PAGE_SIZE,
} from '../../../../nodes/VideoPersonalization/transport/pagination.ts';

const all: ListSelection = { returnAll: true, limit: 50 };
const limit = (n: number): ListSelection => ({ returnAll: false, limit: n });
const range = (from: number, to: number): number[] =>
	Array.from({ length: to - from + 1 }, (_, index) => from + index);

describe("getMany's first page size", () => {
	/** The size getMany asks page 1 at, from a list of `maxSize` that serves whatever is asked. */
	async function firstPageSize(selection: ListSelection, maxSize: number): Promise<number> {
		const asked: number[] = [];
		const list: ListStyle<ListPage> = {
			sizeKey: 'test',
			maxSize,
			fetch: async (_api, page, size) => {
				asked.push(size);
				return { items: [], total: 0, page, limit: size, nextPage: null };
			},
		};
		const api = { pageSizes: new Map<string, number>() } as unknown as ServiceClient;
		await getMany(api, list, selection);
		return asked[0];
	}

	it('the REST maximum is the spec maximum', () => {
		expect(REST_MAX_PAGE_SIZE).toBe(100);
	});

	it.each([
		[all, 100],
		[limit(1), 1],
		[limit(5), 5],
		[limit(99), 99],
		[limit(100), 100],
		[limit(101), 100],
		[limit(250), 100],
		[limit(100_000), 100],
		[limit(0), 1],
	])('%j asks for %i', async (selection, size) => {
		expect(await firstPageSize(selection, 100)).toBe(size);
	});

	it("follows the list's maximum", async () => {
		expect(await firstPageSize(all, 10)).toBe(10);
		expect(await firstPageSize(limit(30), 10)).toBe(10);
		expect(await firstPageSize(limit(3), 10)).toBe(3);
	});
});

describe('remainingPages', () => {
	/** A first page of a list of `total` records that says it has `pages` pages, if it says. */
	const first = (total: number, pages?: number): ListPage => ({
		items: [],
		total,
		page: 1,
		limit: 100,
		nextPage: 2,
		pages,
	});

	it.each([
		// [total records, pages after the first]
		[0, []],
		[1, []],
		[99, []],
		[100, []],
		[101, [2]],
		[200, [2]],
		[201, [2, 3]],
		[250, [2, 3]],
		[1000, range(2, 10)],
	])('Return All over %i records, 100 a page: %j', (total, pages) => {
		expect(remainingPages(first(total), 100, all)).toEqual(pages);
	});

	it.each([
		// [limit, total, pages]
		[50, 250, []],
		[100, 250, []],
		[101, 250, [2]],
		[150, 250, [2]],
		[250, 250, [2, 3]],
		[500, 250, [2, 3]],
		[500, 100, []],
		[500, 0, []],
		[1, 1000, []],
	])('limit %i over %i records: %j', (max, total, pages) => {
		expect(remainingPages(first(total), 100, limit(max))).toEqual(pages);
	});

	it.each([
		// [pageCount reported by the server, pages]
		[0, []],
		[1, []],
		[2, [2]],
		[3, [2, 3]],
		[5, [2, 3]],
	])('a server that reports %i pages over 250 records caps the pages at %j', (pageCount, pages) => {
		expect(remainingPages(first(250, pageCount), 100, all)).toEqual(pages);
	});

	it('page numbers are 2, 3, ... up to the page holding the last wanted record', () => {
		for (const pageSize of [1, 7, 20, 100]) {
			for (const total of [0, 1, 6, 7, 8, 19, 20, 21, 99, 100, 101, 250]) {
				for (const selection of [all, limit(1), limit(20), limit(101), limit(1000)]) {
					const wanted = selection.returnAll ? total : Math.min(selection.limit, total);
					const pages = remainingPages(first(total), pageSize, selection);
					// Page p holds records (p-1)*pageSize+1 .. p*pageSize; the last page holds record `wanted`.
					const lastPage = wanted === 0 ? 1 : Math.floor((wanted - 1) / pageSize) + 1;
					expect(pages).toEqual(range(2, lastPage));
				}
			}
		}
	});
});

describe('servedPageSize', () => {
	it.each([
		// [asked, limit the server reports, items served, total, size for the next pages]
		['served as asked', 100, 100, 100, 250, 100],
		['server says it caps, in its limit', 100, 25, 25, 250, 25],
		['server caps silently (reports what was asked)', 100, 100, 50, 250, 50],
		['server caps silently and reports the same cap', 100, 50, 50, 250, 50],
		['server reports more than asked', 20, 100, 20, 250, 20],
		['fewer served because the list is that short', 100, 100, 30, 30, 100],
		['an empty first page', 100, 100, 0, 250, 100],
		['a small limit served fully', 5, 5, 5, 250, 5],
	])('%s', (_case, asked, reportedLimit, served, total, size) => {
		expect(servedPageSize(asked, reportedLimit, served, total)).toBe(size);
	});

	it('is never below 1', () => {
		expect(servedPageSize(1, 1, 0, 0)).toBeGreaterThanOrEqual(1);
		expect(servedPageSize(100, 100, 0, 250)).toBeGreaterThanOrEqual(1);
	});
});

describe('mergePages', () => {
	const record = (id: string | number, extra: IDataObject = {}): IDataObject => ({ id, ...extra });
	const ids = (records: IDataObject[]): unknown[] => records.map((entry) => entry.id);

	it('keeps the order of pages and of records within them', () => {
		const pages = [[record('a'), record('b')], [record('c'), record('d')], [record('e')]];
		expect(ids(mergePages(pages, all))).toEqual(['a', 'b', 'c', 'd', 'e']);
	});

	it('drops a record already seen on an earlier page (an offset list shifted), keeping the first copy', () => {
		const first = record('c', { seen: 'first' });
		const pages = [
			[record('a'), record('b'), first],
			[record('c', { seen: 'second' }), record('d')],
			[record('d'), record('e')],
		];
		const merged = mergePages(pages, all);
		expect(ids(merged)).toEqual(['a', 'b', 'c', 'd', 'e']);
		expect(merged[2]).toBe(first);
	});

	it('keeps every record without an id', () => {
		const pages = [
			[{ name: 'x' }, { name: 'x' }],
			[{ name: 'x' }, record('a')],
		];
		expect(mergePages(pages, all)).toHaveLength(4);
	});

	it.each([
		[1, ['a']],
		[3, ['a', 'b', 'c']],
		[4, ['a', 'b', 'c', 'd']],
		[5, ['a', 'b', 'c', 'd']],
		[100, ['a', 'b', 'c', 'd']],
	])('cuts to a limit of %i', (max, expected) => {
		const pages = [
			[record('a'), record('b')],
			[record('c'), record('d')],
		];
		expect(ids(mergePages(pages, limit(max)))).toEqual(expected);
	});

	it('counts only distinct records against the limit', () => {
		const pages = [
			[record('a'), record('b')],
			[record('b'), record('c'), record('d')],
		];
		expect(ids(mergePages(pages, limit(3)))).toEqual(['a', 'b', 'c']);
	});

	it('Return All ignores the limit', () => {
		const pages = [
			range(1, 150).map((n) => record(`r${n}`)),
			range(151, 250).map((n) => record(`r${n}`)),
		];
		expect(mergePages(pages, { returnAll: true, limit: 10 })).toHaveLength(250);
	});

	it('gives nothing for no pages or empty pages', () => {
		expect(mergePages([], all)).toEqual([]);
		expect(mergePages([[], []], limit(5))).toEqual([]);
	});

	it('does not change the pages it is given', () => {
		const pages = [[record('a'), record('b')], [record('b')]];
		const copy = JSON.parse(JSON.stringify(pages)) as IDataObject[][];
		mergePages(pages, limit(1));
		expect(pages).toEqual(copy);
	});
});

describe('isLimitRefusal', () => {
	it.each([
		'limit must be at most 8, got 100',
		'Limit exceeds the maximum of 50',
		'limit 200 is too large',
		'limit must be between 1 and 25',
		'Page size too big',
	])('reads %j as a refused page size', (message) => {
		expect(isLimitRefusal([message])).toBe(true);
	});

	it.each([
		'rate limit exceeded',
		'Rate limit: at most 10 requests per second',
		'Rate-limit exceeded, maximum 5 requests',
		'credit limit reached',
		'Cannot query field "limit" on type "Query"',
		'Internal server error',
	])('does not read %j as a refused page size', (message) => {
		expect(isLimitRefusal([message])).toBe(false);
	});
});
