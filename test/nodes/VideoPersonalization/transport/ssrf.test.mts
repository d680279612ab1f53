/**
 * The nodes under n8n's SSRF protection, set as README "Security" says: protection on, n8n's
 * default blocked ranges (loopback among them), the sandbox allowed by IP range
 * (N8N_SSRF_ALLOWED_IP_RANGES=127.0.0.1/32). A server on 127.0.0.2 stands for an address the
 * administrator did not allow; being loopback, nothing sent to it would leave the machine, and
 * it records what reaches it. Every refusal must say so, name the address and the setting that
 * allows it, and that nothing was sent.
 */
import { describeFailure } from '../../../../nodes/VideoPersonalization/transport/errors.ts';
import { networkFailure } from '../../../../nodes/VideoPersonalization/transport/received.ts';
import { allText, pollTrigger, runNode } from '../../../harness/engine.mts';
import { credentialsFor, useSandbox } from '../../../harness/fixtures.mts';
import { sendJson, startTestServer, type TestServer } from '../../../harness/httpServer.mts';
import { allowLoopbackOnly } from '../../../harness/ssrf.mts';

const sandbox = useSandbox({
	clock: 'real',
	render: { queueMs: 50, minMs: 200, maxMs: 400, failureShare: 0 },
});
let blocked: TestServer;
/** On the allowed 127.0.0.1: answers every file with a redirect to the same path on the blocked address. */
let redirector: TestServer;

beforeAll(async () => {
	allowLoopbackOnly();
	blocked = await startTestServer((_request, response) => sendJson(response, 200, {}), '127.0.0.2');
	redirector = await startTestServer((request, response) => {
		response.writeHead(302, { location: `${blocked.url}${request.url}` });
		response.end();
	});
});
afterAll(async () => {
	await blocked.close();
	await redirector.close();
});
beforeEach(() => blocked.requests.splice(0));

/** The whole message: what was refused, the address, and the setting that allows it (a trigger's activation error shows nothing else). */
const REFUSED = (action: string) =>
	new RegExp(
		`^n8n's SSRF protection refused to ${action}: 127\\.0\\.0\\.2 is a blocked address, so nothing was sent\\. ` +
			'To allow it, add 127\\.0\\.0\\.2/32 to N8N_SSRF_ALLOWED_IP_RANGES and restart n8n( \\[item \\d+\\])?$',
	);

describe("n8n's SSRF protection refusing the node's requests", () => {
	it('Create says the request to create the video was refused and not sent, not that it may have been carried out', async () => {
		const s = sandbox();
		const before = s.store.listVideos().length;
		const { error } = await runNode({
			parameters: {
				resource: 'video',
				operation: 'create',
				title: 'Refused',
				template: { __rl: true, mode: 'id', value: s.known.stockTemplateId },
				customerDataMode: 'keyValue',
				customerData: { values: [{ key: 'first_name', value: 'Ana' }] },
			},
			// Queries go to the allowed sandbox, the REST call to the blocked address.
			credentials: {
				...credentialsFor(s),
				baseUrl: `${blocked.url}/v1`,
				graphqlEndpoint: s.graphqlUrl,
			},
		});
		expect(error?.message).toMatch(REFUSED('create the video "Refused" from Template ID "[^"]+"'));
		expect(error?.description).toBe(
			`The address comes from the Base URL in the credential (now ${blocked.url}/v1). ` +
				'N8N_SSRF_ALLOWED_HOSTNAMES would not: it allows names, not an address written as numbers. An n8n ' +
				'administrator sets this in the environment of every n8n process, workers included (README, "Security"). ' +
				'No video was created in this run.',
		);
		expect(allText(error)).not.toMatch(/may have carried it out|retried/);
		expect(blocked.requests).toHaveLength(0);
		expect(s.store.listVideos()).toHaveLength(before);
	});

	it('a named host that resolves to a blocked address is named with its address and both settings', () => {
		// What n8n throws when a host name resolves to a blocked address (this machine cannot
		// make a name resolve to 127.0.0.2 on demand): its name and fields as in n8n 2.41.1.
		const refusal = Object.assign(
			new Error('The request was blocked because it resolves to a restricted IP address'),
			{ name: 'SsrfBlockedIpError', ip: '10.1.2.3' },
		);
		const failure = networkFailure(new Error('wrapped', { cause: refusal }));
		expect(failure).toEqual({ kind: 'ssrf', ip: '10.1.2.3', blockedHostname: undefined });
		const described = describeFailure(failure!, {
			action: 'list videos',
			secrets: [],
			endpoint: { field: 'Base URL', url: 'https://api.internal.example/v1' },
		});
		expect(described.message).toBe(
			"n8n's SSRF protection refused to list videos: api.internal.example (10.1.2.3) is a blocked address, so nothing was sent. " +
				'To allow it, add 10.1.2.3/32 to N8N_SSRF_ALLOWED_IP_RANGES and restart n8n',
		);
		expect(described.description).toContain(
			'Adding api.internal.example to N8N_SSRF_ALLOWED_HOSTNAMES instead allows it by name.',
		);
	});

	it('a host on the blocked list is named, with the setting that allows it', () => {
		const refusal = Object.assign(
			new Error('The request was blocked because the destination hostname is restricted'),
			{
				name: 'SsrfBlockedHostnameError',
				hostname: 'cdn.example.com',
			},
		);
		const failure = networkFailure(refusal)!;
		const described = describeFailure(failure, {
			action: 'download v.mp4 of the video "v"',
			secrets: [],
			endpoint: { field: 'file', url: 'https://cdn.example.com/v.mp4?signature=secret' },
		});
		expect(described.message).toBe(
			`n8n's SSRF protection refused to download v.mp4 of the video "v": cdn.example.com is a blocked host name, so nothing was sent. ` +
				'To allow it, add cdn.example.com to N8N_SSRF_ALLOWED_HOSTNAMES and restart n8n',
		);
		expect(described.description).toBe(
			'The address comes from the file address the service gave (https://cdn.example.com/v.mp4). The name is in ' +
				'N8N_SSRF_BLOCKED_HOSTNAMES; N8N_SSRF_ALLOWED_HOSTNAMES overrides it. An n8n administrator sets this in the ' +
				'environment of every n8n process, workers included (README, "Security").',
		);
	});

	it('Download Video refuses a file on a blocked address; Continue On Fail keeps the video', async () => {
		const s = sandbox();
		s.store.fileBaseUrl = blocked.url;
		try {
			const { items, error } = await runNode({
				parameters: {
					resource: 'video',
					operation: 'create',
					title: 'File elsewhere',
					template: { __rl: true, mode: 'id', value: s.known.stockTemplateId },
					customerDataMode: 'keyValue',
					customerData: { values: [{ key: 'first_name', value: 'Ana' }] },
					waitForCompletion: true,
					options: { pollInterval: 1, downloadVideo: true },
				},
				credentials: credentialsFor(s),
				continueOnFail: true,
			});
			expect(error).toBeUndefined();
			const video = items[0].json;
			expect(video).toMatchObject({ status: 'published', title: 'File elsewhere' });
			expect(video.error).toMatch(
				REFUSED(`download ${String(video.id)}\\.mp4 of the video "${String(video.id)}"`),
			);
			expect(video.details).toContain(
				`The address comes from the file address the service gave (${blocked.url}/videos/${String(video.id)}.mp4)`,
			);
			expect(blocked.requests).toHaveLength(0);
		} finally {
			s.store.fileBaseUrl = undefined;
		}
	});

	it('Download Video refuses a redirect to a blocked address, saying it was a redirect, from where to where', async () => {
		const s = sandbox();
		s.store.fileBaseUrl = redirector.url;
		try {
			const { items, error } = await runNode({
				parameters: {
					resource: 'video',
					operation: 'create',
					title: 'Redirected elsewhere',
					template: { __rl: true, mode: 'id', value: s.known.stockTemplateId },
					customerDataMode: 'keyValue',
					customerData: { values: [{ key: 'first_name', value: 'Ana' }] },
					waitForCompletion: true,
					options: { pollInterval: 1, downloadVideo: true },
				},
				credentials: credentialsFor(s),
				continueOnFail: true,
			});
			expect(error).toBeUndefined();
			const video = items[0].json;
			const path = `/videos/${String(video.id)}.mp4`;
			expect(video.error).toMatch(
				REFUSED(`download ${String(video.id)}\\.mp4 of the video "${String(video.id)}"`),
			);
			expect(video.details).toContain(
				`The address comes from a redirect: the content host answered ${redirector.url}${path} with a ` +
					`redirect to ${blocked.url}${path}.`,
			);
			expect(video.details).not.toContain('the file address the service gave');
			expect(redirector.requests.map((request) => request.url)).toContain(path);
			expect(blocked.requests).toHaveLength(0);
		} finally {
			s.store.fileBaseUrl = undefined;
		}
	});

	it("the trigger's first poll (at activation) fails with a message that names the setting that allows the address", async () => {
		const poll = pollTrigger({
			parameters: { event: 'videoPublished' },
			credentials: { apiKey: 'k', baseUrl: `${blocked.url}/v1` },
			staticData: {},
			mode: 'trigger',
			activation: 'activate',
		});
		await expect(poll).rejects.toThrow(REFUSED('list all videos to look for finished renders'));
		expect(blocked.requests).toHaveLength(0);
	});
});
