import type {
	IAuthenticateGeneric,
	IDisplayOptions,
	IHttpRequestMethods,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { ENDS_IN_V1, KEY_ADDRESS } from '../nodes/VideoPersonalization/transport/config';

// The Base URL and GraphQL Endpoint as the credential test reads them (n8n expressions). The rules
// are transport/config.ts's KEY_ADDRESS and ENDS_IN_V1, which the nodes apply too: a RegExp in a
// template literal is written out as its literal (test/credentials/addressRules.test.mts).
const BASE = 'String($credentials.baseUrl ?? "").trim().replace(/\\/+$/, "")';
const GRAPHQL = 'String($credentials.graphqlEndpoint ?? "").trim().replace(/\\/+$/, "")';
/**
 * What is wrong with the addresses, as one byte 1..5 in base64 (the first five RULES word them), or
 * "" when nothing is. A refused address becomes the data: URL REFUSED + that byte: the HTTP client
 * answers it itself with the byte, nothing leaves n8n, the key goes nowhere, and a
 * responseSuccessBody rule on the answer's first byte words the problem (rule messages are fixed
 * text; n8n hands the test an answer without a JSON content type as a Buffer).
 */
const PROBLEM =
	`(${BASE} === "" ? "AQ=="` +
	` : !${KEY_ADDRESS}.test(${BASE}) ? (/^http:\\/\\//i.test(${BASE}) ? "Aw==" : "Ag==")` +
	` : !${ENDS_IN_V1}.test(${BASE}) ? "BA=="` +
	` : ${GRAPHQL} !== "" && !${KEY_ADDRESS}.test(${GRAPHQL}) ? "BQ==" : "")`;
/**
 * The data: URL carries a host for n8n's SSRF check, which looks up the host of every URL (an
 * empty one fails it): [100::] is IPv6's discard-only prefix (RFC 6666), outside n8n's blocked
 * ranges, and is never contacted since data: URLs are not sent.
 */
const REFUSED = 'data://[100::]/refused;base64,';

/** Fails the test when a 2xx answer's body holds `value` at `key` (lodash path). */
const bodyRule = (key: string, value: unknown, message: string) =>
	({ type: 'responseSuccessBody', properties: { key, value, message } }) as const;

/** Fails the test with `message` when the answer has this status. */
const statusRule = (value: number, message: string) =>
	({ type: 'responseCode', properties: { value, message } }) as const;

// The test's sentences, in the order n8n tries them: status rules when the answer is an error,
// body rules on a 2xx answer (n8n's CredentialsTester reads both kinds from one list; the declared
// type allows one kind per list). The service's own reason (an expired key, say) cannot be shown:
// n8n gives a credential test fixed rule texts and the status line only (README, "Credentials").
// A table, one rule a line, so prettier leaves it as written.
// prettier-ignore
const RULES = [
	bodyRule('0', 1, 'The Base URL is empty. Enter the service address ending in /v1, for example https://api.example.com/v1.'),
	bodyRule('0', 2, 'The Base URL is not a valid address. Enter the service address starting with https:// and ending in /v1, without a user name, query (?) or fragment (#), for example https://api.example.com/v1.'),
	bodyRule('0', 3, 'The Base URL must use https:// so the API key is never sent in clear across a network (http:// is accepted only for localhost, 127.x.x.x and [::1]). The key was not sent.'),
	bodyRule('0', 4, 'The Base URL must end in /v1 (the API version), for example https://api.example.com/v1.'),
	bodyRule('0', 5, 'The GraphQL Endpoint is not a valid address. Enter a full https:// address (http:// only for localhost) without a user name, query or fragment, or leave it empty to use the Base URL followed by /graphql.'),
	statusRule(401, "The service rejected the API key (401). It is mistyped, revoked or expired: copy it again from the developer dashboard, or create a new key there. Any operation run with this credential shows the service's own reason."),
	bodyRule('errors[0].extensions.code', 'UNAUTHENTICATED', "The service rejected the API key. It is mistyped, revoked or expired: copy it again from the developer dashboard, or create a new key there. Any operation run with this credential shows the service's own reason."),
	statusRule(403, 'The API key is valid but may not send queries (403). Use the key of a user with API access.'),
	...[404, 405].map((status) => statusRule(status, `Nothing takes queries at the GraphQL endpoint (${status}). If the service takes queries somewhere other than the Base URL followed by /graphql, enter that address in the GraphQL Endpoint field; otherwise check the Base URL: it is the service address ending in /v1.`)),
	...[301, 302, 303, 307, 308].map((status) => statusRule(status, `The GraphQL endpoint redirects to another address (${status}); the API key is never sent on. Enter the final address in the GraphQL Endpoint field (or the Base URL).`)),
	...[500, 502, 503, 504].map((status) => statusRule(status, `The service failed to answer the test query (${status}). Try again later; if it persists, check the GraphQL Endpoint and Base URL.`)),
	bodyRule('data.viewer.__typename', undefined, "The GraphQL endpoint answered, but not with a query result. Set the GraphQL Endpoint field to the service's query address (empty means the Base URL followed by /graphql)."),
];

// Notice conditions (startsWith/endsWith rather than regex conditions: n8n evaluates these on every
// request the nodes make, and its regex conditions run in a sandboxed VM: BENCHMARKS.md).
const startsWith = (prefix: string) => ({ _cnd: { startsWith: prefix } });
const endsWith = (suffix: string) => ({ _cnd: { endsWith: suffix } });

/** Values of an address field that are http:// to this machine (a hint: config.ts decides). */
const LOOPBACK_HTTP = [
	'http://localhost',
	...['http://localhost:', 'http://localhost/', 'http://127.', 'http://[::1]'].map(startsWith),
];

/** A notice on the form, shown while `displayOptions` hold. */
const notice = (name: string, displayName: string, displayOptions: IDisplayOptions) =>
	({ displayName, name, type: 'notice', default: '', displayOptions }) as const;

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
				'Address of the service, ending in /v1. Must use https, except for a service on this machine (localhost, 127.0.0.1, [::1]).',
		},
		// prettier-ignore
		notice('baseUrlVersionNotice', 'The Base URL must end in /v1, for example https://api.example.com/v1', { hide: { baseUrl: ['', endsWith('/v1'), endsWith('/v1/')] } }),
		// A hint only: the nodes and the credential test refuse any non-loopback http address.
		// prettier-ignore
		notice('baseUrlHttpsNotice', 'The Base URL must use https:// so the API key is never sent in clear across a network; http:// is accepted only for localhost', { show: { baseUrl: [startsWith('http://')] }, hide: { baseUrl: LOOPBACK_HTTP } }),
		{
			displayName: 'GraphQL Endpoint',
			name: 'graphqlEndpoint',
			type: 'string',
			default: '',
			placeholder: 'https://api.example.com/v1/graphql',
			description:
				'Where template, user and organisation queries are sent. Leave empty to use the Base URL followed by /graphql.',
		},
		// prettier-ignore
		notice('graphqlEndpointNotice', 'The GraphQL Endpoint must be a full https:// address (http:// only for localhost), or empty', { hide: { graphqlEndpoint: ['', startsWith('https://'), ...LOOPBACK_HTTP] } }),
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { Authorization: '=Bearer {{$credentials.apiKey}}' } },
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
		rules: RULES as unknown as ICredentialTestRequest['rules'],
	};
}
