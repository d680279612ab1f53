import { ORGANISATION_FIELDS, ORGANISATION_QUERY } from '../../helpers/queries';
import { type LookupKey, lookupByProperties, readLookupBy } from '../lookupBy';
import { lookupOperation } from '../queryOperations';

export const ORGANISATION_PERMISSION =
	'Global admins may get any organisation and organisation admins their own; regular users may have no access.';

const keys: LookupKey[] = [
	{ key: 'id', displayName: 'Organisation ID', placeholder: 'e.g. org_1a2b3c' },
	{ key: 'name', displayName: 'Name', placeholder: 'e.g. Acme Corp' },
];

export const { description, execute } = lookupOperation({
	resource: 'organisation',
	noun: 'organisation',
	field: 'organisation',
	query: ORGANISATION_QUERY,
	fields: ORGANISATION_FIELDS,
	permission: ORGANISATION_PERMISSION,
	criteriaProperties: lookupByProperties('organisation', keys),
	readCriteria: (ctx, itemIndex) => readLookupBy(ctx, itemIndex, keys),
});
