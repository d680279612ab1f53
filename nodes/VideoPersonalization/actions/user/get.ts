import { USER_FIELDS, USER_QUERY } from '../../helpers/queries';
import { type LookupKey, lookupByProperties, readLookupBy } from '../lookupBy';
import { lookupOperation } from '../queryOperations';

export const USER_PERMISSION = 'Any user may look up their own record; looking up another user needs admin privileges.';

const keys: LookupKey[] = [
	{ key: 'id', displayName: 'User ID', placeholder: 'e.g. usr_5d1e7a' },
	{ key: 'email', displayName: 'Email', placeholder: 'e.g. name@email.com' },
	{ key: 'phone', displayName: 'Phone', placeholder: 'e.g. +15551234567' },
];

export const { description, execute } = lookupOperation({
	resource: 'user',
	noun: 'user',
	field: 'findUser',
	query: USER_QUERY,
	fields: USER_FIELDS,
	permission: USER_PERMISSION,
	criteriaProperties: lookupByProperties('user', keys),
	readCriteria: (ctx, itemIndex) => readLookupBy(ctx, itemIndex, keys),
});
