import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { TEMPLATE_SEARCH_QUERY } from '../helpers/queries';
import { serviceClient } from '../transport/client';
import { graphql } from '../transport/graphql';
import { fetchRestPage } from '../transport/pagination';

const SEARCH_PAGE_SIZE = 50;

function nextPage(token: string | undefined): number {
	const page = Number(token);
	return Number.isInteger(page) && page > 1 ? page : 1;
}

/** Templates for the Template picker, searched by name on the service. */
export async function searchTemplates(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = nextPage(paginationToken);
	const search = filter ? { search: filter } : {};
	const viewer = await graphql(await serviceClient(this), {
		query: TEMPLATE_SEARCH_QUERY,
		variables: { filter: { ...search, page, limit: SEARCH_PAGE_SIZE } },
		action: 'list templates for the picker',
		permission: 'Listing templates needs admin access: choose the template By ID or By Name instead.',
	});
	const list = (viewer.videoTemplates ?? {}) as IDataObject;
	const items = Array.isArray(list.items) ? (list.items as IDataObject[]) : [];
	const pages = typeof list.pages === 'number' ? list.pages : page;
	return {
		results: items.map((template) => ({
			name: template.templateType
				? `${String(template.name)} (${String(template.templateType)})`
				: String(template.name),
			value: String(template.id),
		})),
		paginationToken: page < pages ? String(page + 1) : undefined,
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
	const request = { path: '/assets', action: 'list assets for the picker' };
	const isMatch = (asset: IDataObject) =>
		!needle ||
		String(asset.name ?? '')
			.toLowerCase()
			.includes(needle) ||
		String(asset.id) === filter;
	const maxPages = needle ? ASSET_SEARCH_MAX_PAGES : 1;
	const matches: IDataObject[] = [];
	let page: number | null = nextPage(paginationToken);
	for (let read = 0; page !== null && read < maxPages && matches.length < ASSET_SEARCH_ENOUGH; read++) {
		const result = await fetchRestPage(api, request, page, 100);
		matches.push(...result.items.filter(isMatch));
		page = result.nextPage;
	}
	return {
		results: matches.map((asset) => ({
			name: `${String(asset.name)} (${String(asset.type)})`,
			value: String(asset.id),
			url: typeof asset.url === 'string' ? asset.url : undefined,
		})),
		paginationToken: page !== null ? String(page) : undefined,
	};
}
