import type { IDataObject } from 'n8n-workflow';

import { restListOperation } from '../operationFactories';

export const { option, properties, execute } = restListOperation({
	option: {
		name: 'Get Many',
		action: 'Get many assets',
		description: 'List assets, optionally by type or tag',
	},
	noun: 'asset',
	path: '/assets',
	filters: [
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
	readQuery(filters) {
		const qs: IDataObject = {};
		if (filters.type) qs.type = filters.type;
		if (typeof filters.tag === 'string' && filters.tag.trim()) qs.tag = filters.tag.trim();
		return qs;
	},
});
