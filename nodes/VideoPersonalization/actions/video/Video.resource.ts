import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as getAll from './getAll';
import * as create from './create';

export const operations: Record<string, OperationModule> = { getAll, create };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['video'] } },
		options: [
			{ name: 'Create', value: 'create', action: 'Create a video', description: 'Make a personalized video from a template and customer data' },
			{ name: 'Get Many', value: 'getAll', action: 'Get many videos', description: 'List videos, optionally only those in one status' },
		],
		default: 'getAll',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
