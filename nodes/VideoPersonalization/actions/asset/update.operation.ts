import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { fieldError, readTimeoutMs } from '../common';
import { collection, optionsCollection, textField } from '../fields';
import type { ItemExecute, OperationOption } from '../types';
import { assetLocator, readAssetId, readTags, tagsField } from './locator';

export const option: OperationOption = {
	name: 'Update',
	action: 'Update an asset',
	description: 'Rename an asset or replace its tags',
};

export const description: INodeProperties[] = [
	assetLocator,
	collection('Update Fields', 'updateFields', 'Add Field', [
		textField('Name', 'name', 'New name of the asset'),
		{
			...tagsField,
			description:
				'The new tag list, separated by commas; it replaces the current tags (empty removes them all)',
		},
	]),
	optionsCollection(),
];

export const execute: ItemExecute = async function (itemIndex, api) {
	const assetId = readAssetId(this, itemIndex);
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {};
	if (fields.name !== undefined) {
		if (typeof fields.name !== 'string' || fields.name.trim() === '') {
			throw fieldError(this, itemIndex, 'Name: must not be empty when given');
		}
		body.name = fields.name.trim();
	}
	if (fields.tags !== undefined) body.tags = readTags(this, itemIndex, fields.tags);
	if (Object.keys(body).length === 0) {
		throw fieldError(this, itemIndex, 'Update Fields: nothing to update', 'Add Name or Tags.');
	}
	const asset = await api.sendForObject({
		method: 'PATCH',
		path: `/assets/${encodeURIComponent(assetId)}`,
		body,
		idempotent: true,
		action: `update the asset with Asset ID "${assetId}"`,
		itemIndex,
		timeoutMs: readTimeoutMs(this, itemIndex),
	});
	return [{ json: asset }];
};
