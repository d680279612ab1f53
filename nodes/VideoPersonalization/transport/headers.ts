/**
 * What the service's headers say about its rate limit: Retry-After, and the limit's fields in
 * either convention (the IETF draft's RateLimit and RateLimit-Policy, the common X-RateLimit-*).
 * Header names are in lower case, as n8n's HTTP helper gives them.
 */

export function headerText(headers: Record<string, unknown>, name: string): string | undefined {
	// A header sent more than once: its first value.
	const value: unknown = [headers[name]].flat()[0];
	return value === undefined || value === null ? undefined : String(value);
}

/** A parameter of a structured header item (`"default";q=10;w=1`), or of the old `10;w=1` form. */
function parameter(text: string | undefined, name: string): number | undefined {
	const match = new RegExp(`(?:^|;)\\s*${name}=(\\d+(?:\\.\\d+)?)`).exec(text ?? '');
	return match ? Number(match[1]) : undefined;
}

const count = (text = '') => (/^\s*\d+\s*$/.test(text) ? Number(text) : undefined);

/**
 * What the headers say about the limit, whichever convention the service uses: the requests that
 * may still be sent now, the sustained rate in requests per second (RateLimit-Policy; the slowest
 * of several), and the ms until the quota is whole again.
 *
 * The IETF draft's fields, old (`RateLimit-Remaining/-Reset`, `RateLimit-Policy: 10;w=1`) and new
 * (`RateLimit: "default";r=5;t=1`, `RateLimit-Policy: "default";q=10;w=1`), and the common
 * `X-RateLimit-Remaining/-Reset`, whose reset is a Unix time (GitHub: seconds; some send ms) or,
 * elsewhere, seconds to wait, told apart by size.
 */
export function readLimitHeaders(headers: Record<string, unknown>, now: number) {
	const text = (name: string) => headerText(headers, name);
	const structured = text('ratelimit');
	const remaining =
		parameter(structured, 'r') ??
		count(text('ratelimit-remaining') ?? text('x-ratelimit-remaining'));
	const delta = parameter(structured, 't') ?? count(text('ratelimit-reset'));
	const reset = count(text('x-ratelimit-reset'));
	let resetMs = delta === undefined ? undefined : delta * 1000;
	// X-RateLimit-Reset: above 1e12 a Unix time in ms, above 1e9 in s (either may be past: 0); else seconds to wait.
	if (resetMs === undefined && reset !== undefined)
		resetMs = reset > 1e9 ? Math.max(0, (reset > 1e12 ? reset : reset * 1000) - now) : reset * 1000;
	const rates = (text('ratelimit-policy') ?? '').split(',').flatMap((policy) => {
		const quota = parameter(policy, 'q') ?? count(/^\s*(\d+)\s*;/.exec(policy)?.[1]);
		const window = parameter(policy, 'w');
		return quota && window ? [quota / window] : [];
	});
	return { remaining, rate: rates.length > 0 ? Math.min(...rates) : undefined, resetMs };
}

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date), if it is readable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
	const text = value?.trim() ?? '';
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	// Every HTTP date has a time of day; Date.parse alone reads words and bare numbers ("-5", "a 2") as past dates.
	const date = /\d{2}:\d{2}:\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
	return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
