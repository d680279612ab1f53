import type { IDataObject } from 'n8n-workflow';

import { createdAtMs, detectOrder, type FinalStatus } from '../helpers/videoList';
import { isOutOfTime } from '../transport/errors';
import { type RestPage, servedPageSize } from '../transport/pagination';

/** Where a poll reads from: the REST video list, optionally filtered by status. */
export interface PageSource {
	/**
	 * `timeoutMs`: what is left of the poll's time; a request may outlive it by a little
	 * (MIN_REQUEST_MS). The answer's `limit` is the page size the service used: pages are numbered at it.
	 */
	page(
		page: number,
		limit: number,
		status: string | undefined,
		timeoutMs: number,
	): Promise<RestPage>;
}

/** The shortest timeout a request of the poll gets, however little of its time is left. */
export const MIN_REQUEST_MS = 5000;

/** The page size asked for; the service may serve fewer (its `limit`), which is then used. */
export const ASKED_PAGE_SIZE = 100;

/**
 * A read that would start after the poll's deadline, or whose request ran out of the poll's time:
 * the phase stops and the poll commits what it concluded.
 */
export class OutOfTime extends Error {
	constructor() {
		super('The poll ran out of time');
	}
}

/** One page as read, with the page size it was served with. */
export type ReadPage = RestPage & { size: number };

export const pageCountOf = (total: number, size: number): number =>
	Math.max(1, Math.ceil(total / size));

/**
 * The reads of one poll. Every read is fresh (no cache): a phase's conclusions rest only on
 * what was read after the previous phase ended, so a later read is never older than an earlier one.
 */
export class PollSession {
	/** A lower bound of the service's time before the poll's first read (-Infinity: not known). */
	readonly floor: number;

	constructor(
		private readonly source: PageSource,
		readonly deadline: number,
		private readonly now: () => number,
		public pageSize: number,
		/**
		 * How far the service's clock is at least ahead of the local one (ms; may be negative): a
		 * video with created_at c read at local time r shows the service's time was >= c then.
		 */
		public ahead = Number.NEGATIVE_INFINITY,
	) {
		this.floor = now() + ahead;
	}

	async read(page: number, status?: string, limit = this.pageSize): Promise<ReadPage> {
		const left = this.deadline - this.now();
		if (left <= 0) throw new OutOfTime();
		// A request that fails after the deadline (cut short, or retried past it), or runs out of the
		// poll's time (a long Retry-After), ends the phase like the deadline does: the poll commits
		// what it concluded. Any other failure before the deadline fails the poll.
		const result = await this.source.page(page, limit, status, left).catch((error: unknown) => {
			throw this.deadline <= this.now() || isOutOfTime(error) ? new OutOfTime() : error;
		});
		const received = this.now();
		for (const video of result.items) {
			const ahead = Date.parse(String(video.created_at)) - received;
			if (ahead > this.ahead) this.ahead = ahead; // false for an unreadable created_at (NaN)
		}
		// Pages are numbered at the size served (the rule every list of the package uses).
		const fromPage = result.total - (page - 1) * limit;
		const size = servedPageSize(limit, result.limit, result.items.length, fromPage);
		// Learnt only from a full-size ask: a smaller window says nothing about the service's limit.
		if (limit === this.pageSize && size < this.pageSize && page === 1) this.pageSize = size;
		return { ...result, size };
	}
}

/** "Fetch Test Event": the most recent video in one of the given statuses; reads only. */
export async function latestFinished(
	source: PageSource,
	statuses: FinalStatus[],
): Promise<IDataObject | undefined> {
	// No deadline: each request has the default timeout.
	const session = new PollSession(source, Number.POSITIVE_INFINITY, Date.now, ASKED_PAGE_SIZE);
	let latest: IDataObject | undefined;
	for (const status of statuses) {
		const first = await session.read(1, status);
		let items = first.items;
		// Oldest first, the newest are on the last page.
		if (first.total > items.length && detectOrder(items) === 'oldest-first')
			items = (await session.read(pageCountOf(first.total, first.size), status)).items;
		for (const video of items)
			if (!latest || (createdAtMs(video) ?? 0) > (createdAtMs(latest) ?? 0)) latest = video;
	}
	return latest;
}
