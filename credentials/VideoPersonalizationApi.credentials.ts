import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

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
				hide: {
					baseUrl: [
						'http://localhost',
						...['localhost:', 'localhost/', '127.', '[::1]'].map((host) => ({
							_cnd: { startsWith: `http://${host}` },
						})),
					],
				},
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
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey}}',
			},
		},
	};

	// One cheap authenticated call: the first video of the first page.
	test: ICredentialTestRequest = {
		request: {
			// Only a Base URL that passes the checks gets the key; anything else becomes an address
			// that fails before connecting (the notices above say what is wrong).
			baseURL:
				'={{ /^(https:\\/\\/[^\\/?#@\\s]+|http:\\/\\/(localhost|127(\\.\\d{1,3}){3}|\\[::1\\])(:\\d+)?)' +
				'(\\/[^?#\\s]*)?\\/v1\\/*$/i.test(String($credentials.baseUrl ?? "").trim())' +
				' ? String($credentials.baseUrl).trim().replace(/\\/+$/, "") : "invalid-base-url" }}',
			url: '/videos',
			qs: { limit: 1 },
			disableFollowRedirect: true,
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'The service rejected the API key (401). Check the API Key: copy it again from the developer dashboard.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message: 'The API key is valid but may not list videos (403). Use a key of a user with access to videos.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'Nothing answers at <Base URL>/videos (404). Check the Base URL: it is the service address ' +
						'ending in /v1.',
				},
			},
		],
	};
}
