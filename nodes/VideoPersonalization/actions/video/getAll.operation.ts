import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { restRecords } from '../common';
import { collection, optionsCollection, returnAllAndLimit } from '../fields';
import type { ItemExecute, OperationOption } from '../types';

export const option: OperationOption = {
	name: 'Get Many',
	action: 'Get many videos',
	description: 'List videos, optionally only those in one status',
};

export const description: INodeProperties[] = [
	...returnAllAndLimit('videos'),
	collection('Filters', 'filters', 'Add Filter', [
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			default: 'published',
			options: [
				{ name: 'Draft', value: 'draft' },
				{ name: 'Processing', value: 'processing' },
				{ name: 'Published', value: 'published' },
				{ name: 'Failed', value: 'failed' },
			],
			description: 'Only videos in this state',
		},
	]),
	optionsCollection(),
];

export const execute: ItemExecute = async function (itemIndex, api) {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs = filters.status ? { status: filters.status } : {};
	return await restRecords(this, itemIndex, api, { path: '/videos', qs, action: 'list videos' });
};
