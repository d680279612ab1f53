import type { IDataObject } from 'n8n-workflow';

/**
 * Pure helpers about the video list. Its order is not stated (docs/service-facts.md), so it is
 * read off the data (created_at) and code that walks the list works for either direction.
 */

export type ListOrder = 'newest-first' | 'oldest-first' | 'unknown';

export const FINAL_STATUSES = ['published', 'failed'] as const;
export type FinalStatus = (typeof FINAL_STATUSES)[number];

export function isFinalStatus(status: unknown): status is FinalStatus {
	return status === 'published' || status === 'failed';
}

export function createdAtMs(video: IDataObject): number | undefined {
	const ms = typeof video.created_at === 'string' ? Date.parse(video.created_at) : NaN;
	return Number.isNaN(ms) ? undefined : ms;
}

/** The readable creation times on a page, in page order. */
function createdTimes(items: IDataObject[]): number[] {
	return items.map(createdAtMs).filter((ms): ms is number => ms !== undefined);
}

/** Direction of a page of the list, if its timestamps show one. */
export function detectOrder(items: IDataObject[]): ListOrder {
	const times = createdTimes(items);
	const rising = times.some((ms, index) => index > 0 && ms > times[index - 1]);
	const falling = times.some((ms, index) => index > 0 && ms < times[index - 1]);
	if (rising === falling) return 'unknown';
	return rising ? 'oldest-first' : 'newest-first';
}

/** Page numbers from the newest end of the list towards the oldest. */
export function pagesFromNewestEnd(order: ListOrder, total: number, pageSize: number): number[] {
	const count = Math.max(1, Math.ceil(total / pageSize));
	const pages = Array.from({ length: count }, (_, index) => index + 1);
	return order === 'oldest-first' ? pages.reverse() : pages;
}

/** Oldest creation time on a page; used to stop walking once past the videos looked for. */
export function oldestOnPage(items: IDataObject[]): number | undefined {
	const times = createdTimes(items);
	return times.length > 0 ? Math.min(...times) : undefined;
}
