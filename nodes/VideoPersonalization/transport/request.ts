import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
	NodeApiError,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { parseServiceConfig, type ServiceConfig } from './config';
import {
	type CallContext,
	type Failure,
	type GraphqlErrorEntry,
	toNodeApiError,
} from './errors';
import { DEFAULT_RETRY_POLICY, isRetryable, retryDelayMs, type RetryPolicy } from './retry';

export const CREDENTIAL_TYPE = 'videoPersonalizationApi';

export type ApiContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

/** A body that can only be read once (a file stream) is rebuilt for every attempt. */
export interface PreparedBody {
	body: IHttpRequestOptions['body'];
	headers: Record<string, string>;
}

export interface ApiCall extends Omit<CallContext, 'secrets' | 'retries'> {
	method: IHttpRequestMethods;
	/** Path under the Base URL, e.g. `/assets/ast_1`. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject | (() => Promise<PreparedBody>);
	/** False for calls that create something: they are retried only when surely not processed. */
	idempotent: boolean;
	timeoutMs?: number;
	/** Sends to the GraphQL endpoint instead of the Base URL (path is then ignored). */
	graphql?: boolean;
	accept?: (status: number, body: unknown) => boolean;
}

export interface ApiResponse {
	status: number;
	headers: IDataObject;
	body: unknown;
}

export const DEFAULT_TIMEOUT_MS = 60_000;

interface ResolvedService {
	config: ServiceConfig;
	apiKey: string;
}

// One credential read per execution context, not one per call.
const serviceCache = new WeakMap<object, Promise<ResolvedService>>();

async function resolveService(ctx: ApiContext, itemIndex?: number): Promise<ResolvedService> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
	const parsed = parseServiceConfig(credentials);
	if (!parsed.ok) {
		throw new NodeOperationError(ctx.getNode(), `Video Personalization API credential: ${parsed.message}`, {
			itemIndex,
			description: 'Open the credential and correct the address.',
		});
	}
	return { config: parsed.config, apiKey: String(credentials.apiKey ?? '') };
}

export async function getService(ctx: ApiContext, itemIndex?: number): Promise<ResolvedService> {
	let cached = serviceCache.get(ctx);
	if (!cached) {
		cached = resolveService(ctx, itemIndex);
		serviceCache.set(ctx, cached);
		cached.catch(() => serviceCache.delete(ctx));
	}
	return await cached;
}

function errorChain(error: unknown): IDataObject[] {
	const chain: IDataObject[] = [];
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current !== null && typeof current === 'object'; depth++) {
		chain.push(current as IDataObject);
		current = (current as IDataObject).cause;
	}
	return chain;
}

/** A thrown transport error as a Failure; undefined when it is not a network fault. */
export function networkFailure(error: unknown): Failure | undefined {
	const chain = errorChain(error);
	const codes = chain.map((entry) => entry.code).filter((code): code is string => typeof code === 'string');
	const messages = chain.map((entry) => entry.message).filter((text): text is string => typeof text === 'string');
	const text = messages.join(' ');
	if (codes.includes('ERR_CANCELED') || chain.some((entry) => entry.name === 'AbortError')) return undefined;
	if (codes.includes('ECONNABORTED') || codes.includes('ETIMEDOUT') || /timeout of \d+ms exceeded/i.test(text)) {
		const limit = /timeout of (\d+)ms/.exec(text)?.[1];
		return { kind: 'network', code: 'TIMEOUT', detail: limit ? `No answer within ${Number(limit) / 1000} s` : 'No answer in time' };
	}
	const known = ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'];
	const code = codes.find((candidate) => known.includes(candidate));
	if (code) return { kind: 'network', code, detail: text };
	// A reset after the answer began arrives as "stream has been aborted" (axios ERR_BAD_RESPONSE).
	if (/socket hang up|stream has been aborted|aborted/i.test(text)) return { kind: 'network', code: 'ECONNRESET', detail: text };
	return undefined;
}

/** Whether the service may have acted on a call that failed like this (a 429 or a refused connection: it did not). */
function mayHaveBeenCarriedOut(failure: Failure): boolean {
	if (failure.kind === 'network') return failure.code !== 'ECONNREFUSED';
	return failure.kind === 'http' && failure.status >= 500;
}

function isCancelled(ctx: ApiContext): boolean {
	return 'getExecutionCancelSignal' in ctx && ctx.getExecutionCancelSignal()?.aborted === true;
}

function isStream(body: unknown): body is { destroy: () => void } {
	return body !== null && typeof body === 'object' && typeof (body as { destroy?: unknown }).destroy === 'function';
}

/** An error answer read as a stream (downloads) is dropped, not left holding the socket. */
function discardStream(body: unknown): void {
	if (isStream(body)) body.destroy();
}

/** A single HTTP exchange, sent again on every attempt. */
export type SendAttempt = () => Promise<IN8nHttpFullResponse>;

/**
 * The retry loop every call shares: retries what the policy allows, honouring Retry-After,
 * and turns the last failure into a NodeApiError worded for the call.
 */
export async function sendWithRetries(
	ctx: ApiContext,
	call: Omit<CallContext, 'retries' | 'mayHaveCommitted'> & {
		idempotent: boolean;
		/** An answer outside 2xx that the caller reads itself (GraphQL errors sent with a 400). */
		accept?: (status: number, body: unknown) => boolean;
	},
	send: SendAttempt,
	policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): Promise<ApiResponse> {
	for (let attempt = 1; ; attempt++) {
		let failure: Failure;
		let retryAfter: string | undefined;
		try {
			const response = await send();
			const status = response.statusCode;
			const headers = (response.headers ?? {}) as IDataObject;
			if ((status >= 200 && status < 300) || call.accept?.(status, response.body)) {
				return { status, headers, body: response.body };
			}
			discardStream(response.body);
			failure = { kind: 'http', status, headers, body: isStream(response.body) ? undefined : response.body };
			retryAfter = headers['retry-after'] === undefined ? undefined : String(headers['retry-after']);
		} catch (error) {
			if (isCancelled(ctx)) {
				throw new NodeOperationError(ctx.getNode(), `Stopped while trying to ${call.action}`, {
					itemIndex: call.itemIndex,
				});
			}
			failure = networkFailure(error) ?? {
				kind: 'network',
				code: 'UNKNOWN',
				detail: error instanceof Error ? error.message : String(error),
			};
		}

		const delay = isRetryable(failure, call.idempotent)
			? retryDelayMs(attempt, retryAfter, policy, Date.now(), Math.random)
			: undefined;
		if (delay === undefined || isCancelled(ctx)) {
			throw toNodeApiError(ctx.getNode(), failure, {
				...call,
				retries: attempt - 1,
				mayHaveCommitted: !call.idempotent && mayHaveBeenCarriedOut(failure),
			});
		}
		ctx.logger.debug(`Video Personalization: retrying "${call.action}" in ${delay} ms (attempt ${attempt + 1})`);
		await sleep(delay);
	}
}

/**
 * Every call to the service goes through here: the key goes only to the configured
 * service addresses, and never along a redirect.
 */
export async function callApi(ctx: ApiContext, call: ApiCall, policy?: RetryPolicy): Promise<ApiResponse> {
	const { config, apiKey } = await getService(ctx, call.itemIndex);
	const url = call.graphql ? config.graphqlUrl : `${config.baseUrl}${call.path}`;
	return await sendWithRetries(
		ctx,
		{ ...call, secrets: [apiKey] },
		async () => {
			const prepared = typeof call.body === 'function' ? await call.body() : undefined;
			const options: IHttpRequestOptions = {
				method: call.method,
				url,
				qs: call.qs,
				headers: { Accept: 'application/json', ...(prepared?.headers ?? {}) },
				body: prepared ? prepared.body : call.body,
				json: prepared === undefined,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				disableFollowRedirect: true,
				timeout: call.timeoutMs ?? DEFAULT_TIMEOUT_MS,
			};
			return (await ctx.helpers.httpRequestWithAuthentication.call(
				ctx,
				CREDENTIAL_TYPE,
				options,
			)) as IN8nHttpFullResponse;
		},
		policy,
	);
}

/** The NodeApiError for a failed call, with the API key kept out of every word of it. */
export async function callError(
	ctx: ApiContext,
	failure: Failure,
	call: Omit<CallContext, 'secrets'>,
): Promise<NodeApiError> {
	const { apiKey } = await getService(ctx, call.itemIndex);
	return toNodeApiError(ctx.getNode(), failure, { ...call, secrets: [apiKey] });
}

/** A JSON object from a 2xx answer, or a clear error when the body is something else. */
export async function expectObject(
	ctx: ApiContext,
	response: ApiResponse,
	call: Omit<CallContext, 'secrets'>,
): Promise<IDataObject> {
	const { body } = response;
	if (body !== null && typeof body === 'object' && !Array.isArray(body)) return body as IDataObject;
	const detail =
		typeof body === 'string'
			? `Expected JSON, got ${body.trim().startsWith('<') ? 'an HTML page' : 'text'} (status ${response.status})`
			: `Expected a JSON object, got ${Array.isArray(body) ? 'an array' : typeof body} (status ${response.status})`;
	throw await callError(ctx, { kind: 'shape', detail }, call);
}

/** A call whose answer is one JSON object (most operations). */
export async function callApiForObject(ctx: ApiContext, call: ApiCall): Promise<IDataObject> {
	return await expectObject(ctx, await callApi(ctx, call), call);
}

export interface GraphqlCall extends Omit<ApiCall, 'method' | 'path' | 'body' | 'graphql' | 'idempotent'> {
	query: string;
	variables: IDataObject;
}

function graphqlErrors(body: IDataObject): GraphqlErrorEntry[] {
	if (!Array.isArray(body.errors)) return [];
	return body.errors.map((entry) => {
		const error = (entry ?? {}) as IDataObject;
		const extensions = (error.extensions ?? {}) as IDataObject;
		return {
			message: String(error.message ?? 'Unknown error'),
			code: typeof extensions.code === 'string' ? extensions.code : undefined,
			path: Array.isArray(error.path) ? error.path.join('.') : undefined,
		};
	});
}

export type GraphqlOutcome =
	| { ok: true; viewer: IDataObject }
	| { ok: false; errors: GraphqlErrorEntry[]; raise: () => Error };

/** Runs one query under `viewer` and hands GraphQL errors back, for callers that can adapt. */
export async function tryGraphql(ctx: ApiContext, call: GraphqlCall): Promise<GraphqlOutcome> {
	const apiCall: ApiCall = {
		...call,
		method: 'POST',
		path: '',
		graphql: true,
		idempotent: true,
		body: { query: call.query, variables: call.variables },
		// Many GraphQL servers answer a query they reject with 400 or 422 and an `errors` list.
		accept: (status, body) =>
			(status === 400 || status === 422) &&
			body !== null &&
			typeof body === 'object' &&
			Array.isArray((body as IDataObject).errors),
	};
	const body = await callApiForObject(ctx, apiCall);
	const errors = graphqlErrors(body);
	if (errors.length > 0) {
		const error = await callError(ctx, { kind: 'graphql', errors }, apiCall);
		return { ok: false, errors, raise: () => error };
	}
	const data = body.data as IDataObject | null | undefined;
	const viewer = data?.viewer as IDataObject | null | undefined;
	if (!viewer || typeof viewer !== 'object') {
		throw await callError(ctx, { kind: 'shape', detail: 'The answer has no data.viewer object' }, apiCall);
	}
	return { ok: true, viewer };
}

/** Runs one query under `viewer`; returns `data.viewer`. GraphQL errors become NodeApiErrors. */
export async function callGraphql(ctx: ApiContext, call: GraphqlCall): Promise<IDataObject> {
	const outcome = await tryGraphql(ctx, call);
	if (!outcome.ok) throw outcome.raise();
	return outcome.viewer;
}
