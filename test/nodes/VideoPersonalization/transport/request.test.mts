/**
 * Answers the sandbox is not built to give (other error formats, redirects, echoed keys,
 * non-JSON success bodies), from plain HTTP servers on 127.0.0.1, through the real engine.
 */
import type { IDataObject } from 'n8n-workflow';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { allText, capturedLogs, runNode } from '../../../harness/engine.mts';
import { sendJson, startTestServer, type TestServer } from '../../../harness/httpServer.mts';

const KEY = 'vpk_echo_canary_77c1d2e3f4a5';

const getAsset = {
	resource: 'asset',
	operation: 'get',
	assetId: { __rl: true, mode: 'id', value: 'ast_1' },
};

async function run(
	server: TestServer,
	parameters: IDataObject = getAsset,
	extra: IDataObject = {},
) {
	return await runNode({
		parameters,
		credentials: { apiKey: KEY, baseUrl: `${server.url}/v1`, ...extra },
	});
}

describe('transport against other servers', () => {
	const servers: TestServer[] = [];
	afterAll(async () => await Promise.all(servers.map(async (server) => await server.close())));
	async function serve(handler: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
		const server = await startTestServer(handler);
		servers.push(server);
		return server;
	}

	it('does not follow a redirect to another host, so the key stays home', async () => {
		const elsewhere = await serve((_request, response) => sendJson(response, 200, { id: 'ast_1' }));
		const api = await serve((_request, response) => {
			response.writeHead(302, { Location: `${elsewhere.url}/steal` });
			response.end();
		});
		const { error } = await run(api);
		expect(elsewhere.requests).toHaveLength(0);
		expect(error?.message).toBe(
			`The service answered "get the asset with Asset ID "ast_1"" with a redirect (302) to ${elsewhere.url} [item 0]`,
		);
		expect(error?.description).toMatch(/never sent on to another address/);
	});

	it('keeps a key the server echoes back out of the error', async () => {
		const api = await serve((request, response) =>
			sendJson(response, 422, {
				errors: [{ detail: `bad header ${String(request.headers.authorization)}` }],
				message: `got ${String(request.headers.authorization)}`,
			}),
		);
		const { error, run: execution } = await run(api);
		expect(error?.message).toBe(
			'The service rejected the request to get the asset with Asset ID "ast_1" (422) [item 0]',
		);
		expect(error?.description).toContain('The service said: "got Bearer ***"');
		expect(allText(error)).not.toContain(KEY);
		expect(allText(execution)).not.toContain(KEY);
		expect(capturedLogs.join('\n')).not.toContain(KEY);
	});

	it.each([
		[
			409,
			{ message: 'asset is locked' },
			/refused to get the asset .* because of a conflict \(409\)/,
			/asset is locked/,
		],
		[
			415,
			'Unsupported Media Type',
			/does not accept this file format \(415\)/,
			/Accepted: images JPG/,
		],
		[413, { error: 'too big' }, /too large for the service \(413\)/, /images up to 10 MB/],
		[405, { error: { message: 'nope' } }, /does not allow this call/, /Check the Base URL/],
	])(
		'maps a %i in whatever format to a clear message',
		async (status, body, message, description) => {
			const api = await serve((_request, response) =>
				typeof body === 'string'
					? (response.writeHead(status, { 'Content-Type': 'text/plain' }), response.end(body))
					: sendJson(response, status, body),
			);
			const { error } = await run(api);
			expect(error?.message).toMatch(message);
			expect(error?.description).toMatch(description);
		},
	);

	it('says so when a success answer is not JSON', async () => {
		const api = await serve((_request, response) => {
			response.writeHead(200, { 'Content-Type': 'text/html' });
			response.end('<html><body>Welcome to nginx!</body></html>');
		});
		const { error } = await run(api);
		expect(error?.message).toBe(
			`The service's answer to get the asset with Asset ID "ast_1" was not what the API describes [item 0]`,
		);
		expect(error?.description).toBe('Expected JSON, got an HTML page (status 200)');
	});

	it('says so when a list answer has no pagination envelope', async () => {
		const api = await serve((_request, response) => sendJson(response, 200, [{ id: 'vid_1' }]));
		const { error } = await run(api, { resource: 'video', operation: 'getAll', returnAll: true });
		expect(error?.message).toMatch(/answer to list videos was not what the API describes/);
	});

	it('sends queries to the GraphQL Endpoint when one is set, and REST calls to the Base URL', async () => {
		const graphql = await serve((_request, response) =>
			sendJson(response, 200, { data: { viewer: { organisation: { id: 'org_1', name: 'Org' } } } }),
		);
		const api = await serve((_request, response) => sendJson(response, 404, {}));
		const { items, error } = await run(
			api,
			{ resource: 'organisation', operation: 'get', findBy: 'id', idValue: 'org_1' },
			{ graphqlEndpoint: `${graphql.url}/query` },
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ id: 'org_1', name: 'Org' });
		expect(graphql.requests.map((request) => [request.method, request.url])).toEqual([
			['POST', '/query'],
		]);
		expect(graphql.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
		const body = JSON.parse(graphql.requests[0].body) as IDataObject;
		expect(body.variables).toMatchObject({ criteria: { id: 'org_1' } });
		// What the user typed travels only in variables, never in the query text.
		expect(String(body.query)).not.toContain('org_1');
		expect(api.requests).toHaveLength(0);
	});

	it('reads a GraphQL error list sent with HTTP 400', async () => {
		const graphql = await serve((_request, response) =>
			sendJson(response, 400, {
				errors: [
					{
						message: 'Cannot query field "team" on type "User".',
						extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
					},
				],
			}),
		);
		const { error } = await run(
			graphql,
			{ resource: 'user', operation: 'get', findBy: 'id', idValue: 'u1' },
			{ graphqlEndpoint: `${graphql.url}/graphql` },
		);
		expect(error?.message).toBe('The service does not know the field "team" of User [item 0]');
		expect(error?.description).toMatch(/Deselect it under Options > Fields/);
	});
});

describe('a refused connection', () => {
	const listVideos = { resource: 'video', operation: 'getAll', returnAll: true };

	it('where nothing has answered in this execution: one quick retry, naming the address that refused', async () => {
		// A port that was free a moment ago: nothing listens there.
		const probe = createServer();
		await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
		const { port } = probe.address() as AddressInfo;
		await new Promise<void>((resolve) => probe.close(() => resolve()));
		const { error } = await runNode({
			parameters: listVideos,
			credentials: { apiKey: KEY, baseUrl: `http://localhost:${port}/v1` },
		});
		expect(error?.message).toMatch(
			new RegExp(
				`^Could not connect to the service to list videos: localhost:${port} ` +
					`\\((127\\.0\\.0\\.1|::1):${port}\\) refused the connection \\[item 0\\]$`,
			),
		);
		expect(error?.description).toBe(
			'Nothing accepts connections at that host and port. Check the port and host in the Base URL in ' +
				`the credential (now http://localhost:${port}/v1), and that the service is running. ` +
				'It was retried 1 time.',
		);
	});

	it('where the service has answered in this execution (a restart): the usual retries, until it is back', async () => {
		const page = (number: number) => ({
			data: Array.from({ length: number < 3 ? 100 : 50 }, (_, index) => ({
				id: `vid_${number}_${index}`,
			})),
			pagination: {
				total: 250,
				page: number,
				limit: 100,
				next_page: number < 3 ? number + 1 : null,
			},
		});
		let restarts = 0;
		let listening: Server | undefined;
		const start = async (port = 0): Promise<number> => {
			const server = createServer((request, response) => {
				const number = Number(
					new URL(request.url ?? '/', 'http://x').searchParams.get('page') ?? 1,
				);
				sendJson(response, 200, page(number));
				if (restarts > 0) return;
				// After its first answer the service goes away for 2 s, then comes back on its port.
				restarts++;
				const { port: own } = server.address() as AddressInfo;
				response.on('finish', () => {
					server.closeAllConnections();
					server.close();
					setTimeout(() => void start(own), 2000);
				});
			});
			await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
			listening = server;
			return (server.address() as AddressInfo).port;
		};
		const port = await start();
		try {
			const { items, error } = await runNode({
				parameters: listVideos,
				credentials: { apiKey: KEY, baseUrl: `http://127.0.0.1:${port}/v1` },
			});
			expect(error).toBeUndefined();
			expect(restarts).toBe(1);
			expect(items).toHaveLength(250);
		} finally {
			listening?.closeAllConnections();
			listening?.close();
		}
	});
});
