import type { IDataObject } from 'n8n-workflow';

import { createdAtMs, detectOrder, type FinalStatus } from '../helpers/videoList';
import { ASKED_PAGE_SIZE, type PageSource, pageCountOf } from './session';

/** The most recent video in one of the given statuses, for "Fetch Test Event"; reads only. */
export async function latestFinished(
	source: PageSource,
	statuses: FinalStatus[],
	timeoutMs: number,
): Promise<IDataObject | undefined> {
	const candidates: IDataObject[] = [];
	for (const status of statuses) {
		const first = await source.page(1, ASKED_PAGE_SIZE, status, timeoutMs);
		let items = first.items;
		if (first.total > first.items.length && detectOrder(first.items) === 'oldest-first') {
			const last = pageCountOf(first.total, first.limit || ASKED_PAGE_SIZE);
			items = (await source.page(last, ASKED_PAGE_SIZE, status, timeoutMs)).items;
		}
		candidates.push(...items);
	}
	let latest: IDataObject | undefined;
	for (const video of candidates) {
		if (!latest || (createdAtMs(video) ?? 0) > (createdAtMs(latest) ?? 0)) latest = video;
	}
	return latest;
}
