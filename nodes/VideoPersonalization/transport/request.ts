import type { IDataObject, IExecuteFunctions, IN8nHttpFullResponse } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { ApiContext, ApiResponse, CallContext, Failure, ServiceRequest } from './call';
import { parseUrl } from './config';
import { toNodeApiError } from './errors';
import type { KeyGate } from './gate';
import { headerText, parseRetryAfter } from './headers';
import { networkFailure } from './received';
import { DEFAULT_RETRY_POLICY, isRetryable, mayHaveBeenCarriedOut, retryDelayMs } from './retry';

/** A request on its way: its deadline settled, what sends it, and what its errors need. */
export type Sending = ServiceRequest &
	Pick<CallContext, 'secrets' | 'endpoint'> & {
		ctx: ApiContext;
		/** A single HTTP exchange, sent again on every attempt, with the time it may take. */
		attempt: (timeoutMs: number) => Promise<IN8nHttpFullResponse>;
		/** The API key's gate; none for requests sent without the key (downloads). */
		gate: KeyGate | undefined;
		/** The call's one time limit (ms since the epoch): every attempt and wait ends by then. */
		deadline: number;
		/** The option that set the deadline, named in the advice when it runs out. */
		setting: string | undefined;
		/** One attempt's wait for an answer, cut short at the deadline (not a download's). */
		timeoutMs: number;
		/** The hosts (host:port) that answered in this execution; see nextTry. */
		answered: Set<string>;
	};

/** The execution's stop signal, where the context has one (node runs; trigger polls and list searches do not, n8n 2.41). */
export const cancelSignal = (ctx: ApiContext): AbortSignal | undefined =>
	(ctx as Partial<IExecuteFunctions>).getExecutionCancelSignal?.();

/** Waits `ms`; ends at once when the execution is stopped. True when the wait ran its course. */
export async function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
	if (signal?.aborted) return false;
	// n8n-workflow's sleep rejects when the signal aborts: that is the stop, not a fault.
	await sleep(ms, signal).catch(() => {});
	return !signal?.aborted;
}

const isStream = (body: unknown): body is { destroy: () => void } =>
	typeof (body as { destroy?: unknown } | null | undefined)?.destroy === 'function';

/** An error answer read as a stream (downloads) is dropped, not left holding the socket. */
export function discardStream(body: unknown): void {
	if (isStream(body)) body.destroy();
}

/** host:port of the address a call goes to; none known: '', treated as one that never answered. */
const hostOf = (call: Sending) => parseUrl(call.endpoint?.url ?? '')?.host ?? '';

/** How far a call got: for its error, and for the delay before its next try (faults: 429s excluded, each uses a try). */
type Progress = { startedAt: number; sent: number; faults: number; last?: Failure };

const stopped = ({ ctx, action, itemIndex }: Sending) =>
	new NodeOperationError(ctx.getNode(), `Stopped while trying to ${action}`, { itemIndex });

function outOfTime(call: Sending, { startedAt, last }: Progress, askedMs?: number): Failure {
	const [budgetMs, elapsedMs] = [call.deadline - startedAt, Date.now() - startedAt];
	return { kind: 'outOfTime', budgetMs, elapsedMs, askedMs, last, setting: call.setting };
}

/** The call's error: worded for it, with its retries and whether it may have been carried out. */
function callError(call: Sending, progress: Progress, failure: Failure) {
	const met = failure.kind === 'outOfTime' ? failure.last : failure;
	const mayHaveCommitted = !call.idempotent && met !== undefined && mayHaveBeenCarriedOut(met);
	const retries = Math.max(0, progress.sent - 1);
	return toNodeApiError(call.ctx.getNode(), failure, { ...call, retries, mayHaveCommitted });
}

/** Sends once and tells the gate how it went: the answer, or the failure met. */
async function attemptOnce(call: Sending, sentAt: number): Promise<ApiResponse | Failure> {
	// Each attempt's timeout stops at the deadline; a download's covers a large file, the budget bounds its retries only.
	const { deadline, timeoutMs } = call;
	const timeout =
		call.to === 'file' ? timeoutMs : Math.max(1, Math.min(timeoutMs, deadline - sentAt));
	try {
		const { statusCode: status, body, ...response } = await call.attempt(timeout);
		const headers = (response.headers ?? {}) as IDataObject;
		call.gate?.answered(sentAt, { status, headers });
		call.answered.add(hostOf(call));
		if ((status >= 200 && status < 300) || call.accept?.(status, body))
			return { status, headers, body };
		discardStream(body);
		return { kind: 'http', status, headers, body: isStream(body) ? undefined : body };
	} catch (error) {
		call.gate?.answered(sentAt, { status: 0, headers: {} });
		if (cancelSignal(call.ctx)?.aborted) throw stopped(call);
		const detail = error instanceof Error ? error.message : String(error);
		return networkFailure(error) ?? { kind: 'network', code: 'UNKNOWN', detail };
	}
}

/**
 * After a failure: for a 429, true at once (the gate now holds every request until the pause it
 * asked for ends; this one goes again first at its turn); for a fault that may be tried again,
 * waits out the delay and returns false; otherwise throws the call's error.
 */
async function nextTry(call: Sending, progress: Progress, failure: Failure): Promise<boolean> {
	if (!isRetryable(failure, call.idempotent)) throw callError(call, progress, failure);
	progress.last = failure;
	const now = Date.now();
	const headers = failure.kind === 'http' ? failure.headers : {};
	const askedMs = parseRetryAfter(headerText(headers, 'retry-after'), now);
	if (failure.kind === 'http' && failure.status === 429) {
		if (askedMs !== undefined && now + askedMs > call.deadline)
			throw callError(call, progress, outOfTime(call, progress, askedMs));
		return true;
	}
	progress.faults++;
	// A refused connection where nothing has answered in this execution is a wrong host or port,
	// not a service restarting: one quick retry, not the minute of backoff.
	const refused = failure.kind === 'network' && failure.code === 'ECONNREFUSED';
	if (refused && progress.faults > 1 && !call.answered.has(hostOf(call)))
		throw callError(call, progress, failure);
	const delay = retryDelayMs(progress.faults, askedMs, DEFAULT_RETRY_POLICY, Math.random);
	// No tries left.
	if (delay === undefined) throw callError(call, progress, failure);
	if (now + delay >= call.deadline) throw callError(call, progress, outOfTime(call, progress));
	call.ctx.logger.debug(
		`Video Personalization: retrying "${call.action}" in ${delay} ms (attempt ${progress.sent + 1})`,
	);
	if (!(await pause(delay, cancelSignal(call.ctx)))) throw stopped(call);
	return false;
}

/**
 * The retry loop every call shares. Each attempt waits for its turn at the gate. A 429 uses no
 * try: the gate holds every request until the pause it asked for ends, and the call goes again
 * while that fits its time budget. Faults (5xx, timeouts, dropped connections) use tries and
 * count against the same budget. The last failure becomes a NodeApiError worded for the call.
 */
export async function sendWithRetries(call: Sending): Promise<ApiResponse> {
	const { gate, deadline } = call;
	const signal = cancelSignal(call.ctx);
	const progress: Progress = { startedAt: Date.now(), sent: 0, faults: 0 };
	// A request refused with 429 goes again first: it arrived before the ones now waiting.
	let again = false;
	for (;;) {
		const sentAt = gate ? await gate.waitTurn(deadline, signal, again) : Date.now();
		if (signal?.aborted) throw stopped(call);
		if (sentAt === undefined || sentAt >= deadline) {
			// Held back by a pause another request drew: say how long the service asked for.
			const held = (gate?.pacer.pausedUntil ?? 0) - Date.now();
			const askedMs = held > deadline - Date.now() ? held : undefined;
			throw callError(call, progress, outOfTime(call, progress, askedMs));
		}
		progress.sent++;
		const outcome = await attemptOnce(call, sentAt);
		if (!('kind' in outcome)) return outcome;
		again = await nextTry(call, progress, outcome);
	}
}
