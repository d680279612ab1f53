import type { INodeProperties } from 'n8n-workflow';

import { TEMPLATE_PERMISSION } from '../../helpers/permissions';
import { fieldSwitches, TEMPLATE_FIELDS, TEMPLATE_QUERY } from '../../helpers/queries';
import { graphql } from '../../transport/graphql';
import { foundRecord, readFields, readTimeoutMs } from '../common';
import { fieldsOption, optionsCollection } from '../fields';
import type { ItemExecute, OperationOption } from '../types';
import { readTemplateCriteria, templateLocator } from './locator';

export const option: OperationOption = {
	name: 'Get',
	action: 'Get a template',
	description: 'Get one video template by ID or name',
};

export const description: INodeProperties[] = [
	templateLocator('The template to get'),
	optionsCollection([fieldsOption(TEMPLATE_FIELDS, 'template')]),
];

export const execute: ItemExecute = async function (itemIndex, api) {
	const { lookup, label } = readTemplateCriteria(this, itemIndex);
	const action = `get the template with Template ${label}`;
	const viewer = await graphql(api, {
		query: TEMPLATE_QUERY,
		variables: { criteria: lookup, ...fieldSwitches(TEMPLATE_FIELDS, readFields(this, itemIndex)) },
		action,
		permission: TEMPLATE_PERMISSION,
		itemIndex,
		timeoutMs: readTimeoutMs(this, itemIndex),
	});
	return [{ json: foundRecord(api, viewer.videoTemplate, { action, itemIndex }) }];
};
