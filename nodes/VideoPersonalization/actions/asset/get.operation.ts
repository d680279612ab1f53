import type { INodeProperties } from 'n8n-workflow';

import type { CallOptions, ServiceClient } from '../../transport/client';
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

/** The asset (Get, and Delete's Safe Delete); `call` says for which item, and its Timeout. */
export async function fetchAsset(
	api: ServiceClient,
	assetId: string,
	call: Pick<CallOptions, 'itemIndex' | 'timeoutMs'>,
) {
	return await api.sendForObject({
		method: 'GET',
		path: `/assets/${encodeURIComponent(assetId)}`,
		idempotent: true,
		action: `get the asset with Asset ID "${assetId}"`,
		...call,
	});
}

export const execute: ItemExecute = async function (itemIndex, api) {
	const assetId = readAssetId(this, itemIndex);
	const timeoutMs = readTimeoutMs(this, itemIndex);
	return [{ json: await fetchAsset(api, assetId, { itemIndex, timeoutMs }) }];
};
