import type { IDataObject } from 'n8n-workflow';

import type { ListOrder } from '../helpers/videoList';
import type { RestPage } from '../transport/pagination';

/** Where a poll reads from: the REST video list, optionally filtered by status. */
export interface PageSource {
	/** `timeoutMs`: what is left of the poll's time; a request may outlive it by a little (MIN_REQUEST_MS). */
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

/** Thrown by a read that would start after the poll's deadline: the phase stops and keeps what it has. */
export class OutOfTime extends Error {
	constructor() {
		super('The poll ran out of time');
	}
}

/** One page as read, with the page size it was served with. */
export interface ReadPage extends RestPage {
	size: number;
}

/**
 * The reads of one poll. Every read is fresh (no cache): a phase's conclusions rest only on
 * what was read after the previous phase ended, so a later read is never older than an earlier one.
 */
export class PollSession {
	requests = 0;

	constructor(
		private readonly source: PageSource,
		readonly deadline: number,
		private readonly now: () => number,
		public pageSize: number,
	) {}

	timeLeft(): number {
		return this.deadline - this.now();
	}

	async read(page: number, status?: string, limit = this.pageSize): Promise<ReadPage> {
		const left = this.timeLeft();
		if (left <= 0) throw new OutOfTime();
		this.requests++;
		// A request that fails after the deadline (cut short, or retried past it) ends the phase like
		// the deadline does: the poll commits what it concluded. Before the deadline, it fails the poll.
		const result = await this.source
			.page(page, limit, status, left)
			.catch(async (error: unknown) =>
				this.timeLeft() <= 0 ? await Promise.reject(new OutOfTime()) : await Promise.reject(error),
			);
		// A service that serves fewer than asked (while more remain) pages by what it serves.
		let size = Math.min(limit, result.limit > 0 ? result.limit : limit);
		if (result.items.length < size && page * size < result.total)
			size = Math.max(1, result.items.length);
		// Learnt only from a full-size ask: a smaller window says nothing about the service's limit.
		if (limit === this.pageSize && size < this.pageSize && page === 1) this.pageSize = size;
		return { ...result, size };
	}
}

export const isInFlight = (video: IDataObject): boolean =>
	video.status === 'draft' || video.status === 'processing';

/**
 * The rank (index from the oldest end) of the video at `position` in a list of `total` in this
 * order, or the position of a rank: the mapping is its own inverse. Undefined while the order is not known.
 */
export function rankAt(
	order: Exclude<ListOrder, 'unknown'>,
	total: number,
	position: number,
): number;
export function rankAt(order: ListOrder, total: number, position: number): number | undefined;
export function rankAt(order: ListOrder, total: number, position: number): number | undefined {
	if (order === 'oldest-first') return position;
	return order === 'newest-first' ? total - 1 - position : undefined;
}

export function pageCountOf(total: number, size: number): number {
	return Math.max(1, Math.ceil(total / size));
}
