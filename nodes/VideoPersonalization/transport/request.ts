import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { type CallContext, type Failure, toNodeApiError } from './errors';
import type { KeyGate } from './gate';
import { networkFailure } from './received';
import {
	DEFAULT_RETRY_POLICY,
	isRetryable,
	mayHaveBeenCarriedOut,
	parseRetryAfter,
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

/** A single HTTP exchange, sent again on every attempt, with the time it may take. */
export type SendAttempt = (timeoutMs: number) => Promise<IN8nHttpFullResponse>;

/** How a call is retried and named in its error. */
export interface RetriedCall extends Omit<CallContext, 'retries' | 'mayHaveCommitted'> {
	/** False for calls that create something: they are retried only when surely not processed. */
	idempotent: boolean;
	/** An answer outside 2xx that the caller reads itself (GraphQL errors sent with a 400). */
	accept?: (status: number, body: unknown) => boolean;
	/** When the call gives up (ms since the epoch): its time budget, or a caller's deadline. */
	deadline: number;
	budgetMs: number;
	/** The option that sets the budget, named in the advice when it runs out. */
	budgetSetting?: string;
	/** Whether the attempt's own timeout stops at the deadline (not for file downloads). */
	capTimeout: boolean;
	timeoutMs: number;
}

/** The execution's stop signal, where the context has one. */
export function cancelSignal(ctx: ApiContext): AbortSignal | undefined {
	const withSignal = ctx as { getExecutionCancelSignal?: () => AbortSignal | undefined };
	return typeof withSignal.getExecutionCancelSignal === 'function'
		? withSignal.getExecutionCancelSignal()
		: undefined;
}

/**
 * Waits `ms`; ends at once when the execution is stopped. True when the wait ran its course.
 * n8n-workflow's sleep takes the signal only in newer versions: the abort listener covers older ones.
 */
export async function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
	if (signal?.aborted) return false;
	if (!signal) {
		await sleep(ms);
		return true;
	}
	await new Promise<void>((resolve) => {
		const done = () => {
			signal.removeEventListener('abort', done);
			resolve();
		};
		signal.addEventListener('abort', done, { once: true });
		sleep(ms, signal).then(done, done);
	});
	return !signal.aborted;
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

function retryAfterOf(failure: Failure): string | undefined {
	if (failure.kind !== 'http' || failure.headers['retry-after'] === undefined) return undefined;
	return String(failure.headers['retry-after']);
}

/**
 * The retry loop every call shares. Each attempt waits for its turn at the gate. A 429 uses no
 * try: the gate holds every request until the pause it asked for ends, and the call goes again
 * while that fits its time budget. Faults (5xx, timeouts, dropped connections) use tries and
 * count against the same budget; each attempt's timeout stops at the deadline. The last
 * failure becomes a NodeApiError worded for the call.
 */
export async function sendWithRetries(
	ctx: ApiContext,
	call: RetriedCall,
	send: SendAttempt,
	/** The API key's gate; none for requests sent without the key (downloads). */
	gate: KeyGate | undefined,
	policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): Promise<ApiResponse> {
	const signal = cancelSignal(ctx);
	const startedAt = Date.now();
	const stopped = () =>
		new NodeOperationError(ctx.getNode(), `Stopped while trying to ${call.action}`, {
			itemIndex: call.itemIndex,
		});
	let sent = 0;
	let faults = 0;
	let last: Failure | undefined;
	const giveUp = (askedMs?: number) =>
		toNodeApiError(
			ctx.getNode(),
			{
				kind: 'outOfTime',
				budgetMs: call.budgetMs,
				elapsedMs: Date.now() - startedAt,
				askedMs,
				last,
				setting: call.budgetSetting,
			},
			{
				...call,
				retries: Math.max(0, sent - 1),
				mayHaveCommitted: last !== undefined && !call.idempotent && mayHaveBeenCarriedOut(last),
			},
		);

	let again = false;
	for (;;) {
		const sentAt = gate ? await gate.turn(call.deadline, signal, again) : Date.now();
		if (signal?.aborted) throw stopped();
		if (sentAt === undefined || sentAt >= call.deadline) {
			// Held back by a pause another request drew: say how long the service asked for.
			const held = (gate?.pacer.pausedUntil ?? 0) - Date.now();
			throw giveUp(held > call.deadline - Date.now() ? held : undefined);
		}
		sent++;
		const timeoutMs = call.capTimeout
			? Math.max(1, Math.min(call.timeoutMs, call.deadline - sentAt))
			: call.timeoutMs;
		let failure: Failure;
		try {
			const response = await send(timeoutMs);
			const status = response.statusCode;
			const headers = (response.headers ?? {}) as IDataObject;
			gate?.answered(sentAt, { status, headers });
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
		} catch (error) {
			gate?.answered(sentAt, { status: 0, headers: {} });
			if (signal?.aborted) throw stopped();
			failure = networkFailure(error) ?? {
				kind: 'network',
				code: 'UNKNOWN',
				detail: error instanceof Error ? error.message : String(error),
			};
		}

		const retries = sent - 1;
		if (!isRetryable(failure, call.idempotent)) {
			throw toNodeApiError(ctx.getNode(), failure, {
				...call,
				retries,
				mayHaveCommitted: !call.idempotent && mayHaveBeenCarriedOut(failure),
			});
		}
		last = failure;
		const now = Date.now();
		// A request refused with 429 goes again first: it arrived before the ones now waiting.
		again = failure.kind === 'http' && failure.status === 429;
		if (again) {
			// The gate now holds every request until the pause ends; this one goes again at its turn.
			const askedMs = parseRetryAfter(retryAfterOf(failure), now);
			if (askedMs !== undefined && now + askedMs > call.deadline) throw giveUp(askedMs);
			continue;
		}
		faults++;
		const delay = retryDelayMs(faults, retryAfterOf(failure), policy, now, Math.random);
		if (delay === undefined) {
			throw toNodeApiError(ctx.getNode(), failure, {
				...call,
				retries,
				mayHaveCommitted: !call.idempotent && mayHaveBeenCarriedOut(failure),
			});
		}
		if (now + delay >= call.deadline) throw giveUp();
		ctx.logger.debug(
			`Video Personalization: retrying "${call.action}" in ${delay} ms (attempt ${sent + 1})`,
		);
		if (!(await pause(delay, signal))) throw stopped();
	}
}
