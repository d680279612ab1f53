import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { CallContext, CallNotes, DescribedFailure, Failure } from './call';
import { shortUrl } from './config';
import { faultMessage, ssrfMessage } from './networkErrors';
import { bodySaid, clean, serviceSaid } from './received';
import { graphqlMessage, httpMessage, notFound } from './statusErrors';

/**
 * The one error mapper: every failure becomes the message and description the user reads, each
 * written out once below (grep a few of its words to find it), filled in with the call's values.
 */

/** The sentences that say how often a call was tried, and that it may have been carried out. */
function callNotes(context: CallContext): CallNotes {
	const retries = context.retries ?? 0;
	return {
		retried: retries ? ` It was retried ${retries} time${retries === 1 ? '' : 's'}.` : '',
		committed: context.mayHaveCommitted
			? ' The request was sent, so the service may have carried it out: check with Get Many before running it again.'
			: '',
		address: addressOf(context),
	};
}

/** "the Base URL in the credential (now https://api.example.com/v1)", the file address, or the redirect to it. */
function addressOf(context: CallContext): string {
	const { field, url, redirectedFrom } = context.endpoint ?? { field: 'Base URL', url: '' };
	if (field !== 'file') return `the ${field} in the credential${url ? ` (now ${url})` : ''}`;
	if (!redirectedFrom) return `the file address the service gave (${shortUrl(url)})`;
	return `a redirect: the content host answered ${shortUrl(redirectedFrom)} with a redirect to ${shortUrl(url)}`;
}

/** A duration for a message: "40 s", "2.5 min". */
export function duration(ms: number): string {
	const seconds = Math.max(1, Math.round(ms / 1000));
	if (seconds < 120) return `${seconds} s`;
	return `${Math.round((seconds / 60) * 10) / 10} min`;
}

/** The call's time budget ran out: the wait asked for, its turn that never came, or the faults met until then. */
function outOfTimeMessage(
	failure: Extract<Failure, { kind: 'outOfTime' }>,
	context: CallContext,
): DescribedFailure {
	const { action } = context;
	const { setting, askedMs, budgetMs, last } = failure;
	const budget = duration(budgetMs);
	if (askedMs !== undefined && askedMs > budgetMs) {
		// Room for the pause's jitter (up to 10 %) and the request itself.
		const minutes = Math.ceil((askedMs * 1.1) / 60_000) + 1;
		const limited = last?.kind === 'http' ? last : undefined;
		const advice = setting
			? `To wait for it, set ${setting} to ${minutes} or more; or run again later.`
			: 'Run again later.';
		const server = limited ? bodySaid(limited.body, context.secrets) : '';
		return {
			message: `The service asked to wait ${duration(askedMs)} before it takes the request to ${action} (429): longer than the time budget of ${budget}`,
			description: `${advice}${callNotes(context).retried}${server}`,
			httpCode: limited ? String(limited.status) : '429',
		};
	}
	const gaveUp = `gave up after ${duration(failure.elapsedMs)}, the time budget of ${budget}`;
	const raise = setting ? ` Raise ${setting} to keep trying longer.` : '';
	if (!last)
		return {
			message: `Could not ${action} in time: it was still waiting for its turn (${gaveUp})`,
			description: `The requests of a run go one at a time while the service limits their rate, and wait for the first one's answer.${raise}`,
		};
	const met = describeFailure(last, context);
	return {
		message: `${met.message} (${gaveUp})`,
		description: `${met.description}${raise}`,
		httpCode: met.httpCode,
	};
}

/** The message and description of a failure, written for the call. */
export function describeFailure(failure: Failure, context: CallContext): DescribedFailure {
	const { action } = context;
	const notes = callNotes(context);
	switch (failure.kind) {
		case 'http':
			return { ...httpMessage(failure, context, notes), httpCode: String(failure.status) };
		case 'network':
			return faultMessage(failure, context, notes);
		case 'ssrf':
			return ssrfMessage(failure, context, notes);
		case 'graphql':
			return graphqlMessage(failure.errors, context, notes);
		case 'notFound': {
			const server = serviceSaid(clean(failure.serverText ?? '', context.secrets));
			return { ...notFound(context, notes, server), httpCode: '404' };
		}
		case 'shape': {
			const detail = clean(failure.detail, context.secrets);
			const onQueryEndpoint = context.endpoint?.field === 'GraphQL Endpoint';
			return {
				message: `The service's answer to ${action} was not what the API describes`,
				description: onQueryEndpoint
					? `${detail}. If every query fails like this, check ${notes.address}: it may not be the service's query address.`
					: detail,
			};
		}
		case 'outOfTime':
			return outOfTimeMessage(failure, context);
	}
}

/** The one place failures become NodeApiErrors; only our own sanitized text goes in. */
export function toNodeApiError(node: INode, failure: Failure, context: CallContext): NodeApiError {
	const { message, description, httpCode } = describeFailure(failure, context);
	const response: JsonObject = { message, description, ...(httpCode ? { httpCode } : {}) };
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
