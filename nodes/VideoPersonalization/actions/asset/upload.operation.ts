import type { IBinaryData, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ASSET_TYPES, type AssetType, checkUpload } from '../../helpers/uploadRules';
import { binaryHead, binarySize, multipartBody } from '../../transport/multipart';
import { fieldError, readTimeoutMs } from '../common';
import { optionsCollection, textField } from '../fields';
import type { ItemExecute, OperationOption } from '../types';
import { readTags, tagsField } from './locator';

export const option: OperationOption = {
	name: 'Upload',
	action: 'Upload an asset',
	description: 'Upload an image, video or audio file from an input binary field',
};

/** Uploads may be large: their own, longer default. */
const UPLOAD_TIMEOUT_SECONDS = 30 * 60;

export const description: INodeProperties[] = [
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: 'The name of the input binary field holding the file to upload',
		description: 'Name of the binary property of the input item that holds the file',
	},
	textField(
		'Name',
		'name',
		'Name of the asset; leave empty to use the file name',
		'e.g. Summer logo',
	),
	{
		displayName: 'Type',
		name: 'assetType',
		type: 'options',
		default: 'auto',
		options: [
			{
				name: 'Detect From File',
				value: 'auto',
				description: 'Image, video or audio, from the file type',
			},
			{ name: 'Image', value: 'image', description: 'JPG, PNG, SVG or WEBP, up to 10 MB' },
			{ name: 'Video', value: 'video', description: 'MP4, WEBM or MOV, up to 200 MB' },
			{ name: 'Audio', value: 'audio', description: 'MP3, WAV or AAC, up to 50 MB' },
		],
	},
	tagsField,
	optionsCollection([], UPLOAD_TIMEOUT_SECONDS),
];

function readBinary(ctx: IExecuteFunctions, itemIndex: number): IBinaryData {
	const property = ctx.getNodeParameter('binaryPropertyName', itemIndex, 'data') as unknown;
	if (typeof property !== 'string' || property.trim() === '') {
		throw fieldError(ctx, itemIndex, 'Input Binary Field: is empty');
	}
	const binary = ctx.getInputData()[itemIndex]?.binary?.[property.trim()];
	if (!binary) {
		const available = Object.keys(ctx.getInputData()[itemIndex]?.binary ?? {});
		const message = `Input Binary Field: the input item has no binary field "${property.trim()}"`;
		const hint = available.length
			? `Binary fields of this item: ${available.join(', ')}.`
			: 'This item has no binary data: read the file first (e.g. with Read/Write Files from Disk or HTTP Request).';
		throw fieldError(ctx, itemIndex, message, hint);
	}
	return binary;
}

export const execute: ItemExecute = async function (itemIndex, api) {
	const binary = readBinary(this, itemIndex);
	const fileName =
		binary.fileName ?? `upload${binary.fileExtension ? `.${binary.fileExtension}` : ''}`;
	const chosenType = this.getNodeParameter('assetType', itemIndex, 'auto') as string;
	if (chosenType !== 'auto' && !(ASSET_TYPES as string[]).includes(chosenType)) {
		const got = JSON.stringify(chosenType);
		throw fieldError(this, itemIndex, `Type: must be auto, image, video or audio, got ${got}`);
	}
	const size = await binarySize(this, binary);
	const check = checkUpload({
		fileName,
		mimeType: binary.mimeType ?? '',
		size,
		requestedType: chosenType === 'auto' ? undefined : (chosenType as AssetType),
		head: size > 0 ? await binaryHead(this, binary) : undefined,
	});
	if (!check.ok) {
		const message =
			check.field === 'Type' ? `Type: ${check.problem}` : `Input Binary Field: ${check.problem}`;
		throw fieldError(this, itemIndex, message);
	}
	const nameParameter = this.getNodeParameter('name', itemIndex, '') as unknown;
	if (nameParameter !== '' && typeof nameParameter !== 'string') {
		const got = JSON.stringify(nameParameter);
		throw fieldError(this, itemIndex, `Name: must be text, got ${got}`);
	}
	const name = (nameParameter as string).trim() || fileName;
	const tags = readTags(this, itemIndex, this.getNodeParameter('tags', itemIndex, ''));

	const fields: Array<[string, string]> = [
		['name', name],
		['type', check.type],
		...tags.map((tag): [string, string] => ['tags', tag]),
	];
	const file = { field: 'file', fileName, mimeType: check.mimeType };
	const asset = await api.sendForObject({
		method: 'POST',
		path: '/assets',
		body: multipartBody(this, binary, size, fields, file),
		idempotent: false,
		action: `upload "${fileName}" as an ${check.type} asset`,
		itemIndex,
		timeoutMs: readTimeoutMs(this, itemIndex, UPLOAD_TIMEOUT_SECONDS),
	});
	return [{ json: asset }];
};
