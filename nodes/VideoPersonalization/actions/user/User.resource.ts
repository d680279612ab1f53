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
		displayOptions: { show: { resource: ['user'] } },
		options: [
			{ name: 'Get', value: 'get', action: 'Get a user', description: 'Get one user by ID, email or phone' },
			{ name: 'Get Many', value: 'getAll', action: 'Get many users', description: 'List users (needs admin privileges)' },
		],
		default: 'get',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
