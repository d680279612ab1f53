import { mapWithConcurrency } from '../helpers/pool';
import { type Ledger, placeVideo } from './ledger';
import { pageCountOf, type PollSession, type ReadPage } from './session';

const IN_FLIGHT_STATUSES = ['draft', 'processing'] as const;
const CONCURRENCY = 4;

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
	const rest = firsts.flatMap((first, index) =>
		Array.from({ length: pageCountOf(first.total, first.size) - 1 }, (_, page) => ({
			status: IN_FLIGHT_STATUSES[index],
			page: page + 2,
		})),
	);
	const pages = await mapWithConcurrency(rest, CONCURRENCY, async ({ status, page }) => await session.read(page, status));
	pages.forEach(observe);
	return { complete: true, fullRead: true, suspects: Object.keys(ledger.tracked).filter((id) => !present.has(id)) };
}
