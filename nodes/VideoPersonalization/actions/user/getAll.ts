import { USER_FIELDS, USERS_QUERY } from '../../helpers/queries';
import { listOperation, optionalText } from '../queryOperations';

export const USERS_PERMISSION = 'Listing users needs admin privileges.';

export const { description, execute } = listOperation({
	resource: 'user',
	noun: 'user',
	field: 'users',
	query: USERS_QUERY,
	fields: USER_FIELDS,
	permission: USERS_PERMISSION,
	filterProperties: [
		{
			displayName: 'Search',
			name: 'search',
			type: 'string',
			default: '',
			description: 'Only users whose ID, email, first name or last name matches this text',
		},
	],
	readFilter(ctx, itemIndex) {
		const search = optionalText(ctx, itemIndex, 'search');
		return search ? { search } : {};
	},
});
