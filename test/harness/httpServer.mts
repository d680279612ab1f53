import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
	method: string;
	url: string;
	headers: IncomingMessage['headers'];
	body: string;
}

export interface TestServer {
	url: string;
	requests: RecordedRequest[];
	close(): Promise<void>;
}

/**
 * A plain HTTP server on 127.0.0.1 that records what reaches it; for the few cases the
 * sandbox cannot produce on demand (a wrong host, a redirect to another origin, ...).
 */
export async function startTestServer(
	handler: (request: RecordedRequest, response: ServerResponse) => void,
	host = '127.0.0.1',
): Promise<TestServer> {
	const requests: RecordedRequest[] = [];
	const server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const recorded: RecordedRequest = {
				method: request.method ?? 'GET',
				url: request.url ?? '/',
				headers: request.headers,
				body: Buffer.concat(chunks).toString('utf8'),
			};
			requests.push(recorded);
			handler(recorded, response);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, host, resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://${host}:${port}`,
		requests,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

export function sendJson(
	response: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): void {
	response.writeHead(status, { 'Content-Type': 'application/json', ...headers });
	response.end(JSON.stringify(body));
}
