import type { IDataObject } from 'n8n-workflow';

import { TEMPLATES_PERMISSION } from '../../helpers/permissions';
import { TEMPLATE_FIELDS, TEMPLATES_QUERY } from '../../helpers/queries';
import { filtersCollection } from '../common';
import { listOperation } from '../operationFactories';

export const { option, properties, execute } = listOperation({
	option: {
		name: 'Get Many',
		action: 'Get many templates',
		description: 'List video templates (needs admin access)',
	},
	noun: 'template',
	field: 'videoTemplates',
	query: TEMPLATES_QUERY,
	fields: TEMPLATE_FIELDS,
	permission: TEMPLATES_PERMISSION,
	filterProperties: [
		filtersCollection([
			{
				displayName: 'Search',
				name: 'search',
				type: 'string',
				default: '',
				description: 'Only templates whose name matches this text',
			},
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
	],
	readFilter(ctx, itemIndex) {
		const filters = ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject;
		const filter: IDataObject = {};
		const search = typeof filters.search === 'string' ? filters.search.trim() : '';
		if (search) filter.search = search;
		if (filters.templateType) filter.templateType = filters.templateType;
		return filter;
	},
});
