import type { INodeProperties } from 'n8n-workflow';

import { ORGANISATION_FIELDS, ORGANISATION_QUERY } from '../../helpers/queries';
import { getRecord, readFindBy } from '../common';
import { type FindByKey, findByProperties, optionsWithFields } from '../fields';
import type { ItemExecute, OperationOption } from '../types';

const keys: FindByKey[] = [
	{ key: 'id', displayName: 'Organisation ID', placeholder: 'e.g. org_1a2b3c' },
	{ key: 'name', displayName: 'Name', placeholder: 'e.g. Acme Corp' },
];

export const option: OperationOption = {
	name: 'Get',
	action: 'Get an organisation',
	description: 'Get one organisation by ID or name',
};

export const description: INodeProperties[] = [
	...findByProperties('organisation', keys),
	optionsWithFields(ORGANISATION_FIELDS, 'organisation'),
];

export const execute: ItemExecute = async function (itemIndex, api) {
	const { criteria, label } = readFindBy(this, itemIndex, keys);
	return await getRecord(this, itemIndex, api, {
		...ORGANISATION_QUERY,
		criteria,
		action: `get the organisation with ${label}`,
		permission:
			'Global admins may get any organisation and organisation admins their own; regular users may have no access.',
	});
};
