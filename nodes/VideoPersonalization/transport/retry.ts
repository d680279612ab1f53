import type { Failure } from './call';

/** What may be sent again after a failure, and how long to wait first (request.ts runs the loop). */

/**
 * Tries for faults (5xx, dropped connections, timeouts): `maxAttempts` in all, the first
 * included. A 429 uses none: it is the service asking to wait, and the call's time budget alone bounds how
 * long it waits (sendWithRetries).
 */
export const DEFAULT_RETRY_POLICY = { maxAttempts: 8, baseDelayMs: 500, maxDelayMs: 20_000 };
export type RetryPolicy = typeof DEFAULT_RETRY_POLICY;

/** Network faults that pass: a dropped connection, a timeout, a name lookup that failed for now. */
const PASSING_FAULTS = ['ECONNRESET', 'EPIPE', 'TIMEOUT', 'ETIMEDOUT', 'EAI_AGAIN'];

/**
 * Whether a failed call may be sent again.
 * Idempotent calls retry 429, 5xx and network faults. A call that creates something (and
 * may spend credits) retries only when the service clearly did not act on it: 429, or a
 * connection that was never opened.
 */
export function isRetryable(failure: Failure, idempotent: boolean): boolean {
	if (failure.kind === 'http')
		return failure.status === 429 || (idempotent && [500, 502, 503, 504].includes(failure.status));
	if (failure.kind !== 'network') return false;
	return failure.code === 'ECONNREFUSED' || (idempotent && PASSING_FAULTS.includes(failure.code));
}

/** Whether the service may have acted on a call that failed like this (a 429 or a refused connection: it did not). */
export function mayHaveBeenCarriedOut(failure: Failure): boolean {
	if (failure.kind === 'network') return failure.code !== 'ECONNREFUSED';
	return failure.kind === 'http' && failure.status >= 500;
}

/**
 * Wait before retry number `retry` (1 for the first retry), or undefined to give up. Honours
 * the wait Retry-After asked for (`askedMs`, headers.ts reads it); otherwise exponential backoff
 * with jitter, so parallel callers spread out.
 */
export function retryDelayMs(
	retry: number,
	askedMs: number | undefined,
	policy: RetryPolicy,
	random: () => number,
): number | undefined {
	if (retry >= policy.maxAttempts) return undefined;
	// However long: the call's time budget decides whether it is waited for (sendWithRetries).
	if (askedMs !== undefined) return askedMs;
	const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
	return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
