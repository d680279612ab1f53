import type { IDataObject } from 'n8n-workflow';

import { isCount } from '../helpers/answers';
import { mapWithConcurrency } from '../helpers/pool';
import type { CallOptions, RestRequest } from './call';
import type { ServiceClient } from './client';
import { type GraphqlCall, tryGraphql } from './graphql';
import * as paging from './pages';

/** RestPage: the name the callers of REST lists know a page by. */
export { type ListPage as RestPage, type ListSelection, servedPageSize } from './pages';

export const REST_MAX_PAGE_SIZE = 100;
/** The query-style maximum is not given: this is asked first, and a refused size is lowered. */
export const GRAPHQL_PAGE_SIZE = 100;
/** Pages in flight once the total is known: enough to hide a real service's latency (BENCHMARKS.md). */
export const PAGE_CONCURRENCY = 10;

/** A list page, and the size the service serves it at. */
export type Listed<P extends paging.ListPage> = { page: P; size: number };

/**
 * A page at the size this service serves: the size learnt earlier in the execution (or `wanted`,
 * at most the style's maximum); a size the server refuses is tried smaller (a query-style list
 * may say "at most 25"); then the size the server really served (it may cap silently or report
 * a smaller `limit`), remembered for the list's later pages and the rest of the execution.
 */
export async function pageAtServiceSize<P extends paging.ListPage>(
	api: ServiceClient,
	list: paging.ListStyle<P>,
	page: number,
	wanted = list.maxSize,
): Promise<Listed<P>> {
	// A size learnt is never above the maximum (it is one asked for, or smaller).
	let asked = Math.max(1, Math.min(wanted, api.pageSizes.get(list.sizeKey) ?? list.maxSize));
	let result = await list.fetch(api, page, asked);
	while ('raise' in result) {
		asked = paging.smallerPageSize(asked, result);
		api.pageSizes.set(list.sizeKey, asked);
		result = await list.fetch(api, page, asked);
	}
	const remaining = result.total - (page - 1) * asked;
	const size = paging.servedPageSize(asked, result.limit, result.items.length, remaining);
	if (size < asked) api.pageSizes.set(list.sizeKey, size);
	return { page: result, size };
}

/**
 * Get Many over either API style: page 1 at the service's size tells the total, the pages still
 * needed are then fetched in parallel; if the list grew meanwhile, Return All follows the next
 * page to the end.
 */
export async function getMany<P extends paging.ListPage>(
	api: ServiceClient,
	list: paging.ListStyle<P>,
	selection: paging.ListSelection,
): Promise<IDataObject[]> {
	// Page 1 holds at most Limit records (pageAtServiceSize keeps the size within the list's own).
	const wanted = selection.returnAll ? list.maxSize : selection.limit;
	const { page: first, size } = await pageAtServiceSize(api, list, 1, wanted);
	const pages = [first.items];
	if (first.nextPage === null || (!selection.returnAll && first.items.length >= selection.limit))
		return paging.mergePages(pages, selection);
	const numbers = paging.remainingPages(first, size, selection);
	api.willSend(numbers.length);
	let fetched = 1;
	// A page after the first, at the size the first one found.
	const fetchPage = async (page: number) => {
		const served = await list.fetch(api, page, size);
		if ('raise' in served) throw served.raise();
		fetched++;
		return served;
	};
	try {
		const later = await mapWithConcurrency(numbers, PAGE_CONCURRENCY, fetchPage);
		pages.push(...later.map((page) => page.items));
		// Records added meanwhile moved the rest on: Return All follows the next page to the end.
		let last = later.at(-1) ?? first;
		while (selection.returnAll && last.nextPage !== null && last.items.length > 0) {
			if (last.nextPage <= last.page) break;
			last = await fetchPage(last.nextPage);
			pages.push(last.items);
		}
	} catch (error) {
		throw paging.withProgress(error, fetched, numbers.length + 1);
	}
	return paging.mergePages(pages, selection);
}

/** A REST list's path (e.g. `/videos`) and filter, and what the call is for. */
export type RestListRequest = CallOptions & Pick<RestRequest, 'path' | 'qs'>;

/** One page of a REST list, checked for the envelope's shape (docs/service-facts.md, "REST lists"). */
export async function fetchRestPage(
	api: ServiceClient,
	request: RestListRequest,
	page: number,
	limit: number,
): Promise<paging.ListPage> {
	const qs = { ...request.qs, page, limit };
	const call = { ...request, method: 'GET' as const, qs, idempotent: true };
	const body = await api.sendForObject(call);
	const pagination = (body.pagination ?? {}) as IDataObject;
	const expected = 'Expected { data: [...], pagination: { total, ... } }';
	const problem = paging.pageProblem(body.data, pagination.total, expected, 'data');
	if (problem) throw api.error({ kind: 'shape', detail: problem }, call);
	// Checked at once: a page number, null (no more) or absent.
	const nextPage = pagination.next_page as number | null | undefined;
	if (nextPage !== undefined && nextPage !== null && !Number.isInteger(nextPage)) {
		const detail = `pagination.next_page must be a page number or null, got ${JSON.stringify(nextPage)}`;
		throw api.error({ kind: 'shape', detail }, call);
	}
	const [total, served] = [pagination.total as number, paging.servedLimit(pagination.limit, limit)];
	const at = isCount(pagination.page) ? pagination.page : page;
	// Without next_page, the total tells whether a page follows.
	const next = nextPage === undefined ? paging.pageAfter(at, Math.ceil(total / served)) : nextPage;
	return { items: body.data as IDataObject[], total, page: at, limit: served, nextPage: next };
}

/** A REST list (Get Many, the Asset picker, Wait for Completion, the trigger). */
export const restList = (request: RestListRequest): paging.ListStyle => ({
	sizeKey: `rest:${request.path}`,
	maxSize: REST_MAX_PAGE_SIZE,
	fetch: async (api, page, size) => await fetchRestPage(api, request, page, size),
});

/**
 * A query-style list (Get Many, the Template picker; docs/service-facts.md, "Query-style API"):
 * a constant query taking `$filter` and selecting `viewer.<field> { items ... total page limit
 * pages }`, its other variables the field selection switches. Its largest page size is not
 * stated, so a refused size is retried smaller.
 */
export const graphqlList = (
	request: GraphqlCall & { field: string; filter: IDataObject },
): paging.ListStyle<paging.ListPage & { pages: number }> => ({
	sizeKey: request.field,
	maxSize: GRAPHQL_PAGE_SIZE,
	async fetch(api, page, limit) {
		const variables = { ...request.variables, filter: { ...request.filter, page, limit } };
		const outcome = await tryGraphql(api, { ...request, variables });
		if (!outcome.ok) return outcome;
		const envelope = (outcome.viewer[request.field] ?? {}) as IDataObject;
		const expected = `Expected viewer.${request.field} { items, total, page, limit, pages }`;
		const path = `viewer.${request.field}.items`;
		const problem = paging.pageProblem(envelope.items, envelope.total, expected, path);
		if (problem) throw api.error({ kind: 'shape', detail: problem }, request);
		const [items, total] = [envelope.items as IDataObject[], envelope.total as number];
		const served = paging.servedLimit(envelope.limit, limit);
		const pages = isCount(envelope.pages) ? envelope.pages : Math.ceil(total / served);
		return { items, total, page, limit: served, pages, nextPage: paging.pageAfter(page, pages) };
	},
});
