import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isCount } from '../helpers/answers';
import type { GraphqlErrorEntry } from './call';
import type { ServiceClient } from './client';
import { asObject } from './received';

/** What a page is, and the arithmetic and checks of paging, pure (pagination.ts fetches the pages). */

/** Return All, or at most `limit` records. */
export type ListSelection = { returnAll: boolean; limit: number };

/**
 * One page of a list, as both API styles serve it: its records, the total, the size the server
 * says it used, and the page after it (null: none).
 */
export interface ListPage {
	items: IDataObject[];
	total: number;
	page: number;
	limit: number;
	nextPage: number | null;
	/** How many pages the list has, when it says (query-style lists). */
	pages?: number;
}

/** An answer that refused the page: its errors (smallerPageSize reads them) and the error they make. */
export type Refusal = { errors: GraphqlErrorEntry[]; raise: () => Error };

/** How one API style reads a list: page N at size S, and where the size it serves is remembered. */
export interface ListStyle<P extends ListPage = ListPage> {
	sizeKey: string;
	maxSize: number;
	fetch(api: ServiceClient, page: number, size: number): Promise<P | Refusal>;
}

/** Page numbers after the first that hold the records wanted (no more than the list says it has). */
export function remainingPages(first: ListPage, size: number, selection: ListSelection): number[] {
	const wanted = selection.returnAll ? first.total : Math.min(selection.limit, first.total);
	const pages = Math.min(first.pages ?? Infinity, Math.ceil(wanted / Math.max(1, size)));
	return Array.from({ length: Math.max(0, pages - 1) }, (_, index) => index + 2);
}

/** The page after `page` of a list of `pages` pages, or null: the last. */
export const pageAfter = (page: number, pages: number) => (page < pages ? page + 1 : null);

/**
 * The page size the server really uses, for the page numbers that follow: a server may cap a
 * size silently (serving fewer items than asked while more remain) or say so in its `limit`.
 */
export function servedPageSize(asked: number, limit: number, served: number, total: number) {
	const size = Math.min(asked, limit);
	return served > 0 && served < size && served < total ? served : Math.max(1, size);
}

/** Joins pages in order, drops records seen on an earlier page (offset lists shift), cuts to the limit. */
export function mergePages(pages: IDataObject[][], selection: ListSelection): IDataObject[] {
	const seen = new Set<string | undefined>();
	const records: IDataObject[] = [];
	for (const record of pages.flat()) {
		const id = record.id === undefined ? undefined : String(record.id);
		if (id !== undefined && seen.has(id)) continue;
		seen.add(id);
		records.push(record);
		if (!selection.returnAll && records.length >= selection.limit) break;
	}
	return records;
}

/** Errors that refuse the page size asked for ("limit must be at most 50"), not e.g. a rate limit. */
const SIZE_REFUSED =
	/\blimit\b.*\b(max|maximum|at most|exceed(s|ed)?|too (large|big|high)|must be|between)\b|page size/i;
export const isLimitRefusal = (messages: string[]): boolean =>
	messages.some((message) => !/rate[ -]?limit/i.test(message) && SIZE_REFUSED.test(message));

/**
 * The next page size to try after `refused` was turned down, when the errors refuse it (not
 * e.g. a rate limit): the largest number below it that they name ("at most 8"), else half of it.
 * Any other refusal (or of a size of 1) is the error it makes.
 */
export function smallerPageSize(refused: number, refusal: Refusal): number {
	const messages = refusal.errors.map((entry) => entry.message);
	if (!isLimitRefusal(messages) || refused <= 1) throw refusal.raise();
	const named = messages
		.flatMap((message) => [...message.matchAll(/\d+/g)].map((match) => Number(match[0])))
		.filter((value) => value >= 1 && value < refused);
	return named.length > 0 ? Math.max(...named) : Math.max(1, Math.floor(refused / 2));
}

/** What is wrong with a list page's records and total (`expected`, or the first entry that is not a record), if anything. */
export function pageProblem(items: unknown, total: unknown, expected: string, path: string) {
	if (!Array.isArray(items) || !isCount(total)) return expected;
	const index = items.findIndex((item) => !asObject(item));
	if (index < 0) return undefined;
	const item: unknown = items[index];
	const kind = item === null ? 'null' : Array.isArray(item) ? 'an array' : `a ${typeof item}`;
	return `${path}[${index}] is ${kind}, not an object`;
}

/** The page size a list answer reports, or the one asked for when it reports none. */
export const servedLimit = (reported: unknown, asked: number): number =>
	isCount(reported) && reported > 0 ? reported : asked;

/** The error of a list that failed after some pages, with how many it had; nothing is output. */
export function withProgress(error: unknown, fetched: number, expected: number): unknown {
	if (fetched > 0 && (error instanceof NodeApiError || error instanceof NodeOperationError)) {
		const note = `It had fetched ${fetched} of ${expected} pages; nothing is output.`;
		error.description = [error.description, note].filter(Boolean).join(' ');
	}
	return error;
}
