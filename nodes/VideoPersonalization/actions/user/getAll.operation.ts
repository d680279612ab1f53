import type { INodeProperties } from 'n8n-workflow';

import { optionalText } from '../../helpers/answers';
import { USER_FIELDS, USERS_QUERY } from '../../helpers/queries';
import { getRecords } from '../common';
import { optionsWithFields, returnAllAndLimit, textField } from '../fields';
import type { ItemExecute, OperationOption } from '../types';

export const option: OperationOption = {
	name: 'Get Many',
	action: 'Get many users',
	description: 'List users (needs admin privileges)',
};

export const description: INodeProperties[] = [
	...returnAllAndLimit('users'),
	textField(
		'Search',
		'search',
		'Only users whose ID, email, first name or last name matches this text',
	),
	optionsWithFields(USER_FIELDS, 'user'),
];

export const execute: ItemExecute = async function (itemIndex, api) {
	const search = optionalText(this.getNodeParameter('search', itemIndex, ''));
	return await getRecords(this, itemIndex, api, {
		...USERS_QUERY,
		filter: search ? { search } : {},
		action: 'list users',
		permission: 'Listing users needs admin privileges.',
	});
};
