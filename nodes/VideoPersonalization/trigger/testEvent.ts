import type { IDataObject } from 'n8n-workflow';

import { createdAtMs, detectOrder, type FinalStatus } from '../helpers/videoList';
import { PAGE_SIZE, type PageSource } from './poll';
import { pageCount } from './ranks';

/** The most recent video in one of the given statuses, for "Fetch Test Event"; reads only. */
export async function latestFinished(source: PageSource, statuses: FinalStatus[]): Promise<IDataObject | undefined> {
	const candidates: IDataObject[] = [];
	for (const status of statuses) {
		const first = await source.page(1, PAGE_SIZE, status);
		let items = first.items;
		if (first.total > first.items.length && detectOrder(first.items) === 'oldest-first') {
			items = (await source.page(pageCount(first.total, first.limit || PAGE_SIZE), PAGE_SIZE, status)).items;
		}
		candidates.push(...items);
	}
	let latest: IDataObject | undefined;
	for (const video of candidates) {
		if (!latest || (createdAtMs(video) ?? 0) > (createdAtMs(latest) ?? 0)) latest = video;
	}
	return latest;
}
