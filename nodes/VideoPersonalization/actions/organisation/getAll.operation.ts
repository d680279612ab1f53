import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { ORGANISATION_FIELDS, ORGANISATIONS_QUERY } from '../../helpers/queries';
import { getRecords } from '../common';
import { collection, optionsWithFields, returnAllAndLimit, textField } from '../fields';
import type { ItemExecute, OperationOption } from '../types';

export const option: OperationOption = {
	name: 'Get Many',
	action: 'Get many organisations',
	description: 'List organisations (needs admin access)',
};

const nameFilter = textField('Name', 'name', 'Only organisations whose name contains this text');

export const description: INodeProperties[] = [
	...returnAllAndLimit('organisations'),
	// Node version 3 has the name filter in Filters, like the other Get Many; older nodes keep their box.
	{
		...nameFilter,
		displayName: 'Filter',
		name: 'filter',
		displayOptions: { show: { '@version': [1, 2] } },
	},
	{
		...collection('Filters', 'filters', 'Add Filter', [nameFilter]),
		displayOptions: { show: { '@version': [{ _cnd: { gte: 3 } }] } },
	},
	optionsWithFields(ORGANISATION_FIELDS, 'organisation'),
];

export const execute: ItemExecute = async function (itemIndex, api) {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const name = String(filters.name ?? this.getNodeParameter('filter', itemIndex, '')).trim();
	return await getRecords(this, itemIndex, api, {
		...ORGANISATIONS_QUERY,
		filter: name ? { filter: name } : {},
		action: 'list organisations',
		permission: 'Listing organisations needs admin access.',
	});
};
