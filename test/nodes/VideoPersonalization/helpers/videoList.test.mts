/** The video list (docs/service-facts.md, "Videos"): its order is not given, so it is read off created_at. */
import type { IDataObject } from 'n8n-workflow';

import {
	createdAtMs,
	detectOrder,
	FINAL_STATUSES,
	isFinalStatus,
	type ListOrder,
	oldestOnPage,
	pagesFromNewestEnd,
} from '../../../../nodes/VideoPersonalization/helpers/videoList.ts';

const at = (iso: string, extra: IDataObject = {}): IDataObject => ({
	id: `vid_${iso}`,
	created_at: iso,
	...extra,
});
const T1 = '2024-03-01T10:00:00Z';
const T2 = '2024-03-01T10:00:01Z';
const T3 = '2024-03-02T08:30:00Z';
const T4 = '2025-01-01T00:00:00Z';

describe('createdAtMs', () => {
	it.each([
		['2024-03-01T10:00:00Z', Date.UTC(2024, 2, 1, 10, 0, 0)],
		['2024-03-01T10:00:00.250Z', Date.UTC(2024, 2, 1, 10, 0, 0, 250)],
		['2024-03-01T12:00:00+02:00', Date.UTC(2024, 2, 1, 10, 0, 0)],
		['1970-01-01T00:00:00Z', 0],
	])('reads %j', (value, ms) => {
		expect(createdAtMs({ created_at: value })).toBe(ms);
	});

	it.each([undefined, null, '', 'yesterday', 'not a date', 1709287200000, true, {}])(
		'has no time for %j',
		(value) => {
			expect(createdAtMs({ created_at: value as IDataObject['created_at'] })).toBeUndefined();
		},
	);

	it('has no time when the field is missing', () => {
		expect(createdAtMs({ id: 'vid_1' })).toBeUndefined();
	});
});

describe('detectOrder', () => {
	it.each([
		['rising', [T1, T2, T3, T4], 'oldest-first'],
		['rising with equal neighbours', [T1, T1, T2, T2, T3], 'oldest-first'],
		['falling', [T4, T3, T2, T1], 'newest-first'],
		['falling with equal neighbours', [T4, T4, T3, T1, T1], 'newest-first'],
		['all equal', [T2, T2, T2], 'unknown'],
		['mixed', [T1, T3, T2], 'unknown'],
		['mixed, rising mostly', [T1, T2, T3, T4, T1], 'unknown'],
		['one video', [T1], 'unknown'],
		['two rising', [T1, T2], 'oldest-first'],
		['two falling', [T2, T1], 'newest-first'],
		['no videos', [], 'unknown'],
	] as Array<[string, string[], ListOrder]>)('%s: %s', (_case, times, order) => {
		expect(detectOrder(times.map((time) => at(time)))).toBe(order);
	});

	it('compares instants, not strings (time zones differ)', () => {
		// 11:30+02:00 is 09:30Z, before 10:00Z; as text it would sort after.
		expect(detectOrder([at('2024-03-01T11:30:00+02:00'), at('2024-03-01T10:00:00Z')])).toBe(
			'oldest-first',
		);
	});

	it('skips videos without a readable timestamp', () => {
		const missing: IDataObject = { id: 'vid_x' };
		const broken: IDataObject = { id: 'vid_y', created_at: 'soon' };
		expect(detectOrder([at(T4), missing, at(T3), broken, at(T1)])).toBe('newest-first');
		expect(detectOrder([missing, at(T1), broken, at(T2)])).toBe('oldest-first');
		expect(detectOrder([missing, broken])).toBe('unknown');
		expect(detectOrder([missing, at(T1), broken])).toBe('unknown');
	});
});

describe('pagesFromNewestEnd', () => {
	it.each([
		// [order, total, page size, pages from the newest end]
		['newest-first', 250, 100, [1, 2, 3]],
		['oldest-first', 250, 100, [3, 2, 1]],
		['newest-first', 100, 100, [1]],
		['oldest-first', 100, 100, [1]],
		['newest-first', 101, 100, [1, 2]],
		['oldest-first', 101, 100, [2, 1]],
		['oldest-first', 45, 20, [3, 2, 1]],
		['newest-first', 1, 20, [1]],
		['oldest-first', 0, 20, [1]],
		['newest-first', 0, 20, [1]],
	] as Array<[ListOrder, number, number, number[]]>)(
		'%s, %i videos, %i a page: %j',
		(order, total, size, pages) => {
			expect(pagesFromNewestEnd(order, total, size)).toEqual(pages);
		},
	);

	it('visits every page once when the order is unknown', () => {
		expect([...pagesFromNewestEnd('unknown', 250, 100)].sort()).toEqual([1, 2, 3]);
	});

	it('an oldest-first list walked from its newest end visits the newest video first', () => {
		// Videos 0 (oldest) .. 44 (newest), 20 a page, oldest first: video 44 sits on the last page.
		const pages = pagesFromNewestEnd('oldest-first', 45, 20);
		expect(pages[0]).toBe(Math.floor(44 / 20) + 1);
	});
});

describe('oldestOnPage', () => {
	it('is the earliest time on the page, in either order', () => {
		expect(oldestOnPage([at(T3), at(T1), at(T4), at(T2)])).toBe(Date.parse(T1));
		expect(oldestOnPage([at(T4), at(T3)])).toBe(Date.parse(T3));
		expect(oldestOnPage([at(T1)])).toBe(Date.parse(T1));
	});

	it('ignores videos without a readable timestamp', () => {
		expect(oldestOnPage([{ id: 'a' }, at(T3), { id: 'b', created_at: 'x' }, at(T2)])).toBe(
			Date.parse(T2),
		);
	});

	it('is undefined for an empty page or one without timestamps', () => {
		expect(oldestOnPage([])).toBeUndefined();
		expect(oldestOnPage([{ id: 'a' }, { id: 'b', created_at: null }])).toBeUndefined();
	});

	it('handles the epoch itself (0 is a time, not a missing one)', () => {
		expect(oldestOnPage([at(T1), at('1970-01-01T00:00:00Z')])).toBe(0);
	});
});

describe('isFinalStatus', () => {
	it('the final statuses are published and failed', () => {
		expect([...FINAL_STATUSES].sort()).toEqual(['failed', 'published']);
	});

	it.each([
		['published', true],
		['failed', true],
		['draft', false],
		['processing', false],
		['PUBLISHED', false],
		[' published', false],
		['', false],
		[undefined, false],
		[null, false],
		[1, false],
	])('%j: %p', (status, final) => {
		expect(isFinalStatus(status)).toBe(final);
	});
});
