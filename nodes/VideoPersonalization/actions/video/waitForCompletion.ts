import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ServiceClient } from '../../transport/client';
import { downloadToBinary, keepVideoWithError } from '../../transport/download';
import { fetchRestPage, fetchRestPageAtServiceSize } from '../../transport/pagination';
import {
	createdAtMs,
	detectOrder,
	isFinalStatus,
	type ListOrder,
	oldestOnPage,
	pagesFromNewestEnd,
} from '../../helpers/videoList';
import { fieldError } from '../common';
import type { ItemResult } from '../types';

// Inside the Options collection: `/waitForCompletion` is the root parameter, other names are sibling options.
// n8n shows an option as soon as one condition's value is an expression, so the sibling conditions go first.
const whenWaiting = { show: { '/waitForCompletion': [true] } };

export const waitOptions: INodeProperties[] = [
	{
		displayName: 'Wait Timeout (Minutes)',
		name: 'waitTimeout',
		displayOptions: whenWaiting,
		type: 'number',
		// No numberPrecision: the editor shows 15 as "15", and fractions (0.5) still work.
		typeOptions: { minValue: 0.01 },
		default: 15,
		description: 'With Wait for Completion: how long to wait for the videos to finish rendering',
	},
	{
		displayName: 'Check Every (Seconds)',
		name: 'pollInterval',
		displayOptions: whenWaiting,
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 10,
		description: 'With Wait for Completion: time between two checks of the video list',
	},
	{
		displayName: 'Download Video',
		name: 'downloadVideo',
		displayOptions: whenWaiting,
		type: 'boolean',
		default: false,
		description:
			'Whether to download the rendered MP4 of each published video as binary data (with Wait for Completion)',
	},
	{
		displayName: 'Video Binary Property',
		name: 'videoBinaryProperty',
		displayOptions: { show: { downloadVideo: [true], ...whenWaiting.show } },
		type: 'string',
		default: 'data',
		description: 'Name of the binary property to put the MP4 in',
	},
	{
		displayName: 'Download Thumbnail',
		name: 'downloadThumbnail',
		displayOptions: whenWaiting,
		type: 'boolean',
		default: false,
		description:
			'Whether to download the JPG thumbnail of each published video as binary data (with Wait for Completion)',
	},
	{
		displayName: 'Thumbnail Binary Property',
		name: 'thumbnailBinaryProperty',
		displayOptions: { show: { downloadThumbnail: [true], ...whenWaiting.show } },
		type: 'string',
		default: 'thumbnail',
		description: 'Name of the binary property to put the thumbnail in',
	},
];

/** How one item waits, read and checked by Create before the video is made. */
export interface WaitSettings {
	wait: boolean;
	timeoutMs: number;
	intervalMs: number;
	videoProperty?: string;
	thumbnailProperty?: string;
	/** The item's Timeout option, for each check of the list. */
	requestTimeoutMs: number;
}

function positiveNumber(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	label: string,
	fallback: number,
): number {
	const number = value === undefined ? fallback : value;
	if (typeof number !== 'number' || !(number > 0)) {
		throw fieldError(
			ctx,
			itemIndex,
			label,
			`must be a number above 0, got ${JSON.stringify(value)}`,
		);
	}
	return number;
}

function binaryProperty(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	label: string,
	fallback: string,
): string {
	const name = value === undefined ? fallback : value;
	if (typeof name !== 'string' || !/^[A-Za-z0-9_.-]+$/.test(name)) {
		throw fieldError(ctx, itemIndex, label, 'must be a name made of letters, digits, _ . or -');
	}
	return name;
}

/** The wait options of one item; they are checked only when that item waits. */
export function readWaitSettings(
	ctx: IExecuteFunctions,
	itemIndex: number,
	requestTimeoutMs: number,
): WaitSettings {
	const wait = ctx.getNodeParameter('waitForCompletion', itemIndex, false) === true;
	if (!wait) return { wait, timeoutMs: 0, intervalMs: 0, requestTimeoutMs };
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return {
		wait,
		timeoutMs:
			positiveNumber(ctx, itemIndex, options.waitTimeout, 'Wait Timeout (Minutes)', 15) * 60_000,
		intervalMs:
			positiveNumber(ctx, itemIndex, options.pollInterval, 'Check Every (Seconds)', 10) * 1000,
		videoProperty:
			options.downloadVideo === true
				? binaryProperty(
						ctx,
						itemIndex,
						options.videoBinaryProperty,
						'Video Binary Property',
						'data',
					)
				: undefined,
		thumbnailProperty:
			options.downloadThumbnail === true
				? binaryProperty(
						ctx,
						itemIndex,
						options.thumbnailBinaryProperty,
						'Thumbnail Binary Property',
						'thumbnail',
					)
				: undefined,
		requestTimeoutMs,
	};
}

interface PendingVideo {
	result: ItemResult<WaitSettings>;
	settings: WaitSettings;
	lastStatus: string;
}

/**
 * One pass over the list, from its newest end, that finds as many of the wanted videos as
 * it can. It stops once it is past the oldest one wanted, so its cost follows the number of
 * videos created since then, not the size of the account.
 */
async function scanForVideos(
	api: ServiceClient,
	wanted: Set<string>,
	oldestWantedMs: number | undefined,
	knownOrder: ListOrder,
	timeoutMs: number,
): Promise<{ found: Map<string, IDataObject>; order: ListOrder }> {
	const request = { path: '/videos', action: 'check on the videos being rendered', timeoutMs };
	const found = new Map<string, IDataObject>();
	const take = (items: IDataObject[]) => {
		for (const video of items) {
			const id = String(video.id);
			if (wanted.has(id)) found.set(id, video);
		}
	};
	const { page: first, size } = await fetchRestPageAtServiceSize(api, request, 1);
	take(first.items);
	const order = knownOrder === 'unknown' ? detectOrder(first.items) : knownOrder;
	const pastOldestWanted = (items: IDataObject[]) =>
		order !== 'unknown' &&
		oldestWantedMs !== undefined &&
		(oldestOnPage(items) ?? Infinity) < oldestWantedMs;
	if (found.size === wanted.size || first.nextPage === null) return { found, order };
	if (order === 'newest-first' && pastOldestWanted(first.items)) return { found, order };

	for (const page of pagesFromNewestEnd(order, first.total, size)) {
		if (page === 1) continue;
		const next = await fetchRestPage(api, request, page, size);
		take(next.items);
		if (found.size === wanted.size || pastOldestWanted(next.items)) break;
	}
	return { found, order };
}

async function attachDownloads(
	ctx: IExecuteFunctions,
	api: ServiceClient,
	pending: PendingVideo,
	video: IDataObject,
): Promise<void> {
	const { settings, result } = pending;
	if (video.status !== 'published') return;
	const item = result.output[0];
	const id = String(video.id);
	const files: Array<[string | undefined, unknown, string, string]> = [
		[settings.videoProperty, video.url, `${id}.mp4`, 'video/mp4'],
		[settings.thumbnailProperty, video.thumbnail, `${id}.jpg`, 'image/jpeg'],
	];
	for (const [property, url, fileName, mimeType] of files) {
		if (!property || typeof url !== 'string' || !url) continue;
		item.binary = item.binary ?? {};
		item.binary[property] = await downloadToBinary(ctx, api, {
			url,
			fileName,
			mimeType,
			action: `download ${fileName} of the video "${id}"`,
			itemIndex: result.itemIndex,
		});
	}
}

/**
 * Waits for the videos created by this run, all together: each round is one scan of the
 * list shared by every pending video, never a request per video.
 */
export async function waitForCreatedVideos(
	ctx: IExecuteFunctions,
	api: ServiceClient,
	results: Array<ItemResult<WaitSettings>>,
): Promise<void> {
	const pending = new Map<string, PendingVideo>();
	const done = new Map<string, IDataObject>();
	for (const result of results) {
		const settings = result.state;
		if (result.error || result.output.length === 0 || !settings?.wait) continue;
		const video = result.output[0].json;
		pending.set(String(video.id), {
			result,
			settings,
			lastStatus: String(video.status ?? 'unknown'),
		});
		if (isFinalStatus(video.status)) done.set(String(video.id), video);
	}
	if (pending.size === 0) return;

	const entries = [...pending.values()];
	const deadline = Date.now() + Math.max(...entries.map((entry) => entry.settings.timeoutMs));
	const intervalMs = Math.min(...entries.map((entry) => entry.settings.intervalMs));
	const requestTimeoutMs = Math.max(...entries.map((entry) => entry.settings.requestTimeoutMs));
	let order: ListOrder = 'unknown';
	// A scan that still fails after its retries ends the wait; the videos exist, so each item
	// says so instead of the whole run failing without their ids.
	let scanFailure: Error | undefined;

	while (done.size < pending.size) {
		const wanted = new Set([...pending.keys()].filter((id) => !done.has(id)));
		const times = [...wanted]
			.map((id) => createdAtMs(pending.get(id)?.result.output[0].json ?? {}))
			.filter((ms): ms is number => ms !== undefined);
		const oldestWantedMs = times.length === wanted.size ? Math.min(...times) : undefined;
		let scan: Awaited<ReturnType<typeof scanForVideos>>;
		try {
			scan = await scanForVideos(api, wanted, oldestWantedMs, order, requestTimeoutMs);
		} catch (error) {
			scanFailure = error as Error;
			break;
		}
		order = scan.order;
		for (const [id, video] of scan.found) {
			const entry = pending.get(id);
			if (!entry) continue;
			entry.lastStatus = String(video.status ?? 'unknown');
			if (isFinalStatus(video.status)) done.set(id, video);
		}
		if (done.size === pending.size || Date.now() + intervalMs > deadline) break;
		if (!(await api.pause(intervalMs))) break;
	}

	for (const [id, entry] of pending) {
		const video = done.get(id);
		if (!video && scanFailure) {
			entry.result.error = notCheckedError(ctx, id, entry, scanFailure);
			entry.result.output = [];
			continue;
		}
		if (!video) {
			const minutes = Math.round((entry.settings.timeoutMs / 60_000) * 100) / 100;
			const waited = `${minutes} minutes of waiting (last status: ${entry.lastStatus})`;
			entry.result.error = new NodeOperationError(
				ctx.getNode(),
				`Video "${id}" was not finished after ${waited}`,
				{
					itemIndex: entry.result.itemIndex,
					description:
						'It may still finish later: raise Wait Timeout (Minutes), or use the Video Personalization ' +
						'Trigger to act when it is published.',
				},
			);
			entry.result.output = [];
			continue;
		}
		entry.result.output[0].json = video;
		try {
			await attachDownloads(ctx, api, entry, video);
		} catch (error) {
			if (ctx.continueOnFail()) {
				keepVideoWithError(entry.result.output[0], error);
			} else {
				entry.result.error = error as Error;
				entry.result.output = [];
			}
		}
	}
}

/** The video was created but the wait could not follow it: say which one and what failed. */
function notCheckedError(
	ctx: IExecuteFunctions,
	id: string,
	entry: PendingVideo,
	failure: Error,
): NodeOperationError {
	const reason = failure.message.replace(/ \[item \d+\]$/, '');
	const described =
		'description' in failure && typeof failure.description === 'string'
			? `${failure.description} `
			: '';
	return new NodeOperationError(
		ctx.getNode(),
		`Video "${id}" was created, but checking whether it finished failed: ${reason}`,
		{
			itemIndex: entry.result.itemIndex,
			description:
				`${described}The video exists (last status: ${entry.lastStatus}); do not create it again. ` +
				'Find it with Video > Get Many, or act on it with the Video Personalization Trigger.',
		},
	);
}
