import type { IDataObject } from 'n8n-workflow';

import type { Failure } from './call';

/**
 * What a failed call got back, read: the service's own words in an error body (whatever its
 * shape), and a thrown error as a network fault.
 */

const MAX_SERVER_TEXT = 300;

export function redact(text: string, secrets: string[]): string {
	let result = text;
	for (const secret of secrets) {
		if (secret.length >= 4) result = result.split(secret).join('***');
	}
	return result;
}

export function clean(text: string, secrets: string[]): string {
	const flat = redact(text, secrets).replace(/\s+/g, ' ').trim();
	return flat.length > MAX_SERVER_TEXT ? `${flat.slice(0, MAX_SERVER_TEXT)}…` : flat;
}

/** What the service said (cleaned), as the sentence that ends a description; nothing when it said nothing. */
export const serviceSaid = (text: string): string => (text ? ` The service said: "${text}".` : '');

/** The same sentence for an answer's body, whatever its shape (serverMessage). */
export const bodySaid = (body: unknown, secrets: string[]): string =>
	serviceSaid(clean(serverMessage(body) ?? '', secrets));

/** The value as a JSON object, or undefined when it is not one (null, an array, text). */
export function asObject(value: unknown): IDataObject | undefined {
	return value !== null && typeof value === 'object' && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;
}

/** The server's own words, whatever shape its error body has (none is stated: docs/service-facts.md). */
export function serverMessage(body: unknown): string | undefined {
	if (typeof body === 'string') {
		const text = body.trim();
		if (!text) return undefined;
		return looksLikeHtml(text) ? htmlText(text) : text;
	}
	const object = asObject(body);
	if (!object) return undefined;
	const error = asObject(object.error);
	const errors = Array.isArray(object.errors) ? object.errors : [];
	const candidates = [
		error?.message,
		object.error,
		object.message,
		asObject(errors[0])?.message,
		errors[0],
		object.detail,
		object.title,
		object.error_description,
		error?.detail,
	];
	// The first that says something.
	return candidates.find(
		(candidate): candidate is string => typeof candidate === 'string' && candidate.trim() !== '',
	);
}

export function looksLikeHtml(text: string): boolean {
	return /^\s*(<!doctype html|<html|<head|<body|<h1|<title)/i.test(text);
}

function htmlText(html: string): string {
	const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1];
	const heading = /<h1[^>]*>([^<]*)<\/h1>/i.exec(html)?.[1];
	return (title ?? heading ?? html.replace(/<[^>]*>/g, ' ')).trim();
}

function errorChain(error: unknown): IDataObject[] {
	const chain: IDataObject[] = [];
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current !== null && typeof current === 'object'; depth++) {
		chain.push(current as IDataObject);
		current = (current as IDataObject).cause;
	}
	return chain;
}

/** The network faults a thrown error may name, as Node.js names them. */
const NETWORK_CODES =
	'ECONNREFUSED ECONNRESET EPIPE ENOTFOUND EAI_AGAIN EHOSTUNREACH ENETUNREACH'.split(' ');

/** A thrown transport error as a Failure; undefined when it is not a network fault. */
export function networkFailure(error: unknown): Failure | undefined {
	const chain = errorChain(error);
	const strings = (key: string) =>
		chain.map((entry) => entry[key]).filter((value): value is string => typeof value === 'string');
	const [codes, text] = [strings('code'), strings('message').join(' ')];
	// n8n's SSRF protection (n8n 2.41: @n8n/backend-network) refuses before connecting.
	const refused = chain.find((entry) => /^SsrfBlocked(Ip|Hostname)Error$/.test(String(entry.name)));
	if (refused) {
		const ip = typeof refused.ip === 'string' ? refused.ip : undefined;
		const name = refused.name === 'SsrfBlockedHostnameError' ? refused.hostname : undefined;
		return { kind: 'ssrf', ip, blockedHostname: typeof name === 'string' ? name : undefined };
	}
	if (codes.includes('ERR_CANCELED') || chain.some((entry) => entry.name === 'AbortError'))
		return undefined;
	if (
		codes.includes('ECONNABORTED') ||
		codes.includes('ETIMEDOUT') ||
		/timeout of \d+ms exceeded/i.test(text)
	) {
		const limit = /timeout of (\d+)ms/.exec(text)?.[1];
		return {
			kind: 'network',
			code: 'TIMEOUT',
			detail: limit ? `No answer within ${Number(limit) / 1000} s` : 'No answer in time',
		};
	}
	const code = codes.find((candidate) => NETWORK_CODES.includes(candidate));
	if (code) return { kind: 'network', code, detail: text };
	// A reset after the answer began arrives as "stream has been aborted" (axios ERR_BAD_RESPONSE).
	if (/socket hang up|stream has been aborted|aborted/i.test(text)) {
		return { kind: 'network', code: 'ECONNRESET', detail: text };
	}
	return undefined;
}
