import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { ORGANISATIONS_PERMISSION } from '../../helpers/permissions';
import { ORGANISATION_FIELDS, ORGANISATIONS_QUERY } from '../../helpers/queries';
import { filtersCollection } from '../common';
import { listOperation } from '../operationFactories';

const nameFilter: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	default: '',
	description: 'Only organisations whose name contains this text',
};

export const { option, properties, execute } = listOperation({
	option: {
		name: 'Get Many',
		action: 'Get many organisations',
		description: 'List organisations (needs admin access)',
	},
	noun: 'organisation',
	field: 'organisations',
	query: ORGANISATIONS_QUERY,
	fields: ORGANISATION_FIELDS,
	permission: ORGANISATIONS_PERMISSION,
	filterProperties: [
		// Node version 3 has the name filter in Filters, like the other Get Many; older nodes keep their box.
		{
			...nameFilter,
			displayName: 'Filter',
			name: 'filter',
			displayOptions: { show: { '@version': [1, 2] } },
		},
		{
			...filtersCollection([nameFilter]),
			displayOptions: { show: { '@version': [{ _cnd: { gte: 3 } }] } },
		},
	],
	readFilter(ctx, itemIndex) {
		const filters = ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject;
		const text = String(filters.name ?? ctx.getNodeParameter('filter', itemIndex, '')).trim();
		return text ? { filter: text } : {};
	},
});
