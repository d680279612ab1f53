import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { CallOptions } from './call';
import type { ServiceClient } from './client';
import { fileUrlProblem, parseUrl, shortUrl } from './config';
import { headerText } from './headers';
import { discardStream } from './request';

export const DOWNLOAD_TIMEOUT_MS = 30 * 60_000;
const MAX_REDIRECTS = 5;
const FILE_RULE =
	'Files are downloaded over https://, or http:// on this machine (localhost, 127.x.x.x, [::1]) only, as the Base URL (README, "Security").';

/**
 * Downloads a rendered file (`mimeType`: used when the content host names no type) from the
 * content host into n8n's binary store as a stream, following redirects (`redirectedFrom`: the
 * address that redirected to `url`).
 * Sent without credentials: the API key goes only to the API's own addresses. Every address,
 * each redirect's too, must pass the Base URL's rule before anything is sent to it, and goes
 * through n8n's request helper (its SSRF protection, when on).
 */
export async function downloadToBinary(
	ctx: IExecuteFunctions,
	api: ServiceClient,
	file: Pick<CallOptions, 'action' | 'itemIndex'> & Record<'url' | 'fileName' | 'mimeType', string>,
): Promise<IBinaryData> {
	const fail = (message: string, description?: string) =>
		new NodeOperationError(ctx.getNode(), message, { itemIndex: file.itemIndex, description });
	let [url, redirectedFrom] = [file.url, undefined as string | undefined];
	for (let redirects = 0; ; redirects++) {
		const problem = fileUrlProblem(url);
		if (problem && redirectedFrom)
			throw fail(
				`Refused to ${file.action}: the content host redirected it to an address that ${problem}`,
				`The content host answered ${shortUrl(redirectedFrom)} with a redirect to ${shortUrl(url)}; nothing was sent to ${shortUrl(url)}. ${FILE_RULE}`,
			);
		if (problem)
			throw fail(
				`Refused to ${file.action}: its address ${problem}`,
				`Nothing was sent to ${shortUrl(url)}. ${FILE_RULE}`,
			);
		const { headers, status, body } = await api.send({
			action: file.action,
			itemIndex: file.itemIndex,
			to: 'file',
			url,
			redirectedFrom,
			idempotent: true,
			timeoutMs: DOWNLOAD_TIMEOUT_MS,
			accept: (answered) => answered >= 300 && answered < 400,
		});
		if (status < 300) {
			const type = headerText(headers, 'content-type')?.split(';')[0].trim() || file.mimeType;
			const stream = body as Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];
			return await ctx.helpers.prepareBinaryData(stream, file.fileName, type);
		}
		discardStream(body);
		const location = headerText(headers, 'location') ?? '';
		if (!location || redirects >= MAX_REDIRECTS)
			throw fail(
				location
					? `Could not ${file.action}: the content host answered ${status} after ${MAX_REDIRECTS} redirects`
					: `Could not ${file.action}: the content host answered ${status} without saying where the file is`,
			);
		redirectedFrom = url;
		// Not an address: refused above as not a valid address.
		url = parseUrl(location, url)?.href ?? location;
	}
}
