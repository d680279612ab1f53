import type { IDataObject } from 'n8n-workflow';

import { createdAtMs, detectOrder, type FinalStatus } from '../helpers/videoList';
import { DEFAULT_TIMEOUT_MS } from '../transport/client';
import { ASKED_PAGE_SIZE, type PageSource, pageCountOf } from './session';

/** The most recent video in one of the given statuses, for "Fetch Test Event"; reads only. */
export async function latestFinished(
	source: PageSource,
	statuses: FinalStatus[],
): Promise<IDataObject | undefined> {
	let latest: IDataObject | undefined;
	for (const status of statuses) {
		const read = async (page: number) =>
			await source.page(page, ASKED_PAGE_SIZE, status, DEFAULT_TIMEOUT_MS);
		const first = await read(1);
		let items = first.items;
		// Oldest first, the newest are on the last page.
		if (first.total > items.length && detectOrder(items) === 'oldest-first')
			items = (await read(pageCountOf(first.total, first.limit || ASKED_PAGE_SIZE))).items;
		for (const video of items)
			if (!latest || (createdAtMs(video) ?? 0) > (createdAtMs(latest) ?? 0)) latest = video;
	}
	return latest;
}
