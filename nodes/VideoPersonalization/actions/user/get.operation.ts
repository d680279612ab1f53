import type { INodeProperties } from 'n8n-workflow';

import { USER_FIELDS, USER_QUERY } from '../../helpers/queries';
import { getRecord, readFindBy } from '../common';
import { type FindByKey, findByProperties, optionsWithFields } from '../fields';
import type { ItemExecute, OperationOption } from '../types';

const keys: FindByKey[] = [
	{ key: 'id', displayName: 'User ID', placeholder: 'e.g. usr_5d1e7a' },
	{ key: 'email', displayName: 'Email', placeholder: 'e.g. name@email.com' },
	{ key: 'phone', displayName: 'Phone', placeholder: 'e.g. +15551234567' },
];

export const option: OperationOption = {
	name: 'Get',
	action: 'Get a user',
	description: 'Get one user by ID, email or phone',
};

export const description: INodeProperties[] = [
	...findByProperties('user', keys),
	optionsWithFields(USER_FIELDS, 'user'),
];

export const execute: ItemExecute = async function (itemIndex, api) {
	const { criteria, label } = readFindBy(this, itemIndex, keys);
	return await getRecord(this, itemIndex, api, {
		...USER_QUERY,
		criteria,
		action: `get the user with ${label}`,
		permission:
			'Any user may look up their own record; looking up another user needs admin privileges.',
	});
};
