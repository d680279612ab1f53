import type { IBinaryData, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { CallOptions } from './call';
import type { ServiceClient } from './client';
import { fileUrlProblem, parseUrl, shortUrl } from './config';
import { headerText } from './headers';
import { discardStream } from './request';

export const DOWNLOAD_TIMEOUT_MS = 30 * 60_000;
const MAX_REDIRECTS = 5;

/** A rendered file to fetch, and what to call it in n8n's binary store. */
export interface FileDownload extends CallOptions {
	url: string;
	fileName: string;
	/** Used when the content host names no type. */
	mimeType: string;
}

/**
 * Downloads a rendered file from the content host into n8n's binary store as a stream.
 * Sent without credentials: the API key goes only to the API's own addresses. Every address,
 * each redirect's too, must pass the Base URL's rule before anything is sent to it, and goes
 * through n8n's request helper (its SSRF protection, when on).
 */
export async function downloadToBinary(
	ctx: IExecuteFunctions,
	api: ServiceClient,
	file: FileDownload,
): Promise<IBinaryData> {
	let url = file.url;
	/** The address that redirected to `url`, once the content host has redirected. */
	let redirectedFrom: string | undefined;
	for (let redirects = 0; ; redirects++) {
		const problem = fileUrlProblem(url);
		if (problem) throw refusedFile(ctx, file, problem, url, redirectedFrom);
		const response = await api.send({
			to: 'file',
			url,
			redirectedFrom,
			action: file.action,
			itemIndex: file.itemIndex,
			idempotent: true,
			timeoutMs: DOWNLOAD_TIMEOUT_MS,
			accept: (status) => status >= 300 && status < 400,
		});
		const { headers, status } = response;
		if (status < 300) {
			const type = headerText(headers, 'content-type')?.split(';')[0].trim() || file.mimeType;
			return await ctx.helpers.prepareBinaryData(
				response.body as Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0],
				file.fileName,
				type,
			);
		}
		discardStream(response.body);
		const location = headerText(headers, 'location') ?? '';
		if (!location || redirects >= MAX_REDIRECTS) {
			const message = location
				? `Could not ${file.action}: the content host answered ${status} after ${MAX_REDIRECTS} redirects`
				: `Could not ${file.action}: the content host answered ${status} without saying where the file is`;
			throw new NodeOperationError(ctx.getNode(), message, { itemIndex: file.itemIndex });
		}
		redirectedFrom = url;
		// Not an address: refused above as not a valid address.
		url = parseUrl(location, url)?.href ?? location;
	}
}

/** The node's own rule refused a file address, or a redirect's target (saying from where to where). */
function refusedFile(
	ctx: IExecuteFunctions,
	file: FileDownload,
	problem: string,
	url: string,
	redirectedFrom: string | undefined,
): NodeOperationError {
	const rule =
		'Files are downloaded over https://, or http:// on this machine (localhost, 127.x.x.x, [::1]) ' +
		'only, as the Base URL (README, "Security").';
	const [message, description] = redirectedFrom
		? [
				`Refused to ${file.action}: the content host redirected it to an address that ${problem}`,
				`The content host answered ${shortUrl(redirectedFrom)} with a redirect to ${shortUrl(url)}; ` +
					`nothing was sent to ${shortUrl(url)}. ${rule}`,
			]
		: [
				`Refused to ${file.action}: its address ${problem}`,
				`Nothing was sent to ${shortUrl(url)}. ${rule}`,
			];
	return new NodeOperationError(ctx.getNode(), message, { itemIndex: file.itemIndex, description });
}

/**
 * Continue On Fail for a published video whose file could not be downloaded: its item keeps the
 * video's fields (and a file already downloaded) beside the error. n8n would replace the fields
 * with the error alone if the item carried it as an error, so it stays on the main output.
 */
export function keepVideoWithError(item: INodeExecutionData, error: unknown): void {
	const failed = error as Error & { description?: string | null };
	item.json = { ...item.json, error: failed.message, details: failed.description ?? null };
}
