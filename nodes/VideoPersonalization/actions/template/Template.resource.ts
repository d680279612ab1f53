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
		displayOptions: { show: { resource: ['template'] } },
		options: [
			{ name: 'Get', value: 'get', action: 'Get a template', description: 'Get one video template by ID or name' },
			{ name: 'Get Many', value: 'getAll', action: 'Get many templates', description: 'List video templates (needs admin access)' },
		],
		default: 'get',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
