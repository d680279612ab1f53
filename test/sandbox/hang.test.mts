// The 'hang' fault: the service accepts the connection, reads the request, and never answers,
// so the connection stays open until the client gives up. Per route or for everything.
import { request } from 'node:http';
import { startSandbox, type Sandbox } from '../../sandbox/index.mts';
import { api, http } from './helpers.mts';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox({ quiet: true });
});
afterAll(() => sb.close());
afterEach(() => sb.faults.clear());

interface Exchange {
	connected: boolean;
	/** Anything at all came back (status line, headers, bytes). */
	answered: boolean;
	/** The server ended or closed the connection before the client gave up. */
	closedByServer: boolean;
	/** The client gave up (its timeout fired) and destroyed the socket. */
	gaveUp: boolean;
}

/**
 * One request whose client gives up after `patienceMs` of silence. Not a timing assertion: what
 * matters is the order of events (who closed the connection), not how long anything took.
 */
function exchange(
	url: string,
	options: {
		method?: string;
		body?: unknown;
		headers?: Record<string, string>;
		patienceMs?: number;
	} = {},
): Promise<Exchange> {
	return new Promise((resolve) => {
		const state: Exchange = {
			connected: false,
			answered: false,
			closedByServer: false,
			gaveUp: false,
		};
		const data = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
		const req = request(url, {
			method: options.method ?? 'GET',
			headers: {
				...options.headers,
				...(data
					? { 'content-type': 'application/json', 'content-length': String(data.length) }
					: {}),
			},
			timeout: options.patienceMs ?? 300,
			agent: false,
		});
		req.on('socket', (socket) => {
			socket.on('connect', () => (state.connected = true));
			socket.on('data', () => (state.answered = true));
			socket.on('end', () => {
				if (!state.gaveUp) state.closedByServer = true;
			});
			socket.on('close', () => {
				if (!state.gaveUp) state.closedByServer = true;
				resolve(state);
			});
		});
		req.on('response', () => (state.answered = true));
		req.on('timeout', () => {
			state.gaveUp = true;
			req.destroy();
		});
		req.on('error', () => undefined);
		req.end(data);
	});
}

const auth = () => ({ authorization: `Bearer ${sb.keys.user}` });
const gaveUpWithoutAnswer = {
	connected: true,
	answered: false,
	closedByServer: false,
	gaveUp: true,
};

test('per route: a hanging POST /v1/videos holds the connection until the client gives up; nothing is created; other routes answer', async () => {
	const videos = sb.store.videos.size;
	sb.faults.script([
		{ kind: 'hang', match: { method: 'POST', path: '/v1/videos' }, times: 'always' },
	]);
	const body = { title: 'Never', template_id: sb.known.stockTemplateId, customer_data: {} };
	expect(await exchange(`${sb.baseUrl}/videos`, { method: 'POST', body, headers: auth() })).toEqual(
		gaveUpWithoutAnswer,
	);
	expect(await exchange(`${sb.baseUrl}/videos`, { method: 'POST', body, headers: auth() })).toEqual(
		gaveUpWithoutAnswer,
	);
	expect(sb.store.videos.size).toBe(videos);
	expect((await api(sb, sb.keys.user, 'GET', '/videos?limit=1')).status).toBe(200);
	// Logged as received, with nothing sent (status 0).
	const hung = sb.requests.log.filter((r) => r.fault === 'hang');
	expect(hung.slice(-2).map((r) => [r.method, r.path, r.status])).toEqual([
		['POST', '/v1/videos', 0],
		['POST', '/v1/videos', 0],
	]);
	const faults = await http<{ scripted: Array<{ remaining: unknown }> }>(`${sb.controlUrl}/faults`);
	expect(faults.json.scripted[0].remaining).toBe('always');
});

test('for everything (random mode at rate 1): REST and GraphQL hang; fetch gives up with its own timeout', async () => {
	sb.faults.random({ rate: 1, kinds: ['hang'] });
	expect(await exchange(`${sb.baseUrl}/assets`, { headers: auth() })).toEqual(gaveUpWithoutAnswer);
	expect(
		await exchange(sb.graphqlUrl, {
			method: 'POST',
			body: { query: '{ __typename }' },
			headers: auth(),
		}),
	).toEqual(gaveUpWithoutAnswer);
	await expect(
		fetch(`${sb.baseUrl}/videos`, { headers: auth(), signal: AbortSignal.timeout(200) }),
	).rejects.toMatchObject({ name: 'TimeoutError' });
	// The control API is never faulted; cleared, the service answers again.
	expect((await http(`${sb.controlUrl}/info`)).status).toBe(200);
	sb.faults.clear();
	expect((await api(sb, sb.keys.user, 'GET', '/videos?limit=1')).status).toBe(200);
});

test('scripted with times and skip: only the chosen requests hang; on the CDN too', async () => {
	sb.faults.script([
		{ kind: 'hang', match: { path: '/v1/assets' }, skip: 1, times: 1 },
		{ kind: 'hang', match: { server: 'cdn' } },
	]);
	expect((await api(sb, sb.keys.user, 'GET', '/assets?limit=1')).status).toBe(200);
	expect(await exchange(`${sb.baseUrl}/assets?limit=1`, { headers: auth() })).toEqual(
		gaveUpWithoutAnswer,
	);
	expect((await api(sb, sb.keys.user, 'GET', '/assets?limit=1')).status).toBe(200);
	const file = `${sb.cdnUrl}/assets/${sb.known.unusedAssetId}.jpg`;
	expect(await exchange(file)).toEqual(gaveUpWithoutAnswer);
	expect((await http(file)).status).toBe(200);
});

test("times must be a number >= 0 or 'always'", async () => {
	expect(() => sb.faults.script([{ kind: 'hang', times: -1 }])).toThrow(RangeError);
	const r = await http(`${sb.controlUrl}/faults`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ script: [{ kind: 'hang', times: -2 }] }),
	});
	expect(r.status).toBe(400);
});

test('close() ends hanging connections at once', async () => {
	const other = await startSandbox({ quiet: true });
	other.faults.random({ rate: 1, kinds: ['hang'] });
	const pending = exchange(`${other.baseUrl}/videos`, {
		headers: { authorization: `Bearer ${other.keys.user}` },
		patienceMs: 60_000,
	});
	while (other.requests.log.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
	await other.close();
	expect(await pending).toEqual({
		connected: true,
		answered: false,
		closedByServer: true,
		gaveUp: false,
	});
});
