import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/**
 * Where the node may send the API key, derived from the credential: the REST base (no trailing
 * slash, ends in /v1) and the query-style endpoint.
 */
export type ServiceConfig = { baseUrl: string; graphqlUrl: string };

/** The addresses, or why they are refused, as the message the user reads. */
export type ServiceConfigResult = { ok: true; config: ServiceConfig } | ReturnType<typeof refused>;

const refused = (message: string) => ({ ok: false as const, message });

/**
 * The addresses the API key may be sent to, as typed: https to any host, or http to this machine
 * (localhost, 127.x.x.x, [::1]); an optional port and path; no user, query or fragment. Written
 * only here: the credential's Test applies these patterns inside an n8n expression (which cannot
 * parse a URL) and parseServiceConfig applies them too (test/credentials/addressRules.test.mts).
 * Built from text to keep the \/ inside [...] (useless in a literal, says lint) that the
 * credential's description has always spelt.
 */
export const KEY_ADDRESS = new RegExp(
	String.raw`^(https:\/\/[^\/?#@\s]+|http:\/\/(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d+)?)(\/[^?#\s]*)?$`,
	'i',
);

/** The Base URL, as typed and without trailing slashes, ends in the API version. */
export const ENDS_IN_V1 = /\/v1$/;

export const isLoopbackHost = (hostname: string): boolean =>
	/^(localhost|\[::1\]|::1|127(\.\d{1,3}){3})$/i.test(hostname);

/**
 * `raw` as an address (against `base`, if given), or undefined when it is not one. Not
 * URL.canParse: on Node 20, once optimised, it refuses any address with a Latin-1 letter (bücher).
 */
export function parseUrl(raw: string, base?: string): URL | undefined {
	try {
		return new URL(raw, base);
	} catch {
		return undefined;
	}
}

/**
 * Why the node will not fetch a file address the service gave, or undefined when it will: the Base
 * URL's rule (https, or http on this machine), so an answer cannot point the node into a network.
 */
export function fileUrlProblem(raw: string): string | undefined {
	const url = parseUrl(raw);
	if (!url) return 'is not a valid address';
	if (url.protocol === 'http:')
		return isLoopbackHost(url.hostname) ? undefined : 'is http:// to another machine';
	return url.protocol === 'https:' ? undefined : `is not https:// but ${url.protocol}`;
}

/** The address typed in the credential field `label`, or why it is refused (the message the user reads). */
function parseHttpUrl(raw: string, label: string): URL | string {
	const invalid = `${label} "${raw}" is not a valid address. Example: https://api.example.com/v1`;
	const url = parseUrl(raw);
	if (!url) return invalid;
	if (!['https:', 'http:'].includes(url.protocol)) return `${label} must start with https://`;
	if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
		return `${label} must use https:// so the API key is never sent in clear across a network (http:// is accepted only for localhost)`;
	if (url.username || url.password) return `${label} must not contain a user name or password`;
	// An empty query or fragment ("…/v1?", "…/v1#") leaves search and hash empty but stays in href.
	if (url.search || url.hash || /[?#]/.test(url.href))
		return `${label} must not contain a query (?) or fragment (#)`;
	// What the parser accepts by rewriting it (127.1, [0::1], https:host, a tab) fails the pattern.
	return KEY_ADDRESS.test(raw) ? url : invalid;
}

const withoutTrailingSlashes = (value: string) => value.replace(/\/+$/, '');

/** Validates the credential's addresses (its `fields`); pure, so the rules are tested on their own. */
export function parseServiceConfig(fields: ICredentialDataDecryptedObject): ServiceConfigResult {
	const rawBase = withoutTrailingSlashes(String(fields.baseUrl ?? '').trim());
	if (!rawBase)
		return refused(
			'Base URL is empty. Set it in the credential, for example https://api.example.com/v1',
		);
	const base = parseHttpUrl(rawBase, 'Base URL');
	if (typeof base === 'string') return refused(base);
	if (!ENDS_IN_V1.test(rawBase))
		return refused(`Base URL must end in /v1 (the API version), for example ${base.origin}/v1`);
	const baseUrl = withoutTrailingSlashes(base.href);
	const rawGraphql = withoutTrailingSlashes(String(fields.graphqlEndpoint ?? '').trim());
	if (!rawGraphql) return { ok: true, config: { baseUrl, graphqlUrl: `${baseUrl}/graphql` } };
	const graphql = parseHttpUrl(rawGraphql, 'GraphQL Endpoint');
	if (typeof graphql === 'string') return refused(graphql);
	return { ok: true, config: { baseUrl, graphqlUrl: withoutTrailingSlashes(graphql.href) } };
}

/** An address without its query (a file address may carry a signature), for messages. */
export const shortUrl = (url: string): string => url.replace(/[?#].*$/, '');
