import { TEMPLATE_PERMISSION } from '../../helpers/permissions';
import { TEMPLATE_FIELDS, TEMPLATE_QUERY } from '../../helpers/queries';
import { lookupOperation } from '../operationFactories';
import { readTemplateCriteria, templateLocator } from './locator';

export const { option, properties, execute } = lookupOperation({
	option: {
		name: 'Get',
		action: 'Get a template',
		description: 'Get one video template by ID or name',
	},
	noun: 'template',
	field: 'videoTemplate',
	query: TEMPLATE_QUERY,
	fields: TEMPLATE_FIELDS,
	permission: TEMPLATE_PERMISSION,
	criteriaProperties: [templateLocator('The template to get')],
	readCriteria(ctx, itemIndex) {
		const criteria = readTemplateCriteria(ctx, itemIndex);
		return {
			criteria: criteria.id !== undefined ? { id: criteria.id } : { name: criteria.name },
			label: `Template ${criteria.label}`,
		};
	},
});
