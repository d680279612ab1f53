import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { CallContext, Failure, OutOfTime } from './call';
import { headerText } from './headers';
import { clean, looksLikeHtml, serverMessage } from './received';
import { duration, fillIn, NOTES, type Reason, shortUrl, WORDING } from './wording';

export interface DescribedFailure {
	message: string;
	description: string;
	httpCode?: string;
}

/** Why a call failed, the HTTP status to report, and the values its wording needs. */
interface Classified {
	reason: Reason;
	httpCode?: string;
	fill?: Record<string, string | undefined>;
}

const STATUS_REASONS: Record<number, Reason> = {
	400: 'rejected',
	401: 'badKey',
	402: 'noCredits',
	403: 'forbidden',
	404: 'notFound',
	405: 'notAllowed',
	409: 'conflict',
	413: 'tooLarge',
	415: 'badFormat',
	422: 'rejected',
	429: 'rateLimited',
};

const NETWORK_REASONS: Record<string, Reason> = {
	ECONNREFUSED: 'refused',
	ENOTFOUND: 'noHost',
	EAI_AGAIN: 'noHost',
	TIMEOUT: 'timeout',
	ECONNRESET: 'dropped',
	EPIPE: 'dropped',
};

/** GraphQL error codes that mean what an HTTP status means, with the status they stand for. */
const GRAPHQL_REASONS: Array<[code: string, reason: Reason, httpCode: string]> = [
	['UNAUTHENTICATED', 'badKey', '401'],
	['FORBIDDEN', 'forbidden', '403'],
	['NOT_FOUND', 'notFound', '404'],
];

/** What the service said, as the sentence that ends a description, cleaned of the key. */
function said(text: string | undefined, context: CallContext): string {
	return text ? NOTES.server(clean(text, context.secrets)) : '';
}

/** What a 5xx answer's body shows: an HTML page usually comes from a proxy or gateway. */
function pageNote({ body, headers }: { body: unknown; headers: IDataObject }): string {
	if (body === undefined || body === null || body === '') return '';
	if (typeof body === 'string') return looksLikeHtml(body) ? NOTES.htmlPage : NOTES.textPage;
	return /html/i.test(headerText(headers, 'content-type') ?? '') ? NOTES.htmlPage : '';
}

function classifyHttp(
	failure: Extract<Failure, { kind: 'http' }>,
	context: CallContext,
): Classified {
	const { status } = failure;
	const fill: Classified['fill'] = { server: said(serverMessage(failure.body), context) };
	if (status >= 300 && status < 400) {
		fill.target = NOTES.anotherAddress;
		try {
			fill.target = new URL(headerText(failure.headers, 'location') ?? '').origin;
		} catch {
			// A relative or missing Location: say nothing more precise.
		}
		return { reason: 'redirect', fill };
	}
	// A 404 or 405 for the whole query request: the address is wrong, no record was looked up.
	if ((status === 404 || status === 405) && context.endpoint?.field === 'GraphQL Endpoint') {
		return { reason: 'wrongQueryEndpoint', fill: { ...fill, url: context.endpoint?.url } };
	}
	if (status >= 500) return { reason: 'serverError', fill: { ...fill, page: pageNote(failure) } };
	if (status === 429 && context.retries) fill.stillLimited = NOTES.stillLimited(context.retries);
	return { reason: STATUS_REASONS[status] ?? 'unexpectedStatus', fill };
}

function classifyGraphql(
	failure: Extract<Failure, { kind: 'graphql' }>,
	context: CallContext,
): Classified {
	const text = failure.errors.map((entry) => clean(entry.message, context.secrets)).join(' | ');
	const codes = new Set(failure.errors.map((entry) => (entry.code ?? '').toUpperCase()));
	const known = GRAPHQL_REASONS.find(([code]) => codes.has(code));
	if (known)
		return {
			reason: known[1],
			httpCode: known[2],
			fill: { server: said(serverMessage(text), context) },
		};
	const server = text ? NOTES.server(text) : '';
	const unknownField = failure.errors
		.map((entry) => /Cannot query field "([^"]+)" on type "([^"]+)"/.exec(entry.message))
		.find((match) => match !== null);
	if (unknownField) {
		return {
			reason: 'unknownField',
			fill: { field: unknownField[1], type: unknownField[2], server },
		};
	}
	if (codes.has('BAD_USER_INPUT') || codes.has('GRAPHQL_VALIDATION_FAILED'))
		return { reason: 'queryRejected', fill: { server } };
	return { reason: 'graphqlError', fill: { said: server.trim() || NOTES.noDetails } };
}

/** n8n's SSRF protection refused the address: which one, the setting that allows it. */
function classifySsrf(
	failure: Extract<Failure, { kind: 'ssrf' }>,
	context: CallContext,
): Classified {
	let host = '';
	try {
		host = new URL(context.endpoint?.url ?? '').hostname.replace(/^\[|\]$/g, '');
	} catch {
		// No address known: name what n8n named.
	}
	const { ip, blockedHostname } = failure;
	const named = host && host !== ip && !/^[\d.]+$|:/.test(host) ? host : undefined;
	const target =
		blockedHostname ?? (named && ip ? `${named} (${ip})` : ip || host || NOTES.theAddress);
	if (blockedHostname) return { reason: 'ssrfHostname', fill: { target } };
	const range = ip ? `${ip}/${ip.includes(':') ? 128 : 32}` : NOTES.itsRange;
	const byName = named ? NOTES.allowByName(named) : NOTES.numbersOnly;
	return { reason: 'ssrf', fill: { target, range, byName } };
}

/** Which address refused a connection: the host and port dialled, and the IP address the error names if another. */
function refusedBy(detail: string, context: CallContext): string {
	let host = '';
	try {
		const url = new URL(context.endpoint?.url ?? '');
		host = `${url.hostname}:${url.port || (url.protocol === 'https:' ? 443 : 80)}`;
	} catch {
		// No address known: the error's own, if any.
	}
	const ip = /ECONNREFUSED (\S+)/.exec(detail)?.[1];
	if (ip && ip !== host) return host ? `${host} (${ip})` : ip;
	return host || NOTES.theAddress;
}

function classifyOutOfTime(failure: OutOfTime, context: CallContext): Classified {
	const budget = duration(failure.budgetMs);
	if (failure.askedMs !== undefined && failure.askedMs > failure.budgetMs) {
		// Room for the pause's jitter (up to 10 %) and the request itself.
		const minutes = Math.ceil((failure.askedMs * 1.1) / 60_000) + 1;
		const last = failure.last?.kind === 'http' ? failure.last : undefined;
		const fill = {
			asked: duration(failure.askedMs),
			budget,
			advice: NOTES.waitAdvice(failure.setting, minutes),
			server: said(last ? serverMessage(last.body) : undefined, context),
		};
		return { reason: 'waitTooLong', httpCode: last ? String(last.status) : '429', fill };
	}
	const fill = {
		gaveUp: NOTES.gaveUp(duration(failure.elapsedMs), budget),
		raise: NOTES.raise(failure.setting),
	};
	if (!failure.last) return { reason: 'neverTurn', fill };
	const last = describeFailure(failure.last, context);
	return {
		reason: 'gaveUp',
		httpCode: last.httpCode,
		fill: { ...fill, lastMessage: last.message, lastDescription: last.description },
	};
}

function classify(failure: Failure, context: CallContext): Classified {
	switch (failure.kind) {
		case 'http':
			return { httpCode: String(failure.status), ...classifyHttp(failure, context) };
		case 'network': {
			const reason = NETWORK_REASONS[failure.code] ?? 'unreachable';
			const detail = clean(failure.detail, context.secrets);
			return { reason, fill: { detail, target: refusedBy(detail, context) } };
		}
		case 'ssrf':
			return classifySsrf(failure, context);
		case 'graphql':
			return classifyGraphql(failure, context);
		case 'notFound':
			return { reason: 'notFound', httpCode: '404', fill: { server: said(failure.said, context) } };
		case 'shape': {
			const onQueryEndpoint = context.endpoint?.field === 'GraphQL Endpoint';
			const detail = clean(failure.detail, context.secrets);
			return { reason: onQueryEndpoint ? 'queryShape' : 'shape', fill: { detail } };
		}
		case 'outOfTime':
			return classifyOutOfTime(failure, context);
	}
}

/** "the Base URL in the credential (now https://api.example.com/v1)", the file address, or the redirect to it. */
function addressOf(context: CallContext): string {
	const endpoint = context.endpoint ?? { field: 'Base URL', url: '' };
	if (endpoint.field !== 'file') return NOTES.credentialField(endpoint.field, endpoint.url);
	return endpoint.redirectedFrom
		? NOTES.redirectAddress(shortUrl(endpoint.redirectedFrom), shortUrl(endpoint.url))
		: NOTES.fileAddress(shortUrl(endpoint.url));
}

/** The message and description of a failure: its reason's wording (wording.ts), filled in for the call. */
export function describeFailure(failure: Failure, context: CallContext): DescribedFailure {
	const { reason, httpCode, fill } = classify(failure, context);
	const values = {
		action: context.action,
		status: failure.kind === 'http' ? String(failure.status) : undefined,
		address: addressOf(context),
		permission: context.permission ? `${context.permission} ` : '',
		retried: context.retries ? NOTES.retried(context.retries) : '',
		committed: context.mayHaveCommitted ? NOTES.committed : '',
		...fill,
	};
	const [message, description] = WORDING[reason];
	return { message: fillIn(message, values), description: fillIn(description, values), httpCode };
}

/** The one place failures become NodeApiErrors; only our own sanitized text goes in. */
export function toNodeApiError(node: INode, failure: Failure, context: CallContext): NodeApiError {
	const { message, description, httpCode } = describeFailure(failure, context);
	const response: JsonObject = httpCode
		? { message, description, httpCode }
		: { message, description };
	const error = new NodeApiError(node, response, {
		message,
		description,
		httpCode,
		itemIndex: context.itemIndex,
	});
	// Callers that must end in time (the trigger's poll) tell this kind apart (isOutOfTime).
	if (failure.kind === 'outOfTime') error.context.outOfTime = true;
	return error;
}

/** Whether an error is a call giving up because its time budget or deadline ran out. */
export function isOutOfTime(error: unknown): boolean {
	return (error as { context?: IDataObject } | null | undefined)?.context?.outOfTime === true;
}
