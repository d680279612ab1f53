import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	NodeApiError,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { fetchTemplateFields } from '../actions/template/locator';
import { TEMPLATE_SEARCH_QUERY } from '../helpers/queries';
import { serviceClient, type ServiceClient } from '../transport/client';
import {
	GRAPHQL_PAGE_SIZE,
	graphqlList,
	pageAtServiceSize,
	REST_MAX_PAGE_SIZE,
	type Listed,
	restList,
	type RestPage,
} from '../transport/pagination';

/** Templates per picker page, when the service takes that many (transport/pagination.ts finds out). */
const SEARCH_PAGE_SIZE = 50;

/**
 * The picker's pagination token: the next page and the page size the first page was read with,
 * so that every page of one listing is cut at the same size ("3:25").
 */
export function readPageToken(token: string | undefined): { page: number; size?: number } {
	const [pagePart, sizePart] = String(token ?? '').split(':');
	const page = Number(pagePart);
	const size = Number(sizePart);
	return {
		page: Number.isInteger(page) && page > 1 ? page : 1,
		...(Number.isInteger(size) && size >= 1 ? { size } : {}),
	};
}

/**
 * For a key that may not list templates (only admins may): the template whose exact name or ID
 * was typed in the search box, found with the lookup every key may make.
 */
async function lookUpTyped(
	api: ServiceClient,
	filter: string | undefined,
): Promise<INodeListSearchResult> {
	const typed = (filter ?? '').trim();
	if (!typed) {
		throw new NodeOperationError(
			api.ctx.getNode(),
			"Your API key may not list templates (only admins may). Type a template's exact name or ID in the search box, or choose By name.",
		);
	}
	const action = 'find the template typed in the picker';
	const found =
		(await fetchTemplateFields(api, { name: typed }, { action })) ??
		(await fetchTemplateFields(api, { id: typed }, { action }));
	return { results: found ? [{ name: found.name, value: found.id }] : [] };
}

/** Templates for the Template picker, searched by name on the service. */
export async function searchTemplates(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const { page, size: tokenSize } = readPageToken(paginationToken);
	const api = await serviceClient(this);
	const listed = await pageAtServiceSize(
		api,
		graphqlList({
			query: TEMPLATE_SEARCH_QUERY,
			field: 'videoTemplates',
			filter: filter ? { search: filter } : {},
			variables: {},
			action: 'list templates for the picker',
		}),
		page,
		Math.min(tokenSize ?? SEARCH_PAGE_SIZE, GRAPHQL_PAGE_SIZE),
	).catch((error: NodeApiError) => {
		// Only admins may list templates (403): other keys get the lookup below.
		if (error.httpCode === '403') return undefined;
		throw error;
	});
	if (!listed) return await lookUpTyped(api, filter);
	const { page: list, size } = listed;
	return {
		results: list.items.map((template: IDataObject) => ({
			name: template.templateType
				? `${String(template.name)} (${String(template.templateType)})`
				: String(template.name),
			value: String(template.id),
		})),
		paginationToken: page < list.pages && list.items.length > 0 ? `${page + 1}:${size}` : undefined,
	};
}

/** With a search text, pages read per call until enough names match (the list API cannot search). */
const ASSET_SEARCH_MAX_PAGES = 10;
const ASSET_SEARCH_ENOUGH = 20;

/** Assets for the Asset picker; the list API has no name search, so names are matched here. */
export async function searchAssets(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const api = await serviceClient(this);
	const needle = (filter ?? '').trim().toLowerCase();
	const assets = restList({ path: '/assets', action: 'list assets for the picker' });
	const isMatch = (asset: IDataObject) =>
		String(asset.name ?? '')
			.toLowerCase()
			.includes(needle) || String(asset.id) === filter;
	const maxPages = needle ? ASSET_SEARCH_MAX_PAGES : 1;
	const matches: IDataObject[] = [];
	const token = readPageToken(paginationToken);
	let page: number | null = token.page;
	let size = token.size ?? REST_MAX_PAGE_SIZE;
	for (let read = 0; read < maxPages && page !== null; read++) {
		if (matches.length >= ASSET_SEARCH_ENOUGH) break;
		const result: Listed<RestPage> = await pageAtServiceSize(api, assets, page, size);
		size = result.size;
		matches.push(...result.page.items.filter(isMatch));
		page = result.page.nextPage;
	}
	return {
		// The ID too: two assets may share a name.
		results: matches.map((asset) => ({
			name: `${String(asset.name)} (${String(asset.type)}, ${String(asset.id)})`,
			value: String(asset.id),
			url: typeof asset.url === 'string' ? asset.url : undefined,
		})),
		paginationToken: page !== null ? `${page}:${size}` : undefined,
	};
}
