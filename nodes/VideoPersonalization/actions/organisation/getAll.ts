import { ORGANISATION_FIELDS, ORGANISATIONS_QUERY } from '../../helpers/queries';
import { listOperation, optionalText } from '../queryOperations';

export const ORGANISATIONS_PERMISSION = 'Listing organisations needs admin access.';

export const { description, execute } = listOperation({
	resource: 'organisation',
	noun: 'organisation',
	field: 'organisations',
	query: ORGANISATIONS_QUERY,
	fields: ORGANISATION_FIELDS,
	permission: ORGANISATIONS_PERMISSION,
	filterProperties: [
		{
			displayName: 'Filter',
			name: 'filter',
			type: 'string',
			default: '',
			description: 'Only organisations whose name matches this text',
		},
	],
	readFilter(ctx, itemIndex) {
		const filter = optionalText(ctx, itemIndex, 'filter');
		return filter ? { filter } : {};
	},
});
