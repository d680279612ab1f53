import type { IDataObject, IExecuteFunctions, INodeParameterResourceLocator } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { optionalText } from '../helpers/answers';
import { fieldSwitches, type USER_QUERY } from '../helpers/queries';
import { DEFAULT_BUDGET_MS, DEFAULT_TIMEOUT_MS, type ServiceClient } from '../transport/client';
import { tryGraphql } from '../transport/graphql';
import { getMany, graphqlList, type ListSelection, restList } from '../transport/pagination';
import type { FindByKey } from './fields';

/** Items handled at once; enough to overlap network waits without flooding the service. */
export const ITEM_CONCURRENCY = 4;

/**
 * An error about one item (one of its fields, or what became of it), worded for the person who
 * filled it in. The message is written whole at the call ("Title: is empty"), so a message a user
 * reports can be grepped.
 */
export function fieldError(
	ctx: IExecuteFunctions,
	itemIndex: number,
	message: string,
	description?: string,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
}

/**
 * An item's error, its message ending in "[item N]". An error several items share (one failed
 * template lookup for the batch) is copied for each, so each names its own item.
 */
export function itemError(ctx: IExecuteFunctions, error: Error, itemIndex: number) {
	const known = error instanceof NodeApiError || error instanceof NodeOperationError;
	const failure = known ? error : new NodeOperationError(ctx.getNode(), error.message);
	const prototype = Object.getPrototypeOf(failure) as object;
	const copy = Object.create(
		prototype,
		Object.getOwnPropertyDescriptors(failure),
	) as typeof failure;
	copy.message = `${failure.message.replace(/ \[item \d+\]$/, '')} [item ${itemIndex}]`;
	copy.context = { ...failure.context, itemIndex };
	return copy;
}

/**
 * The output item in place of an item that failed, with Continue On Fail; without, the item's
 * error (itemError) is thrown.
 */
export function failedItem(ctx: IExecuteFunctions, error: Error, itemIndex: number) {
	const failure = itemError(ctx, error, itemIndex);
	if (!ctx.continueOnFail()) throw failure;
	const details = failure.description ? { details: failure.description } : {};
	return { json: { error: failure.message, ...details }, pairedItem: { item: itemIndex } };
}

export function readSelection(ctx: IExecuteFunctions, itemIndex: number): ListSelection {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
	if (returnAll) return { returnAll: true, limit: Number.POSITIVE_INFINITY };
	const limit = ctx.getNodeParameter('limit', itemIndex, 50) as unknown;
	if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
		const got = JSON.stringify(limit);
		throw fieldError(ctx, itemIndex, `Limit: must be a whole number of 1 or more, got ${got}`);
	}
	return { returnAll: false, limit };
}

/** A resource locator's mode and value (an ID given as plain text reads as mode `id`). */
export function readLocator(ctx: IExecuteFunctions, itemIndex: number, name: string) {
	const locator = ctx.getNodeParameter(name, itemIndex, undefined, { extractValue: false });
	if (typeof locator !== 'object' || locator === null)
		return { mode: 'id', value: optionalText(locator) };
	const { mode, value } = locator as INodeParameterResourceLocator;
	return { mode, value: optionalText(value) };
}

/**
 * A number above 0 from the Options collection, or `fallback` when not set; else the error
 * `problem` ("Timeout: must be a number of seconds above 0"), with what was given.
 */
export function positiveOption(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	fallback: number,
	problem: string,
): number {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const value = options[name] ?? fallback;
	if (typeof value !== 'number' || !(value > 0)) {
		throw fieldError(ctx, itemIndex, `${problem}, got ${JSON.stringify(options[name])}`);
	}
	return value;
}

/** The item's time budget for each of its requests, from Give Up After (Minutes). */
export function readBudgetMs(ctx: IExecuteFunctions, itemIndex: number): number {
	const problem = 'Give Up After (Minutes): must be a number of minutes above 0';
	const fallback = DEFAULT_BUDGET_MS / 60_000;
	return Math.round(positiveOption(ctx, itemIndex, 'giveUpAfter', fallback, problem) * 60_000);
}

/** The item's Timeout for each request, `defaultSeconds` (else DEFAULT_TIMEOUT_MS) when not set. */
export function readTimeoutMs(ctx: IExecuteFunctions, itemIndex: number, defaultSeconds?: number) {
	const problem = 'Timeout: must be a number of seconds above 0';
	const fallback = defaultSeconds ?? DEFAULT_TIMEOUT_MS / 1000;
	return Math.round(positiveOption(ctx, itemIndex, 'timeout', fallback, problem) * 1000);
}

/** What a query-style Get or Get Many sends: its query, field and fields (queries.ts; every query there has USER_QUERY's shape), its wording. */
type QueryStyleCall = typeof USER_QUERY & { action: string; permission: string };

/** What every query-style call reads: the Fields option as the query's switches, and Timeout. */
function readQueryOptions(ctx: IExecuteFunctions, itemIndex: number, { fields }: QueryStyleCall) {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const selected = Array.isArray(options.fields) ? options.fields.map(String) : [];
	const variables = fieldSwitches(fields, selected);
	return { variables, itemIndex, timeoutMs: readTimeoutMs(ctx, itemIndex) };
}

/**
 * A query-style Get: the record its lookup (`criteria`) finds, with the Fields chosen. The service
 * may answer null instead of NOT_FOUND.
 */
export async function getRecord(
	ctx: IExecuteFunctions,
	itemIndex: number,
	api: ServiceClient,
	lookup: QueryStyleCall & { criteria: IDataObject },
) {
	const { query, field, criteria, action, permission } = lookup;
	const { variables, ...read } = readQueryOptions(ctx, itemIndex, lookup);
	const call = { query, variables: { criteria, ...variables }, action, permission, ...read };
	const outcome = await tryGraphql(api, call);
	if (!outcome.ok) throw outcome.raise();
	const record = outcome.viewer[field];
	if (record === null || typeof record !== 'object' || Array.isArray(record))
		throw api.error({ kind: 'notFound' }, { action, itemIndex });
	return [{ json: record as IDataObject }];
}

/** A query-style Get Many: its records by `filter`, all or up to Limit, with the Fields chosen. */
export async function getRecords(
	ctx: IExecuteFunctions,
	itemIndex: number,
	api: ServiceClient,
	{ fields, ...list }: QueryStyleCall & { filter: IDataObject },
) {
	const request = { ...list, ...readQueryOptions(ctx, itemIndex, { fields, ...list }) };
	const records = await getMany(api, graphqlList(request), readSelection(ctx, itemIndex));
	return records.map((json) => ({ json }));
}

/** A REST Get Many (Video, Asset): the list at `path` by `qs`, all or up to Limit. */
export async function restRecords(
	ctx: IExecuteFunctions,
	itemIndex: number,
	api: ServiceClient,
	list: { path: string; qs: IDataObject; action: string },
) {
	const request = { ...list, itemIndex, timeoutMs: readTimeoutMs(ctx, itemIndex) };
	const records = await getMany(api, restList(request), readSelection(ctx, itemIndex));
	return records.map((json) => ({ json }));
}

/** The lookup input of Find By, and how to name it in messages (`User ID "usr_1"`). */
export function readFindBy(ctx: IExecuteFunctions, itemIndex: number, keys: FindByKey[]) {
	const findBy = ctx.getNodeParameter('findBy', itemIndex, keys[0].key) as string;
	const key = keys.find((candidate) => candidate.key === findBy);
	if (!key) {
		const allowed = keys.map((candidate) => candidate.key).join(', ');
		throw fieldError(ctx, itemIndex, `Find By: must be one of ${allowed}`);
	}
	const value = optionalText(ctx.getNodeParameter(`${key.key}Value`, itemIndex, ''));
	if (value === undefined) throw fieldError(ctx, itemIndex, `${key.displayName}: is empty`);
	return { criteria: { [key.key]: value }, label: `${key.displayName} "${value}"` };
}
