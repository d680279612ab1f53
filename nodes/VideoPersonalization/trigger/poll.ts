import type { IDataObject } from 'n8n-workflow';

import type { RestPage } from '../transport/pagination';
import { mapWithConcurrency } from '../helpers/pool';
import { createdAtMs, createdTimes, detectOrder, type FinalStatus, isFinalStatus, type ListOrder } from '../helpers/videoList';
import { effectiveOrder, pageCount, pageOfRank, pagesForRanks, rankAt } from './ranks';
import type { PendingVideo, TriggerState } from './state';

export const PAGE_SIZE = 100;
const CONCURRENCY = 4;

/** Where the poll reads pages from: the REST video list, optionally filtered by status. */
export interface PageSource {
	page(page: number, limit: number, status?: string): Promise<RestPage>;
}

export interface VideoEvent {
	status: FinalStatus;
	video: IDataObject;
}

export interface PollResult {
	events: VideoEvent[];
	state: TriggerState;
	/** Vanished videos that could not be found again (deleted); logged, never guessed. */
	lost: string[];
}

interface Seen {
	video: IDataObject;
	rank: number;
}

/**
 * One poll, from the previous state to the next and the events in between. Cost:
 * - idle: 3 requests (the newest end of the list, the draft list, the processing list);
 * - k videos finished: the pages holding them, found by their rank (about k/100 when they
 *   were created together), plus the pages of videos created since the last poll.
 * The list order is read off the data; ranks (index from the oldest end) do not depend on it.
 */
export class VideoPoll {
	private readonly pages = new Map<string, Promise<RestPage>>();

	private readonly seen = new Map<string, Seen>();

	private order: ListOrder;

	constructor(
		private readonly source: PageSource,
		private readonly previous: TriggerState | undefined,
		private readonly deadline: number,
		private readonly now: () => number,
	) {
		this.order = previous?.order ?? 'unknown';
	}

	private async fetch(page: number, status?: string): Promise<RestPage> {
		const key = `${status ?? '*'}:${page}`;
		let pending = this.pages.get(key);
		if (!pending) {
			pending = this.source.page(page, PAGE_SIZE, status).then((result) => {
				if (!status) this.remember(page, result);
				return result;
			});
			this.pages.set(key, pending);
			pending.catch(() => this.pages.delete(key));
		}
		return await pending;
	}

	private remember(page: number, result: RestPage): void {
		const detected = detectOrder(result.items);
		if (detected !== 'unknown') this.order = detected;
		result.items.forEach((video, index) => {
			this.seen.set(String(video.id), {
				video,
				rank: rankAt(this.order, result.total, page, index, result.limit || PAGE_SIZE),
			});
		});
	}

	/** Every page of a status-filtered list (draft or processing: the videos in flight). */
	private async inFlight(status: string, first: RestPage): Promise<IDataObject[]> {
		const more = Array.from({ length: pageCount(first.total, first.limit || PAGE_SIZE) - 1 }, (_, index) => index + 2);
		const rest = await mapWithConcurrency(more, CONCURRENCY, async (page) => await this.fetch(page, status));
		return [first, ...rest].flatMap((page) => page.items);
	}

	/** Finds a video whose rank is unknown or stale: binary search on created_at, else a scan. */
	private async locate(id: string, createdAt: string, total: number): Promise<Seen | undefined> {
		const target = Date.parse(createdAt);
		const pages = pageCount(total, PAGE_SIZE);
		if (this.order === 'unknown' || Number.isNaN(target)) {
			for (let page = 1; page <= pages && !this.seen.has(id) && this.now() < this.deadline; page++) await this.fetch(page);
			return this.seen.get(id);
		}
		const newerIsLower = this.order === 'newest-first';
		let low = 1;
		let high = pages;
		while (low <= high && this.now() < this.deadline) {
			const middle = Math.floor((low + high) / 2);
			const result = await this.fetch(middle);
			if (this.seen.has(id)) return this.seen.get(id);
			const times = createdTimes(result.items);
			if (times.length === 0) {
				high = middle - 1;
				continue;
			}
			if (target > Math.max(...times)) {
				if (newerIsLower) high = middle - 1;
				else low = middle + 1;
			} else if (target < Math.min(...times)) {
				if (newerIsLower) low = middle + 1;
				else high = middle - 1;
			} else {
				// Equal timestamps (a batch created in one second) can span several pages.
				await this.walkTies(id, target, middle, pages);
				break;
			}
		}
		return this.seen.get(id);
	}

	/** From a page holding `target`, reads the pages on each side while they still hold it. */
	private async walkTies(id: string, target: number, middle: number, pages: number): Promise<void> {
		for (const step of [-1, 1]) {
			for (let page = middle + step; page >= 1 && page <= pages && !this.seen.has(id) && this.now() < this.deadline; page += step) {
				const times = createdTimes((await this.fetch(page)).items);
				if (times.length === 0 || target < Math.min(...times) || target > Math.max(...times)) break;
			}
		}
	}

	async run(): Promise<PollResult> {
		const previous = this.previous;
		const covered = previous?.covered ?? 0;
		// The page where new videos start: the top of a newest-first list, or the page of the
		// first uncovered rank in an oldest-first one.
		const headPage = previous && effectiveOrder(this.order) === 'oldest-first' ? Math.floor(covered / PAGE_SIZE) + 1 : 1;
		const [head, drafts, processing] = await Promise.all([
			this.fetch(headPage),
			this.fetch(1, 'draft'),
			this.fetch(1, 'processing'),
		]);
		const total = head.total;
		if (this.order === 'unknown' && total > PAGE_SIZE) {
			// One page was not enough to tell the order: compare with the other end.
			await this.fetch(pageCount(total, PAGE_SIZE));
			const ends = [...(await this.fetch(1)).items.slice(0, 1), ...(await this.fetch(pageCount(total, PAGE_SIZE))).items.slice(-1)];
			const detected = detectOrder(ends);
			if (detected !== 'unknown') this.order = detected;
		}
		const flying = new Map<string, IDataObject>();
		for (const video of [...(await this.inFlight('draft', drafts)), ...(await this.inFlight('processing', processing))]) {
			flying.set(String(video.id), video);
		}

		const events = new Map<string, VideoEvent>();
		const pending: Record<string, PendingVideo> = {};
		const lost: string[] = [];
		const note = (video: IDataObject, rank: number | null) => {
			const id = String(video.id);
			if (isFinalStatus(video.status)) {
				delete pending[id];
				events.set(id, { status: video.status, video });
			} else {
				pending[id] = { rank, status: String(video.status ?? 'unknown'), createdAt: String(video.created_at ?? '') };
			}
		};

		if (!previous) {
			// First poll after publishing: what is already finished is not an event. Videos in
			// flight are remembered; their rank is looked up only if ever needed.
			for (const [id, video] of flying) pending[id] = { rank: this.seen.get(id)?.rank ?? null, status: String(video.status), createdAt: String(video.created_at ?? '') };
			return { events: [], state: { version: 1, order: this.order, covered: total, pending }, lost };
		}

		// Videos created since the last poll: ranks [covered, total).
		let coveredUpTo = covered;
		for (const page of pagesForRanks(this.order, total, covered, total, PAGE_SIZE)) {
			if (this.now() >= this.deadline) break;
			await this.fetch(page);
			coveredUpTo = Math.min(total, Math.max(coveredUpTo, this.highestRankOn(page, total) + 1));
		}
		for (const { video, rank } of this.seen.values()) {
			if (rank >= covered && rank < coveredUpTo) note(video, rank);
		}

		// Videos that were in flight and left the draft/processing lists: fetched by rank.
		const vanished = Object.entries(previous.pending).filter(([id]) => !flying.has(id) && !events.has(id));
		const byRank = vanished.filter(([id, entry]) => entry.rank !== null && !this.seen.has(id));
		const rankPages = [...new Set(byRank.map(([, entry]) => pageOfRank(this.order, total, entry.rank ?? 0, PAGE_SIZE)))];
		await mapWithConcurrency(rankPages, CONCURRENCY, async (page) => await this.fetch(page));
		for (const [id, entry] of vanished) {
			let found = this.seen.get(id);
			if (!found && entry.rank !== null) {
				// New videos shifted the page, or the server's order changed: look next door first.
				const page = pageOfRank(this.order, total, entry.rank, PAGE_SIZE);
				for (const neighbour of [page - 1, page + 1]) {
					if (!this.seen.has(id) && neighbour >= 1 && neighbour <= pageCount(total, PAGE_SIZE)) await this.fetch(neighbour);
				}
				found = this.seen.get(id);
			}
			found ??= await this.locate(id, entry.createdAt, total);
			if (found) note(found.video, found.rank);
			// The search ran out of time: still pending, searched again next poll.
			else if (this.now() >= this.deadline) pending[id] = entry;
			else lost.push(id);
		}

		// Still in flight: kept, with the freshest status; new ones get their rank when known.
		for (const [id, video] of flying) {
			if (events.has(id)) continue;
			const known = previous.pending[id] ?? pending[id];
			const rank = this.seen.get(id)?.rank ?? known?.rank ?? null;
			if (!known && rank === null && this.createdDuringPoll(video)) continue;
			pending[id] = { rank, status: String(video.status), createdAt: String(video.created_at ?? known?.createdAt ?? '') };
		}

		const ordered = [...events.values()].sort(
			(left, right) => (createdAtMs(left.video) ?? 0) - (createdAtMs(right.video) ?? 0),
		);
		return { events: ordered, state: { version: 1, order: this.order, covered: coveredUpTo, pending }, lost };
	}

	private highestRankOn(page: number, total: number): number {
		const first = rankAt(this.order, total, page, 0, PAGE_SIZE);
		const last = rankAt(this.order, total, page, PAGE_SIZE - 1, PAGE_SIZE);
		return Math.min(total - 1, Math.max(first, last));
	}

	/** A video newer than every video covered so far: the next poll's new-video pages hold it. */
	private createdDuringPoll(video: IDataObject): boolean {
		const created = createdAtMs(video);
		if (created === undefined) return false;
		let newestCovered = -Infinity;
		for (const { video: seenVideo } of this.seen.values()) {
			newestCovered = Math.max(newestCovered, createdAtMs(seenVideo) ?? -Infinity);
		}
		return created >= newestCovered;
	}
}
