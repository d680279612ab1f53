import { createdTimes, type ListOrder } from '../helpers/videoList';
import { mapWithConcurrency } from '../helpers/pool';
import { type Ledger, placeVideo } from './ledger';
import { pageCountOf, type PollSession, rankAt, type ReadPage } from './session';

const CONCURRENCY = 4;

/**
 * Phase 3: finds the suspects (tracked videos missing from the in-flight lists) in the full
 * list. Every page read here is read after phase 2, so a suspect seen finished has finished
 * since it was tracked: one event. A suspect seen in flight was skipped by a shifting page and
 * stays tracked. One that a search over a list holding still does not find is missed (deleted
 * after 3 polls); a search during which the list changed proves nothing and counts no miss.
 */
export async function locateSuspects(
	session: PollSession,
	ledger: Ledger,
	suspects: string[],
	list: { order: ListOrder; total: number },
): Promise<void> {
	const remaining = new Set(suspects);
	const observe = (page: ReadPage, pageNumber: number) => {
		page.items.forEach((video, index) => {
			const rank = rankAt(list.order, page.total, (pageNumber - 1) * page.size + index);
			if (ledger.seen(video, rank)) remaining.delete(placeVideo(video).id);
		});
	};

	// Where each was last seen: usually the page that holds it now (new videos only add to one end).
	if (list.order !== 'unknown') {
		const guesses = new Set<number>();
		for (const id of remaining) {
			const rank = ledger.tracked[id]?.rank;
			if (rank === undefined) continue;
			const position = rankAt(list.order, list.total, rank) ?? -1;
			if (position >= 0 && position < list.total)
				guesses.add(Math.floor(position / session.pageSize) + 1);
		}
		await mapWithConcurrency([...guesses], CONCURRENCY, async (pageNumber) => {
			observe(await session.read(pageNumber), pageNumber);
		});
	}

	const byTime = [...remaining].sort(
		(left, right) => ledger.tracked[left].createdAt - ledger.tracked[right].createdAt,
	);
	for (const id of byTime) {
		if (!remaining.has(id)) continue;
		const found = await search(
			session,
			list.order,
			ledger.tracked[id].createdAt,
			list.total,
			(page, pageNumber) => {
				observe(page, pageNumber);
				return !remaining.has(id);
			},
		);
		if (found === 'missing') ledger.missed(id);
	}
}

type Outcome = 'found' | 'missing' | 'unsure';

/**
 * Binary search by created_at for the page that holds `target`, then the pages next to it while
 * they still hold that second (a batch created in one second spans pages). Without an order or
 * a time, a scan. `observe` says whether the video looked for was on the page.
 */
async function search(
	session: PollSession,
	order: ListOrder,
	target: number,
	total: number,
	observe: (page: ReadPage, pageNumber: number) => boolean,
): Promise<Outcome> {
	const totals = new Set<number>();
	const read = async (pageNumber: number) => {
		const page = await session.read(pageNumber);
		totals.add(page.total);
		return { page, found: observe(page, pageNumber) };
	};
	const verdict = (): Outcome => (totals.size === 1 ? 'missing' : 'unsure');
	let pages = pageCountOf(total, session.pageSize);
	if (order === 'unknown' || Number.isNaN(target)) {
		for (let pageNumber = 1; pageNumber <= pages; pageNumber++) {
			const { page, found } = await read(pageNumber);
			if (found) return 'found';
			pages = pageCountOf(page.total, page.size);
		}
		return verdict();
	}
	const newerIsLower = order === 'newest-first';
	let low = 1;
	let high = pages;
	while (low <= high) {
		const middle = Math.floor((low + high) / 2);
		const { page, found } = await read(middle);
		if (found) return 'found';
		const times = createdTimes(page.items);
		if (times.length === 0) {
			high = middle - 1;
			continue;
		}
		const newer = target > Math.max(...times);
		const older = target < Math.min(...times);
		if (newer || older) {
			if (newer === newerIsLower) high = middle - 1;
			else low = middle + 1;
			continue;
		}
		for (const step of [-1, 1]) {
			for (
				let pageNumber = middle + step;
				pageNumber >= 1 && pageNumber <= pageCountOf(page.total, page.size);
				pageNumber += step
			) {
				const next = await read(pageNumber);
				if (next.found) return 'found';
				const nextTimes = createdTimes(next.page.items);
				if (
					nextTimes.length === 0 ||
					target < Math.min(...nextTimes) ||
					target > Math.max(...nextTimes)
				)
					break;
			}
		}
		return verdict();
	}
	// Narrowed to nothing: the page next to the last one read may hold it after a shift.
	return verdict();
}
