import type {
	IAuthenticateGeneric,
	IAuthenticateRuleResponseCode,
	IHttpRequestMethods,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

// The Base URL and GraphQL Endpoint as the credential test reads them (n8n expressions; the same
// rules as transport/config.ts, which the nodes use). An empty PROBLEM means both may get the key.
const BASE = 'String($credentials.baseUrl ?? "").trim().replace(/\\/+$/, "")';
const GRAPHQL = 'String($credentials.graphqlEndpoint ?? "").trim().replace(/\\/+$/, "")';
/** https to any host, or http to loopback; an optional port and path; no user, query or fragment. */
const ADDRESS =
	'/^(https:\\/\\/[^\\/?#@\\s]+|http:\\/\\/(localhost|127(\\.\\d{1,3}){3}|\\[::1\\])(:\\d+)?)(\\/[^?#\\s]*)?$/i';
/**
 * What is wrong with the addresses, as one byte 1..5 in base64 (see ADDRESS_PROBLEMS), or "" when
 * nothing is. A refused address becomes the data: URL REFUSED + that byte: the HTTP client answers
 * it itself with the byte, nothing leaves n8n, the key goes nowhere, and a responseSuccessBody
 * rule on the answer's first byte words the problem (rule messages are fixed text; n8n hands the
 * test an answer without a JSON content type as a Buffer).
 */
const PROBLEM =
	`(${BASE} === "" ? "AQ=="` +
	` : !${ADDRESS}.test(${BASE}) ? (/^http:\\/\\//i.test(${BASE}) ? "Aw==" : "Ag==")` +
	` : !/\\/v1$/.test(${BASE}) ? "BA=="` +
	` : ${GRAPHQL} !== "" && !${ADDRESS}.test(${GRAPHQL}) ? "BQ==" : "")`;
/**
 * The data: URL carries a host for n8n's SSRF check, which looks up the host of every URL (an
 * empty one fails it): [100::] is IPv6's discard-only prefix (RFC 6666), outside n8n's blocked
 * ranges, and is never contacted since data: URLs are not sent.
 */
const REFUSED = 'data://[100::]/refused;base64,';

/** The messages for PROBLEM's bytes 1 to 5, in order. */
const ADDRESS_PROBLEMS: string[] = [
	'The Base URL is empty. Enter the service address ending in /v1, for example https://api.example.com/v1.',
	'The Base URL is not a valid address. Enter the service address starting with https:// and ending in /v1, ' +
		'without a user name, query (?) or fragment (#), for example https://api.example.com/v1.',
	'The Base URL must use https:// so the API key is never sent in clear across a network (http:// is accepted ' +
		'only for localhost, 127.x.x.x and [::1]). The key was not sent.',
	'The Base URL must end in /v1 (the API version), for example https://api.example.com/v1.',
	'The GraphQL Endpoint is not a valid address. Enter a full https:// address (http:// only for localhost) ' +
		'without a user name, query or fragment, or leave it empty to use the Base URL followed by /graphql.',
];

/** Values of an address field that are http:// to this machine, as notice conditions. */
const LOOPBACK_HTTP = [
	'http://localhost',
	...['localhost:', 'localhost/', '127.', '[::1]'].map((host) => ({
		_cnd: { startsWith: `http://${host}` },
	})),
];

// The service's own reason (an expired key, say) cannot be shown here: n8n gives a credential
// test fixed rule texts and the status line only, never the answer's body (README, "Credentials").
const CHECK_KEY =
	'It is mistyped, revoked or expired: copy it again from the developer dashboard, or create a new ' +
	"key there. Any operation run with this credential shows the service's own reason.";

const wrongQueryAddress = (status: number): string =>
	`Nothing takes queries at the GraphQL endpoint (${status}). If the service takes queries somewhere other than ` +
	'the Base URL followed by /graphql, enter that address in the GraphQL Endpoint field; otherwise check the ' +
	'Base URL: it is the service address ending in /v1.';

/** Fails the test when a 2xx answer's body holds `value` at `key` (lodash path). */
const bodyRule = (key: string, value: unknown, message: string) =>
	({ type: 'responseSuccessBody', properties: { key, value, message } }) as const;

/** Fails the test with `message` when the answer has this status. */
const statusRule = (value: number, message: string) =>
	({ type: 'responseCode', properties: { value, message } }) as const;

/**
 * Bearer API key for the Video Personalization Service (docs/service-facts.md, "Addresses and the key").
 *
 * The Base URL is checked where the user types it (notices), before every call the nodes
 * make (transport/config.ts), and by the credential test, which only sends the key to an
 * address that passes: ends in /v1, https unless the host is loopback.
 */
export class VideoPersonalizationApi implements ICredentialType {
	name = 'videoPersonalizationApi';

	displayName = 'Video Personalization API';

	icon: Icon = {
		light: 'file:../nodes/VideoPersonalization/videoPersonalization.svg',
		dark: 'file:../nodes/VideoPersonalization/videoPersonalization.dark.svg',
	};

	documentationUrl =
		'https://github.com/video-personalization/n8n-nodes-video-personalization#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'The API key from the developer dashboard of your account',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://api.example.com/v1',
			description:
				'Address of the service, ending in /v1. Must use https, except for a service on this machine ' +
				'(localhost, 127.0.0.1, [::1]).',
		},
		{
			displayName: 'The Base URL must end in /v1, for example https://api.example.com/v1',
			name: 'baseUrlVersionNotice',
			type: 'notice',
			default: '',
			// startsWith/endsWith rather than regex conditions: n8n evaluates these on every
			// request the nodes make, and its regex conditions run in a sandboxed VM (BENCHMARKS.md).
			displayOptions: {
				hide: { baseUrl: ['', { _cnd: { endsWith: '/v1' } }, { _cnd: { endsWith: '/v1/' } }] },
			},
		},
		{
			displayName:
				'The Base URL must use https:// so the API key is never sent in clear across a network; ' +
				'http:// is accepted only for localhost',
			name: 'baseUrlHttpsNotice',
			type: 'notice',
			default: '',
			// A hint only: the nodes and the credential test refuse any non-loopback http address.
			displayOptions: {
				show: { baseUrl: [{ _cnd: { startsWith: 'http://' } }] },
				hide: { baseUrl: LOOPBACK_HTTP },
			},
		},
		{
			displayName: 'GraphQL Endpoint',
			name: 'graphqlEndpoint',
			type: 'string',
			default: '',
			placeholder: 'https://api.example.com/v1/graphql',
			description:
				'Where template, user and organisation queries are sent. Leave empty to use the Base URL followed by /graphql.',
		},
		{
			displayName:
				'The GraphQL Endpoint must be a full https:// address (http:// only for localhost), or empty',
			name: 'graphqlEndpointNotice',
			type: 'notice',
			default: '',
			displayOptions: {
				hide: {
					graphqlEndpoint: ['', { _cnd: { startsWith: 'https://' } }, ...LOOPBACK_HTTP],
				},
			},
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: { Authorization: '=Bearer {{$credentials.apiKey}}' },
		},
	};

	// One cheap authenticated query, where the operations send theirs: the GraphQL Endpoint, or
	// the Base URL followed by /graphql (which checks the Base URL too). A credential test can
	// make only one request; see README "Credentials" for what it proves.
	test: ICredentialTestRequest = {
		request: {
			method: `={{ ${PROBLEM} === "" ? "POST" : "GET" }}` as IHttpRequestMethods,
			// A refused address never gets the key: it becomes a data: URL (PROBLEM, REFUSED above).
			url: `={{ ${PROBLEM} === "" ? (${GRAPHQL} || ${BASE} + "/graphql") : "${REFUSED}" + ${PROBLEM} }}`,
			body: { query: 'query CredentialTest { viewer { __typename } }' },
			disableFollowRedirect: true,
		},
		// n8n's CredentialsTester reads both kinds of rule from one list (status rules when the
		// answer is an error, body rules on a 2xx answer); the declared type allows one kind per list.
		rules: [
			...ADDRESS_PROBLEMS.map((message, index) => bodyRule('0', index + 1, message)),
			statusRule(401, `The service rejected the API key (401). ${CHECK_KEY}`),
			bodyRule(
				'errors[0].extensions.code',
				'UNAUTHENTICATED',
				`The service rejected the API key. ${CHECK_KEY}`,
			),
			statusRule(
				403,
				'The API key is valid but may not send queries (403). Use the key of a user with API access.',
			),
			...[404, 405].map((status) => statusRule(status, wrongQueryAddress(status))),
			...[301, 302, 303, 307, 308].map((status) =>
				statusRule(
					status,
					`The GraphQL endpoint redirects to another address (${status}); the API key is never sent on. ` +
						'Enter the final address in the GraphQL Endpoint field (or the Base URL).',
				),
			),
			...[500, 502, 503, 504].map((status) =>
				statusRule(
					status,
					`The service failed to answer the test query (${status}). Try again later; if it persists, check ` +
						'the GraphQL Endpoint and Base URL.',
				),
			),
			bodyRule(
				'data.viewer.__typename',
				undefined,
				'The GraphQL endpoint answered, but not with a query result. Set the GraphQL Endpoint field to ' +
					"the service's query address (empty means the Base URL followed by /graphql).",
			),
		] as unknown as IAuthenticateRuleResponseCode[],
	};
}
