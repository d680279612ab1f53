import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { mappedCustomerData, type MappedValue } from '../../helpers/templateFields';

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

/**
 * How Customer Data is given. Version 2 of the node starts with the template's own fields;
 * version 1 keeps Key-Value Pairs as its default, so saved workflows (which omit defaults) read
 * as they did.
 */
export const customerDataModeProperties: INodeProperties[] = [
	{ ...customerDataMode, displayOptions: { show: { '@version': [1] } } },
	{
		...customerDataMode,
		default: 'templateFields',
		displayOptions: { show: { '@version': [{ _cnd: { gte: 2 } }] } },
	},
];

/** Customer Data from the chosen template's own fields (n8n's resource mapper; methods/resourceMapping.ts). */
export const templateFieldsProperty: INodeProperties = {
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
};

/** The template fields one item fills in; empty ones are left to the template's defaults. */
export function readMappedCustomerData(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const mapped = ctx.getNodeParameter('templateFields', itemIndex, {}) as MappedValue;
	return mappedCustomerData(mapped, ctx.getInputData()[itemIndex]?.json ?? {});
}
