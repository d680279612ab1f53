import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { type CallContext, type Failure, networkFailure, toNodeApiError } from './errors';
import {
	DEFAULT_RETRY_POLICY,
	isRetryable,
	mayHaveBeenCarriedOut,
	retryDelayMs,
	type RetryPolicy,
} from './retry';

/** The n8n contexts that send requests: node runs, trigger polls and the editor's list searches. */
export type ApiContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

export interface ApiResponse {
	status: number;
	headers: IDataObject;
	body: unknown;
}

/** A single HTTP exchange, sent again on every attempt. */
export type SendAttempt = () => Promise<IN8nHttpFullResponse>;

/** How a call is retried and named in its error. */
export interface RetriedCall extends Omit<CallContext, 'retries' | 'mayHaveCommitted'> {
	/** False for calls that create something: they are retried only when surely not processed. */
	idempotent: boolean;
	/** An answer outside 2xx that the caller reads itself (GraphQL errors sent with a 400). */
	accept?: (status: number, body: unknown) => boolean;
}

function isCancelled(ctx: ApiContext): boolean {
	return 'getExecutionCancelSignal' in ctx && ctx.getExecutionCancelSignal()?.aborted === true;
}

function isStream(body: unknown): body is { destroy: () => void } {
	return (
		body !== null &&
		typeof body === 'object' &&
		typeof (body as { destroy?: unknown }).destroy === 'function'
	);
}

/** An error answer read as a stream (downloads) is dropped, not left holding the socket. */
function discardStream(body: unknown): void {
	if (isStream(body)) body.destroy();
}

/**
 * The retry loop every call shares: retries what the policy allows, honouring Retry-After,
 * and turns the last failure into a NodeApiError worded for the call.
 */
export async function sendWithRetries(
	ctx: ApiContext,
	call: RetriedCall,
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
			failure = {
				kind: 'http',
				status,
				headers,
				body: isStream(response.body) ? undefined : response.body,
			};
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
		ctx.logger.debug(
			`Video Personalization: retrying "${call.action}" in ${delay} ms (attempt ${attempt + 1})`,
		);
		await sleep(delay);
	}
}
