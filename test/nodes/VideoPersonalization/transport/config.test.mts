/**
 * The credential's addresses (docs/service-facts.md, "Addresses and the key": the base address
 * carries /v1; the key travels in a header, so it must never cross a network in clear or be sent
 * to an address the user did not set).
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import {
	fileUrlProblem,
	isLoopbackHost,
	parseServiceConfig,
	type ServiceConfig,
	type ServiceConfigResult,
} from '../../../../nodes/VideoPersonalization/transport/config.ts';

function accepted(result: ServiceConfigResult): ServiceConfig {
	if (!result.ok) throw new Error(`expected the address to be accepted, got: ${result.message}`);
	return result.config;
}

function refused(result: ServiceConfigResult): string {
	if (result.ok)
		throw new Error(`expected the address to be refused, got: ${JSON.stringify(result.config)}`);
	return result.message;
}

function parse(baseUrl: unknown, graphqlEndpoint?: unknown): ServiceConfigResult {
	const credentials: ICredentialDataDecryptedObject = { apiKey: 'vpk_test_key' };
	if (baseUrl !== undefined) credentials.baseUrl = baseUrl as string;
	if (graphqlEndpoint !== undefined) credentials.graphqlEndpoint = graphqlEndpoint as string;
	return parseServiceConfig(credentials);
}

describe('isLoopbackHost', () => {
	it.each([
		'localhost',
		'LOCALHOST',
		'LocalHost',
		'127.0.0.1',
		'127.0.0.53',
		'127.1.2.3',
		'127.255.255.254',
		'[::1]',
		'::1',
	])('%s is the local machine', (host) => {
		expect(isLoopbackHost(host)).toBe(true);
	});

	it.each([
		'example.com',
		'api.example.com',
		'localhost.example.com',
		'mylocalhost',
		'evil-localhost',
		'127.0.0.1.nip.io',
		'1127.0.0.1',
		'128.0.0.1',
		'10.0.0.1',
		'192.168.1.10',
		'0.0.0.0',
		'127.0.0',
		'[::2]',
		'[::]',
		'',
	])('%s is not the local machine', (host) => {
		expect(isLoopbackHost(host)).toBe(false);
	});
});

describe('parseServiceConfig: accepted base URLs', () => {
	it.each([
		// [typed in the credential, base URL used]
		['https://api.example.com/v1', 'https://api.example.com/v1'],
		['https://api.example.com/v1/', 'https://api.example.com/v1'],
		['https://api.example.com/v1///', 'https://api.example.com/v1'],
		['  https://api.example.com/v1  ', 'https://api.example.com/v1'],
		['https://api.example.com/video/api/v1', 'https://api.example.com/video/api/v1'],
		['https://api.example.com:8443/v1', 'https://api.example.com:8443/v1'],
		['HTTPS://API.Example.COM/v1', 'https://api.example.com/v1'],
		['https://localhost/v1', 'https://localhost/v1'],
		// http only to the local machine
		['http://localhost/v1', 'http://localhost/v1'],
		['http://localhost:3000/v1/', 'http://localhost:3000/v1'],
		['http://LOCALHOST:3000/v1', 'http://localhost:3000/v1'],
		['http://127.0.0.1:8080/v1', 'http://127.0.0.1:8080/v1'],
		['http://127.10.20.30/v1', 'http://127.10.20.30/v1'],
		['http://[::1]:9000/v1', 'http://[::1]:9000/v1'],
	])('%j gives the base %s and the GraphQL endpoint <base>/graphql', (typed, base) => {
		const config = accepted(parse(typed));
		expect(config.baseUrl).toBe(base);
		expect(config.graphqlUrl).toBe(`${base}/graphql`);
	});

	it('gives addresses that a path can be appended to (no trailing slash, no ? or #)', () => {
		for (const typed of [
			'https://api.example.com/v1',
			'https://api.example.com/v1/',
			'http://localhost:3000/v1//',
		]) {
			const config = accepted(parse(typed));
			expect(config.baseUrl).toMatch(/\/v1$/);
			expect(config.baseUrl).not.toMatch(/[?#]/);
			expect(new URL(`${config.baseUrl}/videos`).pathname).toMatch(/\/v1\/videos$/);
		}
	});

	// Node 20's URL.canParse, once V8 has optimised the caller, reads a Latin-1 string's bytes as
	// UTF-8 and says no: CI refused https://bücher.example/v1 after a few thousand addresses.
	it('accepts a host or path with a Latin-1 letter however often it is asked', () => {
		const verdicts = new Set<string>();
		for (let call = 0; call < 100_000; call++) {
			const typed = call % 2 ? 'https://bücher.example/v1' : 'https://api.example.com/café/v1';
			const result = parse(typed);
			verdicts.add(result.ok ? result.config.baseUrl : result.message);
		}
		expect([...verdicts].sort()).toEqual([
			'https://api.example.com/caf%C3%A9/v1',
			'https://xn--bcher-kva.example/v1',
		]);
		expect(fileUrlProblem('https://cdn.example.com/vidéo.mp4')).toBeUndefined();
	});
});

describe('parseServiceConfig: refused base URLs', () => {
	it.each([
		// [typed, what the message must say]
		[undefined, /Base URL is empty/],
		['', /Base URL is empty/],
		['   ', /Base URL is empty/],
		['/', /Base URL is empty/],
		['not a url', /Base URL "not a url" is not a valid address/],
		['api.example.com/v1', /Base URL "api\.example\.com\/v1" is not a valid address/],
		['https://', /Base URL .* is not a valid address/],
		['ftp://api.example.com/v1', /Base URL must start with https:\/\//],
		['ws://api.example.com/v1', /Base URL must start with https:\/\//],
		['file:///etc/v1', /Base URL must start with https:\/\//],
		['http://api.example.com/v1', /Base URL must use https:\/\/.*only for localhost/],
		['http://10.0.0.5/v1', /Base URL must use https:\/\//],
		['http://192.168.1.10:8080/v1', /Base URL must use https:\/\//],
		['http://0.0.0.0/v1', /Base URL must use https:\/\//],
		['http://localhost.example.com/v1', /Base URL must use https:\/\//],
		['http://127.0.0.1.nip.io/v1', /Base URL must use https:\/\//],
		[
			'https://user:password@api.example.com/v1',
			/Base URL must not contain a user name or password/,
		],
		['https://user@api.example.com/v1', /Base URL must not contain a user name or password/],
		['https://:password@api.example.com/v1', /Base URL must not contain a user name or password/],
		[
			'https://api.example.com/v1?team=1',
			/Base URL must not contain a query \(\?\) or fragment \(#\)/,
		],
		[
			'https://api.example.com/v1#docs',
			/Base URL must not contain a query \(\?\) or fragment \(#\)/,
		],
		['https://api.example.com/v1?', /Base URL must not contain a query \(\?\) or fragment \(#\)/],
		['https://api.example.com/v1#', /Base URL must not contain a query \(\?\) or fragment \(#\)/],
		['https://api.example.com/v1/?', /Base URL must not contain a query \(\?\) or fragment \(#\)/],
		['https://api.example.com', /Base URL must end in \/v1/],
		['https://api.example.com/', /Base URL must end in \/v1/],
		['https://api.example.com/v2', /Base URL must end in \/v1/],
		['https://api.example.com/v10', /Base URL must end in \/v1/],
		['https://api.example.com/xv1', /Base URL must end in \/v1/],
		['https://api.example.com/v1/videos', /Base URL must end in \/v1/],
		['https://api.example.com/v1/graphql', /Base URL must end in \/v1/],
	])('%j is refused', (typed, message) => {
		expect(refused(parse(typed))).toMatch(message);
	});

	it('suggests the address with /v1 on the same origin', () => {
		expect(refused(parse('https://api.example.com:8443/api'))).toContain(
			'https://api.example.com:8443/v1',
		);
	});

	it('refuses the base URL whatever the GraphQL endpoint says', () => {
		expect(refused(parse('http://api.example.com/v1', 'https://api.example.com/graphql'))).toMatch(
			/^Base URL/,
		);
	});
});

describe('parseServiceConfig: GraphQL endpoint', () => {
	const base = 'https://api.example.com/v1';

	it.each([undefined, '', '   ', '/'])('defaults to <base>/graphql when it is %j', (endpoint) => {
		expect(accepted(parse(base, endpoint)).graphqlUrl).toBe(`${base}/graphql`);
	});

	it('defaults from the cleaned base, without a doubled slash', () => {
		expect(accepted(parse('https://api.example.com/v1//', undefined)).graphqlUrl).toBe(
			'https://api.example.com/v1/graphql',
		);
	});

	it.each([
		['https://gql.example.com/graphql', 'https://gql.example.com/graphql'],
		['https://gql.example.com/graphql/', 'https://gql.example.com/graphql'],
		[' https://gql.example.com/query ', 'https://gql.example.com/query'],
		['https://api.example.com/v1/graphql', 'https://api.example.com/v1/graphql'],
		['http://localhost:4000/graphql', 'http://localhost:4000/graphql'],
		['http://127.0.0.1:4000/graphql', 'http://127.0.0.1:4000/graphql'],
	])('accepts %j (no /v1 needed) as %s and keeps the base', (typed, url) => {
		const config = accepted(parse(base, typed));
		expect(config.graphqlUrl).toBe(url);
		expect(config.baseUrl).toBe(base);
	});

	it.each([
		['gql.example.com/graphql', /GraphQL Endpoint ".*" is not a valid address/],
		['ftp://gql.example.com/graphql', /GraphQL Endpoint must start with https:\/\//],
		['http://gql.example.com/graphql', /GraphQL Endpoint must use https:\/\//],
		['http://10.1.2.3/graphql', /GraphQL Endpoint must use https:\/\//],
		[
			'https://user:password@gql.example.com/graphql',
			/GraphQL Endpoint must not contain a user name or password/,
		],
		[
			'https://gql.example.com/graphql?token=1',
			/GraphQL Endpoint must not contain a query \(\?\) or fragment \(#\)/,
		],
		[
			'https://gql.example.com/graphql#x',
			/GraphQL Endpoint must not contain a query \(\?\) or fragment \(#\)/,
		],
		[
			'https://gql.example.com/graphql?',
			/GraphQL Endpoint must not contain a query \(\?\) or fragment \(#\)/,
		],
		[
			'https://gql.example.com/graphql#',
			/GraphQL Endpoint must not contain a query \(\?\) or fragment \(#\)/,
		],
	])('refuses %j', (typed, message) => {
		expect(refused(parse(base, typed))).toMatch(message);
	});

	it('even a local http base does not let a remote http GraphQL endpoint through', () => {
		expect(refused(parse('http://localhost:3000/v1', 'http://gql.example.com/graphql'))).toMatch(
			/GraphQL Endpoint must use https/,
		);
	});
});
