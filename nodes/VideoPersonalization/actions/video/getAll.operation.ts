import { restListOperation } from '../operationFactories';

export const VIDEO_STATUSES = ['draft', 'processing', 'published', 'failed'] as const;

export const { option, properties, execute } = restListOperation({
	option: {
		name: 'Get Many',
		action: 'Get many videos',
		description: 'List videos, optionally only those in one status',
	},
	noun: 'video',
	path: '/videos',
	filters: [
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
	readQuery: (filters) => (filters.status ? { status: filters.status } : {}),
});
