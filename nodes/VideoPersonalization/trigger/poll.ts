/**
 * The trigger's poll: from the state the last committed poll left to the next state and the
 * events in between.
 *
 * THE INVARIANT. Every video on the account is in exactly one of these conditions, and a
 * committed state plus the events committed with it say which:
 * - it is *accounted for*: created before `horizon`, or listed in `edge` (created at or after
 *   it). Then either it is *tracked* (seen in draft or processing, its event still owed) or its
 *   event for its last render has been emitted (or it was finished at activation: no event);
 * - or it is *new*: not accounted for. Every new video lies at or after the horizon.
 * A poll reads, in three phases, each after the previous one ended:
 * 1. the frontier (frontier.ts): the list from just below the horizon up to its newest end, in
 *    overlapping windows that must share a video (windows.ts), so nothing between them is
 *    skipped however the list shifts. A new video seen finished is emitted, one in flight is
 *    tracked; either way it joins `edge`. Tracked videos seen finished are emitted and untracked.
 *    Window by window the horizon moves up to SETTLE_MS before the newest video read, dropping
 *    older ids from `edge`: a poll cut short keeps what it read.
 * 2. the in-flight lists (inFlight.ts): when their counts say nothing left them, their first
 *    pages suffice; otherwise they are read in full, in overlapping windows. An accounted,
 *    untracked video in flight is rendering again and is tracked; a tracked video not in the
 *    lists is a suspect. New videos there are left alone: the next frontier meets them.
 * 3. the suspects (locate.ts), in the full list: seen finished, emitted and untracked.
 * So an event is emitted only for a new video (once: it is then accounted for) or for a tracked
 * one (once: it is then untracked, and tracked again only when a later read sees it in flight,
 * which is a new render). None is lost: a new video is never accounted for without its event or
 * being tracked, the horizon moves only over what was read, and a tracked video stays tracked
 * until it is seen finished (or missed by three searches of a list that held still: deleted).
 * The state and the events leave a poll together (run.ts), so a state n8n saved (after a poll
 * that emitted, or after activation) is always one with its events out, and a poll that starts
 * from an older one (a restart) reads again what the lost polls read. A poll that runs out of
 * time stops between reads and commits what it concluded: every rule above holds at each read.
 * One poll at a time per trigger (lease.ts): a poll that finds another running emits nothing.
 */
import { walkFrontier, type FrontierGoal } from './frontier';
import { readInFlight } from './inFlight';
import { Ledger, type VideoEvent } from './ledger';
import { locateSuspects } from './locate';
import { ASKED_PAGE_SIZE, OutOfTime, type PollSession } from './session';
import type { LegacyState, TriggerState } from './state';
import { OrderChanged } from './windows';

/** The in-flight lists are read in full at least this often, whatever their counts say. */
export const FULL_READ_MS = 10 * 60_000;

export interface PollOutcome {
	events: VideoEvent[];
	/** Undefined when there is nothing to commit (an activation or a carry-over that did not finish). */
	state: TriggerState | undefined;
	/** Tracked videos given up on (not found three polls in a row: deleted). */
	lost: string[];
	/** The poll stopped at its deadline; what it concluded is committed, the rest is left to the next one. */
	outOfTime: boolean;
}

/**
 * A phase's result, or undefined when it stopped: at the deadline, or at a page listed in the
 * other order (the next poll's frontier follows the new order). Any other failure fails the poll.
 */
async function untilStopped<T>(phase: () => Promise<T>): Promise<{ value: T } | undefined> {
	return await phase().then(
		(value) => ({ value }),
		async (error: unknown) =>
			error instanceof OutOfTime || error instanceof OrderChanged
				? undefined
				: await Promise.reject(error),
	);
}

/** The page size to ask for: what the service served last time, else the most it allows. */
export function pageSizeFor(previous: TriggerState | LegacyState | undefined): number {
	return previous?.version === 2 ? previous.pageSize : ASKED_PAGE_SIZE;
}

export async function runPoll(
	session: PollSession,
	previous: TriggerState | LegacyState | undefined,
	now: () => number,
): Promise<PollOutcome> {
	const current = previous?.version === 2 ? previous : undefined;
	const ledger = current
		? new Ledger(current.horizon, { ...current.edge }, structuredClone(current.tracked))
		: new Ledger(Number.NEGATIVE_INFINITY, {}, structuredClone(previous?.tracked ?? {}));
	ledger.below = current?.below ?? 0;
	ledger.total = current?.total ?? 0;
	let goal: FrontierGoal = { kind: 'activate' };
	if (current) goal = { kind: 'poll' };
	else if (previous?.version === 1) goal = { kind: 'legacy', covered: previous.covered };
	const started = now();
	const nothing = (outOfTime: boolean): PollOutcome => ({
		events: [],
		state: undefined,
		lost: [],
		outOfTime,
	});

	// Phase 1. Activation and carry-over must read their whole frontier to have a horizon at all.
	const known = {
		order: previous?.order ?? 'unknown',
		total: current?.total ?? 0,
		below: current?.below ?? 0,
	};
	const frontier = (
		await untilStopped(async () => await walkFrontier(session, ledger, goal, known))
	)?.value;
	if (goal.kind !== 'poll' && !frontier?.complete) return nothing(!frontier);

	// Phase 2, after phase 1 only: its reads must be newer than every read of phase 1.
	const fullReadDue =
		!current || !frontier?.complete || started - current.fullReadAt >= FULL_READ_MS;
	const order = frontier?.order ?? known.order;
	const inFlight = frontier
		? (await untilStopped(async () => await readInFlight(session, ledger, fullReadDue, order)))
				?.value
		: undefined;
	if (goal.kind === 'activate') {
		if (!inFlight?.fullRead) return nothing(!inFlight);
		// What finished before the trigger was on is not an event.
		ledger.events.length = 0;
	}

	// Phase 3, also for what an unfinished phase 2 found missing.
	const total = frontier?.total ?? ledger.total;
	const suspects = inFlight?.suspects ?? [];
	const searched =
		suspects.length === 0 ||
		(await untilStopped(
			async () => await locateSuspects(session, ledger, suspects, { order, total }),
		)) !== undefined;
	const located = inFlight?.complete === true && searched;

	let fullReadAt = 0; // an unfinished phase 2 or 3: the next poll reads in full
	if (inFlight && located)
		fullReadAt = inFlight.fullRead ? started : (current?.fullReadAt ?? started);
	const state: TriggerState = {
		version: 2,
		order,
		// An empty list at activation: nothing is accounted for, every video to come is new.
		horizon: Math.max(0, ledger.horizon),
		edge: ledger.edge,
		tracked: ledger.tracked,
		fullReadAt,
		total,
		below: frontier?.below ?? ledger.below,
		pageSize: session.pageSize,
	};
	const events = ledger.events.sort(
		(left, right) =>
			Date.parse(String(left.video.created_at)) - Date.parse(String(right.video.created_at)),
	);
	return { events, state, lost: ledger.lost, outOfTime: !located };
}
