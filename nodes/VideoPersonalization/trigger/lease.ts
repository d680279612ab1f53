/**
 * One poll at a time per trigger. n8n starts a poll on schedule without waiting for the last one
 * (a long Retry-After or a slow service can hold it); both would start from the same state and
 * emit the same events. Polls of one trigger run in one n8n process (the main that owns the
 * trigger), so the lease is held in memory; it expires, so a poll that never returns cannot
 * block the trigger, and a poll whose lease was taken over commits nothing.
 */
const leases = new Map<string, { token: symbol; until: number }>();

/** The lease for `key` if it is free (or expired) at `now`, held until `until` or release. */
export function takeLease(key: string, now: number, until: number): symbol | undefined {
	if ((leases.get(key)?.until ?? Number.NEGATIVE_INFINITY) > now) return undefined;
	const token = Symbol(key);
	leases.set(key, { token, until });
	return token;
}

/** Still the holder: nobody took the lease over after it expired. */
export function holdsLease(key: string, token: symbol): boolean {
	return leases.get(key)?.token === token;
}

export function releaseLease(key: string, token: symbol): void {
	if (holdsLease(key, token)) leases.delete(key);
}
