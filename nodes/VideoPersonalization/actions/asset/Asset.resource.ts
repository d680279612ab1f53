import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as getAll from './getAll';
import * as upload from './upload';
import * as get from './get';
import * as update from './update';
import * as deleteAsset from './delete';

export const operations: Record<string, OperationModule> = { getAll, upload, get, update, delete: deleteAsset };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['asset'] } },
		options: [
			{ name: 'Delete', value: 'delete', action: 'Delete an asset', description: 'Delete an asset (refuses by default while videos or templates use it)' },
			{ name: 'Get', value: 'get', action: 'Get an asset', description: 'Get one asset with its usage counts' },
			{ name: 'Get Many', value: 'getAll', action: 'Get many assets', description: 'List assets, optionally by type or tag' },
			{ name: 'Update', value: 'update', action: 'Update an asset', description: 'Rename an asset or replace its tags' },
			{ name: 'Upload', value: 'upload', action: 'Upload an asset', description: 'Upload an image, video or audio file from an input binary field' },
		],
		default: 'getAll',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
