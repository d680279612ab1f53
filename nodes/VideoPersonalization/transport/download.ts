import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import type { CallDescription, ServiceClient } from './client';

export const DOWNLOAD_TIMEOUT_MS = 30 * 60_000;

/** A rendered file to fetch, and what to call it in n8n's binary store. */
export interface FileDownload extends CallDescription {
	url: string;
	fileName: string;
	/** Used when the content host names no type. */
	mimeType: string;
}

/**
 * Downloads a rendered file from the content host into n8n's binary store as a stream.
 * Sent without credentials: the API key goes only to the API's own addresses.
 */
export async function downloadToBinary(
	ctx: IExecuteFunctions,
	api: ServiceClient,
	file: FileDownload,
): Promise<IBinaryData> {
	const response = await api.send({
		to: 'file',
		url: file.url,
		action: file.action,
		itemIndex: file.itemIndex,
		idempotent: true,
		timeoutMs: DOWNLOAD_TIMEOUT_MS,
	});
	const headerType = response.headers['content-type'];
	const type =
		typeof headerType === 'string' && headerType ? headerType.split(';')[0].trim() : file.mimeType;
	return await ctx.helpers.prepareBinaryData(
		response.body as Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0],
		file.fileName,
		type,
	);
}
