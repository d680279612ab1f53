import { USERS_PERMISSION } from '../../helpers/permissions';
import { USER_FIELDS, USERS_QUERY } from '../../helpers/queries';
import { listOperation, textFilter } from '../operationFactories';

export const { option, properties, execute } = listOperation({
	option: {
		name: 'Get Many',
		action: 'Get many users',
		description: 'List users (needs admin privileges)',
	},
	noun: 'user',
	field: 'users',
	query: USERS_QUERY,
	fields: USER_FIELDS,
	permission: USERS_PERMISSION,
	...textFilter({
		displayName: 'Search',
		name: 'search',
		type: 'string',
		default: '',
		description: 'Only users whose ID, email, first name or last name matches this text',
	}),
});
