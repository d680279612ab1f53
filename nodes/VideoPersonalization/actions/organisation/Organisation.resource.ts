import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as get from './get';
import * as getAll from './getAll';

export const operations: Record<string, OperationModule> = { get, getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['organisation'] } },
		options: [
			{ name: 'Get', value: 'get', action: 'Get an organisation', description: 'Get one organisation by ID or name' },
			{ name: 'Get Many', value: 'getAll', action: 'Get many organisations', description: 'List organisations (needs admin access)' },
		],
		default: 'get',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
