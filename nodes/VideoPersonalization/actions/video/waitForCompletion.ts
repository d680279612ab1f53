import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { ServiceClient } from '../../transport/client';
import { downloadToBinary } from '../../transport/download';
import { fetchRestPage, pageAtServiceSize, restList } from '../../transport/pagination';
import {
	createdAtMs,
	detectOrder,
	isFinalStatus,
	type ListOrder,
	oldestOnPage,
	pagesFromNewestEnd,
} from '../../helpers/videoList';
import { fieldError } from '../common';
import type { WaitSettings } from './waitOptions';

/** A video Create made, with how its item waits for it. */
export interface CreatedVideo {
	itemIndex: number;
	videoId: string;
	wait: WaitSettings;
	/** The video as created, then as the list last showed it: in the end published or failed. */
	item: INodeExecutionData;
	/** Set when the wait for it failed: the item's error instead of the video. */
	error?: Error;
}

const isFinished = (video: CreatedVideo) => isFinalStatus(video.item.json.status);
const lastStatus = (video: CreatedVideo) => String(video.item.json.status ?? 'unknown');

/**
 * One pass over the list, from its newest end, that finds as many of the open videos as
 * it can. It stops once it is past the oldest one wanted, so its cost follows the number of
 * videos created since then, not the size of the account.
 */
async function scanForVideos(
	api: ServiceClient,
	open: CreatedVideo[],
	knownOrder: ListOrder,
	timeoutMs: number,
): Promise<{ found: Map<string, IDataObject>; order: ListOrder }> {
	const wanted = new Set(open.map((video) => video.videoId));
	const times = open.map((video) => createdAtMs(video.item.json));
	const oldestWantedMs = times.includes(undefined) ? undefined : Math.min(...(times as number[]));
	const request = { path: '/videos', action: 'check on the videos being rendered', timeoutMs };
	const found = new Map<string, IDataObject>();
	const take = (items: IDataObject[]) => {
		for (const video of items) {
			const id = String(video.id);
			if (wanted.has(id)) found.set(id, video);
		}
	};
	const { page: first, size } = await pageAtServiceSize(api, restList(request), 1);
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
async function checkUntilFinished(api: ServiceClient, waiting: CreatedVideo[]) {
	const settings = waiting.map((video) => video.wait);
	const deadline = Date.now() + Math.max(...settings.map((wait) => wait.timeoutMs));
	const intervalMs = Math.min(...settings.map((wait) => wait.intervalMs));
	const listTimeoutMs = Math.max(...settings.map((wait) => wait.listTimeoutMs));
	let order: ListOrder = 'unknown';
	for (;;) {
		const open = waiting.filter((video) => !isFinished(video));
		if (open.length === 0) return undefined;
		try {
			const scan = await scanForVideos(api, open, order, listTimeoutMs);
			order = scan.order;
			for (const video of open) video.item.json = scan.found.get(video.videoId) ?? video.item.json;
		} catch (error) {
			return error as Error;
		}
		if (open.every(isFinished) || Date.now() + intervalMs > deadline) return undefined;
		if (!(await api.pause(intervalMs))) return undefined;
	}
}

async function attachDownloads(ctx: IExecuteFunctions, api: ServiceClient, created: CreatedVideo) {
	const { wait, item, itemIndex } = created;
	const video = item.json;
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
function notCheckedError(ctx: IExecuteFunctions, video: CreatedVideo, failure: Error): Error {
	const { description } = failure as { description?: unknown };
	const described = typeof description === 'string' ? `${description} ` : '';
	const message = `Video "${video.videoId}" was created, but checking whether it finished failed: ${failure.message}`;
	const hint = `${described}The video exists (last status: ${lastStatus(video)}); do not create it again. Find it with Video > Get Many, or act on it with the Video Personalization Trigger.`;
	return fieldError(ctx, video.itemIndex, message, hint);
}

function notFinishedError(ctx: IExecuteFunctions, video: CreatedVideo): Error {
	const minutes = Math.round((video.wait.timeoutMs / 60_000) * 100) / 100;
	const message = `Video "${video.videoId}" was not finished after ${minutes} minutes of waiting (last status: ${lastStatus(video)})`;
	const hint =
		'It may still finish later: raise Wait Timeout (Minutes), or use the Video Personalization Trigger to act when it is published.';
	return fieldError(ctx, video.itemIndex, message, hint);
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
	const waiting = videos.filter((video) => video.wait.wait);
	if (waiting.length === 0) return;
	const failure = await checkUntilFinished(api, waiting);
	for (const video of waiting) {
		if (!isFinished(video)) {
			video.error = failure ? notCheckedError(ctx, video, failure) : notFinishedError(ctx, video);
			continue;
		}
		try {
			await attachDownloads(ctx, api, video);
		} catch (error) {
			if (ctx.continueOnFail()) keepVideoWithError(video.item, error);
			else video.error = error as Error;
		}
	}
}

/**
 * Continue On Fail for a published video whose file could not be downloaded: its item keeps the
 * video's fields (and a file already downloaded) beside the error. n8n would replace the fields
 * with the error alone if the item carried it as an error, so it stays on the main output.
 */
function keepVideoWithError(item: INodeExecutionData, error: unknown): void {
	const failed = error as Error & { description?: string | null };
	item.json = { ...item.json, error: failed.message, details: failed.description ?? null };
}
