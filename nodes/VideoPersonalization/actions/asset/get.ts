import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callApiForObject } from '../../transport/request';
import { pathId, readTimeoutMs, optionsCollection } from '../common';
import { assetLocator, readAssetId } from './locator';

const properties: INodeProperties[] = [
	assetLocator,
	optionsCollection(),
];

export const description = updateDisplayOptions({ show: { resource: ['asset'], operation: ['get'] } }, properties);

export async function fetchAsset(ctx: IExecuteFunctions, itemIndex: number, assetId: string, timeoutMs: number) {
	return await callApiForObject(ctx, {
		method: 'GET',
		path: `/assets/${pathId(assetId)}`,
		idempotent: true,
		action: `get the asset with Asset ID "${assetId}"`,
		itemIndex,
		timeoutMs,
	});
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const asset = await fetchAsset(this, itemIndex, readAssetId(this, itemIndex), readTimeoutMs(this, itemIndex));
	return [{ json: asset }];
}
