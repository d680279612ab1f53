// The credential test under n8n's SSRF protection, as a security-minded administrator runs n8n:
// protection on with n8n's default blocked ranges and the sandbox's address allowed by IP range
// (N8N_SSRF_ALLOWED_IP_RANGES=127.0.0.1/32, README "Security"). 127.0.0.2 stays blocked: a
// server there stands for an address the administrator did not allow, and being loopback,
// nothing sent to it would leave the machine.
import { allowLoopbackOnly } from '../harness/ssrf.mts';
import { allText, testCredential } from '../harness/engine.mts';
import { sendJson, startTestServer, type TestServer } from '../harness/httpServer.mts';

const KEY = 'vp_test_key_0123456789';

describe('Video Personalization API credential under SSRF protection', () => {
	let allowed: TestServer;
	let blocked: TestServer;

	beforeAll(async () => {
		allowLoopbackOnly();
		const answer: Parameters<typeof startTestServer>[0] = (_request, response) =>
			sendJson(response, 200, { data: { viewer: { __typename: 'Viewer' } } });
		allowed = await startTestServer(answer);
		blocked = await startTestServer(answer, '127.0.0.2');
	});
	afterAll(async () => {
		await allowed.close();
		await blocked.close();
	});

	it('passes for an allowed address', async () => {
		expect(await testCredential({ apiKey: KEY, baseUrl: `${allowed.url}/v1` })).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(allowed.requests).toHaveLength(1);
	});

	it.each([
		['an empty Base URL', { baseUrl: '' }, /^The Base URL is empty\./],
		[
			'a Base URL that is not an address',
			{ baseUrl: 'not a url' },
			/^The Base URL is not a valid address\./,
		],
		[
			'a plain-http remote Base URL',
			{ baseUrl: 'http://api.example.com/v1' },
			/^The Base URL must use https:\/\//,
		],
		[
			'a Base URL without /v1',
			{ baseUrl: 'https://api.example.com/v2' },
			/^The Base URL must end in \/v1/,
		],
		[
			'a GraphQL Endpoint that is not an address',
			{ baseUrl: 'https://api.example.com/v1', graphqlEndpoint: 'not a url' },
			/^The GraphQL Endpoint is not a valid address\./,
		],
	])('keeps its sentence for %s, sending nothing', async (_case, addresses, message) => {
		const result = await testCredential({ apiKey: KEY, ...addresses });
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(message) });
		expect(allowed.requests).toHaveLength(1);
		expect(blocked.requests).toHaveLength(0);
	});

	it("says n8n's SSRF protection blocked an address it does not allow, which received nothing", async () => {
		const result = await testCredential({ apiKey: KEY, baseUrl: `${blocked.url}/v1` });
		// n8n's own sentence (its description, with the address, does not reach the test's answer).
		expect(result).toEqual({
			status: 'Error',
			message: 'The request was blocked because it resolves to a restricted IP address',
		});
		expect(blocked.requests).toHaveLength(0);
		expect(allText(result)).not.toContain(KEY);
	});
});
