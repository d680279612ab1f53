import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { TEMPLATE_FIELDS, TEMPLATES_QUERY } from '../../helpers/queries';
import { getRecords } from '../common';
import { collection, optionsWithFields, returnAllAndLimit, textField } from '../fields';
import type { ItemExecute, OperationOption } from '../types';

export const option: OperationOption = {
	name: 'Get Many',
	action: 'Get many templates',
	description: 'List video templates (needs admin access)',
};

export const description: INodeProperties[] = [
	...returnAllAndLimit('templates'),
	collection('Filters', 'filters', 'Add Filter', [
		textField('Search', 'search', 'Only templates whose name matches this text'),
		{
			displayName: 'Template Type',
			name: 'templateType',
			type: 'options',
			default: 'stock',
			options: [
				{ name: 'Stock', value: 'stock', description: 'Pre-built, available to all users' },
				{ name: 'Brand', value: 'brand', description: 'Made for one brand' },
				{ name: 'Scene', value: 'scene', description: 'Used as a scene within other templates' },
				{ name: 'Endcard', value: 'endcard', description: 'Used as an end card' },
			],
		},
	]),
	optionsWithFields(TEMPLATE_FIELDS, 'template'),
];

export const execute: ItemExecute = async function (itemIndex, api) {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const filter: IDataObject = {};
	const search = typeof filters.search === 'string' ? filters.search.trim() : '';
	if (search) filter.search = search;
	if (filters.templateType) filter.templateType = filters.templateType;
	return await getRecords(this, itemIndex, api, {
		...TEMPLATES_QUERY,
		filter,
		action: 'list templates',
		permission: 'Listing templates needs admin access.',
	});
};
