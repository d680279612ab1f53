import type { Failure } from './errors';

export interface RetryPolicy {
	/** Attempts in all, the first included. */
	maxAttempts: number;
	baseDelayMs: number;
	maxDelayMs: number;
	/** A Retry-After longer than this is not waited for: the call fails instead. */
	maxRetryAfterMs: number;
}

/**
 * Tries for faults (5xx, dropped connections, timeouts). A 429 uses none: it is the service
 * asking to wait, and the call's time budget alone bounds how long it waits (request.ts).
 */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	maxAttempts: 8,
	baseDelayMs: 500,
	maxDelayMs: 20_000,
	maxRetryAfterMs: Number.POSITIVE_INFINITY,
};

/**
 * Whether a failed call may be sent again.
 * Idempotent calls retry 429, 5xx and network faults. A call that creates something (and
 * may spend credits) retries only when the service clearly did not act on it: 429, or a
 * connection that was never opened.
 */
export function isRetryable(failure: Failure, idempotent: boolean): boolean {
	if (failure.kind === 'http') {
		if (failure.status === 429) return true;
		return idempotent && [500, 502, 503, 504].includes(failure.status);
	}
	if (failure.kind === 'network') {
		if (failure.code === 'ECONNREFUSED') return true;
		return (
			idempotent &&
			['ECONNRESET', 'EPIPE', 'TIMEOUT', 'ETIMEDOUT', 'EAI_AGAIN'].includes(failure.code)
		);
	}
	return false;
}

/** Whether the service may have acted on a call that failed like this (a 429 or a refused connection: it did not). */
export function mayHaveBeenCarriedOut(failure: Failure): boolean {
	if (failure.kind === 'network') return failure.code !== 'ECONNREFUSED';
	return failure.kind === 'http' && failure.status >= 500;
}

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date), if it is readable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
	if (value === undefined) return undefined;
	const text = value.trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	// Every HTTP date has a time of day; Date.parse alone reads words and bare numbers ("-5", "a 2") as past dates.
	if (!/\d{2}:\d{2}:\d{2}/.test(text)) return undefined;
	const date = Date.parse(text);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - nowMs);
}

/**
 * Wait before retry number `retry` (1 for the first retry), or undefined to give up.
 * Honours Retry-After; otherwise exponential backoff with jitter, so parallel callers spread out.
 */
export function retryDelayMs(
	retry: number,
	retryAfter: string | undefined,
	policy: RetryPolicy,
	nowMs: number,
	random: () => number,
): number | undefined {
	if (retry >= policy.maxAttempts) return undefined;
	const asked = parseRetryAfter(retryAfter, nowMs);
	if (asked !== undefined) return asked <= policy.maxRetryAfterMs ? asked : undefined;
	const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
	return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
