import { ORGANISATIONS_PERMISSION } from '../../helpers/permissions';
import { ORGANISATION_FIELDS, ORGANISATIONS_QUERY } from '../../helpers/queries';
import { listOperation, textFilter } from '../operationFactories';

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
	...textFilter({
		displayName: 'Filter',
		name: 'filter',
		type: 'string',
		default: '',
		description: 'Only organisations whose name matches this text',
	}),
});
