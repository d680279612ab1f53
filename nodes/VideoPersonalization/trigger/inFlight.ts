import { type Ledger, placeVideo } from './ledger';
import type { PollSession, ReadPage } from './session';
import { windowAt } from './windows';

const IN_FLIGHT_STATUSES = ['draft', 'processing'] as const;

export interface InFlightResult {
	/** Both lists were read to their end (a full read), or their first pages proved nothing left. */
	complete: boolean;
	/** A full read: tracked videos missing from the lists are suspects for phase 3. */
	fullRead: boolean;
	/** Tracked videos not seen in the lists; only meaningful after a full read. */
	suspects: string[];
}

/**
 * Phase 2: the draft and processing lists. Their first pages come with their totals; when
 * draft + processing equals the tracked videos plus the unaccounted ones those pages show, and
 * every accounted video they show is tracked, no tracked video can have left the lists unless
 * another video started rendering again at the same time (the one case counts cannot show; a
 * full read every FULL_READ_MS settles it). Otherwise every page is read: each accounted video
 * in flight that is not tracked is rendering again and is tracked; each tracked one not seen is
 * a suspect. Nothing here emits: a video in flight owes no event yet.
 */
export async function readInFlight(session: PollSession, ledger: Ledger, forceFull: boolean): Promise<InFlightResult> {
	const firsts = await Promise.all(IN_FLIGHT_STATUSES.map(async (status) => await session.read(1, status)));
	const present = new Set<string>();
	let unaccounted = 0;
	let rejoined = false;
	const observe = (page: ReadPage) => {
		for (const video of page.items) {
			const { id, createdAt } = placeVideo(video);
			if (present.has(id)) continue;
			present.add(id);
			if (id in ledger.tracked) continue;
			if (!ledger.accounted(id, createdAt)) unaccounted++;
			else {
				ledger.rejoin(video);
				rejoined = true;
			}
		}
	};
	firsts.forEach(observe);
	const inFlight = firsts.reduce((sum, page) => sum + page.total, 0);
	const trackedCount = Object.keys(ledger.tracked).length;
	if (!forceFull && !rejoined && inFlight === trackedCount + unaccounted) {
		return { complete: true, fullRead: false, suspects: [] };
	}
	const read = await Promise.all(
		firsts.map(async (first, index) => await readRest(session, IN_FLIGHT_STATUSES[index], first, observe)),
	);
	if (!read.every(Boolean)) return { complete: false, fullRead: false, suspects: [] };
	return { complete: true, fullRead: true, suspects: Object.keys(ledger.tracked).filter((id) => !present.has(id)) };
}

/**
 * The rest of one list after its first page, in overlapping windows (windows.ts): each starts a
 * few items before the last one ended and must share an item with it, else it starts further
 * back. So every video in the list from the first read to the last is seen. False if the list
 * moved too much to be sure (the caller then reads it in full next poll).
 */
async function readRest(session: PollSession, status: string, first: ReadPage, observe: (page: ReadPage) => void): Promise<boolean> {
	const maxSize = first.size;
	const margin = Math.max(1, Math.floor(maxSize / 10));
	let end = first.items.length;
	// Any video of the last window will do as an anchor: a window that holds one covers from it on.
	let previous = new Set(first.items.map((video) => placeVideo(video).id));
	let back = margin;
	if (end >= first.total) return true;
	for (;;) {
		const { page: pageNumber, size } = windowAt(Math.max(0, end - back), maxSize);
		const page = await session.read(pageNumber, status, size);
		observe(page);
		const ids = page.items.map((video) => placeVideo(video).id);
		const reached = (pageNumber - 1) * page.size + page.items.length;
		const anchored = ids.some((id) => previous.has(id));
		if (anchored && reached >= page.total) return true; // the list ended
		if (!anchored || reached <= end) {
			// More left the list before this window than it overlaps: start further back.
			back *= 2;
			if (back > Math.max(end, maxSize)) return false;
			continue;
		}
		back = margin;
		end = reached;
		previous = new Set(ids);
	}
}
