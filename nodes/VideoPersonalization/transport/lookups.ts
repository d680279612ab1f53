/**
 * Lookups shared by every execution on one API key while fresh (a template found by name), kept
 * by the key's gate object but not in it: the gate paces requests, this spares them.
 */

type Fresh = Map<string, { until: number; value: Promise<unknown> }>;

/** By the key's gate: dropped with it when the gate is. */
const byKey = new WeakMap<object, Fresh>();

/**
 * A lookup shared by every execution on the key of `gate` for `freshMs`, so a burst of one-item
 * executions asks the service once. What fails or finds nothing is not kept; an execution that
 * waited on another's lookup which failed (stopped, out of its time) asks itself.
 */
export async function sharedWhileFresh<T>(
	gate: object,
	key: string,
	freshMs: number,
	lookup: () => Promise<T>,
): Promise<T> {
	let fresh = byKey.get(gate);
	if (!fresh) byKey.set(gate, (fresh = new Map()));
	const now = Date.now();
	for (const [name, entry] of fresh) if (entry.until <= now) fresh.delete(name);
	const kept = fresh.get(key);
	if (kept) {
		const value = await kept.value.catch(() => undefined);
		if (value !== undefined) return value as T;
	}
	const value = lookup();
	fresh.set(key, { until: now + freshMs, value });
	const forget = () => {
		if (fresh.get(key)?.value === value) fresh.delete(key);
	};
	value.then((found) => (found === null || found === undefined) && forget(), forget);
	return await value;
}
