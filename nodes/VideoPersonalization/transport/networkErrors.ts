import type { DescribedFailure, Failure } from './call';
import { parseUrl } from './config';
import { type CallNotes, clean } from './received';

/**
 * The messages of a call that reached no service: a network fault, or n8n's SSRF protection
 * refusing the address (errors.ts words every other failure).
 */

/** Which address refused a connection: the host and port dialled, and the IP address the error names if another. */
function refusedBy(detail: string, { endpoint }: CallNotes): string {
	// No address known: the error's own, if any.
	const url = parseUrl(endpoint?.url ?? '');
	const host = url ? `${url.hostname}:${url.port || (url.protocol === 'https:' ? 443 : 80)}` : '';
	const ip = /ECONNREFUSED (\S+)/.exec(detail)?.[1];
	if (ip && ip !== host) return host ? `${host} (${ip})` : ip;
	return host || 'the address';
}

/** A network fault (failure.code: ECONNREFUSED, ENOTFOUND, TIMEOUT, ...), in the call's words. */
export function faultMessage(
	failure: Extract<Failure, { kind: 'network' }>,
	call: CallNotes,
): DescribedFailure {
	const { action, retried, committed, address } = call;
	const detail = clean(failure.detail, call.secrets);
	switch (failure.code) {
		case 'ECONNREFUSED':
			return {
				message: `Could not connect to the service to ${action}: ${refusedBy(detail, call)} refused the connection`,
				description: `Nothing accepts connections at that host and port. Check the port and host in ${address}, and that the service is running.${retried}`,
			};
		case 'ENOTFOUND':
		case 'EAI_AGAIN':
			return {
				message: `Could not find the service's host to ${action}`,
				description: `Check the host name in ${address}.${retried}`,
			};
		case 'TIMEOUT':
			return {
				message: `The service did not answer in time to ${action}`,
				description: `${detail}. Try again later or raise the Timeout option.${committed}${retried}`,
			};
		case 'ECONNRESET':
		case 'EPIPE':
			return {
				message: `The connection to the service dropped while trying to ${action}`,
				description: `The service closed the connection before answering.${committed}${retried}`,
			};
	}
	return {
		message: `Could not reach the service to ${action}`,
		description: `${detail}${committed}${retried}`,
	};
}

/** n8n's SSRF protection refused the address: which one, and the setting that allows it. */
export function ssrfMessage(
	{ ip, blockedHostname }: Extract<Failure, { kind: 'ssrf' }>,
	{ action, endpoint, address }: CallNotes,
): DescribedFailure {
	const admin =
		'An n8n administrator sets this in the environment of every n8n process, workers included (README, "Security").';
	// No address known: name what n8n named.
	const host = parseUrl(endpoint?.url ?? '')?.hostname.replace(/^\[|\]$/g, '') ?? '';
	const named = host && host !== ip && !/^[\d.]+$|:/.test(host) ? host : undefined;
	// The message names the setting: n8n shows only the message when a trigger fails to activate.
	if (blockedHostname)
		return {
			message: `n8n's SSRF protection refused to ${action}: ${blockedHostname} is a blocked host name, so nothing was sent. To allow it, add ${blockedHostname} to N8N_SSRF_ALLOWED_HOSTNAMES and restart n8n`,
			description: `The address comes from ${address}. The name is in N8N_SSRF_BLOCKED_HOSTNAMES; N8N_SSRF_ALLOWED_HOSTNAMES overrides it. ${admin}`,
		};
	const target = named && ip ? `${named} (${ip})` : ip || host || 'the address';
	const range = ip ? `${ip}/${ip.includes(':') ? 128 : 32}` : 'its address range';
	const byName = named
		? ` Adding ${named} to N8N_SSRF_ALLOWED_HOSTNAMES instead allows it by name.`
		: ' N8N_SSRF_ALLOWED_HOSTNAMES would not: it allows names, not an address written as numbers.';
	return {
		message: `n8n's SSRF protection refused to ${action}: ${target} is a blocked address, so nothing was sent. To allow it, add ${range} to N8N_SSRF_ALLOWED_IP_RANGES and restart n8n`,
		description: `The address comes from ${address}.${byName} ${admin}`,
	};
}
