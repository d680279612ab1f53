import type { INodeProperties } from 'n8n-workflow';

import { USER_PERMISSION } from '../../helpers/permissions';
import { fieldSwitches, USER_FIELDS, USER_QUERY } from '../../helpers/queries';
import { graphql } from '../../transport/graphql';
import { foundRecord, readFields, readFindBy, readTimeoutMs } from '../common';
import { type FindByKey, fieldsOption, findByProperties, optionsCollection } from '../fields';
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
	optionsCollection([fieldsOption(USER_FIELDS, 'user')]),
];

export const execute: ItemExecute = async function (itemIndex, api) {
	const { criteria, label } = readFindBy(this, itemIndex, keys);
	const action = `get the user with ${label}`;
	const viewer = await graphql(api, {
		query: USER_QUERY,
		variables: { criteria, ...fieldSwitches(USER_FIELDS, readFields(this, itemIndex)) },
		action,
		permission: USER_PERMISSION,
		itemIndex,
		timeoutMs: readTimeoutMs(this, itemIndex),
	});
	return [{ json: foundRecord(api, viewer.findUser, { action, itemIndex }) }];
};
