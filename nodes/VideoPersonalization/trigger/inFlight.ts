import { type Ledger, placeVideo } from './ledger';
import type { PollSession, ReadPage } from './session';
import { windowAt } from './windows';

const IN_FLIGHT_STATUSES = ['draft', 'processing'] as const;
type InFlightStatus = (typeof IN_FLIGHT_STATUSES)[number];

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
 * full read every FULL_READ_MS settles it). Otherwise the lists are read in full: each accounted
 * video in flight that is not tracked is rendering again and is tracked; each tracked one not
 * seen is a suspect. When the draft list alone still adds up (drafts waiting while renders
 * finish, as on a busy account), only the processing list is read. Nothing here emits: a video
 * in flight owes no event yet.
 */
export async function readInFlight(
	session: PollSession,
	ledger: Ledger,
	forceFull: boolean,
): Promise<InFlightResult> {
	const firsts = await Promise.all(
		IN_FLIGHT_STATUSES.map(async (status) => await session.read(1, status)),
	);
	const present = new Set<string>();
	const unaccounted = { draft: 0, processing: 0 };
	const rejoined = { draft: false, processing: false };
	const observe = (status: InFlightStatus) => (page: ReadPage) => {
		for (const video of page.items) {
			const { id, createdAt } = placeVideo(video);
			present.add(id);
			const tracked = ledger.tracked[id];
			if (tracked) tracked.status = status;
			else if (!ledger.accounted(id, createdAt)) unaccounted[status]++;
			else {
				ledger.rejoin(video);
				rejoined[status] = true;
			}
		}
	};
	firsts.forEach((first, index) => observe(IN_FLIGHT_STATUSES[index])(first));
	const tracked = Object.values(ledger.tracked);
	const expected = (status: InFlightStatus) =>
		tracked.filter((video) => video.status === status).length + unaccounted[status];
	const [drafts, processing] = firsts;
	const addsUp = (status: InFlightStatus, total: number) =>
		!rejoined[status] && total === expected(status);
	if (
		!forceFull &&
		!rejoined.draft &&
		!rejoined.processing &&
		drafts.total + processing.total === expected('draft') + expected('processing')
	) {
		return { complete: true, fullRead: false, suspects: [] };
	}
	const readDrafts = forceFull || !addsUp('draft', drafts.total);
	const lists = IN_FLIGHT_STATUSES.map((status, index) => ({
		status,
		first: firsts[index],
	})).filter(({ status }) => status === 'processing' || readDrafts);
	const read = await Promise.all(
		lists.map(async ({ status, first }) => await readRest(session, status, first, observe(status))),
	);
	if (!read.every(Boolean)) return { complete: false, fullRead: false, suspects: [] };
	// Drafts not read in full are where they were: their count adds up.
	const suspects = Object.entries(ledger.tracked)
		.filter(([id, video]) => !present.has(id) && (readDrafts || video.status !== 'draft'))
		.map(([id]) => id);
	return { complete: true, fullRead: readDrafts, suspects };
}

/**
 * The rest of one list after its first page, in overlapping windows (windows.ts): each starts a
 * few items before the last one ended and must share an item with it, else it starts further
 * back. So every video in the list from the first read to the last is seen. False if the list
 * moved too much to be sure (the caller then reads it in full next poll).
 */
async function readRest(
	session: PollSession,
	status: string,
	first: ReadPage,
	observe: (page: ReadPage) => void,
): Promise<boolean> {
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
