import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { jsonParse } from 'n8n-workflow';

import { mappedCustomerData } from '../../helpers/templateFields';
import { fieldError } from '../common';
import { textField } from '../fields';

const customerDataMode: INodeProperties = {
	displayName: 'Customer Data',
	name: 'customerDataMode',
	type: 'options',
	default: 'keyValue',
	options: [
		{
			name: 'Template Fields',
			value: 'templateFields',
			description:
				"Fill in the chosen template's own fields, listed by the names its data takes; add keys of your own below",
		},
		{
			name: 'Key-Value Pairs',
			value: 'keyValue',
			description: 'Enter each personalization field by name',
		},
		{ name: 'JSON', value: 'json', description: 'Give the whole personalization object as JSON' },
	],
	description:
		'How to give the personalization data (first name, company, ...) the template fills in',
};

/** Create's Customer Data fields: how it is given, then the template's fields, pairs or JSON. */
export const customerDataProperties: INodeProperties[] = [
	// Version 2 of the node starts with the template's own fields; version 1 keeps Key-Value
	// Pairs as its default, so saved workflows (which omit defaults) read as they did.
	{ ...customerDataMode, displayOptions: { show: { '@version': [1] } } },
	{
		...customerDataMode,
		default: 'templateFields',
		displayOptions: { show: { '@version': [{ _cnd: { gte: 2 } }] } },
	},
	// The chosen template's own fields (n8n's resource mapper; methods/resourceMapping.ts).
	{
		displayName: 'Template Fields',
		name: 'templateFields',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		required: true,
		displayOptions: { show: { customerDataMode: ['templateFields'] } },
		typeOptions: {
			// Reload whenever another template is chosen.
			loadOptionsDependsOn: ['template.value'],
			resourceMapper: {
				resourceMapperMethod: 'getTemplateFields',
				mode: 'add',
				fieldWords: { singular: 'field', plural: 'fields' },
				addAllFields: true,
				multiKeyMatch: false,
				supportAutoMap: true,
				// Each state without fields (no template yet, an unknown one) has its own notice instead.
				hideNoDataError: true,
				// Saved fields whose label or required mark changed since are reloaded on open.
				refreshStaleSchemaOnOpen: true,
			},
		},
	},
	{
		displayName: 'Customer Data Fields',
		name: 'customerData',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: { customerDataMode: ['keyValue', 'templateFields'] } },
		options: [
			{
				displayName: 'Field',
				name: 'values',
				values: [
					textField('Name', 'key', undefined, 'e.g. first_name'),
					textField('Value', 'value', undefined, 'e.g. Ana'),
				],
			},
		],
	},
	{
		displayName: 'Customer Data (JSON)',
		name: 'customerDataJson',
		type: 'json',
		default: '{\n  "first_name": "Ana",\n  "company": "Acme"\n}',
		displayOptions: { show: { customerDataMode: ['json'] } },
		description: 'A JSON object with the personalization data',
	},
];

function readJson(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const raw = ctx.getNodeParameter('customerDataJson', itemIndex, '{}') as unknown;
	let parsed: unknown = raw;
	if (typeof raw === 'string') {
		try {
			parsed = jsonParse(raw);
		} catch (error) {
			const message = `Customer Data (JSON): is not valid JSON (${(error as Error).message})`;
			const hint =
				'Write an object such as {"first_name": "Ana"}, or switch Customer Data to Key-Value Pairs.';
			throw fieldError(ctx, itemIndex, message, hint);
		}
	}
	if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
		const message = 'Customer Data (JSON): must be a JSON object such as {"first_name": "Ana"}';
		throw fieldError(ctx, itemIndex, message);
	}
	return parsed as IDataObject;
}

/**
 * One item's Customer Data: its JSON, or the template fields it fills in (empty ones are left to
 * the template's defaults) and then its own name/value pairs.
 */
export function readCustomerData(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const mode = ctx.getNodeParameter('customerDataMode', itemIndex, 'keyValue') as string;
	if (mode === 'json') return readJson(ctx, itemIndex);
	const data: IDataObject = {};
	if (mode === 'templateFields') {
		const mapped = ctx.getNodeParameter('templateFields', itemIndex, {}) as IDataObject;
		Object.assign(data, mappedCustomerData(mapped, ctx.getInputData()[itemIndex]?.json ?? {}));
	}
	const pairs = (ctx.getNodeParameter('customerData.values', itemIndex, []) as IDataObject[]) ?? [];
	pairs.forEach((pair, position) => {
		const key = typeof pair.key === 'string' ? pair.key.trim() : '';
		if (!key) {
			const message = `Customer Data Fields: field ${position + 1} has no name`;
			throw fieldError(ctx, itemIndex, message);
		}
		data[key] = pair.value as IDataObject[string];
	});
	return data;
}
