/**
 * The service client of one execution: the credential read once, its problems raised per item,
 * errors built at once with the key kept out, and the lookups the items share.
 */
import type { INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { ServiceClient } from '../../../../nodes/VideoPersonalization/transport/client.ts';
import type { ApiContext } from '../../../../nodes/VideoPersonalization/transport/call.ts';
import { allText, runNode } from '../../../harness/engine.mts';
import { sendJson, startTestServer, type TestServer } from '../../../harness/httpServer.mts';

const KEY = 'vpk_client_canary_3b9e51d07a';

/** The one thing a client needs from n8n to build an error: the node. */
function clientWithoutNetwork(key = KEY): ServiceClient {
	const node = {
		name: 'Video Personalization',
		type: 'videoPersonalization',
		typeVersion: 1,
	} as INode;
	const context = { getNode: () => node } as unknown as ApiContext;
	return new ServiceClient(
		context,
		{ baseUrl: 'https://api.example.com/v1', graphqlUrl: 'https://api.example.com/v1/graphql' },
		[key],
	);
}

describe('ServiceClient.lookupOnce: lookups the items of one execution share', () => {
	it('runs a lookup once for callers that ask at the same time, and hands each the answer', async () => {
		const api = clientWithoutNetwork();
		let runs = 0;
		const lookup = async () => {
			runs++;
			await new Promise((resolve) => setImmediate(resolve));
			return 'tpl_1';
		};
		const answers = await Promise.all(
			[1, 2, 3, 4].map(async () => await api.lookupOnce('template id of Welcome', lookup)),
		);
		expect(answers).toEqual(['tpl_1', 'tpl_1', 'tpl_1', 'tpl_1']);
		expect(runs).toBe(1);
		expect(await api.lookupOnce('template id of Welcome', lookup)).toBe('tpl_1');
		expect(runs).toBe(1);
	});

	it('keeps keys apart', async () => {
		const api = clientWithoutNetwork();
		expect(await api.lookupOnce('a', async () => 1)).toBe(1);
		expect(await api.lookupOnce('b', async () => 2)).toBe(2);
	});

	it('forgets a lookup that failed, so the next caller asks again', async () => {
		const api = clientWithoutNetwork();
		let runs = 0;
		const flaky = async () => {
			runs++;
			if (runs === 1) throw new Error('service down');
			return 'tpl_2';
		};
		await expect(api.lookupOnce('name', flaky)).rejects.toThrow('service down');
		expect(await api.lookupOnce('name', flaky)).toBe('tpl_2');
		expect(runs).toBe(2);
	});

	it('is one memo per client: another execution looks up again', async () => {
		let runs = 0;
		const lookup = async () => ++runs;
		expect(await clientWithoutNetwork().lookupOnce('k', lookup)).toBe(1);
		expect(await clientWithoutNetwork().lookupOnce('k', lookup)).toBe(2);
	});
});

describe('ServiceClient.cached: lookups the executions on one API key share while fresh', () => {
	const counted = (answers: Array<string | null>) => {
		const lookup = async () => answers[Math.min(lookup.runs++, answers.length - 1)];
		lookup.runs = 0;
		return lookup;
	};

	it('asks once for a burst of executions on the key, and again once the answer is stale', async () => {
		const lookup = counted(['tpl_1', 'tpl_2']);
		const burst = [1, 2, 3].map(async () => await clientWithoutNetwork().cached('a', 200, lookup));
		expect(await Promise.all(burst)).toEqual(['tpl_1', 'tpl_1', 'tpl_1']);
		expect(lookup.runs).toBe(1);
		await new Promise((resolve) => setTimeout(resolve, 250));
		expect(await clientWithoutNetwork().cached('a', 200, lookup)).toBe('tpl_2');
		expect(lookup.runs).toBe(2);
	});

	it('keeps no answer that found nothing, and shares nothing with another key', async () => {
		const lookup = counted([null, 'tpl_1']);
		expect(await clientWithoutNetwork().cached('b', 60_000, lookup)).toBeNull();
		expect(await clientWithoutNetwork().cached('b', 60_000, lookup)).toBe('tpl_1');
		expect(await clientWithoutNetwork('vpk_another_key_5e6f7a8b').cached('b', 60_000, lookup)).toBe(
			'tpl_1',
		);
		expect(lookup.runs).toBe(3);
	});
});

describe('ServiceClient errors', () => {
	it('builds the error at once, with the key the server echoed kept out', () => {
		const error = clientWithoutNetwork().error(
			{ kind: 'http', status: 422, headers: {}, body: { message: `bad header Bearer ${KEY}` } },
			{ action: 'get the asset "ast_1"', itemIndex: 2 },
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('The service rejected the request to get the asset "ast_1" (422)');
		expect(error.description).toContain('bad header Bearer ***');
		expect(error.context.itemIndex).toBe(2);
		expect(allText(error)).not.toContain(KEY);
	});

	it.each([
		[
			'an HTML page',
			'<html><title>Gateway</title></html>',
			'Expected JSON, got an HTML page (status 200)',
		],
		['text', 'OK', 'Expected JSON, got text (status 200)'],
		['an array', [{ id: 'ast_1' }], 'Expected a JSON object, got an array (status 200)'],
		['nothing', undefined, 'Expected a JSON object, got undefined (status 200)'],
	])('bodyObject refuses %s where a JSON object was due', (_name, body, detail) => {
		const api = clientWithoutNetwork();
		expect(() =>
			api.bodyObject({ status: 200, headers: {}, body }, { action: 'get the asset "ast_1"' }),
		).toThrow('The service\'s answer to get the asset "ast_1" was not what the API describes');
		try {
			api.bodyObject({ status: 200, headers: {}, body }, { action: 'get the asset "ast_1"' });
		} catch (error) {
			expect((error as NodeApiError).description).toBe(detail);
		}
	});
});

describe('one client per execution, through the engine', () => {
	const servers: TestServer[] = [];
	afterAll(async () => await Promise.all(servers.map(async (server) => await server.close())));

	it('raises a credential the nodes refuse for every item, with its own index, and sends nothing', async () => {
		const server = await startTestServer((_request, response) => sendJson(response, 200, {}));
		servers.push(server);
		const items = [{ json: {} }, { json: {} }, { json: {} }];
		const parameters = {
			resource: 'asset',
			operation: 'get',
			assetId: { __rl: true, mode: 'id', value: 'ast_1' },
		};
		const credentials = {
			apiKey: KEY,
			baseUrl: `${server.url.replace('127.0.0.1', 'example.com')}/v1`,
		};
		const result = await runNode({ parameters, credentials, items, continueOnFail: true });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.error)).toEqual(
			[0, 1, 2].map((index) =>
				expect.stringMatching(
					new RegExp(
						`^Video Personalization API credential: Base URL must use https.*\\[item ${index}\\]$`,
					),
				),
			),
		);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(server.requests).toHaveLength(0);
		expect(allText(result.run)).not.toContain(KEY);
	});

	it('reports a lookup answered with null as Not Found, like a NOT_FOUND error', async () => {
		const server = await startTestServer((_request, response) =>
			sendJson(response, 200, { data: { viewer: { findUser: null } } }),
		);
		servers.push(server);
		const { error } = await runNode({
			parameters: { resource: 'user', operation: 'get', findBy: 'id', idValue: 'usr_gone' },
			credentials: { apiKey: KEY, baseUrl: `${server.url}/v1` },
		});
		expect(error?.message).toBe('Not found: get the user with User ID "usr_gone" (404) [item 0]');
		expect(error?.httpCode).toBe('404');
		expect(server.requests).toHaveLength(1);
	});
});
