// HTTP plumbing shared by the API, the CDN and the control API: the one JSON error format,
// JSON bodies, and request matching.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestMatch } from './types.mts';

/** What a REST handler answers; the server serializes it (and may fault it). */
export interface ApiResponse {
	status: number;
	headers?: Record<string, string>;
	body: unknown;
}

export interface ErrorBody {
	error: { status: number; code: string; message: string; details?: ErrorDetail[] };
	/** Only on /v1/graphql, for GraphQL clients. */
	errors?: Array<{ message: string; extensions: { code: string } }>;
}

export interface ErrorDetail {
	field: string;
	message: string;
}

/** An error answered in the sandbox's JSON error format (README "Errors"). */
export class HttpError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
		readonly details?: ErrorDetail[],
		readonly headers?: Record<string, string>,
	) {
		super(message);
	}
}

const GRAPHQL_CODES: Record<number, string> = {
	400: 'BAD_REQUEST',
	401: 'UNAUTHENTICATED',
	403: 'FORBIDDEN',
	404: 'NOT_FOUND',
	405: 'METHOD_NOT_ALLOWED',
	413: 'PAYLOAD_TOO_LARGE',
	415: 'UNSUPPORTED_MEDIA_TYPE',
	429: 'RATE_LIMITED',
};

export function errorBody(
	status: number,
	code: string,
	message: string,
	options: { details?: ErrorDetail[]; graphql?: boolean } = {},
): ErrorBody {
	const body: ErrorBody = { error: { status, code, message } };
	if (options.details?.length) body.error.details = options.details;
	if (options.graphql)
		body.errors = [
			{
				message,
				extensions: {
					code:
						GRAPHQL_CODES[status] ?? (status >= 500 ? 'INTERNAL_SERVER_ERROR' : code.toUpperCase()),
				},
			},
		];
	return body;
}

export function errorResponse(error: unknown, graphql: boolean): ApiResponse {
	if (error instanceof HttpError) {
		return {
			status: error.status,
			headers: error.headers,
			body: errorBody(error.status, error.code, error.message, { details: error.details, graphql }),
		};
	}
	const message = error instanceof Error ? error.message : String(error);
	return {
		status: 500,
		body: errorBody(500, 'internal_error', `Internal error: ${message}`, { graphql }),
	};
}

export function serialize(response: ApiResponse): {
	status: number;
	headers: Record<string, string>;
	body: Buffer;
} {
	const body = Buffer.from(JSON.stringify(response.body));
	return {
		status: response.status,
		headers: {
			'Content-Type': 'application/json; charset=utf-8',
			'Content-Length': String(body.length),
			...response.headers,
		},
		body,
	};
}

/** Writes a JSON response at once (where no API fault applies: control API, CDN errors). */
export function sendJson(
	res: ServerResponse,
	status: number,
	body: unknown,
	headers?: Record<string, string>,
): void {
	const s = serialize({ status, headers, body });
	res.writeHead(s.status, s.headers);
	res.end(s.body);
}

export const JSON_BODY_LIMIT = 1024 * 1024;

/** Reads a JSON request body: 415 for a non-JSON content type, 413 past 1 MiB, 400 when unparsable. */
export async function readJson(req: IncomingMessage, limit = JSON_BODY_LIMIT): Promise<unknown> {
	const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
	if (type && type !== 'application/json' && !type.endsWith('+json')) {
		req.resume();
		throw new HttpError(
			415,
			'unsupported_media_type',
			`Expected a JSON body (Content-Type: application/json), got ${type}`,
		);
	}
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req) {
		const buf = chunk as Buffer;
		size += buf.length;
		if (size > limit) {
			req.resume();
			throw new HttpError(413, 'payload_too_large', `JSON body larger than ${limit} bytes`);
		}
		chunks.push(buf);
	}
	const text = Buffer.concat(chunks).toString('utf8');
	if (text.trim() === '')
		throw new HttpError(400, 'invalid_json', 'Request body is empty; expected a JSON object');
	try {
		return JSON.parse(text) as unknown;
	} catch (e) {
		throw new HttpError(
			400,
			'invalid_json',
			`Request body is not valid JSON: ${(e as Error).message}`,
		);
	}
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** String: exact path, or a prefix when it ends in '*'. RegExp: tested against the path. */
export function pathMatches(pattern: string | RegExp, path: string): boolean {
	if (typeof pattern === 'string')
		return pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : path === pattern;
	pattern.lastIndex = 0;
	return pattern.test(path);
}

export function requestMatches(
	match: RequestMatch | undefined,
	server: 'api' | 'cdn',
	method: string,
	path: string,
	defaultServer?: 'api' | 'cdn',
): boolean {
	const wantServer = match?.server ?? defaultServer;
	if (wantServer && wantServer !== server) return false;
	if (match?.method && match.method.toUpperCase() !== method.toUpperCase()) return false;
	if (match?.path !== undefined && !pathMatches(match.path, path)) return false;
	return true;
}

export function iso(ms: number): string {
	return new Date(ms).toISOString();
}

/** A JSON-friendly form of a path matcher given over HTTP: { path } or { pathRegex }. */
export function parsePathSpec(spec: Record<string, unknown>): string | RegExp | undefined {
	if (typeof spec.pathRegex === 'string') return new RegExp(spec.pathRegex);
	if (typeof spec.path === 'string') return spec.path;
	return undefined;
}
