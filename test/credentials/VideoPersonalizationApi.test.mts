import { NodeHelpers } from 'n8n-workflow';

import { parseServiceConfig } from '../../nodes/VideoPersonalization/transport/config.ts';
import { allText, credentialType, runNode, testCredential } from '../harness/engine.mts';
import { sendJson, startTestServer, type TestServer } from '../harness/httpServer.mts';

const KEY = 'vp_test_key_0123456789';

const emptyList = {
	data: [],
	pagination: { total: 0, page: 1, limit: 1, next_page: null, prev_page: null },
};

describe('Video Personalization API credential', () => {
	let server: TestServer;

	beforeAll(async () => {
		server = await startTestServer((request, response) => {
			if (!request.url.startsWith('/v1/videos')) return sendJson(response, 404, { message: 'no such route' });
			if (request.headers.authorization !== `Bearer ${KEY}`) return sendJson(response, 401, { message: 'bad key' });
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

	it('passes its test with a good key and base URL', async () => {
		const result = await testCredential({ apiKey: KEY, baseUrl: `${server.url}/v1/` });
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(server.requests.map((request) => request.url)).toEqual(['/v1/videos?limit=1']);
		expect(server.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
	});

	it('tells a bad key apart from a bad URL', async () => {
		const badKey = await testCredential({ apiKey: 'wrong', baseUrl: `${server.url}/v1` });
		expect(badKey.status).toBe('Error');
		expect(badKey.message).toMatch(/rejected the API key \(401\)/);

		const badPath = await testCredential({ apiKey: KEY, baseUrl: `${server.url}/api/v1` });
		expect(badPath.status).toBe('Error');
		expect(badPath.message).toMatch(/Check the Base URL/);
		expect(badPath.message).not.toMatch(/API key/);
	});

	// One table for the three places the Base URL is checked: the notices in the credential
	// form, the credential test (which must not send the key), and the nodes' own check.
	const cases: Array<[string, (url: string) => string, { valid: boolean; versionNotice: boolean; httpsNotice: boolean }]> = [
		['the loopback sandbox', (url) => `${url}/v1`, { valid: true, versionNotice: false, httpsNotice: false }],
		['a trailing slash', (url) => `${url}/v1/`, { valid: true, versionNotice: false, httpsNotice: false }],
		['https to any host', () => 'https://api.example.com/v1', { valid: true, versionNotice: false, httpsNotice: false }],
		['no /v1 at the end', (url) => `${url}/v2`, { valid: false, versionNotice: true, httpsNotice: false }],
		['http to a host that is not loopback', () => 'http://api.example.com/v1', { valid: false, versionNotice: false, httpsNotice: true }],
		['http to a host named like loopback', () => 'http://localhost.evil.com/v1', { valid: false, versionNotice: false, httpsNotice: true }],
		['not an address', () => 'api example com', { valid: false, versionNotice: true, httpsNotice: false }],
	];

	it.each(cases)('checks a Base URL with %s the same way everywhere', async (_case, makeUrl, expected) => {
		const baseUrl = makeUrl(server.url);
		const type = await credentialType();
		const notice = (name: string) =>
			NodeHelpers.displayParameter({ baseUrl }, type.properties.find((property) => property.name === name)!, null, null);
		expect(notice('baseUrlVersionNotice')).toBe(expected.versionNotice);
		expect(notice('baseUrlHttpsNotice')).toBe(expected.httpsNotice);
		expect(parseServiceConfig({ apiKey: KEY, baseUrl }).ok).toBe(expected.valid);

		// A valid address elsewhere would mean a real outbound connection: not tried here.
		if (expected.valid && !baseUrl.startsWith(server.url)) return;
		const result = await testCredential({ apiKey: KEY, baseUrl });
		if (expected.valid) {
			expect(result.status).toBe('OK');
		} else {
			expect(result).toEqual({ status: 'Error', message: 'Invalid URL' });
			expect(server.requests).toHaveLength(0);
		}
		expect(allText(result)).not.toContain(KEY);
	});

	it('refuses to run a node against a plain-http remote host and names the credential field', async () => {
		const result = await runNode({
			parameters: { resource: 'video', operation: 'getAll', returnAll: true },
			credentials: { apiKey: KEY, baseUrl: 'http://api.example.com/v1' },
		});
		expect(result.error?.message).toMatch(/Base URL must use https/);
		expect(allText(result.run)).not.toContain(KEY);
	});
});
