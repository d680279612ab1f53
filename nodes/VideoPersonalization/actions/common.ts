import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { SelectableField } from '../helpers/queries';
import { DEFAULT_TIMEOUT_MS } from '../transport/client';
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

/** The Options collection of an operation: its own options, then Timeout. */
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
		options: [...options, timeout],
	};
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
		throw fieldError(ctx, itemIndex, label, empty ? 'is empty' : `must be text, got ${JSON.stringify(value)}`);
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
