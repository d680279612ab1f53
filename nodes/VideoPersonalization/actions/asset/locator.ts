import type { IExecuteFunctions } from 'n8n-workflow';

import { fieldError, readLocator } from '../common';
import { resourceLocator, textField } from '../fields';

export const assetLocator = resourceLocator(
	{ displayName: 'Asset', name: 'assetId', mode: 'list', description: 'The asset to work on' },
	'searchAssets',
	'e.g. ast_3f9b2c',
);

export function readAssetId(ctx: IExecuteFunctions, itemIndex: number): string {
	const { value } = readLocator(ctx, itemIndex, 'assetId');
	if (value !== undefined) return value;
	const hint = 'Pick one from the list or give its ID.';
	throw fieldError(ctx, itemIndex, 'Asset: no asset chosen', hint);
}

/** Upload's Tags field; Update's says the list replaces the current one. */
export const tagsField = textField(
	'Tags',
	'tags',
	'Tags of the asset, separated by commas',
	'e.g. logo, summer-campaign',
);

/** Tags as the API wants them: a list; text is split on commas. */
export function readTags(ctx: IExecuteFunctions, itemIndex: number, value: unknown): string[] {
	if (value === undefined || value === null) return [];
	const list = typeof value === 'string' ? value.split(',') : value;
	const isTag = (tag: unknown) => typeof tag === 'string' || typeof tag === 'number';
	if (!Array.isArray(list) || !list.every(isTag)) {
		const message = 'Tags: must be text with tags separated by commas, or a list of texts';
		throw fieldError(ctx, itemIndex, message);
	}
	return [...new Set(list.map((tag) => String(tag).trim()).filter((tag) => tag !== ''))];
}
