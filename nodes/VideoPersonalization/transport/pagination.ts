import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isCount } from '../helpers/answers';
import { mapWithConcurrency } from '../helpers/pool';
import type { CallOptions, ServiceClient } from './client';
import { tryGraphql } from './graphql';

/** Return All, or at most `limit` records. */
export interface ListSelection {
	returnAll: boolean;
	limit: number;
}

export const REST_MAX_PAGE_SIZE = 100;
/** The query-style maximum is not given: this is asked first, and a refused size is lowered. */
export const GRAPHQL_PAGE_SIZE = 100;
/** Pages in flight once the total is known: enough to hide a real service's latency (BENCHMARKS.md). */
export const PAGE_CONCURRENCY = 10;

export function firstPageSize(selection: ListSelection, maxPageSize: number): number {
	return selection.returnAll
		? maxPageSize
		: Math.min(maxPageSize, Math.max(1, Math.floor(selection.limit)));
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

/** Counts the pages a list has fetched, so an error part-way can say how far it got. */
class PageCount {
	fetched = 0;

	constructor(private readonly expected: number) {}

	/** The error of a list that failed after some pages, with how many it had; nothing is output. */
	note(error: unknown): unknown {
		if (
			this.fetched === 0 ||
			!(error instanceof NodeApiError || error instanceof NodeOperationError)
		)
			return error;
		const note = `It had fetched ${this.fetched} of ${this.expected} pages; nothing is output.`;
		error.description = [error.description, note].filter(Boolean).join(' ');
		return error;
	}
}

export interface RestListRequest extends CallOptions {
	/** e.g. `/videos` */
	path: string;
	qs?: IDataObject;
}

export interface RestPage {
	items: IDataObject[];
	total: number;
	page: number;
	limit: number;
	nextPage: number | null;
}

/** What a list entry is, for a shape error, when it is not a record (an object). */
function notARecord(value: unknown): string | undefined {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	return typeof value === 'object' ? undefined : `a ${typeof value}`;
}

/** The first list entry that is not an object, as `<path>[i] is ...`. */
function badEntry(items: unknown[], path: string): string | undefined {
	for (const [index, item] of items.entries()) {
		const kind = notARecord(item);
		if (kind !== undefined) return `${path}[${index}] is ${kind}, not an object`;
	}
	return undefined;
}

/** One page of a REST list, checked for the envelope's shape (docs/service-facts.md, "REST lists"). */
export async function fetchRestPage(
	api: ServiceClient,
	request: RestListRequest,
	page: number,
	limit: number,
): Promise<RestPage> {
	const call = {
		...request,
		method: 'GET' as const,
		qs: { ...(request.qs ?? {}), page, limit },
		idempotent: true,
	};
	const body = await api.object(call);
	const pagination = body.pagination as IDataObject | undefined;
	if (!Array.isArray(body.data) || !pagination || !isCount(pagination.total)) {
		throw api.error(
			{ kind: 'shape', detail: 'Expected { data: [...], pagination: { total, ... } }' },
			call,
		);
	}
	const entry = badEntry(body.data, 'data');
	if (entry) throw api.error({ kind: 'shape', detail: entry }, call);
	const nextPage = pagination.next_page;
	if (
		nextPage !== undefined &&
		nextPage !== null &&
		!(typeof nextPage === 'number' && Number.isInteger(nextPage))
	) {
		throw api.error(
			{
				kind: 'shape',
				detail: `pagination.next_page must be a page number or null, got ${JSON.stringify(nextPage)}`,
			},
			call,
		);
	}
	const served = {
		items: body.data as IDataObject[],
		total: pagination.total,
		page: isCount(pagination.page) ? pagination.page : page,
		limit: isCount(pagination.limit) && pagination.limit > 0 ? pagination.limit : limit,
	};
	// Without next_page, the total tells whether a page follows.
	const inferred = served.page * served.limit < served.total ? served.page + 1 : null;
	return { ...served, nextPage: nextPage === undefined ? inferred : nextPage };
}

/**
 * A REST list page at the size this service serves: the size learnt earlier in the execution
 * (or `wanted`, at most the spec's 100), then the size the server really served (it may cap
 * silently or report a smaller `limit`), remembered for the list's later pages. Every REST
 * list (Get Many, the Asset picker, Wait for Completion) starts here.
 */
export async function fetchRestPageAtServiceSize(
	api: ServiceClient,
	request: RestListRequest,
	page: number,
	wanted: number = REST_MAX_PAGE_SIZE,
): Promise<{ page: RestPage; size: number }> {
	const known = api.pageSizes.get(`rest:${request.path}`);
	const asked = Math.min(wanted, REST_MAX_PAGE_SIZE, known ?? REST_MAX_PAGE_SIZE);
	const served = await fetchRestPage(api, request, page, asked);
	const size = servedPageSize(
		asked,
		served.limit,
		served.items.length,
		served.total - (page - 1) * asked,
	);
	// Only a full-size ask teaches the service's largest size.
	if (asked === Math.min(REST_MAX_PAGE_SIZE, known ?? REST_MAX_PAGE_SIZE) && size < asked) {
		api.pageSizes.set(`rest:${request.path}`, size);
	}
	return { page: served, size };
}

/**
 * Get Many over a REST list: page 1 tells the total, the pages still needed are then
 * fetched in parallel; if the list grew meanwhile, Return All follows next_page to the end.
 */
export async function restGetMany(
	api: ServiceClient,
	request: RestListRequest,
	selection: ListSelection,
): Promise<IDataObject[]> {
	const { page: first, size: pageSize } = await fetchRestPageAtServiceSize(
		api,
		request,
		1,
		firstPageSize(selection, REST_MAX_PAGE_SIZE),
	);
	if (first.nextPage === null || (!selection.returnAll && first.items.length >= selection.limit)) {
		return mergePages([first.items], selection);
	}
	const numbers = remainingPages(first.total, pageSize, selection);
	api.expect(numbers.length);
	const count = new PageCount(numbers.length + 1);
	count.fetched = 1;
	const fetchPage = async (page: number) => {
		const served = await fetchRestPage(api, request, page, pageSize);
		count.fetched++;
		return served;
	};
	const pages = [first];
	try {
		pages.push(...(await mapWithConcurrency(numbers, PAGE_CONCURRENCY, fetchPage)));
		let last = pages[pages.length - 1];
		while (
			selection.returnAll &&
			last.nextPage !== null &&
			last.items.length > 0 &&
			last.nextPage > last.page
		) {
			last = await fetchPage(last.nextPage);
			pages.push(last);
		}
	} catch (error) {
		throw count.note(error);
	}
	return mergePages(
		pages.map((page) => page.items),
		selection,
	);
}

export interface GraphqlListRequest extends CallOptions {
	/** A constant query taking `$filter` and selecting `viewer.<field> { items ... total page limit pages }`. */
	query: string;
	field: string;
	filter: IDataObject;
	/** Other variables of the query (field selection switches). */
	variables: IDataObject;
}

export interface GraphqlPage {
	items: IDataObject[];
	total: number;
	limit: number;
	pages: number;
}

type GraphqlPageOutcome =
	| { ok: true; page: GraphqlPage }
	| { ok: false; limitRefused: boolean; messages: string[]; raise: () => Error };

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

async function fetchGraphqlPage(
	api: ServiceClient,
	request: GraphqlListRequest,
	page: number,
	limit: number,
): Promise<GraphqlPageOutcome> {
	const outcome = await tryGraphql(api, {
		...request,
		variables: { ...request.variables, filter: { ...request.filter, page, limit } },
	});
	if (!outcome.ok) {
		const messages = outcome.errors.map((entry) => entry.message);
		return { ok: false, limitRefused: isLimitRefusal(messages), messages, raise: outcome.raise };
	}
	const envelope = outcome.viewer[request.field] as IDataObject | null | undefined;
	if (!envelope || !Array.isArray(envelope.items) || !isCount(envelope.total)) {
		const detail = `Expected viewer.${request.field} { items, total, page, limit, pages }`;
		throw api.error({ kind: 'shape', detail }, request);
	}
	const entry = badEntry(envelope.items, `viewer.${request.field}.items`);
	if (entry) throw api.error({ kind: 'shape', detail: entry }, request);
	const servedLimit = isCount(envelope.limit) && envelope.limit > 0 ? envelope.limit : limit;
	return {
		ok: true,
		page: {
			items: envelope.items as IDataObject[],
			total: envelope.total,
			limit: servedLimit,
			pages: isCount(envelope.pages) ? envelope.pages : Math.ceil(envelope.total / servedLimit),
		},
	};
}

/**
 * A query-style list page at a size this service accepts (docs/service-facts.md, "Query-style
 * API"): the largest page size is not stated, so a size the server refuses is retried smaller
 * ("at most 25" is taken at its word) and a server that serves fewer than asked sets the size.
 * The size found is remembered for the rest of the execution. Every query-style list (Get Many,
 * the Template picker) starts here.
 */
export async function fetchGraphqlPageAtServiceSize(
	api: ServiceClient,
	request: GraphqlListRequest,
	page: number,
	wanted: number = GRAPHQL_PAGE_SIZE,
): Promise<{ page: GraphqlPage; size: number }> {
	const known = api.pageSizes.get(request.field);
	let asked = Math.max(1, Math.min(wanted, known ?? wanted));
	let result = await fetchGraphqlPage(api, request, page, asked);
	while (!result.ok) {
		if (!result.limitRefused || asked <= 1) throw result.raise();
		asked = nextPageSize(asked, result.messages);
		api.pageSizes.set(request.field, asked);
		result = await fetchGraphqlPage(api, request, page, asked);
	}
	const served = result.page;
	const size = servedPageSize(
		asked,
		served.limit,
		served.items.length,
		served.total - (page - 1) * asked,
	);
	if (size < asked) api.pageSizes.set(request.field, size);
	return { page: served, size };
}

/** Get Many over a query-style list: page 1 at the service's size, then the rest in parallel. */
export async function graphqlGetMany(
	api: ServiceClient,
	request: GraphqlListRequest,
	selection: ListSelection,
): Promise<IDataObject[]> {
	const { page: first, size } = await fetchGraphqlPageAtServiceSize(
		api,
		request,
		1,
		firstPageSize(selection, GRAPHQL_PAGE_SIZE),
	);

	if (!selection.returnAll && first.items.length >= selection.limit)
		return mergePages([first.items], selection);
	const numbers = remainingPages(first.total, size, selection, first.pages);
	api.expect(numbers.length);
	const count = new PageCount(numbers.length + 1);
	count.fetched = 1;
	const rest = await mapWithConcurrency(numbers, PAGE_CONCURRENCY, async (page) => {
		const result = await fetchGraphqlPage(api, request, page, size);
		if (!result.ok) throw result.raise();
		count.fetched++;
		return result.page;
	}).catch((error: unknown) => {
		throw count.note(error);
	});
	return mergePages(
		[first, ...rest].map((page) => page.items),
		selection,
	);
}
