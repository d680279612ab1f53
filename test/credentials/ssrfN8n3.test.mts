// The credential test under n8n 3.0's larger SSRF block list. n8n 3.0 adds to the ranges that
// `default` stands for in N8N_SSRF_BLOCKED_IP_RANGES (n8n-io/n8n pull request 38912, merged for
// v3: the shared address space 100.64.0.0/10, 6to4 2002::/16, NAT64 64:ff9b::/96 and the
// unspecified ::/128). The credential test answers an address it refuses with a data: URL whose
// host, [100::] (RFC 6666's discard-only prefix), n8n's SSRF check also looks at: it must stay
// outside that list, or the Test would show n8n's "blocked" sentence instead of its own.
import { allowLoopbackOnly, ssrfProtection } from '../harness/ssrf.mts';
import { testCredential } from '../harness/engine.mts';

const KEY = 'vp_test_key_0123456789';
const ADDED_IN_N8N_3 = ['100.64.0.0/10', '2002::/16', '64:ff9b::/96', '::/128'];

beforeAll(() => allowLoopbackOnly(['127.0.0.1/32'], ADDED_IN_N8N_3));

describe("Video Personalization API credential under n8n 3.0's SSRF block list", () => {
	it.each([
		['an empty Base URL', { baseUrl: '' }, /^The Base URL is empty\./],
		[
			'a plain-http remote Base URL',
			{ baseUrl: 'http://api.example.com/v1' },
			/^The Base URL must use https:\/\//,
		],
		[
			'a GraphQL Endpoint that is not an address',
			{ baseUrl: 'https://api.example.com/v1', graphqlEndpoint: 'not a url' },
			/^The GraphQL Endpoint is not a valid address\./,
		],
	])('keeps its sentence for %s, sending nothing', async (_case, addresses, message) => {
		const result = await testCredential({ apiKey: KEY, ...addresses });
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(message) });
	});

	it("is checked by n8n's protection with 3.0's ranges, which leave the test's [100::] outside", () => {
		const protection = ssrfProtection();
		for (const ip of ['100.64.0.1', '100.127.255.254', '2002:a00:1::', '64:ff9b::a00:1', '::'])
			expect([ip, protection.validateIp(ip).ok]).toEqual([ip, false]);
		for (const ip of ['100::', '100.63.255.255', '100.128.0.1'])
			expect([ip, protection.validateIp(ip).ok]).toEqual([ip, true]);
	});
});
