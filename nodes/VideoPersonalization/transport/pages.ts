import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isCount } from '../helpers/answers';
import type { ServiceClient } from './client';

/** What a page is, and the arithmetic and checks of paging, pure (pagination.ts fetches the pages). */

/** Return All, or at most `limit` records. */
export interface ListSelection {
	returnAll: boolean;
	limit: number;
}

/** Page numbers after the first that hold the records wanted. */
export function remainingPages(
	total: number,
	pageSize: number,
	selection: ListSelection,
	pageCount?: number,
): number[] {
	const wanted = selection.returnAll ? total : Math.min(selection.limit, total);
	let pages = Math.ceil(wanted / Math.max(1, pageSize));
	if (pageCount !== undefined) pages = Math.min(pages, pageCount);
	return Array.from({ length: Math.max(0, pages - 1) }, (_, index) => index + 2);
}

/**
 * The page size the server really uses, for the page numbers that follow: a server may cap a
 * size silently (serving fewer items than asked while more remain) or say so in its `limit`.
 */
export function servedPageSize(
	asked: number,
	reportedLimit: number,
	served: number,
	total: number,
): number {
	let size = Math.min(asked, reportedLimit);
	if (served > 0 && served < size && served < total) size = served;
	return Math.max(1, size);
}

/** Joins pages in order, drops records seen on an earlier page (offset lists shift), cuts to the limit. */
export function mergePages(pages: IDataObject[][], selection: ListSelection): IDataObject[] {
	const seen = new Set<string>();
	const records: IDataObject[] = [];
	for (const page of pages) {
		for (const record of page) {
			const id = record.id === undefined ? undefined : String(record.id);
			if (id !== undefined) {
				if (seen.has(id)) continue;
				seen.add(id);
			}
			records.push(record);
			if (!selection.returnAll && records.length >= selection.limit) return records;
		}
	}
	return records;
}

/** Whether the errors refuse the page size asked for ("limit must be at most 50"), not e.g. a rate limit. */
export function isLimitRefusal(messages: string[]): boolean {
	return messages.some(
		(message) =>
			!/rate[ -]?limit/i.test(message) &&
			/\blimit\b.*\b(max|maximum|at most|exceed(s|ed)?|too (large|big|high)|must be|between)\b|page size/i.test(
				message,
			),
	);
}

/**
 * The next page size to try after `refused` was turned down: the largest number below it
 * that the server's message names ("at most 8"), else half of it.
 */
export function nextPageSize(refused: number, messages: string[]): number {
	const named = messages
		.flatMap((message) => [...message.matchAll(/\d+/g)].map((match) => Number(match[0])))
		.filter((value) => value >= 1 && value < refused);
	return named.length > 0 ? Math.max(...named) : Math.max(1, Math.floor(refused / 2));
}

/** What a list entry is, for a shape error, when it is not a record (an object). */
function notARecord(value: unknown): string | undefined {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	return typeof value === 'object' ? undefined : `a ${typeof value}`;
}

/** What is wrong with a list page's records and total (`expected`, or the first entry that is not a record), if anything. */
export function pageProblem(
	items: unknown,
	total: unknown,
	expected: string,
	path: string,
): string | undefined {
	if (!Array.isArray(items) || !isCount(total)) return expected;
	for (const [index, item] of items.entries()) {
		const kind = notARecord(item);
		if (kind !== undefined) return `${path}[${index}] is ${kind}, not an object`;
	}
	return undefined;
}

/** The page size a list answer reports, or the one asked for when it reports none. */
export function servedLimit(reported: unknown, asked: number): number {
	return isCount(reported) && reported > 0 ? reported : asked;
}

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

/** The name the callers of REST lists know a page by. */
export type RestPage = ListPage;

/** An answer that refuses the page size asked for: the size to try instead, if any, else its error. */
export interface Refusal {
	smaller?: number;
	raise: () => Error;
}

/** How one API style reads a list: page N at size S, and where the size it serves is remembered. */
export interface ListStyle<P extends ListPage> {
	sizeKey: string;
	maxSize: number;
	fetch(api: ServiceClient, page: number, size: number): Promise<P | Refusal>;
}

/** A query-style page, which says how many pages the list has. */
export type GraphqlPage = ListPage & { pages: number };

export const refused = <P extends ListPage>(result: P | Refusal): result is Refusal =>
	'raise' in result;

/** The error of a list that failed after some pages, with how many it had; nothing is output. */
export function withProgress(error: unknown, fetched: number, expected: number): unknown {
	if (fetched === 0 || !(error instanceof NodeApiError || error instanceof NodeOperationError))
		return error;
	const note = `It had fetched ${fetched} of ${expected} pages; nothing is output.`;
	error.description = [error.description, note].filter(Boolean).join(' ');
	return error;
}
