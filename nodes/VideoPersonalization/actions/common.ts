import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeParameterResourceLocator,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { optionalText } from '../helpers/answers';
import type { SelectableField } from '../helpers/queries';
import { DEFAULT_BUDGET_MS, DEFAULT_TIMEOUT_MS, type ServiceClient } from '../transport/client';
import type { ListSelection } from '../transport/pagination';

/** Items handled at once; enough to overlap network waits without flooding the service. */
export const ITEM_CONCURRENCY = 4;

/** An error about one field of one item, worded for the person who filled it in. */
export function fieldError(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	problem: string,
	description?: string,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `${field}: ${problem}`, { itemIndex, description });
}

/**
 * An item's error, its message ending in "[item N]". An error several items share (one failed
 * template lookup for the batch) is copied for each, so each names its own item.
 */
export function itemError(
	ctx: IExecuteFunctions,
	error: Error,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	const failure =
		error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(ctx.getNode(), error.message);
	const copy = Object.create(
		Object.getPrototypeOf(failure) as object,
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
export function failedItem(
	ctx: IExecuteFunctions,
	error: Error,
	itemIndex: number,
): INodeExecutionData {
	const failure = itemError(ctx, error, itemIndex);
	if (!ctx.continueOnFail()) throw failure;
	const details = failure.description ? { details: failure.description } : {};
	return { json: { error: failure.message, ...details }, pairedItem: { item: itemIndex } };
}

/** The Return All and Limit fields of a Get Many. */
export function returnAllAndLimit(noun: string): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
			hint: `How many ${noun} to return at most`,
		},
	];
}

export function readSelection(ctx: IExecuteFunctions, itemIndex: number): ListSelection {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
	if (returnAll) return { returnAll: true, limit: Number.POSITIVE_INFINITY };
	const limit = ctx.getNodeParameter('limit', itemIndex, 50) as unknown;
	if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
		const got = JSON.stringify(limit);
		throw fieldError(ctx, itemIndex, 'Limit', `must be a whole number of 1 or more, got ${got}`);
	}
	return { returnAll: false, limit };
}

/** The Filters collection of a Get Many. */
export function filtersCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options,
	};
}

/** A resource locator's mode and value (an ID given as plain text reads as mode `id`). */
export function readLocator(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
): { mode: string; value?: string } {
	const locator = ctx.getNodeParameter(name, itemIndex, undefined, { extractValue: false }) as
		| INodeParameterResourceLocator
		| string
		| undefined;
	if (typeof locator !== 'object' || locator === null)
		return { mode: 'id', value: optionalText(locator) };
	return { mode: locator.mode, value: optionalText(locator.value) };
}

/** The Options collection of an operation: its own options, then Give Up After and Timeout. */
export function optionsCollection(
	options: INodeProperties[] = [],
	timeoutSeconds = 60,
): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			...options,
			{
				displayName: 'Give Up After (Minutes)',
				name: 'giveUpAfter',
				type: 'number',
				typeOptions: { minValue: 0.01, numberPrecision: 2 },
				// DEFAULT_BUDGET_MS, written as a literal: the lint reads defaults as written.
				default: 5,
				description:
					"How long one request may take in all before it fails, its retries and the waits the service's rate " +
					'limit asks for included',
			},
			{
				displayName: 'Timeout',
				name: 'timeout',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: timeoutSeconds,
				description: 'Seconds to wait for the service to answer one request before giving up',
			},
		],
	};
}

/** A number above 0 from the Options collection, or `fallback` when not set. */
export function positiveOption(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	fallback: number,
	label: string,
	unit = 'a number',
): number {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const value = options[name] ?? fallback;
	if (typeof value !== 'number' || !(value > 0)) {
		const got = JSON.stringify(options[name]);
		throw fieldError(ctx, itemIndex, label, `must be ${unit} above 0, got ${got}`);
	}
	return value;
}

/** The item's time budget for each of its requests, from Give Up After (Minutes). */
export function readBudgetMs(ctx: IExecuteFunctions, itemIndex: number): number {
	const label = 'Give Up After (Minutes)';
	const unit = 'a number of minutes';
	const fallback = DEFAULT_BUDGET_MS / 60_000;
	const minutes = positiveOption(ctx, itemIndex, 'giveUpAfter', fallback, label, unit);
	return Math.round(minutes * 60_000);
}

export function readTimeoutMs(
	ctx: IExecuteFunctions,
	itemIndex: number,
	defaultSeconds = DEFAULT_TIMEOUT_MS / 1000,
): number {
	const unit = 'a number of seconds';
	const seconds = positiveOption(ctx, itemIndex, 'timeout', defaultSeconds, 'Timeout', unit);
	return Math.round(seconds * 1000);
}

/** The Fields option of a query-style Get or Get Many. */
export function fieldsOption(fields: SelectableField[], noun: string): INodeProperties {
	return {
		displayName: 'Fields',
		name: 'fields',
		type: 'multiOptions',
		options: fields.map((field) => ({ name: field.displayName, value: field.name })),
		default: [],
		description: `Which fields of each ${noun} to return besides its ID. None selected returns every field.`,
	};
}

export function readFields(ctx: IExecuteFunctions, itemIndex: number): string[] {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return Array.isArray(options.fields) ? options.fields.map(String) : [];
}

/** The record a query-style lookup found; the service may answer null instead of NOT_FOUND. */
export function foundRecord(
	api: ServiceClient,
	record: unknown,
	call: { action: string; itemIndex: number },
): IDataObject {
	if (record === null || typeof record !== 'object' || Array.isArray(record))
		throw api.error({ kind: 'notFound' }, call);
	return record as IDataObject;
}

/** One way to find a record by: its lookup input field, e.g. `email`. */
export interface FindByKey {
	key: string;
	displayName: string;
	placeholder: string;
}

/** "Find By" plus one field per key, for lookups by id, name, email or phone (docs/service-facts.md). */
export function findByProperties(noun: string, keys: FindByKey[]): INodeProperties[] {
	return [
		{
			displayName: 'Find By',
			name: 'findBy',
			type: 'options',
			default: 'id',
			options: keys.map((key) => ({ name: key.displayName, value: key.key })),
			description: `How to identify the ${noun}`,
		},
		...keys.map(
			(key): INodeProperties => ({
				displayName: key.displayName,
				name: `${key.key}Value`,
				type: 'string',
				required: true,
				default: '',
				placeholder: key.placeholder,
				displayOptions: { show: { findBy: [key.key] } },
			}),
		),
	];
}

/** The lookup input of Find By, and how to name it in messages (`User ID "usr_1"`). */
export function readFindBy(
	ctx: IExecuteFunctions,
	itemIndex: number,
	keys: FindByKey[],
): { criteria: IDataObject; label: string } {
	const findBy = ctx.getNodeParameter('findBy', itemIndex, keys[0].key) as string;
	const key = keys.find((candidate) => candidate.key === findBy);
	if (!key) {
		const allowed = keys.map((candidate) => candidate.key).join(', ');
		throw fieldError(ctx, itemIndex, 'Find By', `must be one of ${allowed}`);
	}
	const value = optionalText(ctx.getNodeParameter(`${key.key}Value`, itemIndex, ''));
	if (value === undefined) throw fieldError(ctx, itemIndex, key.displayName, 'is empty');
	return { criteria: { [key.key]: value }, label: `${key.displayName} "${value}"` };
}
