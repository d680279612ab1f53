import type { INodeProperties } from 'n8n-workflow';

import { ORGANISATION_PERMISSION } from '../../helpers/permissions';
import { fieldSwitches, ORGANISATION_FIELDS, ORGANISATION_QUERY } from '../../helpers/queries';
import { graphql } from '../../transport/graphql';
import { foundRecord, readFields, readFindBy, readTimeoutMs } from '../common';
import { type FindByKey, fieldsOption, findByProperties, optionsCollection } from '../fields';
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
	optionsCollection([fieldsOption(ORGANISATION_FIELDS, 'organisation')]),
];

export const execute: ItemExecute = async function (itemIndex, api) {
	const { criteria, label } = readFindBy(this, itemIndex, keys);
	const action = `get the organisation with ${label}`;
	const viewer = await graphql(api, {
		query: ORGANISATION_QUERY,
		variables: { criteria, ...fieldSwitches(ORGANISATION_FIELDS, readFields(this, itemIndex)) },
		action,
		permission: ORGANISATION_PERMISSION,
		itemIndex,
		timeoutMs: readTimeoutMs(this, itemIndex),
	});
	return [{ json: foundRecord(api, viewer.organisation, { action, itemIndex }) }];
};
