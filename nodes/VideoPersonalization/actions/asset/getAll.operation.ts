import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { ServiceClient } from '../../transport/client';
import { restGetMany } from '../../transport/pagination';
import {
	filtersCollection,
	optionsCollection,
	readSelection,
	readTimeoutMs,
	returnAllAndLimit,
} from '../common';
import type { OperationOption } from '../types';

export const option: OperationOption = {
	name: 'Get Many',
	action: 'Get many assets',
	description: 'List assets, optionally by type or tag',
};

export const description: INodeProperties[] = [
	...returnAllAndLimit('assets'),
	filtersCollection([
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
		{
			displayName: 'Tag',
			name: 'tag',
			type: 'string',
			default: '',
			description: 'Only assets with this tag',
		},
	]),
	optionsCollection(),
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	api: ServiceClient,
): Promise<INodeExecutionData[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	if (filters.type) qs.type = filters.type;
	if (typeof filters.tag === 'string' && filters.tag.trim()) qs.tag = filters.tag.trim();
	const assets = await restGetMany(
		api,
		{
			path: '/assets',
			qs,
			action: 'list assets',
			itemIndex,
			timeoutMs: readTimeoutMs(this, itemIndex),
		},
		readSelection(this, itemIndex),
	);
	return assets.map((json) => ({ json }));
}
