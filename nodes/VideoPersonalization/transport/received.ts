import type { IDataObject } from 'n8n-workflow';

import type { CallContext, Failure } from './call';
import { shortUrl } from './config';

/**
 * What a failed call got back, read: the service's own words in an error body (whatever its
 * shape), and a thrown error as a network fault; and what the call's context says in every
 * message (callNotes), for the modules that word them.
 */

/**
 * The call's context, with the sentences its messages may end with worked out once: how often it
 * was tried, that it may have been carried out, and where the request went.
 */
export function callNotes(context: CallContext) {
	const retries = context.retries ?? 0;
	return {
		...context,
		retried: retries ? ` It was retried ${retries} time${retries === 1 ? '' : 's'}.` : '',
		committed: context.mayHaveCommitted
			? ' The request was sent, so the service may have carried it out: check with Get Many before running it again.'
			: '',
		address: addressOf(context),
	};
}
export type CallNotes = ReturnType<typeof callNotes>;

/** One kind of failure: FailureOf<'http'>. */
export type FailureOf<Kind extends Failure['kind']> = Extract<Failure, { kind: Kind }>;

/** "the Base URL in the credential (now https://api.example.com/v1)", the file address, or the redirect to it. */
function addressOf({ endpoint }: CallContext): string {
	const { field, url, redirectedFrom } = endpoint ?? { field: 'Base URL', url: '' };
	if (field !== 'file') return `the ${field} in the credential${url ? ` (now ${url})` : ''}`;
	if (!redirectedFrom) return `the file address the service gave (${shortUrl(url)})`;
	return `a redirect: the content host answered ${shortUrl(redirectedFrom)} with a redirect to ${shortUrl(url)}`;
}

/** Every occurrence of each secret (the API key) as ***: literal text, not a pattern; one under 4 characters would garble the text. */
export const redact = (text: string, secrets: string[]): string =>
	secrets.reduce((result, key) => (key.length < 4 ? result : result.split(key).join('***')), text);

/** Text for a message: redacted, on one line, cut at 300 characters. */
export function clean(text: string, secrets: string[]): string {
	const flat = redact(text, secrets).replace(/\s+/g, ' ').trim();
	return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}

/** What the service said (cleaned), as the sentence that ends a description; nothing when it said nothing. */
export const serviceSaid = (text: string): string => (text ? ` The service said: "${text}".` : '');

/** The same sentence for an answer's body, whatever its shape (serverMessage). */
export const bodySaid = (body: unknown, secrets: string[]): string =>
	serviceSaid(clean(serverMessage(body) ?? '', secrets));

/** The value as a JSON object, or undefined when it is not one (null, an array, text). */
export const asObject = (value: unknown): IDataObject | undefined =>
	value !== null && typeof value === 'object' && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;

/** Where an error body may hold the server's own words, in this order (none is stated: docs/service-facts.md). */
const SAID_AT =
	'error.message error message errors.0.message errors.0 detail title error_description error.detail';

/** The server's own words, whatever shape its error body has: the first text found at SAID_AT. */
export function serverMessage(body: unknown): string | undefined {
	if (typeof body === 'string')
		return looksLikeHtml(body) ? htmlText(body) : body.trim() || undefined;
	// "0" is an array's first entry; any other step is an object's field.
	const step = (value: unknown, key: string): unknown =>
		key === '0' ? (Array.isArray(value) ? value[0] : undefined) : asObject(value)?.[key];
	const found = SAID_AT.split(' ').map((path) => path.split('.').reduce(step, body));
	return found.find((said): said is string => typeof said === 'string' && said.trim() !== '');
}

export const looksLikeHtml = (text: string): boolean =>
	/^\s*(<!doctype html|<html|<head|<body|<h1|<title)/i.test(text);

/** An HTML page's title, else its first heading, else its text without tags. */
function htmlText(html: string): string {
	const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html) ?? /<h1[^>]*>([^<]*)<\/h1>/i.exec(html);
	return (title?.[1] ?? html.replace(/<[^>]*>/g, ' ')).trim();
}

const textOf = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** A thrown error and its causes (fetch and axios wrap the fault), four deep at most. */
const errorChain = (error: unknown, depth = 0): IDataObject[] =>
	depth < 4 && error !== null && typeof error === 'object'
		? [error as IDataObject, ...errorChain((error as IDataObject).cause, depth + 1)]
		: [];

/** The network faults a thrown error may name, as Node.js names them. */
const NETWORK_CODES =
	'ECONNREFUSED ECONNRESET EPIPE ENOTFOUND EAI_AGAIN EHOSTUNREACH ENETUNREACH'.split(' ');

/** A thrown transport error as a Failure; undefined when it is not a network fault. */
export function networkFailure(error: unknown): Failure | undefined {
	const chain = errorChain(error);
	const strings = (key: string) => chain.flatMap((entry) => textOf(entry[key]) ?? []);
	const [codes, text] = [strings('code'), strings('message').join(' ')];
	const named = (...names: string[]) => codes.find((code) => names.includes(code));
	// n8n's SSRF protection (n8n 2.41: @n8n/backend-network) refuses before connecting.
	const refused = chain.find((entry) => /^SsrfBlocked(Ip|Hostname)Error$/.test(String(entry.name)));
	if (refused) {
		const blockedHostname = textOf(refused.name === 'SsrfBlockedHostnameError' && refused.hostname);
		return { kind: 'ssrf', ip: textOf(refused.ip), blockedHostname };
	}
	if (named('ERR_CANCELED') || chain.some((entry) => entry.name === 'AbortError')) return undefined;
	if (named('ECONNABORTED', 'ETIMEDOUT') || /timeout of \d+ms exceeded/i.test(text)) {
		const limit = /timeout of (\d+)ms/.exec(text)?.[1];
		const detail = limit ? `No answer within ${Number(limit) / 1000} s` : 'No answer in time';
		return { kind: 'network', code: 'TIMEOUT', detail };
	}
	// A reset after the answer began arrives as "stream has been aborted" (axios ERR_BAD_RESPONSE).
	const code =
		named(...NETWORK_CODES) ?? (/socket hang up|aborted/i.test(text) ? 'ECONNRESET' : undefined);
	return code ? { kind: 'network', code, detail: text } : undefined;
}
