import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callApi, expectObject, getService } from '../../transport/request';
import { pathId, readTimeoutMs, timeoutOption } from '../common';
import { assetLocator, readAssetId } from './locator';

const properties: INodeProperties[] = [
	assetLocator,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [timeoutOption],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['asset'], operation: ['get'] } }, properties);

export async function fetchAsset(ctx: IExecuteFunctions, itemIndex: number, assetId: string, timeoutMs: number) {
	const call = {
		method: 'GET' as const,
		path: `/assets/${pathId(assetId)}`,
		idempotent: true,
		action: `get the asset with Asset ID "${assetId}"`,
		itemIndex,
		timeoutMs,
	};
	const response = await callApi(ctx, call);
	const { apiKey } = await getService(ctx);
	return expectObject(ctx, response, call, [apiKey]);
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const asset = await fetchAsset(this, itemIndex, readAssetId(this, itemIndex), readTimeoutMs(this, itemIndex));
	return [{ json: asset }];
}
