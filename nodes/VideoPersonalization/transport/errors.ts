import { type IDataObject, type INode, type JsonObject, NodeApiError } from 'n8n-workflow';

import type { CallContext, DescribedFailure, Failure } from './call';
import { parseUrl } from './config';
import type { CallNotes, FailureOf } from './received';
import { bodySaid, callNotes, clean, serviceSaid } from './received';
import { graphqlMessage, httpMessage, refusal } from './statusErrors';

/**
 * The one error mapper: every failure becomes the message and description the user reads, each
 * written out once (grep a few of its words to find it), filled in with the call's values: here
 * out of time, network faults, SSRF refusals and answers out of shape; statusErrors.ts words
 * HTTP statuses, GraphQL errors and nothing found (as a 404).
 */

/** A duration for a message: "40 s", "2.5 min". */
export function duration(ms: number): string {
	const seconds = Math.max(1, Math.round(ms / 1000));
	return seconds < 120 ? `${seconds} s` : `${Math.round((seconds / 60) * 10) / 10} min`;
}

/** The call's time budget ran out: the wait asked for, its turn that never came, or the faults met until then. */
function outOfTimeMessage(failure: FailureOf<'outOfTime'>, call: CallNotes): DescribedFailure {
	const { setting, askedMs, budgetMs, last } = failure;
	if (askedMs !== undefined && askedMs > budgetMs) {
		// The minutes it takes, with room for the pause's jitter (up to 10 %) and the request itself.
		const minutes = Math.ceil((askedMs * 1.1) / 60_000) + 1;
		const limited = last?.kind === 'http' ? last : undefined;
		return {
			message: `The service asked to wait ${duration(askedMs)} before it takes the request to ${call.action} (429): longer than the time budget of ${duration(budgetMs)}`,
			description: `${setting ? `To wait for it, set ${setting} to ${minutes} or more; or run again later.` : 'Run again later.'}${call.retried}${bodySaid(limited?.body, call.secrets)}`,
			httpCode: String(limited?.status ?? 429),
		};
	}
	const gaveUp = `gave up after ${duration(failure.elapsedMs)}, the time budget of ${duration(budgetMs)}`;
	const raise = setting ? ` Raise ${setting} to keep trying longer.` : '';
	if (!last)
		return {
			message: `Could not ${call.action} in time: it was still waiting for its turn (${gaveUp})`,
			description: `The requests of a run go one at a time while the service limits their rate, and wait for the first one's answer.${raise}`,
		};
	const met = describeFailure(last, call);
	return { ...met, message: `${met.message} (${gaveUp})`, description: met.description + raise };
}

// The failures of a call that reached no service: a network fault, or n8n's SSRF protection
// refusing the address.

/** Which address refused a connection: the host and port dialled, and the IP address the error names if another. */
function refusedBy(detail: string, { endpoint }: CallNotes): string {
	// No address known: the error's own, if any.
	const url = parseUrl(endpoint?.url ?? '');
	const host = url ? `${url.hostname}:${url.port || (url.protocol === 'https:' ? 443 : 80)}` : '';
	const ip = /ECONNREFUSED (\S+)/.exec(detail)?.[1];
	return ip && ip !== host ? (host ? `${host} (${ip})` : ip) : host || 'the address';
}

/** A network fault (failure.code: ECONNREFUSED, ENOTFOUND, TIMEOUT, ...), in the call's words. */
function faultMessage(failure: FailureOf<'network'>, call: CallNotes): DescribedFailure {
	const { action, retried, committed, address } = call;
	const detail = clean(failure.detail, call.secrets);
	if (failure.code === 'ECONNREFUSED')
		return {
			message: `Could not connect to the service to ${action}: ${refusedBy(detail, call)} refused the connection`,
			description: `Nothing accepts connections at that host and port. Check the port and host in ${address}, and that the service is running.${retried}`,
		};
	if (failure.code === 'ENOTFOUND' || failure.code === 'EAI_AGAIN')
		return {
			message: `Could not find the service's host to ${action}`,
			description: `Check the host name in ${address}.${retried}`,
		};
	if (failure.code === 'TIMEOUT')
		return {
			message: `The service did not answer in time to ${action}`,
			description: `${detail}. Try again later or raise the Timeout option.${committed}${retried}`,
		};
	if (failure.code === 'ECONNRESET' || failure.code === 'EPIPE')
		return {
			message: `The connection to the service dropped while trying to ${action}`,
			description: `The service closed the connection before answering.${committed}${retried}`,
		};
	return {
		message: `Could not reach the service to ${action}`,
		description: `${detail}${committed}${retried}`,
	};
}

/** n8n's SSRF protection refused the address: which one, and the setting that allows it. */
function ssrfMessage({ ip, blockedHostname }: FailureOf<'ssrf'>, call: CallNotes) {
	// No address known: name what n8n named.
	const host = parseUrl(call.endpoint?.url ?? '')?.hostname.replace(/^\[|\]$/g, '') ?? '';
	const named = host && host !== ip && !/^[\d.]+$|:/.test(host) ? host : undefined;
	// The message names the setting: n8n shows only the message when a trigger fails to activate.
	if (blockedHostname)
		return {
			message: `n8n's SSRF protection refused to ${call.action}: ${blockedHostname} is a blocked host name, so nothing was sent. To allow it, add ${blockedHostname} to N8N_SSRF_ALLOWED_HOSTNAMES and restart n8n`,
			description: `The address comes from ${call.address}. The name is in N8N_SSRF_BLOCKED_HOSTNAMES; N8N_SSRF_ALLOWED_HOSTNAMES overrides it. An n8n administrator sets this in the environment of every n8n process, workers included (README, "Security").`,
		};
	const target = named && ip ? `${named} (${ip})` : ip || host || 'the address';
	const range = ip ? `${ip}/${ip.includes(':') ? 128 : 32}` : 'its address range';
	return {
		message: `n8n's SSRF protection refused to ${call.action}: ${target} is a blocked address, so nothing was sent. To allow it, add ${range} to N8N_SSRF_ALLOWED_IP_RANGES and restart n8n`,
		description: `The address comes from ${call.address}.${named ? ` Adding ${named} to N8N_SSRF_ALLOWED_HOSTNAMES instead allows it by name.` : ' N8N_SSRF_ALLOWED_HOSTNAMES would not: it allows names, not an address written as numbers.'} An n8n administrator sets this in the environment of every n8n process, workers included (README, "Security").`,
	};
}

/** The message and description of a failure, written for the call. */
export function describeFailure(failure: Failure, context: CallContext): DescribedFailure {
	const call = callNotes(context);
	if (failure.kind === 'http')
		return { ...httpMessage(failure, call), httpCode: String(failure.status) };
	if (failure.kind === 'network') return faultMessage(failure, call);
	if (failure.kind === 'ssrf') return ssrfMessage(failure, call);
	if (failure.kind === 'graphql') return graphqlMessage(failure.errors, call);
	if (failure.kind === 'outOfTime') return outOfTimeMessage(failure, call);
	// A record that does not exist reads as a 404.
	if (failure.kind === 'notFound')
		return refusal(404, call, serviceSaid(clean(failure.serverText ?? '', call.secrets)));
	// What is left: an answer out of shape.
	const detail = clean(failure.detail, call.secrets);
	const queryEndpointHint = `${detail}. If every query fails like this, check ${call.address}: it may not be the service's query address.`;
	return {
		message: `The service's answer to ${call.action} was not what the API describes`,
		description: call.endpoint?.field === 'GraphQL Endpoint' ? queryEndpointHint : detail,
	};
}

/** The one place failures become NodeApiErrors; only our own sanitized text goes in. */
export function toNodeApiError(node: INode, failure: Failure, context: CallContext): NodeApiError {
	const { message, description, httpCode } = describeFailure(failure, context);
	const response: JsonObject = { message, description, ...(httpCode ? { httpCode } : {}) };
	const options = { message, description, httpCode, itemIndex: context.itemIndex };
	const error = new NodeApiError(node, response, options);
	// Callers that must end in time (the trigger's poll) tell this kind apart (isOutOfTime).
	if (failure.kind === 'outOfTime') error.context.outOfTime = true;
	return error;
}

/** Whether an error is a call giving up because its time budget or deadline ran out. */
export const isOutOfTime = (error: unknown): boolean =>
	(error as { context?: IDataObject } | null | undefined)?.context?.outOfTime === true;
