import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ServiceClient } from '../../transport/client';
import { readTimeoutMs } from '../common';
import { optionsCollection } from '../fields';
import type { ItemExecute, OperationOption } from '../types';
import { assetLocator, readAssetId } from './locator';

export const option: OperationOption = {
	name: 'Get',
	action: 'Get an asset',
	description: 'Get one asset with its usage counts',
};

export const description: INodeProperties[] = [assetLocator, optionsCollection()];

export async function fetchAsset(
	api: ServiceClient,
	itemIndex: number,
	assetId: string,
	timeoutMs: number,
): Promise<IDataObject> {
	return await api.sendForObject({
		method: 'GET',
		path: `/assets/${encodeURIComponent(assetId)}`,
		idempotent: true,
		action: `get the asset with Asset ID "${assetId}"`,
		itemIndex,
		timeoutMs,
	});
}

export const execute: ItemExecute = async function (itemIndex, api) {
	const assetId = readAssetId(this, itemIndex);
	const asset = await fetchAsset(api, itemIndex, assetId, readTimeoutMs(this, itemIndex));
	return [{ json: asset }];
};
