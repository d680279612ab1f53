import type { Ledger } from './ledger';
import type { PollSession } from './session';
import { type Cut, type Direction, ListReader, newestEnd, oldestEnd, type Window } from './windows';

/** The window shows every video created in `time`'s second on one side: one past it, or the list's end. */
function reaches(window: Window, time: number, direction: Direction): boolean {
	if (window.times.length === 0) return window.total === 0;
	if (direction === 'older') return oldestEnd(window) || window.times[0] < time;
	return newestEnd(window) || window.times[window.times.length - 1] > time;
}

/**
 * Phase 3: finds the suspects in the whole list (docs/architecture.md). Every window read here is read
 * after phase 2, so a suspect seen finished has finished since it was tracked: one event; seen in
 * flight, it stays tracked. One missing from windows that show its whole second is a miss
 * (deleted after 3); a search that cannot show that proves nothing and counts none.
 */
export async function locateSuspects(
	session: PollSession,
	ledger: Ledger,
	suspects: string[],
): Promise<void> {
	// Order unknown: every video shares one second; the search then reads the list end to end.
	const reader = new ListReader(session, ledger.list.order, ledger.list.total);
	const locator = new Locator(reader, ledger, new Set(suspects), ledger.list.order !== 'unknown');
	const byTime = (id: string) => ledger.tracked[id].createdAt;
	for (const id of suspects.sort((left, right) => byTime(left) - byTime(right)))
		if (locator.remaining.has(id) && (await locator.find(id)) === 'missing') ledger.missed(id);
}

/** The windows read for the suspects, shared: a window read for one shows every other it holds. */
class Locator {
	readonly windows: Window[] = [];

	/** created_at of every tracked video: how many lie between two cuts is known exactly. */
	private readonly tracked: number[];

	constructor(
		private readonly reader: ListReader,
		private readonly ledger: Ledger,
		/** The suspects not seen yet. */
		readonly remaining: Set<string>,
		private readonly ranked: boolean,
	) {
		this.tracked = Object.values(ledger.tracked).map((video) => video.createdAt);
	}

	see(window: Window): Window {
		this.windows.push(window);
		window.videos.forEach((video, index) => {
			if (this.ledger.seen(video, this.ranked ? window.ranks[index] : undefined))
				this.remaining.delete(window.ids[index]);
		});
		return window;
	}

	/**
	 * Probes where the suspect should be (its rank, else an estimate; every third probe halves
	 * instead) until a window reaches its second, then walks on both ways until its whole second is shown.
	 */
	async find(id: string): Promise<'found' | 'missing' | 'unsure'> {
		const { reader } = this;
		const { createdAt: time, rank } = this.ledger.tracked[id];
		const found = () => !this.remaining.has(id);
		const showsSecond = (window: Window) =>
			reaches(window, time, 'older') && reaches(window, time, 'newer');
		let [guess, estimates] = [rank, 0];
		// Every third probe halves: enough to narrow the whole list down to one window, and a few more.
		const probes = 3 * Math.ceil(Math.log2(reader.total / reader.size + 2)) + 4;
		for (let probe = 0; probe < probes; probe++) {
			if (this.windows.some(showsSecond)) return 'missing';
			const { low, high } = this.cuts(time);
			if (guess === undefined) {
				const halve = estimates === 2;
				guess = halve ? (low.count + high.count) / 2 : this.estimate(time, low, high);
				estimates = halve || low.time === -Infinity ? 0 : estimates + 1;
			}
			// A window around the guess, not below what is known to be older.
			const start = Math.round(Math.min(guess - reader.size / 2, high.count - reader.size));
			const window = this.see(await reader.read(Math.max(0, low.count, start), 'newer'));
			guess = undefined;
			if (found()) return 'found';
			const { times } = window;
			const before = !newestEnd(window) && times[times.length - 1] < time;
			const after = !oldestEnd(window) && times[0] > time;
			if (!showsSecond(window) && (before || after || times.length === 0)) continue;
			for (const direction of ['older', 'newer'] as Direction[]) {
				const visit = (next: Window) => reaches(this.see(next), time, direction) || found();
				if (!reaches(window, time, direction) && !(await reader.walk(window, direction, visit)))
					return 'unsure';
				if (found()) return 'found';
			}
			return 'missing';
		}
		return 'unsure';
	}

	/** The nearest cuts read around `time` (else the horizon's, and the list's ends). */
	private cuts(time: number): { low: Cut; high: Cut } {
		const horizon = { time: this.ledger.horizon, count: this.ledger.list.below };
		let low: Cut = { time: -Infinity, count: 0 };
		let high: Cut = horizon.time > time ? horizon : { time: Infinity, count: this.reader.total };
		for (const window of this.windows)
			window.times.forEach((at, index) => {
				const rank = window.ranks[index];
				if (at < time && (at > low.time || (at === low.time && rank >= low.count)))
					low = { time: at, count: rank + 1 };
				if (at > time && (at < high.time || (at === high.time && rank < high.count)))
					high = { time: at, count: rank };
			});
		return { low, high };
	}

	/**
	 * Where a video created at `time` should be between two cuts: after the tracked videos created
	 * between `low` and it, and its share of the others, spread evenly over the time between.
	 */
	private estimate(time: number, low: Cut, high: Cut): number {
		if (low.time === -Infinity) return 0; // nothing read below it: the oldest end first
		if (Number.isNaN(time)) return (low.count + high.count) / 2;
		const between = (from: number, to: number) =>
			this.tracked.filter((at) => at > from && at < to).length;
		const others = Math.max(0, high.count - low.count - between(low.time, high.time));
		const share = high.time === Infinity ? 0 : (time - low.time) / (high.time - low.time);
		return low.count + between(low.time, time) + others * share;
	}
}
