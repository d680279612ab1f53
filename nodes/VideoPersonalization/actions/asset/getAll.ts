import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { restGetMany } from '../../transport/pagination';
import { readSelection, readTimeoutMs, returnAllAndLimit, toItems, optionsCollection } from '../common';

const properties: INodeProperties[] = [
	...returnAllAndLimit('assets'),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
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
		],
	},
	optionsCollection(),
];

export const description = updateDisplayOptions({ show: { resource: ['asset'], operation: ['getAll'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	if (filters.type) qs.type = filters.type;
	if (typeof filters.tag === 'string' && filters.tag.trim()) qs.tag = filters.tag.trim();
	const assets = await restGetMany(
		this,
		{ path: '/assets', qs, action: 'list assets', itemIndex, timeoutMs: readTimeoutMs(this, itemIndex) },
		readSelection(this, itemIndex),
	);
	return toItems(assets);
}
