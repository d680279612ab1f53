import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { restGetMany } from '../../transport/pagination';
import { readSelection, readTimeoutMs, returnAllAndLimit, toItems, optionsCollection } from '../common';

export const VIDEO_STATUSES = ['draft', 'processing', 'published', 'failed'] as const;

const properties: INodeProperties[] = [
	...returnAllAndLimit('videos'),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				default: 'published',
				options: VIDEO_STATUSES.map((status) => ({
					name: status.charAt(0).toUpperCase() + status.slice(1),
					value: status,
				})),
				description: 'Only videos in this state',
			},
		],
	},
	optionsCollection(),
];

export const description = updateDisplayOptions({ show: { resource: ['video'], operation: ['getAll'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	if (filters.status) qs.status = filters.status;
	const videos = await restGetMany(
		this,
		{ path: '/videos', qs, action: 'list videos', itemIndex, timeoutMs: readTimeoutMs(this, itemIndex) },
		readSelection(this, itemIndex),
	);
	return toItems(videos);
}
