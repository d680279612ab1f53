import { NodeHelpers } from 'n8n-workflow';

import { parseServiceConfig } from '../../nodes/VideoPersonalization/transport/config.ts';
import { allText, credentialType, runNode, testCredential } from '../harness/engine.mts';
import { useSandbox } from '../harness/fixtures.mts';
import { sendJson, startTestServer, type TestServer } from '../harness/httpServer.mts';

const KEY = 'vp_test_key_0123456789';

const emptyList = {
	data: [],
	pagination: { total: 0, page: 1, limit: 1, next_page: null, prev_page: null },
};

describe('Video Personalization API credential', () => {
	let server: TestServer;

	beforeAll(async () => {
		// REST under /v1, queries at /v1/graphql and (a service that takes them elsewhere) /q/graphql;
		// /html/graphql answers a web page with 200, /gql-errors/graphql a GraphQL error with 200.
		server = await startTestServer((request, response) => {
			const route = request.url.split('?')[0];
			const isQuery = route === '/v1/graphql' || route === '/q/graphql';
			if (
				!route.startsWith('/v1/videos') &&
				!isQuery &&
				route !== '/html/graphql' &&
				route !== '/gql-errors/graphql'
			) {
				return sendJson(response, 404, { message: 'no such route' });
			}
			if (route === '/gql-errors/graphql') {
				return sendJson(response, 200, {
					data: null,
					errors: [{ message: 'no key', extensions: { code: 'UNAUTHENTICATED' } }],
				});
			}
			if (request.headers.authorization !== `Bearer ${KEY}`)
				return sendJson(response, 401, { message: 'bad key' });
			if (route === '/html/graphql') {
				response.writeHead(200, { 'content-type': 'text/html' });
				return response.end('<html><body>Welcome</body></html>');
			}
			if (isQuery) {
				if (request.method !== 'POST') return sendJson(response, 405, { message: 'POST only' });
				return sendJson(response, 200, { data: { viewer: { __typename: 'Viewer' } } });
			}
			sendJson(response, 200, emptyList);
		});
	});
	afterAll(async () => await server.close());
	beforeEach(() => server.requests.splice(0));

	it('sends the key as a bearer header to a server on 127.0.0.1 when a node runs', async () => {
		const result = await runNode({
			parameters: { resource: 'video', operation: 'getAll', returnAll: true },
			credentials: { apiKey: KEY, baseUrl: `${server.url}/v1` },
		});
		expect(result.error).toBeUndefined();
		expect(server.requests).toHaveLength(1);
		expect(server.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
		expect(server.requests[0].url).toBe('/v1/videos?page=1&limit=100');
	});

	it('passes its test with one cheap query where the operations send theirs', async () => {
		const result = await testCredential({ apiKey: KEY, baseUrl: `${server.url}/v1/` });
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
			'POST /v1/graphql',
		]);
		expect(server.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
		expect(JSON.parse(server.requests[0].body)).toEqual({
			query: 'query CredentialTest { viewer { __typename } }',
		});

		const elsewhere = await testCredential({
			apiKey: KEY,
			baseUrl: `${server.url}/v1`,
			graphqlEndpoint: `${server.url}/q/graphql/`,
		});
		expect(elsewhere).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(server.requests.at(-1)?.url).toBe('/q/graphql');
	});

	it('fails a GraphQL Endpoint left at its default on a service that takes queries elsewhere, naming the field', async () => {
		const result = await testCredential({ apiKey: KEY, baseUrl: `${server.url}/q/v1` });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^Nothing takes queries at the GraphQL endpoint \(404\)/);
		expect(result.message).toContain('GraphQL Endpoint field');
		expect(result.message).not.toMatch(/API key|record|ID or name/);
	});

	it('tells a bad key apart from a bad address, whether the key is refused with 401 or a GraphQL error', async () => {
		const badKey = await testCredential({ apiKey: 'wrong', baseUrl: `${server.url}/v1` });
		expect(badKey).toEqual({
			status: 'Error',
			message: expect.stringMatching(/rejected the API key \(401\)/),
		});

		const inBody = await testCredential({
			apiKey: KEY,
			baseUrl: `${server.url}/v1`,
			graphqlEndpoint: `${server.url}/gql-errors/graphql`,
		});
		expect(inBody).toEqual({
			status: 'Error',
			message: expect.stringMatching(
				/^The service rejected the API key\. It is mistyped, revoked or expired/,
			),
		});

		const badPath = await testCredential({ apiKey: KEY, baseUrl: `${server.url}/api/v1` });
		expect(badPath.status).toBe('Error');
		expect(badPath.message).toMatch(/check the Base URL/);
		expect(badPath.message).not.toMatch(/API key/);
	});

	it('fails an address that answers a web page instead of a query result', async () => {
		const result = await testCredential({
			apiKey: KEY,
			baseUrl: `${server.url}/v1`,
			graphqlEndpoint: `${server.url}/html/graphql`,
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^The GraphQL endpoint answered, but not with a query result\. Set the GraphQL Endpoint field/,
		);
	});

	it.each([
		['an empty Base URL', { baseUrl: '  ' }, /^The Base URL is empty\./],
		[
			'a Base URL that is not an address',
			{ baseUrl: 'api example com' },
			/^The Base URL is not a valid address\./,
		],
		[
			'a Base URL with a user name',
			{ baseUrl: 'https://me:pw@api.example.com/v1' },
			/^The Base URL is not a valid address\./,
		],
		[
			'a plain-http remote Base URL',
			{ baseUrl: 'http://api.example.com/v1' },
			/^The Base URL must use https:\/\/.*The key was not sent\./,
		],
		[
			'a Base URL without /v1',
			{ baseUrl: 'https://api.example.com/v2' },
			/^The Base URL must end in \/v1/,
		],
		[
			'a GraphQL Endpoint that is not an address',
			{ baseUrl: 'https://api.example.com/v1', graphqlEndpoint: 'graphql' },
			/^The GraphQL Endpoint is not a valid address\./,
		],
		[
			'a plain-http remote GraphQL Endpoint',
			{ baseUrl: 'https://api.example.com/v1', graphqlEndpoint: 'http://q.example.com/graphql' },
			/^The GraphQL Endpoint is not a valid address\./,
		],
	])(
		'answers %s with a sentence, without sending the key anywhere',
		async (_case, addresses, message) => {
			const result = await testCredential({ apiKey: KEY, ...addresses });
			expect(result).toEqual({ status: 'Error', message: expect.stringMatching(message) });
			expect(server.requests).toHaveLength(0);
		},
	);

	// One table for the three places the Base URL is checked: the notices in the credential
	// form, the credential test (which must not send the key), and the nodes' own check.
	const cases: Array<
		[
			string,
			(url: string) => string,
			{ valid: boolean; versionNotice: boolean; httpsNotice: boolean },
		]
	> = [
		[
			'the loopback sandbox',
			(url) => `${url}/v1`,
			{ valid: true, versionNotice: false, httpsNotice: false },
		],
		[
			'a trailing slash',
			(url) => `${url}/v1/`,
			{ valid: true, versionNotice: false, httpsNotice: false },
		],
		[
			'https to any host',
			() => 'https://api.example.com/v1',
			{ valid: true, versionNotice: false, httpsNotice: false },
		],
		[
			'no /v1 at the end',
			(url) => `${url}/v2`,
			{ valid: false, versionNotice: true, httpsNotice: false },
		],
		[
			'http to a host that is not loopback',
			() => 'http://api.example.com/v1',
			{ valid: false, versionNotice: false, httpsNotice: true },
		],
		[
			'http to a host named like loopback',
			() => 'http://localhost.evil.com/v1',
			{ valid: false, versionNotice: false, httpsNotice: true },
		],
		[
			'not an address',
			() => 'api example com',
			{ valid: false, versionNotice: true, httpsNotice: false },
		],
	];

	it.each(cases)(
		'checks a Base URL with %s the same way everywhere',
		async (_case, makeUrl, expected) => {
			const baseUrl = makeUrl(server.url);
			const type = await credentialType();
			const notice = (name: string) =>
				NodeHelpers.displayParameter(
					{ baseUrl },
					type.properties.find((property) => property.name === name)!,
					null,
					null,
				);
			expect(notice('baseUrlVersionNotice')).toBe(expected.versionNotice);
			expect(notice('baseUrlHttpsNotice')).toBe(expected.httpsNotice);
			expect(parseServiceConfig({ apiKey: KEY, baseUrl }).ok).toBe(expected.valid);

			// A valid address elsewhere would mean a real outbound connection: not tried here.
			if (expected.valid && !baseUrl.startsWith(server.url)) return;
			const result = await testCredential({ apiKey: KEY, baseUrl });
			if (expected.valid) {
				expect(result.status).toBe('OK');
			} else {
				expect(result).toEqual({
					status: 'Error',
					message: expect.stringMatching(/^The Base URL (must|is not)/),
				});
				expect(server.requests).toHaveLength(0);
			}
			expect(allText(result)).not.toContain(KEY);
		},
	);

	it.each([
		['left empty', '', false],
		['https to any host', 'https://q.example.com/graphql', false],
		['http on this machine', 'http://127.0.0.1:5680/v1/graphql', false],
		['http to localhost', 'http://localhost:5680/graphql', false],
		['not an address', 'not a url', true],
		['http to another machine', 'http://q.example.com/graphql', true],
	])(
		'shows the GraphQL Endpoint notice for an endpoint %s: %s',
		async (_case, graphqlEndpoint, shown) => {
			const type = await credentialType();
			const notice = type.properties.find((property) => property.name === 'graphqlEndpointNotice')!;
			expect(NodeHelpers.displayParameter({ graphqlEndpoint }, notice, null, null)).toBe(shown);
		},
	);

	it('refuses to run a node against a plain-http remote host and names the credential field', async () => {
		const result = await runNode({
			parameters: { resource: 'video', operation: 'getAll', returnAll: true },
			credentials: { apiKey: KEY, baseUrl: 'http://api.example.com/v1' },
		});
		expect(result.error?.message).toMatch(/Base URL must use https/);
		expect(allText(result.run)).not.toContain(KEY);
	});
});

describe('an expired key', () => {
	const sandbox = useSandbox();

	it("the credential test names the possible causes; a node run quotes the service's reason", async () => {
		const s = sandbox();
		const credentials = { apiKey: s.keys.expired, baseUrl: s.baseUrl };
		// n8n gives a credential test fixed texts only (README, "Credentials").
		expect(await testCredential(credentials)).toEqual({
			status: 'Error',
			message: expect.stringMatching(
				/^The service rejected the API key \(401\)\. It is mistyped, revoked or expired/,
			),
		});
		const { error } = await runNode({
			parameters: { resource: 'video', operation: 'getAll', returnAll: false, limit: 1 },
			credentials,
		});
		expect(error?.description).toMatch(
			/The service said: "The API key expired on \d{4}-\d{2}-\d{2}T[^;]*; create a new key/,
		);
	});
});
