import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { CallContext, DescribedFailure, Failure } from './call';
import { faultMessage, ssrfMessage } from './networkErrors';
import { bodySaid, callNotes, type CallNotes, clean, serviceSaid } from './received';
import { graphqlMessage, httpMessage, REFUSALS } from './statusErrors';

/**
 * The one error mapper: every failure becomes the message and description the user reads, each
 * written out once below (grep a few of its words to find it), filled in with the call's values.
 */

/** A duration for a message: "40 s", "2.5 min". */
export function duration(ms: number): string {
	const seconds = Math.max(1, Math.round(ms / 1000));
	return seconds < 120 ? `${seconds} s` : `${Math.round((seconds / 60) * 10) / 10} min`;
}

/** The call's time budget ran out: the wait asked for, its turn that never came, or the faults met until then. */
function outOfTimeMessage(
	failure: Extract<Failure, { kind: 'outOfTime' }>,
	call: CallNotes,
): DescribedFailure {
	const { setting, askedMs, budgetMs, last } = failure;
	const budget = duration(budgetMs);
	if (askedMs !== undefined && askedMs > budgetMs) {
		// Room for the pause's jitter (up to 10 %) and the request itself.
		const minutes = Math.ceil((askedMs * 1.1) / 60_000) + 1;
		const limited = last?.kind === 'http' ? last : undefined;
		const advice = setting
			? `To wait for it, set ${setting} to ${minutes} or more; or run again later.`
			: 'Run again later.';
		return {
			message: `The service asked to wait ${duration(askedMs)} before it takes the request to ${call.action} (429): longer than the time budget of ${budget}`,
			description: `${advice}${call.retried}${bodySaid(limited?.body, call.secrets)}`,
			httpCode: String(limited?.status ?? 429),
		};
	}
	const gaveUp = `gave up after ${duration(failure.elapsedMs)}, the time budget of ${budget}`;
	const raise = setting ? ` Raise ${setting} to keep trying longer.` : '';
	if (!last)
		return {
			message: `Could not ${call.action} in time: it was still waiting for its turn (${gaveUp})`,
			description: `The requests of a run go one at a time while the service limits their rate, and wait for the first one's answer.${raise}`,
		};
	const met = describeFailure(last, call);
	return {
		...met,
		message: `${met.message} (${gaveUp})`,
		description: `${met.description}${raise}`,
	};
}

/** The message and description of a failure, written for the call. */
export function describeFailure(failure: Failure, context: CallContext): DescribedFailure {
	const call = callNotes(context);
	switch (failure.kind) {
		case 'http':
			return { ...httpMessage(failure, call), httpCode: String(failure.status) };
		case 'network':
			return faultMessage(failure, call);
		case 'ssrf':
			return ssrfMessage(failure, call);
		case 'graphql':
			return graphqlMessage(failure.errors, call);
		case 'notFound': {
			const server = serviceSaid(clean(failure.serverText ?? '', call.secrets));
			return { ...REFUSALS[404](call, server, 404), httpCode: '404' };
		}
		case 'shape': {
			const detail = clean(failure.detail, call.secrets);
			const onQueryEndpoint = call.endpoint?.field === 'GraphQL Endpoint';
			return {
				message: `The service's answer to ${call.action} was not what the API describes`,
				description: onQueryEndpoint
					? `${detail}. If every query fails like this, check ${call.address}: it may not be the service's query address.`
					: detail,
			};
		}
		case 'outOfTime':
			return outOfTimeMessage(failure, call);
	}
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
export function isOutOfTime(error: unknown): boolean {
	return (error as { context?: IDataObject } | null | undefined)?.context?.outOfTime === true;
}
