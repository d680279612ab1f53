import { ASSET_RULES, ASSET_TYPES } from '../helpers/uploadRules';

/** "images", "videos", "audio". */
const plural = (type: string) => (type === 'audio' ? type : `${type}s`);
const SIZE_LIMITS = ASSET_TYPES.map(
	(type) => `${plural(type)} up to ${ASSET_RULES[type].limitLabel}`,
).join(', ');
const FORMATS = ASSET_TYPES.map(
	(type) => `${plural(type)} ${ASSET_RULES[type].formats.map((format) => format.label).join(', ')}`,
).join('; ');

/**
 * What the user reads for each reason a call failed (errors.ts decides the reason): the message,
 * then the description. `{name}` is filled from the call: {action}, {status}, {address} (the
 * credential field or file address the request went to), {permission}, {server} (what the
 * service said, as a sentence), {retried} and {committed} (notes below), and each reason's own.
 */
export const WORDING = {
	// HTTP statuses
	redirect: [
		'The service answered "{action}" with a redirect ({status}) to {target}',
		'The API key is never sent on to another address. Set the Base URL (and GraphQL Endpoint) ' +
			'in the credential to the final address of the service.',
	],
	rejected: [
		'The service rejected the request to {action} ({status})',
		"Check this item's fields against what the service accepts.{server}",
	],
	badKey: [
		'The service rejected the API key (401)',
		'Check the API Key of the Video Personalization API credential: it may be mistyped, revoked ' +
			'or expired. A new key comes from the developer dashboard of your account.{server}',
	],
	noCredits: [
		'Not enough credits to {action} (402)',
		"Credits come from your brand's share of the organisation pool; an organisation admin can " +
			'move credits to your brand.{server}',
	],
	forbidden: [
		'The API key may not {action} (403)',
		'{permission}Use the key of a user with that role, or ask an administrator.{server}',
	],
	notFound: [
		'Not found: {action} (404)',
		'Check the ID or name; the record may have been deleted. If every operation fails like this, ' +
			'check {address}.{server}',
	],
	wrongQueryEndpoint: [
		'The GraphQL endpoint is wrong: nothing takes queries at {url} ({status})',
		"Set the GraphQL Endpoint field of the credential to the service's query address (empty means " +
			'the Base URL followed by /graphql). This was not about a missing record: the query was not ' +
			'run.{server}',
	],
	notAllowed: [
		'The service does not allow this call: {action} (405)',
		'Check {address}: it should be the service address ending in /v1.{server}',
	],
	conflict: [
		'The service refused to {action} because of a conflict (409)',
		'The record changed or is in a state that does not allow this.{server}',
	],
	tooLarge: ['The file is too large for the service (413)', `Limits: ${SIZE_LIMITS}.{server}`],
	badFormat: [
		'The service does not accept this file format (415)',
		`Accepted: ${FORMATS}.{server}`,
	],
	rateLimited: [
		'The service is rate limiting requests (429){stillLimited}',
		'Run again later, send fewer items per run, or add a Wait node between batches.{server}',
	],
	serverError: [
		'The service failed to {action} ({status})',
		"This is a problem on the service's side; try again later.{page}{committed}{retried}{server}",
	],
	unexpectedStatus: ['The service answered {status} to {action}', 'Unexpected status.{server}'],

	// Network faults
	refused: [
		'Could not connect to the service to {action}: {target} refused the connection',
		'Nothing accepts connections at that host and port. Check the port and host in {address}, and ' +
			'that the service is running.{retried}',
	],
	noHost: [
		"Could not find the service's host to {action}",
		'Check the host name in {address}.{retried}',
	],
	timeout: [
		'The service did not answer in time to {action}',
		'{detail}. Try again later or raise the Timeout option.{committed}{retried}',
	],
	dropped: [
		'The connection to the service dropped while trying to {action}',
		'The service closed the connection before answering.{committed}{retried}',
	],
	unreachable: ['Could not reach the service to {action}', '{detail}{committed}{retried}'],
	// The message names the setting: n8n shows only the message when a trigger fails to activate.
	ssrf: [
		"n8n's SSRF protection refused to {action}: {target} is a blocked address, so nothing was sent. " +
			'To allow it, add {range} to N8N_SSRF_ALLOWED_IP_RANGES and restart n8n',
		'The address comes from {address}.{byName} An n8n administrator sets this in the environment ' +
			'of every n8n process, workers included (README, "Security").',
	],
	ssrfHostname: [
		"n8n's SSRF protection refused to {action}: {target} is a blocked host name, so nothing was sent. " +
			'To allow it, add {target} to N8N_SSRF_ALLOWED_HOSTNAMES and restart n8n',
		'The address comes from {address}. The name is in N8N_SSRF_BLOCKED_HOSTNAMES; ' +
			'N8N_SSRF_ALLOWED_HOSTNAMES overrides it. An n8n administrator sets this in the environment ' +
			'of every n8n process, workers included (README, "Security").',
	],

	// GraphQL errors (UNAUTHENTICATED, FORBIDDEN and NOT_FOUND read as badKey, forbidden, notFound)
	unknownField: [
		'The service does not know the field "{field}" of {type}',
		'Deselect it under Options > Fields and run again.{server}',
	],
	queryRejected: [
		'The service rejected the query to {action}',
		"Check this item's fields.{server}",
	],
	graphqlError: ['The service returned an error for {action}', '{said}'],

	// Answers that are not what the API describes
	shape: ["The service's answer to {action} was not what the API describes", '{detail}'],
	queryShape: [
		"The service's answer to {action} was not what the API describes",
		"{detail}. If every query fails like this, check {address}: it may not be the service's query address.",
	],

	// Out of time: the call's time budget ran out
	waitTooLong: [
		'The service asked to wait {asked} before it takes the request to {action} (429): longer ' +
			'than the time budget of {budget}',
		'{advice}{retried}{server}',
	],
	neverTurn: [
		'Could not {action} in time: it was still waiting for its turn ({gaveUp})',
		"The requests of a run go one at a time while the service limits their rate, and wait for the first one's " +
			'answer.{raise}',
	],
	/** Faults until the budget ran out: the last fault's words, and that it gave up. */
	gaveUp: ['{lastMessage} ({gaveUp})', '{lastDescription}{raise}'],
} satisfies Record<string, [message: string, description: string]>;

export type Reason = keyof typeof WORDING;

/** The parts of sentences that depend on the call. */
export const NOTES = {
	server: (said: string) => ` The service said: "${said}".`,
	noDetails: 'No details were given.',
	retried: (retries: number) => ` It was retried ${retries} time${retries === 1 ? '' : 's'}.`,
	committed:
		' The request was sent, so the service may have carried it out: check with Get Many before running it again.',
	stillLimited: (retries: number) =>
		` and still was after ${retries} retr${retries === 1 ? 'y' : 'ies'}`,
	htmlPage:
		' It answered with an HTML page instead of JSON, which usually comes from a proxy or gateway ' +
		'in front of the service.',
	textPage: ' It answered with plain text instead of JSON.',
	anotherAddress: 'another address',
	fileAddress: (url: string) => `the file address the service gave (${url})`,
	redirectAddress: (from: string, to: string) =>
		`a redirect: the content host answered ${from} with a redirect to ${to}`,
	credentialField: (field: string, url: string) =>
		`the ${field} in the credential${url ? ` (now ${url})` : ''}`,
	theAddress: 'the address',
	itsRange: 'its address range',
	allowByName: (hostname: string) =>
		` Adding ${hostname} to N8N_SSRF_ALLOWED_HOSTNAMES instead allows it by name.`,
	numbersOnly:
		' N8N_SSRF_ALLOWED_HOSTNAMES would not: it allows names, not an address written as numbers.',
	waitAdvice: (setting: string | undefined, minutes: number) =>
		setting
			? `To wait for it, set ${setting} to ${minutes} or more; or run again later.`
			: 'Run again later.',
	raise: (setting: string | undefined) =>
		setting ? ` Raise ${setting} to keep trying longer.` : '',
	gaveUp: (elapsed: string, budget: string) =>
		`gave up after ${elapsed}, the time budget of ${budget}`,
};

/** A sentence with its `{name}`s filled; a name without a value is left out. */
export function fillIn(template: string, values: Record<string, string | undefined>): string {
	return template.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');
}

/** An address without its query (a file address may carry a signature). */
export const shortUrl = (url: string): string => url.replace(/[?#].*$/, '');

/** A duration for a message: "40 s", "2.5 min". */
export function duration(ms: number): string {
	const seconds = Math.max(1, Math.round(ms / 1000));
	if (seconds < 120) return `${seconds} s`;
	return `${Math.round((seconds / 60) * 10) / 10} min`;
}
