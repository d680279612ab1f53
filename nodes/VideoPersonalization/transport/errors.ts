import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/** What went wrong with one call, before it becomes an error the user reads. */
export type Failure =
	| { kind: 'http'; status: number; headers: IDataObject; body: unknown }
	| { kind: 'network'; code: string; detail: string }
	/** n8n's SSRF protection refused the address before anything was sent. */
	| { kind: 'ssrf'; ip?: string; blockedHostname?: string }
	| { kind: 'graphql'; errors: GraphqlErrorEntry[] }
	| { kind: 'shape'; detail: string }
	/** The record asked for does not exist: a 404, a GraphQL NOT_FOUND, or a lookup answered with null. */
	| { kind: 'notFound'; said?: string }
	| OutOfTime;

/**
 * The call's time budget ran out (or would, waiting as the service asked): every attempt, wait
 * and pause of one call fits in it.
 */
export interface OutOfTime {
	kind: 'outOfTime';
	budgetMs: number;
	/** From the call's first turn to giving up. */
	elapsedMs: number;
	/** The wait a 429 asked for that would end past the budget. */
	askedMs?: number;
	/** What the last attempt met, if one was sent. */
	last?: Failure;
	/** The option that sets the budget, for the advice (absent when the caller set a deadline itself). */
	setting?: string;
}

export interface GraphqlErrorEntry {
	message: string;
	code?: string;
	path?: string;
}

/** What the call was for, so the message can say it in the user's terms. */
export interface CallContext {
	/** e.g. 'get asset "ast_1"', 'list videos', 'create the video "Welcome Ana"' */
	action: string;
	/** Who may do this (helpers/permissions.ts); shown on 403. */
	permission?: string;
	/** Values that must never appear in a message (the API key). */
	secrets: string[];
	/** How many times the call was retried before giving up. */
	retries?: number;
	/** True when a call that creates something may have been carried out anyway (dropped connection, 5xx). */
	mayHaveCommitted?: boolean;
	itemIndex?: number;
	/** Where the address came from (a credential field, or a file address the service gave) and the address. */
	endpoint?: { field: 'Base URL' | 'GraphQL Endpoint' | 'file'; url: string };
}

export interface DescribedFailure {
	message: string;
	description: string;
	httpCode?: string;
}

const MAX_SERVER_TEXT = 300;

export function redact(text: string, secrets: string[]): string {
	let result = text;
	for (const secret of secrets) {
		if (secret.length >= 4) result = result.split(secret).join('***');
	}
	return result;
}

function clean(text: string, secrets: string[]): string {
	const flat = redact(text, secrets).replace(/\s+/g, ' ').trim();
	return flat.length > MAX_SERVER_TEXT ? `${flat.slice(0, MAX_SERVER_TEXT)}…` : flat;
}

function firstString(...candidates: unknown[]): string | undefined {
	for (const candidate of candidates) {
		if (typeof candidate === 'string' && candidate.trim()) return candidate;
	}
	return undefined;
}

function asObject(value: unknown): IDataObject | undefined {
	return value !== null && typeof value === 'object' && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;
}

/** The server's own words, whatever shape its error body has (none is stated: docs/service-facts.md). */
export function serverMessage(body: unknown): string | undefined {
	if (typeof body === 'string') {
		const text = body.trim();
		if (!text) return undefined;
		if (looksLikeHtml(text)) return htmlText(text);
		return text;
	}
	const object = asObject(body);
	if (!object) return undefined;
	const error = asObject(object.error);
	const errors = Array.isArray(object.errors) ? object.errors : [];
	const firstError = asObject(errors[0]);
	return firstString(
		error?.message,
		object.error,
		object.message,
		firstError?.message,
		errors[0],
		object.detail,
		object.title,
		object.error_description,
		error?.detail,
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

function header(headers: IDataObject, name: string): string | undefined {
	const value = headers[name] ?? headers[name.toLowerCase()];
	if (Array.isArray(value)) return value.map(String).join(', ');
	return value === undefined || value === null ? undefined : String(value);
}

function bodyKind(failure: {
	headers: IDataObject;
	body: unknown;
}): 'json' | 'html' | 'text' | 'empty' {
	if (failure.body === undefined || failure.body === null || failure.body === '') return 'empty';
	if (typeof failure.body === 'string') return looksLikeHtml(failure.body) ? 'html' : 'text';
	const contentType = header(failure.headers, 'content-type') ?? '';
	if (/html/i.test(contentType)) return 'html';
	return 'json';
}

function committedNote(context: CallContext): string {
	return context.mayHaveCommitted
		? ' The request was sent, so the service may have carried it out: check with Get Many before running it again.'
		: '';
}

function retriedNote(context: CallContext): string {
	return context.retries
		? ` It was retried ${context.retries} time${context.retries === 1 ? '' : 's'}.`
		: '';
}

/** "the Base URL in the credential (https://api.example.com/v1)", or without the address when unknown. */
function addressField(context: CallContext): string {
	const endpoint = context.endpoint ?? { field: 'Base URL', url: '' };
	if (endpoint.field === 'file')
		return `the file address the service gave (${shortUrl(endpoint.url)})`;
	return `the ${endpoint.field} in the credential${endpoint.url ? ` (now ${endpoint.url})` : ''}`;
}

/** An address without its query (a file address may carry a signature). */
export const shortUrl = (url: string): string => url.replace(/[?#].*$/, '');

/** n8n's SSRF protection refused the address: which one, the setting that allows it, nothing sent. */
function describeSsrf(
	failure: Extract<Failure, { kind: 'ssrf' }>,
	context: CallContext,
): DescribedFailure {
	let host = '';
	try {
		host = new URL(context.endpoint?.url ?? '').hostname.replace(/^\[|\]$/g, '');
	} catch {
		// No address known: name what n8n named.
	}
	const { ip, blockedHostname } = failure;
	const named = host && host !== ip && !/^[\d.]+$|:/.test(host) ? host : undefined;
	const target =
		blockedHostname ?? (named && ip ? `${named} (${ip})` : ip || host || 'the address');
	const allow = blockedHostname
		? `adding ${blockedHostname} to N8N_SSRF_ALLOWED_HOSTNAMES (it is in N8N_SSRF_BLOCKED_HOSTNAMES)`
		: `adding ${ip ? `${ip}/${ip.includes(':') ? 128 : 32}` : 'its address range'} to N8N_SSRF_ALLOWED_IP_RANGES` +
			(named
				? ` or ${named} to N8N_SSRF_ALLOWED_HOSTNAMES`
				: ' (N8N_SSRF_ALLOWED_HOSTNAMES allows names, not an address written as numbers)');
	return {
		message: `n8n's SSRF protection refused to ${context.action}: ${target} is a blocked address, so nothing was sent`,
		description:
			`The address comes from ${addressField(context)}. An n8n administrator can allow it by ${allow}, ` +
			'then restarting n8n (README, "Security").',
	};
}

/** A 404 or 405 for the whole query request: the address is wrong, no record was looked up. */
function wrongQueryEndpoint(
	status: number,
	context: CallContext,
	server: string,
): DescribedFailure {
	const url = context.endpoint?.url ?? 'the GraphQL endpoint';
	return {
		httpCode: String(status),
		message: `The GraphQL endpoint is wrong: nothing takes queries at ${url} (${status})`,
		description:
			"Set the GraphQL Endpoint field of the credential to the service's query address (empty means the " +
			`Base URL followed by /graphql). This was not about a missing record: the query was not run.${server}`,
	};
}

function describeHttp(
	failure: Extract<Failure, { kind: 'http' }>,
	context: CallContext,
): DescribedFailure {
	const { status } = failure;
	const said = serverMessage(failure.body);
	const server = said ? ` The service said: "${clean(said, context.secrets)}".` : '';
	const kind = bodyKind(failure);
	const httpCode = String(status);
	const action = context.action;

	if (status >= 300 && status < 400) {
		const location = header(failure.headers, 'location') ?? '';
		let target = 'another address';
		try {
			target = new URL(location).origin;
		} catch {
			// A relative or missing Location: say nothing more precise.
		}
		return {
			httpCode,
			message: `The service answered "${action}" with a redirect (${status}) to ${target}`,
			description:
				'The API key is never sent on to another address. Set the Base URL (and GraphQL Endpoint) ' +
				'in the credential to the final address of the service.',
		};
	}
	switch (status) {
		case 400:
		case 422:
			return {
				httpCode,
				message: `The service rejected the request to ${action} (${status})`,
				description: `Check this item's fields against what the service accepts.${server}`,
			};
		case 401:
			return {
				httpCode,
				message: 'The service rejected the API key (401)',
				description:
					'Check the API Key of the Video Personalization API credential: it may be mistyped, revoked ' +
					`or expired. A new key comes from the developer dashboard of your account.${server}`,
			};
		case 402:
			return {
				httpCode,
				message: `Not enough credits to ${action} (402)`,
				description:
					"Credits come from your brand's share of the organisation pool; an organisation admin can " +
					`move credits to your brand.${server}`,
			};
		case 403:
			return {
				httpCode,
				message: `The API key may not ${action} (403)`,
				description:
					(context.permission ? `${context.permission} ` : '') +
					`Use the key of a user with that role, or ask an administrator.${server}`,
			};
		case 404:
			if (context.endpoint?.field === 'GraphQL Endpoint')
				return wrongQueryEndpoint(status, context, server);
			return describeNotFound(context, said);
		case 405:
			if (context.endpoint?.field === 'GraphQL Endpoint')
				return wrongQueryEndpoint(status, context, server);
			return {
				httpCode,
				message: `The service does not allow this call: ${action} (405)`,
				description: `Check ${addressField(context)}: it should be the service address ending in /v1.${server}`,
			};
		case 409:
			return {
				httpCode,
				message: `The service refused to ${action} because of a conflict (409)`,
				description: `The record changed or is in a state that does not allow this.${server}`,
			};
		case 413:
			return {
				httpCode,
				message: `The file is too large for the service (413)`,
				description: `Limits: images up to 10 MB, videos up to 200 MB, audio up to 50 MB.${server}`,
			};
		case 415:
			return {
				httpCode,
				message: `The service does not accept this file format (415)`,
				description: `Accepted: images JPG, PNG, SVG, WEBP; videos MP4, WEBM, MOV; audio MP3, WAV, AAC.${server}`,
			};
		case 429:
			return {
				httpCode,
				message: context.retries
					? `The service is rate limiting requests (429) and still was after ${context.retries} ` +
						`retr${context.retries === 1 ? 'y' : 'ies'}`
					: `The service is rate limiting requests (429)`,
				description: `Run again later, send fewer items per run, or add a Wait node between batches.${server}`,
			};
		default:
			break;
	}
	if (status >= 500) {
		const page =
			kind === 'html'
				? ' It answered with an HTML page instead of JSON, which usually comes from a proxy or gateway ' +
					'in front of the service.'
				: kind === 'text'
					? ' It answered with plain text instead of JSON.'
					: '';
		return {
			httpCode,
			message: `The service failed to ${action} (${status})`,
			description:
				"This is a problem on the service's side; try again later." +
				`${page}${committedNote(context)}${retriedNote(context)}${server}`,
		};
	}
	return {
		httpCode,
		message: `The service answered ${status} to ${action}`,
		description: `Unexpected status.${server}`,
	};
}

function describeNotFound(context: CallContext, said: string | undefined): DescribedFailure {
	const server = said ? ` The service said: "${clean(said, context.secrets)}".` : '';
	return {
		httpCode: '404',
		message: `Not found: ${context.action} (404)`,
		description:
			'Check the ID or name; the record may have been deleted. If every operation fails like this, ' +
			`check ${addressField(context)}.${server}`,
	};
}

function describeNetwork(
	failure: Extract<Failure, { kind: 'network' }>,
	context: CallContext,
): DescribedFailure {
	const action = context.action;
	const committed = committedNote(context);
	const retried = retriedNote(context);
	switch (failure.code) {
		case 'ECONNREFUSED':
			return {
				message: `Could not connect to the service to ${action}: connection refused`,
				description: `Check ${addressField(context)} and that the service is reachable.${retried}`,
			};
		case 'ENOTFOUND':
		case 'EAI_AGAIN':
			return {
				message: `Could not find the service's host to ${action}`,
				description: `Check the host name in ${addressField(context)}.${retried}`,
			};
		case 'TIMEOUT':
			return {
				message: `The service did not answer in time to ${action}`,
				description: `${failure.detail}. Try again later or raise the Timeout option.${committed}${retried}`,
			};
		case 'ECONNRESET':
		case 'EPIPE':
			return {
				message: `The connection to the service dropped while trying to ${action}`,
				description: `The service closed the connection before answering.${committed}${retried}`,
			};
		default:
			return {
				message: `Could not reach the service to ${action}`,
				description: `${clean(failure.detail, context.secrets)}${committed}${retried}`,
			};
	}
}

function describeGraphql(
	failure: Extract<Failure, { kind: 'graphql' }>,
	context: CallContext,
): DescribedFailure {
	const action = context.action;
	const said = failure.errors.map((entry) => clean(entry.message, context.secrets)).join(' | ');
	const codes = new Set(failure.errors.map((entry) => (entry.code ?? '').toUpperCase()));
	const server = said ? ` The service said: "${said}".` : '';
	if (codes.has('UNAUTHENTICATED')) {
		return describeHttp({ kind: 'http', status: 401, headers: {}, body: said }, context);
	}
	if (codes.has('FORBIDDEN')) {
		return describeHttp({ kind: 'http', status: 403, headers: {}, body: said }, context);
	}
	if (codes.has('NOT_FOUND')) return describeNotFound(context, serverMessage(said));
	const unknownField = failure.errors
		.map((entry) => /Cannot query field "([^"]+)" on type "([^"]+)"/.exec(entry.message))
		.find((match) => match !== null);
	if (unknownField) {
		return {
			message: `The service does not know the field "${unknownField[1]}" of ${unknownField[2]}`,
			description: `Deselect it under Options > Fields and run again.${server}`,
		};
	}
	if (codes.has('BAD_USER_INPUT') || codes.has('GRAPHQL_VALIDATION_FAILED')) {
		return {
			message: `The service rejected the query to ${action}`,
			description: `Check this item's fields.${server}`,
		};
	}
	return {
		message: `The service returned an error for ${action}`,
		description: server.trim() || 'No details were given.',
	};
}

export function describeFailure(failure: Failure, context: CallContext): DescribedFailure {
	switch (failure.kind) {
		case 'http':
			return describeHttp(failure, context);
		case 'network':
			return describeNetwork(failure, context);
		case 'ssrf':
			return describeSsrf(failure, context);
		case 'graphql':
			return describeGraphql(failure, context);
		case 'notFound':
			return describeNotFound(context, failure.said);
		case 'shape':
			return {
				message: `The service's answer to ${context.action} was not what the API describes`,
				description:
					clean(failure.detail, context.secrets) +
					(context.endpoint?.field === 'GraphQL Endpoint'
						? `. If every query fails like this, check ${addressField(context)}: it may not be the service's query address.`
						: ''),
			};
		case 'outOfTime':
			return describeOutOfTime(failure, context);
	}
}

/** A duration for a message: "40 s", "2.5 min". */
export function duration(ms: number): string {
	const seconds = Math.max(1, Math.round(ms / 1000));
	if (seconds < 120) return `${seconds} s`;
	return `${Math.round((seconds / 60) * 10) / 10} min`;
}

function describeOutOfTime(failure: OutOfTime, context: CallContext): DescribedFailure {
	const budget = duration(failure.budgetMs);
	if (failure.askedMs !== undefined && failure.askedMs > failure.budgetMs) {
		// Room for the pause's jitter (up to 10 %) and the request itself.
		const minutes = Math.ceil((failure.askedMs * 1.1) / 60_000) + 1;
		const last = failure.last?.kind === 'http' ? failure.last : undefined;
		const said = last ? serverMessage(last.body) : undefined;
		const server = said ? ` The service said: "${clean(said, context.secrets)}".` : '';
		const advice = failure.setting
			? `To wait for it, set ${failure.setting} to ${minutes} or more; or run again later.`
			: 'Run again later.';
		return {
			httpCode: last ? String(last.status) : '429',
			message:
				`The service asked to wait ${duration(failure.askedMs)} before it takes the request to ` +
				`${context.action} (429): longer than the time budget of ${budget}`,
			description: `${advice}${retriedNote(context)}${server}`,
		};
	}
	const raise = failure.setting ? ` Raise ${failure.setting} to keep trying longer.` : '';
	const gaveUp = `gave up after ${duration(failure.elapsedMs)}, the time budget of ${budget}`;
	if (!failure.last) {
		return {
			message: `Could not ${context.action} in time: it was still waiting for its turn (${gaveUp})`,
			description:
				"The requests of a run go one at a time while the service limits their rate, and wait for the first one's " +
				`answer.${raise}`,
		};
	}
	const last = describeFailure(failure.last, context);
	return {
		httpCode: last.httpCode,
		message: `${last.message} (${gaveUp})`,
		description: `${last.description}${raise}`,
	};
}

/** The one place failures become NodeApiErrors; only our own sanitized text goes in. */
export function toNodeApiError(node: INode, failure: Failure, context: CallContext): NodeApiError {
	const described = describeFailure(failure, context);
	const response: JsonObject = {
		message: described.message,
		description: described.description,
		...(described.httpCode ? { httpCode: described.httpCode } : {}),
	};
	const error = new NodeApiError(node, response, {
		message: described.message,
		description: described.description,
		httpCode: described.httpCode,
		itemIndex: context.itemIndex,
	});
	if (failure.kind === 'outOfTime') error.context.outOfTime = true;
	return error;
}

/** Whether an error is a call giving up because its time budget or deadline ran out. */
export function isOutOfTime(error: unknown): boolean {
	if (error === null || typeof error !== 'object') return false;
	const context = (error as { context?: unknown }).context;
	return (
		context !== null && typeof context === 'object' && (context as IDataObject).outOfTime === true
	);
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

/** A thrown transport error as a Failure; undefined when it is not a network fault. */
export function networkFailure(error: unknown): Failure | undefined {
	const chain = errorChain(error);
	const codes = chain
		.map((entry) => entry.code)
		.filter((code): code is string => typeof code === 'string');
	const messages = chain
		.map((entry) => entry.message)
		.filter((text): text is string => typeof text === 'string');
	const text = messages.join(' ');
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
	const known = [
		'ECONNREFUSED',
		'ECONNRESET',
		'EPIPE',
		'ENOTFOUND',
		'EAI_AGAIN',
		'EHOSTUNREACH',
		'ENETUNREACH',
	];
	const code = codes.find((candidate) => known.includes(candidate));
	if (code) return { kind: 'network', code, detail: text };
	// A reset after the answer began arrives as "stream has been aborted" (axios ERR_BAD_RESPONSE).
	if (/socket hang up|stream has been aborted|aborted/i.test(text)) {
		return { kind: 'network', code: 'ECONNRESET', detail: text };
	}
	return undefined;
}
