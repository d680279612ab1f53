import { TEMPLATE_FIELDS, TEMPLATE_QUERY } from '../../helpers/queries';
import { lookupOperation } from '../queryOperations';
import { readTemplateCriteria, TEMPLATE_PERMISSION, templateLocator } from './locator';

export const { description, execute } = lookupOperation({
	resource: 'template',
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
