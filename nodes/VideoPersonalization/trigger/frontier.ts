import type { IDataObject } from 'n8n-workflow';

import { detectOrder, type ListOrder } from '../helpers/videoList';
import { type Ledger, placeVideo } from './ledger';
import { pageCountOf, type PollSession, type ReadPage } from './session';

/**
 * How far behind the newest video the horizon stays: a video stamped a moment before another
 * but listed after it (a slow commit on the service) is still found by the next poll.
 */
export const SETTLE_MS = 1000;

/** What the frontier walk is looking for. */
export type FrontierGoal =
	/** A running trigger: every video at or after the horizon that is not accounted for is new. */
	| { kind: 'poll' }
	/** Activation: nothing is new; the walk only records the newest second or so. */
	| { kind: 'activate' }
	/** A state from 0.1.0: the videos beyond the first `covered` from the oldest end are new. */
	| { kind: 'legacy'; covered: number };

export interface FrontierResult {
	/** Every video created at or after the old horizon (or the walk's target) was read. */
	complete: boolean;
	order: ListOrder;
	total: number;
	/** The newest created_at read: the horizon may move to SETTLE_MS before it when complete. */
	newest: number;
}

function ranksOf(page: ReadPage, pageNumber: number, order: ListOrder): number[] {
	return page.items.map((_, index) => {
		const position = (pageNumber - 1) * page.size + index;
		return order === 'oldest-first' ? position : page.total - 1 - position;
	});
}

/** Reads of one walk, applied to the ledger in the order they were made. */
class Walk {
	newest = Number.NEGATIVE_INFINITY;

	constructor(
		private readonly ledger: Ledger,
		private readonly goal: FrontierGoal,
	) {}

	apply(page: ReadPage, pageNumber: number, order: ListOrder): void {
		const ranks = ranksOf(page, pageNumber, order);
		page.items.forEach((video, index) => {
			const { id, createdAt } = placeVideo(video);
			this.newest = Math.max(this.newest, createdAt);
			if (this.ledger.seen(video, ranks[index])) return;
			if (this.isNew(id, createdAt, ranks[index])) this.ledger.newcomer(video, ranks[index]);
			// Activation and carry-over: everything read is accounted for; advance() keeps the newest.
			else if (this.goal.kind !== 'poll') this.ledger.edge[id] = createdAt;
		});
	}

	private isNew(id: string, createdAt: number, rank: number): boolean {
		if (this.goal.kind === 'activate') return false;
		if (this.goal.kind === 'legacy') return rank >= this.goal.covered && !(id in this.ledger.edge);
		return !this.ledger.accounted(id, createdAt);
	}

	result(complete: boolean, order: ListOrder, total: number): FrontierResult {
		return { complete, order, total, newest: this.newest };
	}
}

/**
 * Phase 1: reads the list from its newest end down past the horizon, in one direction only, so
 * that videos shifting while it reads are seen twice rather than skipped. On a newest-first list
 * a new video pushes the others to later pages (seen twice) and a deleted one pulls them to
 * earlier pages: a total that drops between two pages may have skipped a video, so the walk is
 * then incomplete. On an oldest-first list new videos go after the last page, and the walk goes
 * from the last page backwards, the way deletions move the others.
 */
export async function walkFrontier(
	session: PollSession,
	ledger: Ledger,
	goal: FrontierGoal,
	known: { order: ListOrder; total: number },
): Promise<FrontierResult> {
	const walk = new Walk(ledger, goal);
	let order = known.order;
	let firstRead: { page: ReadPage; pageNumber: number } | undefined;
	if (order === 'unknown') {
		const first = await session.read(1);
		order = detectOrder(first.items);
		if (first.total <= first.size) {
			walk.apply(first, 1, order);
			return walk.result(true, order, first.total);
		}
		if (order === 'newest-first') {
			firstRead = { page: first, pageNumber: 1 };
		} else {
			const lastNumber = pageCountOf(first.total, first.size);
			const last = await session.read(lastNumber);
			order = detectOrder([...first.items, ...last.items]);
			if (order === 'unknown') return await readWholeList(session, walk, first);
			// Newest-first after all: page 1 was read first, the walk goes on from there.
			firstRead = order === 'newest-first' ? { page: first, pageNumber: 1 } : { page: last, pageNumber: lastNumber };
		}
	}

	let target = goal.kind === 'poll' ? ledger.horizon : Number.NaN;
	let pageNumber = order === 'newest-first' ? 1 : pageCountOf(known.total, session.pageSize);
	let previousTotal: number | undefined;
	for (;;) {
		let page: ReadPage;
		if (firstRead) {
			({ page, pageNumber } = firstRead);
			firstRead = undefined;
		} else {
			page = await session.read(pageNumber);
			if (order === 'oldest-first' && previousTotal === undefined && pageCountOf(page.total, page.size) !== pageNumber) {
				// The list grew or shrank since the last poll: start from its real last page.
				pageNumber = pageCountOf(page.total, page.size);
				continue;
			}
		}
		const seenOrder = detectOrder(page.items);
		if (seenOrder !== 'unknown' && seenOrder !== order) {
			// The service changed its order: this walk cannot bound the horizon; the next one will.
			return walk.result(false, seenOrder, page.total);
		}
		walk.apply(page, pageNumber, order);
		if (order === 'newest-first' && previousTotal !== undefined && page.total < previousTotal) {
			return walk.result(false, order, page.total);
		}
		previousTotal = page.total;
		if (Number.isNaN(target)) target = walk.newest - SETTLE_MS;
		const crossed = page.items.some((video) => placeVideo(video).createdAt < target);
		const ranks = ranksOf(page, pageNumber, order);
		const legacyDone = goal.kind !== 'legacy' || ranks.some((rank) => rank < goal.covered);
		const end = order === 'newest-first' ? pageNumber * page.size >= page.total : pageNumber <= 1;
		if ((crossed && legacyDone) || end || page.items.length === 0) return walk.result(true, order, page.total);
		pageNumber += order === 'newest-first' ? 1 : -1;
	}
}

/** Order unknown on a list longer than a page: every video shares one second, so all pages are read. */
async function readWholeList(session: PollSession, walk: Walk, first: ReadPage): Promise<FrontierResult> {
	const ids = new Set<string>();
	let still = true;
	const pages = pageCountOf(first.total, first.size);
	for (let pageNumber = 1; pageNumber <= pages; pageNumber++) {
		const page = pageNumber === 1 ? first : await session.read(pageNumber);
		walk.apply(page, pageNumber, 'unknown');
		for (const video of page.items) ids.add(placeVideo(video).id);
		still &&= page.total === first.total;
	}
	// Complete only if the list held still: the same total throughout and every video read.
	return walk.result(still && ids.size === first.total, 'unknown', first.total);
}

export function newestOf(items: IDataObject[]): number {
	return Math.max(Number.NEGATIVE_INFINITY, ...items.map((video) => placeVideo(video).createdAt));
}
