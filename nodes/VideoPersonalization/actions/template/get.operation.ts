import type { INodeProperties } from 'n8n-workflow';

import { TEMPLATE_FIELDS, TEMPLATE_QUERY } from '../../helpers/queries';
import { getRecord } from '../common';
import { optionsWithFields } from '../fields';
import type { ItemExecute, OperationOption } from '../types';
import { readTemplateCriteria, TEMPLATE_PERMISSION, templateLocator } from './locator';

export const option: OperationOption = {
	name: 'Get',
	action: 'Get a template',
	description: 'Get one video template by ID or name',
};

export const description: INodeProperties[] = [
	templateLocator('The template to get'),
	optionsWithFields(TEMPLATE_FIELDS, 'template'),
];

export const execute: ItemExecute = async function (itemIndex, api) {
	const { lookup, label } = readTemplateCriteria(this, itemIndex);
	return await getRecord(this, itemIndex, api, {
		...TEMPLATE_QUERY,
		criteria: lookup,
		action: `get the template with Template ${label}`,
		permission: TEMPLATE_PERMISSION,
	});
};
