// The credential's Test and the nodes judge the credential's addresses by one set of rules,
// written once in transport/config.ts (KEY_ADDRESS, ENDS_IN_V1): the Test writes them into its
// n8n expression, parseServiceConfig applies them. This suite runs both on the same addresses:
// the Test's expression through n8n's own expression engine (as n8n resolves the Test's request),
// the nodes' check as they call it. Nothing is sent anywhere.
import { Workflow, type ICredentialDataDecryptedObject, type INode } from 'n8n-workflow';

import { parseServiceConfig, parseUrl } from '../../nodes/VideoPersonalization/transport/config.ts';
import { credentialType } from '../harness/engine.mts';

/** What happens to the key: the address queried, or which field is refused. */
type Verdict = string;

const REFUSED = 'data://[100::]/refused;base64,';
const withoutTrailingSlashes = (url: string) => url.replace(/\/+$/, '');

/** Where the credential's Test sends its query, resolved as n8n's RoutingNode resolves it. */
async function testVerdict(credentials: ICredentialDataDecryptedObject): Promise<Verdict> {
	const type = await credentialType();
	const node: INode = {
		id: 'address-rules',
		name: 'Address rules',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const nodeTypes = {
		getByName: () => undefined as never,
		getByNameAndVersion: () => undefined as never,
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const url = String(
		workflow.expression.getParameterValue(
			type.test!.request.url!,
			null,
			0,
			0,
			node.name,
			[],
			'internal',
			{ $credentials: credentials },
		),
	);
	if (url.startsWith(REFUSED)) {
		const problem = Buffer.from(url.slice(REFUSED.length), 'base64')[0];
		return problem === 5 ? 'refuses the GraphQL Endpoint' : 'refuses the Base URL';
	}
	// n8n's HTTP client parses the address before it connects: one it cannot parse is never sent.
	const parsed = parseUrl(url);
	if (!parsed) return `sends nothing: ${url} is not a URL`;
	return `queries ${withoutTrailingSlashes(parsed.href)}`;
}

function nodesVerdict(credentials: ICredentialDataDecryptedObject): Verdict {
	const result = parseServiceConfig(credentials);
	if (result.ok) return `queries ${result.config.graphqlUrl}`;
	return result.message.startsWith('GraphQL Endpoint')
		? 'refuses the GraphQL Endpoint'
		: 'refuses the Base URL';
}

const BASE_URLS: Array<[string, Verdict]> = [
	// https to any host; http to this machine; trailing slashes and spaces dropped
	['https://api.example.com/v1', 'queries https://api.example.com/v1/graphql'],
	['  https://api.example.com/v1//  ', 'queries https://api.example.com/v1/graphql'],
	['HTTPS://API.Example.COM/v1', 'queries https://api.example.com/v1/graphql'],
	['https://api.example.com:443/v1', 'queries https://api.example.com/v1/graphql'],
	[
		'https://api.example.com:8443/video/api/v1',
		'queries https://api.example.com:8443/video/api/v1/graphql',
	],
	['https://bücher.example/v1', 'queries https://xn--bcher-kva.example/v1/graphql'],
	['https://api.example.com/ä/v1', 'queries https://api.example.com/%C3%A4/v1/graphql'],
	['http://localhost/v1', 'queries http://localhost/v1/graphql'],
	['http://LOCALHOST:3000/v1/', 'queries http://localhost:3000/v1/graphql'],
	['http://127.0.0.1:5680/v1', 'queries http://127.0.0.1:5680/v1/graphql'],
	['http://127.10.20.30/v1', 'queries http://127.10.20.30/v1/graphql'],
	['http://127.000.000.001/v1', 'queries http://127.0.0.1/v1/graphql'],
	['http://[::1]:9000/v1', 'queries http://[::1]:9000/v1/graphql'],
	// refused, the key goes nowhere
	['', 'refuses the Base URL'],
	['  /  ', 'refuses the Base URL'],
	['not a url', 'refuses the Base URL'],
	['api.example.com/v1', 'refuses the Base URL'],
	['https://', 'refuses the Base URL'],
	['ftp://api.example.com/v1', 'refuses the Base URL'],
	['file:///etc/v1', 'refuses the Base URL'],
	['http://api.example.com/v1', 'refuses the Base URL'],
	['HTTP://10.0.0.5/v1', 'refuses the Base URL'],
	['http://0.0.0.0/v1', 'refuses the Base URL'],
	['http://localhost.example.com/v1', 'refuses the Base URL'],
	['http://127.0.0.1.nip.io/v1', 'refuses the Base URL'],
	['https://user:pw@api.example.com/v1', 'refuses the Base URL'],
	['http://user@localhost/v1', 'refuses the Base URL'],
	['https://api.example.com/v1?team=1', 'refuses the Base URL'],
	['http://localhost/v1#docs', 'refuses the Base URL'],
	['https://api.example.com/v1?', 'refuses the Base URL'],
	['https://api.example.com', 'refuses the Base URL'],
	['https://api.example.com/v2', 'refuses the Base URL'],
	['https://api.example.com/V1', 'refuses the Base URL'],
	['https://api.example.com/v1/videos', 'refuses the Base URL'],
	// what a URL parser would repair or rewrite, both refuse (the nodes accepted these until 0.1.x)
	['http://127.1/v1', 'refuses the Base URL'],
	['http://0x7f.0.0.1/v1', 'refuses the Base URL'],
	['http://2130706433/v1', 'refuses the Base URL'],
	['http://[0:0:0:0:0:0:0:1]/v1', 'refuses the Base URL'],
	['https:api.example.com/v1', 'refuses the Base URL'],
	['https:/api.example.com/v1', 'refuses the Base URL'],
	['https:\\\\api.example.com\\v1', 'refuses the Base URL'],
	['https://api.example.com\\v1', 'refuses the Base URL'],
	['https://api.exa\tmple.com/v1', 'refuses the Base URL'],
	['https://api.example.com/a b/v1', 'refuses the Base URL'],
	['https://api.example.com/v1/x/..', 'refuses the Base URL'],
];

const GRAPHQL_ENDPOINTS: Array<[string, Verdict]> = [
	['', 'queries https://api.example.com/v1/graphql'],
	['https://gql.example.com/graphql/', 'queries https://gql.example.com/graphql'],
	[' https://gql.example.com ', 'queries https://gql.example.com'],
	['http://localhost:4000/graphql', 'queries http://localhost:4000/graphql'],
	['http://127.0.0.1:4000/query', 'queries http://127.0.0.1:4000/query'],
	['graphql', 'refuses the GraphQL Endpoint'],
	['http://gql.example.com/graphql', 'refuses the GraphQL Endpoint'],
	['ftp://gql.example.com/graphql', 'refuses the GraphQL Endpoint'],
	['https://user:pw@gql.example.com/graphql', 'refuses the GraphQL Endpoint'],
	['https://gql.example.com/graphql?token=1', 'refuses the GraphQL Endpoint'],
	['https://gql.example.com/graphql#', 'refuses the GraphQL Endpoint'],
	['http://127.1/graphql', 'refuses the GraphQL Endpoint'],
	['https:gql.example.com/graphql', 'refuses the GraphQL Endpoint'],
];

describe("the credential's Test and the nodes judge an address alike", () => {
	it.each(BASE_URLS)('Base URL %j: %s', async (baseUrl, verdict) => {
		const credentials = { apiKey: 'k', baseUrl };
		expect([await testVerdict(credentials), nodesVerdict(credentials)]).toEqual([verdict, verdict]);
	});

	it.each(GRAPHQL_ENDPOINTS)('GraphQL Endpoint %j: %s', async (graphqlEndpoint, verdict) => {
		const credentials = { apiKey: 'k', baseUrl: 'https://api.example.com/v1', graphqlEndpoint };
		expect([await testVerdict(credentials), nodesVerdict(credentials)]).toEqual([verdict, verdict]);
	});

	it('refuses a bad Base URL whatever the GraphQL Endpoint', async () => {
		const credentials = {
			apiKey: 'k',
			baseUrl: 'http://api.example.com/v1',
			graphqlEndpoint: 'https://gql.example.com/graphql',
		};
		expect([await testVerdict(credentials), nodesVerdict(credentials)]).toEqual([
			'refuses the Base URL',
			'refuses the Base URL',
		]);
	});

	// Every combination of these parts (4,536 addresses): the two agree on each, except
	// where only a URL parser can tell (a port over 65535, an IPv4 part over 255, a character no
	// host may have). There the Test's pattern lets the address through but n8n cannot parse it,
	// so the Test sends nothing, and the nodes refuse it.
	it('agree on every combination of scheme, host, port and path', async () => {
		const schemes = ['https://', 'http://', 'HTTP://', 'ftp://', 'https:', 'https:/', ''];
		const hosts = [
			'api.example.com',
			'localhost',
			'127.0.0.1',
			'127.1',
			'127.999.0.1',
			'[::1]',
			'[0::1]',
			'10.0.0.5',
			'localhost.example.com',
			'user@localhost',
			'exa<mple.com',
			'bücher.example',
		];
		const ports = ['', ':8443', ':443', ':99999', ':abc', ':'];
		const paths = ['/v1', '/v1/', '/api/v1', '/v2', '', '/v1/x/..', '/a b/v1', '/v1?x', '/v1#'];
		const cases = schemes.flatMap((scheme) =>
			hosts.flatMap((host) =>
				ports.flatMap((port) => paths.map((path) => `${scheme}${host}${port}${path}`)),
			),
		);
		const disagreements: string[] = [];
		const unsendable: string[] = [];
		for (const baseUrl of cases) {
			const credentials = { apiKey: 'k', baseUrl };
			const test = await testVerdict(credentials);
			const nodes = nodesVerdict(credentials);
			if (test.startsWith('sends nothing') && nodes === 'refuses the Base URL')
				unsendable.push(baseUrl);
			else if (test !== nodes) disagreements.push(`${baseUrl}: Test ${test}, nodes ${nodes}`);
		}
		expect(disagreements).toEqual([]);
		expect(cases.length).toBeGreaterThan(4000);
		// Only addresses a URL parser refuses land there, and not many.
		for (const baseUrl of unsendable) expect(parseUrl(baseUrl.trim())).toBeUndefined();
		expect(unsendable.length).toBeLessThan(cases.length / 10);
	});
});
