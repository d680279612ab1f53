import type { DescribedFailure, GraphqlErrorEntry } from './call';
import { parseUrl } from './config';
import { headerText } from './headers';
import type { CallNotes, FailureOf } from './received';
import { bodySaid, clean, looksLikeHtml, serviceSaid } from './received';

/** The messages of an answer that refuses a call: an HTTP status outside 2xx, or GraphQL errors (errors.ts words the rest). */

/** What a 5xx answer's body shows: an HTML page usually comes from a proxy or gateway. */
function pageNote({ body, headers }: FailureOf<'http'>): string {
	if (body === undefined || body === null || body === '') return '';
	const isText = typeof body === 'string';
	if (isText ? looksLikeHtml(body) : /html/i.test(headerText(headers, 'content-type') ?? ''))
		return ' It answered with an HTML page instead of JSON, which usually comes from a proxy or gateway in front of the service.';
	return isText ? ' It answered with plain text instead of JSON.' : '';
}

/** An HTTP status outside 2xx, in the call's words. */
export function httpMessage(failure: FailureOf<'http'>, call: CallNotes): DescribedFailure {
	const { status } = failure;
	const server = bodySaid(failure.body, call.secrets);
	// A redirect names only the origin of its Location; a relative or missing one, no address.
	const target =
		parseUrl(headerText(failure.headers, 'location') ?? '')?.origin ?? 'another address';
	if (status >= 300 && status < 400)
		return {
			message: `The service answered "${call.action}" with a redirect (${status}) to ${target}`,
			description: `The API key is never sent on to another address. Set the Base URL (and GraphQL Endpoint) in the credential to the final address of the service.`,
		};
	// A 404 or 405 for the whole query request: the address is wrong, no record was looked up.
	if ((status === 404 || status === 405) && call.endpoint?.field === 'GraphQL Endpoint')
		return {
			message: `The GraphQL endpoint is wrong: nothing takes queries at ${call.endpoint.url} (${status})`,
			description: `Set the GraphQL Endpoint field of the credential to the service's query address (empty means the Base URL followed by /graphql). This was not about a missing record: the query was not run.${server}`,
		};
	if (status >= 500)
		return {
			message: `The service failed to ${call.action} (${status})`,
			description: `This is a problem on the service's side; try again later.${pageNote(failure)}${call.committed}${call.retried}${server}`,
		};
	return refusal(status, call, server);
}

type RefusalWording = (call: CallNotes, server: string, status: number) => DescribedFailure;

/**
 * The 4xx statuses the service answers, each in the call's words. GraphQL's error codes reuse
 * 401, 403 and 404; a record that does not exist (a lookup answered with null) reads as the 404.
 */
const REFUSALS: Record<number, RefusalWording> = {
	// 422 reads as 400 (refusal).
	400: ({ action }, server, status) => ({
		message: `The service rejected the request to ${action} (${status})`,
		description: `Check this item's fields against what the service accepts.${server}`,
	}),
	401: (_call, server) => ({
		message: 'The service rejected the API key (401)',
		description: `Check the API Key of the Video Personalization API credential: it may be mistyped, revoked or expired. A new key comes from the developer dashboard of your account.${server}`,
	}),
	402: ({ action }, server) => ({
		message: `Not enough credits to ${action} (402)`,
		description: `Credits come from your brand's share of the organisation pool; an organisation admin can move credits to your brand.${server}`,
	}),
	403: ({ action, permission }, server) => ({
		message: `The API key may not ${action} (403)`,
		description: `${permission ? `${permission} ` : ''}Use the key of a user with that role, or ask an administrator.${server}`,
	}),
	404: ({ action, address }, server) => ({
		message: `Not found: ${action} (404)`,
		description: `Check the ID or name; the record may have been deleted. If every operation fails like this, check ${address}.${server}`,
	}),
	405: ({ action, address }, server) => ({
		message: `The service does not allow this call: ${action} (405)`,
		description: `Check ${address}: it should be the service address ending in /v1.${server}`,
	}),
	409: ({ action }, server) => ({
		message: `The service refused to ${action} because of a conflict (409)`,
		description: `The record changed or is in a state that does not allow this.${server}`,
	}),
	// The limits and formats of helpers/uploadRules.ts, written out for grep (errors.test.mts checks they agree).
	413: (_call, server) => ({
		message: 'The file is too large for the service (413)',
		description: `Limits: images up to 10 MB, videos up to 200 MB, audio up to 50 MB.${server}`,
	}),
	415: (_call, server) => ({
		message: 'The service does not accept this file format (415)',
		description: `Accepted: images JPG, PNG, SVG, WEBP; videos MP4, WEBM, MOV; audio MP3, WAV, AAC.${server}`,
	}),
	429: ({ retries = 0 }, server) => ({
		message: `The service is rate limiting requests (429)${retries ? ` and still was after ${retries} retr${retries === 1 ? 'y' : 'ies'}` : ''}`,
		description: `Run again later, send fewer items per run, or add a Wait node between batches.${server}`,
	}),
};

const unexpected: RefusalWording = ({ action }, server, status) => ({
	message: `The service answered ${status} to ${action}`,
	description: `Unexpected status.${server}`,
});

/** A 4xx the service answers (a GraphQL code or a missing record that means one too), with its status. */
export const refusal = (status: number, call: CallNotes, server: string): DescribedFailure => ({
	...(REFUSALS[status === 422 ? 400 : status] ?? unexpected)(call, server, status),
	httpCode: String(status),
});

/** GraphQL error codes that mean what an HTTP status means (the first found, in this order). */
const CODE_STATUSES = Object.entries({ UNAUTHENTICATED: 401, FORBIDDEN: 403, NOT_FOUND: 404 });

/** What GraphQL says of a field the service does not have (one the Fields option may still offer). */
const UNKNOWN_FIELD = /Cannot query field "([^"]+)" on type "([^"]+)"/;

/** The `errors` of a GraphQL answer, in the call's words. */
export function graphqlMessage(errors: GraphqlErrorEntry[], call: CallNotes): DescribedFailure {
	const text = errors.map((entry) => clean(entry.message, call.secrets)).join(' | ');
	const codes = new Set(errors.map((entry) => (entry.code ?? '').toUpperCase()));
	const [, status] = CODE_STATUSES.find(([code]) => codes.has(code)) ?? [];
	if (status) return refusal(status, call, bodySaid(text, call.secrets));
	const unknownField = errors.map((entry) => UNKNOWN_FIELD.exec(entry.message)).find(Boolean);
	if (unknownField)
		return {
			message: `The service does not know the field "${unknownField[1]}" of ${unknownField[2]}`,
			description: `Deselect it under Options > Fields and run again.${serviceSaid(text)}`,
		};
	if (codes.has('BAD_USER_INPUT') || codes.has('GRAPHQL_VALIDATION_FAILED'))
		return {
			message: `The service rejected the query to ${call.action}`,
			description: `Check this item's fields.${serviceSaid(text)}`,
		};
	return {
		message: `The service returned an error for ${call.action}`,
		description: serviceSaid(text).trim() || 'No details were given.',
	};
}
