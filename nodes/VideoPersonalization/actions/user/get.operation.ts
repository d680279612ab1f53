import { USER_PERMISSION } from '../../helpers/permissions';
import { USER_FIELDS, USER_QUERY } from '../../helpers/queries';
import { type LookupKey, lookupBy } from '../lookupBy';
import { lookupOperation } from '../operationFactories';

const keys: LookupKey[] = [
	{ key: 'id', displayName: 'User ID', placeholder: 'e.g. usr_5d1e7a' },
	{ key: 'email', displayName: 'Email', placeholder: 'e.g. name@email.com' },
	{ key: 'phone', displayName: 'Phone', placeholder: 'e.g. +15551234567' },
];

export const { option, properties, execute } = lookupOperation({
	option: {
		name: 'Get',
		action: 'Get a user',
		description: 'Get one user by ID, email or phone',
	},
	noun: 'user',
	field: 'findUser',
	query: USER_QUERY,
	fields: USER_FIELDS,
	permission: USER_PERMISSION,
	...lookupBy('user', keys),
});
