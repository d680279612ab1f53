import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
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
import { fieldError, positiveOption } from '../common';

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

/** The wait options of one item; they are checked only when that item waits. */
export function readWaitSettings(
	ctx: IExecuteFunctions,
	itemIndex: number,
	requestTimeoutMs: number,
): WaitSettings {
	const wait = ctx.getNodeParameter('waitForCompletion', itemIndex, false) === true;
	if (!wait) return { wait, timeoutMs: 0, intervalMs: 0, requestTimeoutMs };
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const binaryProperty = (download: string, name: string, label: string, fallback: string) => {
		if (options[download] !== true) return undefined;
		const property = options[name] ?? fallback;
		if (typeof property !== 'string' || !/^[A-Za-z0-9_.-]+$/.test(property))
			throw fieldError(ctx, itemIndex, label, 'must be a name made of letters, digits, _ . or -');
		return property;
	};
	const minutes = positiveOption(ctx, itemIndex, 'waitTimeout', 15, 'Wait Timeout (Minutes)');
	const seconds = positiveOption(ctx, itemIndex, 'pollInterval', 10, 'Check Every (Seconds)');
	return {
		wait,
		timeoutMs: minutes * 60_000,
		intervalMs: seconds * 1000,
		videoProperty: binaryProperty(
			'downloadVideo',
			'videoBinaryProperty',
			'Video Binary Property',
			'data',
		),
		thumbnailProperty: binaryProperty(
			'downloadThumbnail',
			'thumbnailBinaryProperty',
			'Thumbnail Binary Property',
			'thumbnail',
		),
		requestTimeoutMs,
	};
}

/** A video Create made, with how its item waits for it. */
export interface CreatedVideo {
	itemIndex: number;
	videoId: string;
	wait: WaitSettings;
	/** The video as created; after the wait, as published or failed. */
	item: INodeExecutionData;
	/** Set when the wait for it failed: the item's error instead of the video. */
	error?: Error;
}

interface Watched {
	video: CreatedVideo;
	lastStatus: string;
	/** The video once published or failed. */
	final?: IDataObject;
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

/**
 * Checks on the watched videos, all together (each round is one scan of the list shared by every
 * video, never a request per video), until all are final or the wait is over. A scan that still
 * fails after its retries ends the wait and is returned: the videos exist, so each item says so
 * instead of the whole run failing without their ids.
 */
async function checkUntilFinished(
	api: ServiceClient,
	watched: Map<string, Watched>,
): Promise<Error | undefined> {
	const settings = [...watched.values()].map((entry) => entry.video.wait);
	const deadline = Date.now() + Math.max(...settings.map((wait) => wait.timeoutMs));
	const intervalMs = Math.min(...settings.map((wait) => wait.intervalMs));
	const requestTimeoutMs = Math.max(...settings.map((wait) => wait.requestTimeoutMs));
	let order: ListOrder = 'unknown';
	for (;;) {
		const open = [...watched.values()].filter((entry) => !entry.final);
		if (open.length === 0) return undefined;
		const wanted = new Set(open.map((entry) => entry.video.videoId));
		const times = open
			.map((entry) => createdAtMs(entry.video.item.json))
			.filter((ms): ms is number => ms !== undefined);
		const oldestWantedMs = times.length === open.length ? Math.min(...times) : undefined;
		try {
			const scan = await scanForVideos(api, wanted, oldestWantedMs, order, requestTimeoutMs);
			order = scan.order;
			for (const [id, video] of scan.found) {
				const entry = watched.get(id);
				if (!entry) continue;
				entry.lastStatus = String(video.status ?? 'unknown');
				if (isFinalStatus(video.status)) entry.final = video;
			}
		} catch (error) {
			return error as Error;
		}
		if (open.every((entry) => entry.final) || Date.now() + intervalMs > deadline) return undefined;
		if (!(await api.pause(intervalMs))) return undefined;
	}
}

async function attachDownloads(
	ctx: IExecuteFunctions,
	api: ServiceClient,
	{ wait, item, itemIndex }: CreatedVideo,
	video: IDataObject,
): Promise<void> {
	if (video.status !== 'published') return;
	const id = String(video.id);
	const files: Array<[string | undefined, unknown, string, string]> = [
		[wait.videoProperty, video.url, `${id}.mp4`, 'video/mp4'],
		[wait.thumbnailProperty, video.thumbnail, `${id}.jpg`, 'image/jpeg'],
	];
	for (const [property, url, fileName, mimeType] of files) {
		if (!property || typeof url !== 'string' || !url) continue;
		item.binary = item.binary ?? {};
		item.binary[property] = await downloadToBinary(ctx, api, {
			url,
			fileName,
			mimeType,
			action: `download ${fileName} of the video "${id}"`,
			itemIndex,
		});
	}
}

/** The video was created but the wait could not follow it: say which one and what failed. */
function notCheckedError(
	ctx: IExecuteFunctions,
	{ video, lastStatus }: Watched,
	failure: Error,
): NodeOperationError {
	const described =
		'description' in failure && typeof failure.description === 'string'
			? `${failure.description} `
			: '';
	return new NodeOperationError(
		ctx.getNode(),
		`Video "${video.videoId}" was created, but checking whether it finished failed: ${failure.message}`,
		{
			itemIndex: video.itemIndex,
			description:
				`${described}The video exists (last status: ${lastStatus}); do not create it again. ` +
				'Find it with Video > Get Many, or act on it with the Video Personalization Trigger.',
		},
	);
}

function notFinishedError(ctx: IExecuteFunctions, { video, lastStatus }: Watched): Error {
	const minutes = Math.round((video.wait.timeoutMs / 60_000) * 100) / 100;
	const waited = `${minutes} minutes of waiting (last status: ${lastStatus})`;
	return new NodeOperationError(
		ctx.getNode(),
		`Video "${video.videoId}" was not finished after ${waited}`,
		{
			itemIndex: video.itemIndex,
			description:
				'It may still finish later: raise Wait Timeout (Minutes), or use the Video Personalization ' +
				'Trigger to act when it is published.',
		},
	);
}

/**
 * Waits for the videos of the items with Wait for Completion, all together; each ends as its
 * final video (with its downloads) or with the error of its item.
 */
export async function waitForCreatedVideos(
	ctx: IExecuteFunctions,
	api: ServiceClient,
	videos: CreatedVideo[],
): Promise<void> {
	const watched = new Map<string, Watched>();
	for (const video of videos) {
		if (!video.wait.wait) continue;
		const { status } = video.item.json;
		const final = isFinalStatus(status) ? video.item.json : undefined;
		watched.set(video.videoId, { video, lastStatus: String(status ?? 'unknown'), final });
	}
	if (watched.size === 0) return;
	const scanFailure = await checkUntilFinished(api, watched);
	for (const entry of watched.values()) {
		const { video, final } = entry;
		if (!final) {
			video.error = scanFailure
				? notCheckedError(ctx, entry, scanFailure)
				: notFinishedError(ctx, entry);
			continue;
		}
		video.item.json = final;
		try {
			await attachDownloads(ctx, api, video, final);
		} catch (error) {
			if (ctx.continueOnFail()) keepVideoWithError(video.item, error);
			else video.error = error as Error;
		}
	}
}
