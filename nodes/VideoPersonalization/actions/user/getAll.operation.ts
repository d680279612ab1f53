import type { INodeProperties } from 'n8n-workflow';

import { optionalText } from '../../helpers/answers';
import { USERS_PERMISSION } from '../../helpers/permissions';
import { fieldSwitches, USER_FIELDS, USERS_QUERY } from '../../helpers/queries';
import { graphqlGetMany } from '../../transport/pagination';
import { readFields, readSelection, readTimeoutMs } from '../common';
import { fieldsOption, optionsCollection, returnAllAndLimit } from '../fields';
import type { ItemExecute, OperationOption } from '../types';

export const option: OperationOption = {
	name: 'Get Many',
	action: 'Get many users',
	description: 'List users (needs admin privileges)',
};

export const description: INodeProperties[] = [
	...returnAllAndLimit('users'),
	{
		displayName: 'Search',
		name: 'search',
		type: 'string',
		default: '',
		description: 'Only users whose ID, email, first name or last name matches this text',
	},
	optionsCollection([fieldsOption(USER_FIELDS, 'user')]),
];

export const execute: ItemExecute = async function (itemIndex, api) {
	const search = optionalText(this.getNodeParameter('search', itemIndex, ''));
	const users = await graphqlGetMany(
		api,
		{
			query: USERS_QUERY,
			field: 'users',
			filter: search ? { search } : {},
			variables: fieldSwitches(USER_FIELDS, readFields(this, itemIndex)),
			action: 'list users',
			permission: USERS_PERMISSION,
			itemIndex,
			timeoutMs: readTimeoutMs(this, itemIndex),
		},
		readSelection(this, itemIndex),
	);
	return users.map((json) => ({ json }));
};
