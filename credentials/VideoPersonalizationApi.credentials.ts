import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

/**
 * Bearer API key for the Video Personalization Service (spec section 5).
 *
 * The credential test below only runs when the Base URL passes the same checks the nodes
 * apply before every call (ends in /v1; https unless the host is loopback), so the key is
 * never sent in clear across a network, not even by the test.
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
			baseURL:
				'={{ (() => { const url = String($credentials.baseUrl ?? "").trim().replace(/\\/+$/, ""); const parsed = (() => { try { return new URL(url); } catch (e) { return null; } })(); if (!parsed) { throw new Error("Base URL is not a valid address. Example: https://api.example.com/v1"); } if (!/\\/v1$/.test(parsed.pathname.replace(/\\/+$/, ""))) { throw new Error("Base URL must end in /v1, for example https://api.example.com/v1"); } const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(parsed.hostname) || /^127\\./.test(parsed.hostname); if (parsed.protocol !== "https:" && !(parsed.protocol === "http:" && loopback)) { throw new Error("Base URL must use https:// so the API key is never sent in clear (http:// is accepted only for localhost)"); } return url; })() }}',
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
					message: 'Nothing answers at <Base URL>/videos (404). Check the Base URL: it is the service address ending in /v1.',
				},
			},
		],
	};
}
