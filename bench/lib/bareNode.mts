// Diagnosis for the Return All benchmark: the least a node can do in n8n's engine to fetch a
// REST list (page 1, then the other pages `concurrency` at a time, the benchmark passes the
// node's PAGE_CONCURRENCY), with no checks, retries or merging.
// Two variants: through n8n's httpRequestWithAuthentication (what every verified node must
// use), and through plain httpRequest with the header set by hand (what the lint forbids), so
// the cost of n8n's credential resolution per request shows apart from its HTTP client.
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

import { CREDENTIAL_TYPE, registerNodeType } from '../../test/harness/engine.mts';

export const BARE_LIST_TYPE = 'bench.bareList';

interface Page {
	data: IDataObject[];
	pagination: { total: number };
}

const bareList: INodeType = {
	description: {
		displayName: 'Bare List',
		name: 'bareList',
		group: ['transform'],
		version: 1,
		description: 'Benchmark floor: fetches every page of a REST list',
		defaults: { name: 'Bare List' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: [
			{ displayName: 'Path', name: 'path', type: 'string', default: '/assets' },
			{
				displayName: 'Authenticated Helper',
				name: 'withAuthentication',
				type: 'boolean',
				default: true,
			},
			{ displayName: 'Pages in Flight', name: 'concurrency', type: 'number', default: 4 },
		],
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const credentials = await this.getCredentials(CREDENTIAL_TYPE);
		const baseUrl = String(credentials.baseUrl);
		const path = this.getNodeParameter('path', 0) as string;
		const withAuthentication = this.getNodeParameter('withAuthentication', 0) as boolean;
		const concurrency = this.getNodeParameter('concurrency', 0) as number;
		const get = async (page: number): Promise<Page> => {
			const options = {
				method: 'GET' as const,
				url: `${baseUrl}${path}`,
				qs: { page, limit: 100 },
				json: true,
			};
			if (withAuthentication)
				return (await this.helpers.httpRequestWithAuthentication.call(
					this,
					CREDENTIAL_TYPE,
					options,
				)) as Page;
			return (await this.helpers.httpRequest({
				...options,
				headers: { Authorization: `Bearer ${String(credentials.apiKey)}` },
			})) as Page;
		};
		const first = await get(1);
		const pages = Array.from(
			{ length: Math.ceil(first.pagination.total / 100) - 1 },
			(_, index) => index + 2,
		);
		const results = new Array<Page>(pages.length);
		let next = 0;
		const worker = async () => {
			while (next < pages.length) {
				const index = next++;
				results[index] = await get(pages[index]);
			}
		};
		await Promise.all(Array.from({ length: concurrency }, worker));
		return [[first, ...results].flatMap((page) => page.data.map((json) => ({ json })))];
	},
};

registerNodeType(BARE_LIST_TYPE, bareList);
