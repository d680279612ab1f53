import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { SelectableField } from '../helpers/queries';
import { DEFAULT_BUDGET_MS, DEFAULT_TIMEOUT_MS } from '../transport/client';
import type { ListSelection } from '../transport/pagination';

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

export const timeoutOption: INodeProperties = {
	displayName: 'Timeout',
	name: 'timeout',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 60,
	description: 'Seconds to wait for the service to answer one request before giving up',
};

export const BUDGET_SETTING = 'Options > Give Up After (Minutes)';

/** Its default is DEFAULT_BUDGET_MS (a literal: the lint reads defaults as written). */
export const budgetOption: INodeProperties = {
	displayName: 'Give Up After (Minutes)',
	name: 'giveUpAfter',
	type: 'number',
	typeOptions: { minValue: 0.01, numberPrecision: 2 },
	default: 5,
	description:
		"How long one request may take in all before it fails, its retries and the waits the service's rate " +
		'limit asks for included',
};

/** The Options collection of an operation: its own options, then Timeout and Give Up After. */
export function optionsCollection(
	options: INodeProperties[] = [],
	timeout: INodeProperties = timeoutOption,
): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [...options, budgetOption, timeout],
	};
}

/** The item's time budget for each of its requests, from Give Up After (Minutes). */
export function readBudgetMs(ctx: IExecuteFunctions, itemIndex: number): number {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const minutes = options.giveUpAfter ?? DEFAULT_BUDGET_MS / 60_000;
	if (typeof minutes !== 'number' || !(minutes > 0)) {
		const got = JSON.stringify(minutes);
		throw fieldError(
			ctx,
			itemIndex,
			'Give Up After (Minutes)',
			`must be a number of minutes above 0, got ${got}`,
		);
	}
	return Math.round(minutes * 60_000);
}

export function readTimeoutMs(
	ctx: IExecuteFunctions,
	itemIndex: number,
	defaultSeconds = DEFAULT_TIMEOUT_MS / 1000,
): number {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const seconds = options.timeout ?? defaultSeconds;
	if (typeof seconds !== 'number' || !(seconds > 0)) {
		const got = JSON.stringify(seconds);
		throw fieldError(ctx, itemIndex, 'Timeout', `must be a number of seconds above 0, got ${got}`);
	}
	return Math.round(seconds * 1000);
}

export function fieldsOption(fields: SelectableField[], noun: string): INodeProperties {
	const options: INodePropertyOptions[] = fields.map((field) => ({
		name: field.displayName,
		value: field.name,
	}));
	return {
		displayName: 'Fields',
		name: 'fields',
		type: 'multiOptions',
		options,
		default: [],
		description: `Which fields of each ${noun} to return besides its ID. None selected returns every field.`,
	};
}

export function readFields(ctx: IExecuteFunctions, itemIndex: number): string[] {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return Array.isArray(options.fields) ? options.fields.map(String) : [];
}

export function requiredText(
	ctx: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	label: string,
): string {
	const value = ctx.getNodeParameter(parameter, itemIndex, '') as unknown;
	if (typeof value === 'number') return String(value);
	if (typeof value !== 'string' || value.trim() === '') {
		const empty = value === '' || value === undefined || value === null;
		throw fieldError(
			ctx,
			itemIndex,
			label,
			empty ? 'is empty' : `must be text, got ${JSON.stringify(value)}`,
		);
	}
	return value.trim();
}

export function toItems(records: IDataObject[]): INodeExecutionData[] {
	return records.map((json) => ({ json }));
}

/** A path segment for an ID the user typed. */
export function pathId(id: string): string {
	return encodeURIComponent(id);
}
