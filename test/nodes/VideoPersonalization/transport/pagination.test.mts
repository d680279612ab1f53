/** Lists through the engine: answers out of shape, services that serve another page size. */
import type { ServerResponse } from 'node:http';
import type { IDataObject } from 'n8n-workflow';

import { listSearch, runNode } from '../../../harness/engine.mts';
import {
	type RecordedRequest,
	sendJson,
	startTestServer,
	type TestServer,
} from '../../../harness/httpServer.mts';

describe('list answers out of shape, through the engine', () => {
	const servers: TestServer[] = [];
	afterAll(async () => await Promise.all(servers.map(async (server) => await server.close())));

	async function serve(
		handler: (request: RecordedRequest, response: ServerResponse) => void,
	): Promise<TestServer> {
		const server = await startTestServer(handler);
		servers.push(server);
		return server;
	}

	async function run(server: TestServer, parameters: IDataObject) {
		return await runNode({
			parameters,
			credentials: { apiKey: 'vpk_test_pagination_1234', baseUrl: `${server.url}/v1` },
		});
	}

	const videos = (from: number, count: number) =>
		Array.from({ length: count }, (_, index) => ({ id: `vid_${from + index}` }));
	const pageOf = (request: RecordedRequest) =>
		Number(new URL(request.url, 'http://x').searchParams.get('page'));
	const listVideos = { resource: 'video', operation: 'getAll', returnAll: true };

	it('Return All without next_page in the answers reads the total and fetches every page', async () => {
		const api = await serve((request, response) => {
			const page = pageOf(request);
			const items = page === 1 ? videos(1, 100) : page === 2 ? videos(101, 50) : [];
			sendJson(response, 200, { data: items, pagination: { total: 150, page, limit: 100 } });
		});
		const { items, error } = await run(api, listVideos);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(150);
		expect(api.requests.map(pageOf)).toEqual([1, 2]);
	});

	// A REST service whose pages hold 30 whatever is asked, and that says nothing about it: every
	// list (Get Many, the Asset picker) must read each record once, at the size it serves.
	const silentCap =
		(total: number, make: (from: number, count: number) => IDataObject[]) =>
		(request: RecordedRequest, response: ServerResponse) => {
			const page = pageOf(request);
			const asked = Number(new URL(request.url, 'http://x').searchParams.get('limit'));
			const from = (page - 1) * 30;
			const count = Math.max(0, Math.min(30, total - from));
			sendJson(response, 200, {
				data: make(from + 1, count),
				pagination: {
					total,
					page,
					limit: asked,
					next_page: from + count < total ? page + 1 : null,
				},
			});
		};

	it('a REST service that serves 30 a page whatever is asked: Get Many reads every record once', async () => {
		const api = await serve(silentCap(95, videos));
		const { items, error } = await run(api, listVideos);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.id)).toEqual(videos(1, 95).map((video) => video.id));
	});

	it('the same service: the Asset picker pages at 30 and lists every asset once', async () => {
		const assets = (from: number, count: number) =>
			Array.from({ length: count }, (_, index) => ({
				id: `ast_${from + index}`,
				name: `Asset ${from + index}`,
				type: 'image',
			}));
		const api = await serve(silentCap(95, assets));
		const credentials = { apiKey: 'vpk_test_pagination_1234', baseUrl: `${api.url}/v1` };
		const seen: string[] = [];
		const tokens: Array<string | undefined> = [];
		let token: string | undefined;
		do {
			const found = await listSearch('searchAssets', credentials, undefined, token);
			seen.push(...found.results.map((result) => String(result.value)));
			token = found.paginationToken;
			tokens.push(token);
		} while (token !== undefined && tokens.length < 10);
		expect(seen).toEqual(assets(1, 95).map((asset) => asset.id));
		expect(tokens).toEqual(['2:30', '3:30', '4:30', undefined]);
	});

	it('without next_page on a list that fits one page, asks for no second page', async () => {
		const api = await serve((_request, response) =>
			sendJson(response, 200, {
				data: videos(1, 30),
				pagination: { total: 30, page: 1, limit: 100 },
			}),
		);
		const { items, error } = await run(api, listVideos);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(30);
		expect(api.requests).toHaveLength(1);
	});

	it.each([['2'], [2.5], [true], [{ page: 2 }]])(
		'refuses a next_page of %j, naming it',
		async (nextPage) => {
			const api = await serve((_request, response) =>
				sendJson(response, 200, {
					data: videos(1, 100),
					pagination: { total: 150, page: 1, limit: 100, next_page: nextPage },
				}),
			);
			const { error } = await run(api, listVideos);
			expect(error?.message).toBe(
				"The service's answer to list videos was not what the API describes [item 0]",
			);
			expect(error?.description).toMatch(
				/^pagination\.next_page must be a page number or null, got /,
			);
		},
	);

	it.each([
		[null, 'null'],
		['vid_2', 'a string'],
		[7, 'a number'],
		[[{ id: 'vid_2' }], 'an array'],
	])('refuses a list entry that is %j, naming data[i]', async (entry, kind) => {
		const api = await serve((_request, response) =>
			sendJson(response, 200, {
				data: [{ id: 'vid_1' }, entry, { id: 'vid_3' }],
				pagination: { total: 3, page: 1, limit: 100, next_page: null },
			}),
		);
		const { error } = await run(api, listVideos);
		expect(error?.message).toBe(
			"The service's answer to list videos was not what the API describes [item 0]",
		);
		expect(error?.description).toBe(`data[1] is ${kind}, not an object`);
	});

	it('refuses a query-style list entry that is not an object, naming its path', async () => {
		const api = await serve((_request, response) =>
			sendJson(response, 200, {
				data: {
					viewer: {
						users: {
							items: [{ id: 'u1' }, { id: 'u2' }, null],
							total: 3,
							page: 1,
							limit: 100,
							pages: 1,
						},
					},
				},
			}),
		);
		const { error } = await run(api, { resource: 'user', operation: 'getAll', returnAll: true });
		expect(error?.message).toMatch(
			/^The service's answer to list users was not what the API describes/,
		);
		expect(error?.description).toBe('viewer.users.items[2] is null, not an object');
	});

	it('does not shrink the page size on a rate-limit error: the error shows at once', async () => {
		const api = await serve((_request, response) =>
			sendJson(response, 200, {
				errors: [{ message: 'Rate limit exceeded: at most 10 queries per minute' }],
				data: null,
			}),
		);
		const { error } = await run(api, { resource: 'user', operation: 'getAll', returnAll: true });
		expect(error?.message).toMatch(/^The service returned an error for list users/);
		expect(error?.description).toContain('Rate limit exceeded');
		expect(api.requests).toHaveLength(1);
	});
});
