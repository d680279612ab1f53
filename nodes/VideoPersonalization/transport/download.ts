import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import { getService, sendWithRetries } from './request';

export const DOWNLOAD_TIMEOUT_MS = 30 * 60_000;

/**
 * Downloads a rendered file from the content host into n8n's binary store as a stream.
 * Sent without credentials: the API key goes only to the API's own addresses.
 */
export async function downloadToBinary(
	ctx: IExecuteFunctions,
	url: string,
	fileName: string,
	mimeType: string,
	action: string,
	itemIndex: number,
): Promise<IBinaryData> {
	const { apiKey } = await getService(ctx, itemIndex);
	const response = await sendWithRetries(
		ctx,
		{ action, itemIndex, idempotent: true, secrets: [apiKey] },
		async () =>
			await ctx.helpers.httpRequest({
				method: 'GET',
				url,
				encoding: 'stream',
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				timeout: DOWNLOAD_TIMEOUT_MS,
			}),
	);
	const headerType = response.headers['content-type'];
	const type = typeof headerType === 'string' && headerType ? headerType.split(';')[0].trim() : mimeType;
	return await ctx.helpers.prepareBinaryData(
		response.body as Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0],
		fileName,
		type,
	);
}
