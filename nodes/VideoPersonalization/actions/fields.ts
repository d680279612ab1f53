/** The fields several operations share, as the editor shows them; common.ts reads them. */
import type { INodeProperties } from 'n8n-workflow';

import type { SelectableField } from '../helpers/queries';

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

/**
 * A resource locator: From List (filled by the picker `searchListMethod`), By ID, then the
 * field's own `modes`; `mode` is the one it starts in.
 */
export function resourceLocator(
	field: Pick<INodeProperties, 'displayName' | 'name' | 'description' | 'modes'> & { mode: string },
	searchListMethod: string,
	idPlaceholder: string,
): INodeProperties {
	const { displayName, name, description, mode } = field;
	return {
		displayName,
		name,
		type: 'resourceLocator',
		default: { mode, value: '' },
		required: true,
		description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod, searchable: true },
			},
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: idPlaceholder },
			...(field.modes ?? []),
		],
	};
}

/** A text field, empty unless filled in; with no description when it is undefined. */
export function textField(
	displayName: string,
	name: string,
	description: string | undefined,
	placeholder?: string,
): INodeProperties {
	const example = placeholder === undefined ? {} : { placeholder };
	return { displayName, name, type: 'string', default: '', ...example, description };
}

/** A collection of optional fields: Filters, Options, Additional Fields, Update Fields. */
export function collection(
	displayName: string,
	name: string,
	placeholder: string,
	options: INodeProperties[],
): INodeProperties {
	return { displayName, name, type: 'collection', placeholder, default: {}, options };
}

/** The Options collection of an operation: its own options, then Give Up After and Timeout. */
export function optionsCollection(options: INodeProperties[] = [], timeoutSeconds = 60) {
	return collection('Options', 'options', 'Add Option', [
		...options,
		{
			displayName: 'Give Up After (Minutes)',
			name: 'giveUpAfter',
			type: 'number',
			typeOptions: { minValue: 0.01, numberPrecision: 2 },
			// DEFAULT_BUDGET_MS, written as a literal: the lint reads defaults as written.
			default: 5,
			description:
				"How long one request may take in all before it fails, its retries and the waits the service's rate limit asks for included",
		},
		{
			displayName: 'Timeout',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: timeoutSeconds,
			description: 'Seconds to wait for the service to answer one request before giving up',
		},
	]);
}

/** The Options collection of a query-style Get or Get Many: Fields, then Give Up After and Timeout. */
export function optionsWithFields(fields: SelectableField[], noun: string): INodeProperties {
	return optionsCollection([
		{
			displayName: 'Fields',
			name: 'fields',
			type: 'multiOptions',
			options: fields.map((field) => ({ name: field.displayName, value: field.name })),
			default: [],
			description: `Which fields of each ${noun} to return besides its ID. None selected returns every field.`,
		},
	]);
}

/** One way to find a record by: its lookup input field, e.g. `email`. */
export type FindByKey = { key: string; displayName: string; placeholder: string };

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
