/**
 * VideoPoll on an in-memory newest-first list, for the cases the sandbox cannot produce on
 * demand: a poll that runs out of time mid-search, and one created_at shared by many pages.
 */
import type { IDataObject } from 'n8n-workflow';

import { type PageSource, VideoPoll } from '../../../../nodes/VideoPersonalization/trigger/poll.ts';
import type { TriggerState } from '../../../../nodes/VideoPersonalization/trigger/state.ts';

const BASE = Date.parse('2026-11-01T00:00:00Z');

/** Videos by rank (0 = oldest); `createdAt(rank)` gives each one's creation time. */
function videos(total: number, createdAt: (rank: number) => number): IDataObject[] {
	return Array.from({ length: total }, (_, rank) => ({
		id: `vid_${rank}`,
		status: 'published',
		created_at: new Date(createdAt(rank)).toISOString(),
	}));
}

/** Serves `list` newest first, like the REST list, and counts the pages it served. */
function source(list: IDataObject[]): PageSource & { fetched: string[] } {
	const fetched: string[] = [];
	return {
		fetched,
		async page(page, limit, status) {
			fetched.push(`${status ?? '*'}:${page}`);
			const matching = [...list].reverse().filter((video) => !status || video.status === status);
			const items = matching.slice((page - 1) * limit, page * limit);
			return { items, total: matching.length, page, limit, nextPage: page * limit < matching.length ? page + 1 : null };
		},
	};
}

/** State after a poll that saw `id` in flight without learning its rank. */
function stateWith(total: number, id: string, createdAt: string): TriggerState {
	return { version: 1, order: 'newest-first', covered: total, pending: { [id]: { rank: null, status: 'processing', createdAt } } };
}

describe('VideoPoll', () => {
	it('keeps a finished video pending when the poll runs out of time before finding it, and emits it next poll', async () => {
		const list = videos(1000, (rank) => BASE + rank * 1000);
		const target = list[250];
		const previous = stateWith(1000, String(target.id), String(target.created_at));

		// The clock passes the deadline after the first three requests (head, draft, processing).
		const slow = source(list);
		const cut = await new VideoPoll(slow, previous, 3, () => slow.fetched.length).run();
		expect(cut.events).toEqual([]);
		expect(cut.lost).toEqual([]);
		expect(cut.state.pending[String(target.id)]).toEqual(previous.pending[String(target.id)]);

		const next = await new VideoPoll(source(list), JSON.parse(JSON.stringify(cut.state)) as TriggerState, Infinity, () => 0).run();
		expect(next.events.map((event) => [event.video.id, event.status])).toEqual([[target.id, 'published']]);
		expect(next.state.pending).toEqual({});
	});

	it('finds a video among equal created_at values that span several pages', async () => {
		// Ranks 200-699 were created in the same second: pages 4-8 of the newest-first list.
		const list = videos(1000, (rank) => BASE + (rank < 200 ? rank : rank < 700 ? 200 : rank) * 1000);
		const target = list[250]; // page 8, three pages from where the binary search lands (5)
		target.status = 'failed';
		const pages = source(list);
		const result = await new VideoPoll(pages, stateWith(1000, String(target.id), String(target.created_at)), Infinity, () => 0).run();
		expect(result.lost).toEqual([]);
		expect(result.events.map((event) => [event.video.id, event.status])).toEqual([[target.id, 'failed']]);
		// A walk over the tied pages, not a scan of all ten.
		expect(new Set(pages.fetched.filter((key) => key.startsWith('*:'))).size).toBeLessThan(10);
	});

	it('reports a video that a complete search does not find as lost, without an event', async () => {
		const list = videos(300, (rank) => BASE + rank * 1000);
		const result = await new VideoPoll(source(list), stateWith(300, 'vid_gone', new Date(BASE + 150_500).toISOString()), Infinity, () => 0).run();
		expect(result.events).toEqual([]);
		expect(result.lost).toEqual(['vid_gone']);
		expect(result.state.pending).toEqual({});
	});
});
