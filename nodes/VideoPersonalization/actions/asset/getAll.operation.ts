import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { restRecords } from '../common';
import { collection, optionsCollection, returnAllAndLimit, textField } from '../fields';
import type { ItemExecute, OperationOption } from '../types';

export const option: OperationOption = {
	name: 'Get Many',
	action: 'Get many assets',
	description: 'List assets, optionally by type or tag',
};

export const description: INodeProperties[] = [
	...returnAllAndLimit('assets'),
	collection('Filters', 'filters', 'Add Filter', [
		{
			displayName: 'Type',
			name: 'type',
			type: 'options',
			default: 'image',
			options: [
				{ name: 'Image', value: 'image' },
				{ name: 'Video', value: 'video' },
				{ name: 'Audio', value: 'audio' },
			],
			description: 'Only assets of this type',
		},
		textField('Tag', 'tag', 'Only assets with this tag'),
	]),
	optionsCollection(),
];

export const execute: ItemExecute = async function (itemIndex, api) {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	if (filters.type) qs.type = filters.type;
	if (typeof filters.tag === 'string' && filters.tag.trim()) qs.tag = filters.tag.trim();
	return await restRecords(this, itemIndex, api, { path: '/assets', qs, action: 'list assets' });
};
