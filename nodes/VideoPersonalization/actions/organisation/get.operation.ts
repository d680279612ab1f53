import { ORGANISATION_PERMISSION } from '../../helpers/permissions';
import { ORGANISATION_FIELDS, ORGANISATION_QUERY } from '../../helpers/queries';
import { type LookupKey, lookupBy } from '../lookupBy';
import { lookupOperation } from '../operationFactories';

const keys: LookupKey[] = [
	{ key: 'id', displayName: 'Organisation ID', placeholder: 'e.g. org_1a2b3c' },
	{ key: 'name', displayName: 'Name', placeholder: 'e.g. Acme Corp' },
];

export const { option, properties, execute } = lookupOperation({
	option: {
		name: 'Get',
		action: 'Get an organisation',
		description: 'Get one organisation by ID or name',
	},
	noun: 'organisation',
	field: 'organisation',
	query: ORGANISATION_QUERY,
	fields: ORGANISATION_FIELDS,
	permission: ORGANISATION_PERMISSION,
	...lookupBy('organisation', keys),
});
