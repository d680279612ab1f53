import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { isCount } from '../../helpers/answers';
import type { RestRequest, ServiceClient } from '../../transport/client';
import { fieldError, readTimeoutMs } from '../common';
import { optionsCollection } from '../fields';
import type { ItemExecute, OperationOption } from '../types';
import { fetchAsset } from './get.operation';
import { assetLocator, readAssetId } from './locator';

export const option: OperationOption = {
	name: 'Delete',
	action: 'Delete an asset',
	description: 'Delete an asset (refuses by default while videos or templates use it)',
};

export const description: INodeProperties[] = [
	assetLocator,
	{
		displayName: 'Safe Delete',
		name: 'safeDelete',
		type: 'boolean',
		default: true,
		description:
			'Whether to refuse to delete an asset that videos or templates still use (deleting it can make them render incorrectly)',
	},
	optionsCollection(),
];

/** The asset's usage counts, by what they count. */
const USAGE_COUNTS = { used_in_videos: 'video', used_in_templates: 'template' };

/**
 * What uses the asset, from its usage counts ("2 videos", "1 template"); without a count, whether
 * the asset is in use is unknown, and it is not deleted.
 */
function usedBy(api: ServiceClient, asset: IDataObject, action: string, itemIndex: number) {
	const users: string[] = [];
	for (const [field, noun] of Object.entries(USAGE_COUNTS)) {
		const value = asset[field];
		if (isCount(value)) {
			if (value > 0) users.push(`${value} ${noun}${value === 1 ? '' : 's'}`);
			continue;
		}
		const shown = typeof value === 'number' || value === null ? String(value) : `a ${typeof value}`;
		const problem =
			value === undefined
				? `The answer has no ${field}`
				: `The answer's ${field} is ${shown}, not a whole number of 0 or more`;
		const detail = `${problem}; Safe Delete cannot tell whether the asset is in use, so it was not deleted. Turn off Safe Delete to delete it without this check.`;
		throw api.error({ kind: 'shape', detail }, { action, itemIndex });
	}
	return users;
}

export const execute: ItemExecute = async function (itemIndex, api) {
	const assetId = readAssetId(this, itemIndex);
	const timeoutMs = readTimeoutMs(this, itemIndex);
	if (this.getNodeParameter('safeDelete', itemIndex, true) !== false) {
		const asset = await fetchAsset(api, assetId, { itemIndex, timeoutMs });
		const action = `check whether the asset with Asset ID "${assetId}" is in use`;
		const users = usedBy(api, asset, action, itemIndex);
		if (users.length > 0) {
			const message = `Asset "${assetId}" is still used by ${users.join(' and ')}; it was not deleted`;
			const hint =
				'Deleting it could make what uses it render incorrectly. Turn off Safe Delete to delete it anyway.';
			throw fieldError(this, itemIndex, message, hint);
		}
	}
	const call: RestRequest = {
		method: 'DELETE',
		path: `/assets/${encodeURIComponent(assetId)}`,
		idempotent: true,
		action: `delete the asset with Asset ID "${assetId}"`,
		itemIndex,
		timeoutMs,
	};
	const response = await api.send(call);
	// The answer is `{ id, deleted }`; an empty 200/204 means the same.
	const body: IDataObject =
		response.body === undefined || response.body === '' ? {} : api.bodyObject(response, call);
	const id = typeof body.id === 'string' ? body.id : assetId;
	return [{ json: { ...body, id, deleted: true } }];
};
