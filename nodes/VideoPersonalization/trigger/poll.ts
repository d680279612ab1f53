/**
 * The trigger's poll: from the state the last committed poll left to the next state and the
 * events in between. The invariant, the state, the three phases and the words the code uses are
 * in docs/architecture.md. In short: every video is accounted for (created before the horizon, or in
 * the edge) or new; an accounted video is tracked (its event owed) or its event is out. Each
 * phase reads after the previous one ended; an event comes only from a new video or a tracked
 * one seen finished; the state and the events leave the poll together, under the lease.
 *
 * Reading order, one file a line:
 *   ../VideoPersonalizationTrigger.node.ts  the node: the page source (GET /videos), a poll's budget
 *   poll.ts            this file: the lease, the three phases in turn, the commit
 *   state.ts           what is kept between polls (static data "videoTrigger")
 *   ledger.ts          what a poll concludes: one method a rule of the invariant
 *   phase1Frontier.ts  phase 1: the videos created since the last poll; the horizon moves up
 *   phase2InFlight.ts  phase 2: the draft and processing lists; tracked videos missing: suspects
 *   phase3Suspects.ts  phase 3: each suspect looked for in the whole list
 *   windows.ts         how the phases read: windows by rank, walks anchored window to window
 *   session.ts         one poll's reads: its deadline, the page size, the service's time (ahead)
 *   lease.ts           one poll at a time per trigger
 */
import type { IDataObject } from 'n8n-workflow';

import { holdsLease, releaseLease, takeLease } from './lease';
import { Ledger, type VideoEvent } from './ledger';
import { walkFrontier, type FrontierGoal } from './phase1Frontier';
import { readInFlight } from './phase2InFlight';
import { locateSuspects } from './phase3Suspects';
import { ASKED_PAGE_SIZE, OutOfTime, type PageSource, PollSession } from './session';
import { readState, type TriggerState, writeState } from './state';
import { OrderChanged } from './windows';

/** The in-flight lists are read in full at least this often, whatever their counts say. */
export const FULL_READ_MS = 10 * 60_000;

/** The lease outlasts the poll's reading time by this much: requests sent just before it ends. */
const LEASE_MARGIN_MS = 10 * 60_000;

export interface PollOutcome {
	events: VideoEvent[];
	/** Undefined when there is nothing to commit (an activation or a carry-over that did not finish). */
	state: TriggerState | undefined;
	/** Tracked videos given up on (missing three polls in a row: deleted). */
	lost: string[];
	/** The poll stopped early (its deadline); what it concluded is committed, the rest is left to the next one. */
	outOfTime: boolean;
	/** Videos the list showed later than the trigger waited for them (their events may be lost). */
	late?: number;
}

export type PollRun =
	| { status: 'done'; outcome: PollOutcome }
	/** Another poll of this trigger is running: nothing read, nothing emitted. */
	| { status: 'busy' }
	/** This poll outlived its lease and another took over: nothing committed. */
	| { status: 'superseded' };

/** One poll of the trigger `key` (workflow and node), reading for at most `budgetMs`. */
export interface PollRequest {
	key: string;
	staticData: IDataObject;
	source: PageSource;
	now: () => number;
	budgetMs: number;
}

/** One poll under the lease; the state is written together with the events it returns, or not at all. */
export async function pollOnce(request: PollRequest): Promise<PollRun> {
	const { key, now, budgetMs } = request;
	const started = now();
	const token = takeLease(key, started, started + budgetMs + LEASE_MARGIN_MS);
	if (!token) return { status: 'busy' };
	try {
		const outcome = await runPoll(request, started);
		if (!holdsLease(key, token)) return { status: 'superseded' };
		if (outcome.state) writeState(request.staticData, outcome.state);
		return { status: 'done', outcome };
	} finally {
		releaseLease(key, token);
	}
}

/**
 * A phase's result, or undefined when it stopped: at the deadline, or at a page listed in the
 * other order (the next poll's frontier follows the new order). Any other failure fails the poll.
 */
async function untilStopped<T>(phase: Promise<T>): Promise<T | undefined> {
	return await phase.catch((error: unknown) => {
		if (error instanceof OutOfTime || error instanceof OrderChanged) return undefined;
		throw error;
	});
}

async function runPoll(request: PollRequest, started: number): Promise<PollOutcome> {
	const previous = readState(request.staticData);
	const current = previous?.version === 2 ? previous : undefined;
	const [deadline, size] = [started + request.budgetMs, current?.pageSize ?? ASKED_PAGE_SIZE];
	const session = new PollSession(request.source, deadline, request.now, size, current?.ahead);
	const ledger = new Ledger(previous);
	let goal: FrontierGoal = current ? { kind: 'poll' } : { kind: 'activate' };
	if (previous?.version === 1) goal = { kind: 'carry-over', covered: previous.covered };
	const nothing = (outOfTime: boolean) => ({ events: [], state: undefined, lost: [], outOfTime });

	// Phase 1. Activation and carry-over must read their whole frontier to have a horizon at all.
	const frontier = await untilStopped(walkFrontier(session, ledger, goal));
	if (goal.kind !== 'poll' && !frontier) return nothing(frontier === undefined);
	// Phase 2, after phase 1 only: its reads must be newer than every read of phase 1.
	const fullReadDue = !current || !frontier || started - current.fullReadAt >= FULL_READ_MS;
	const phase2 = frontier === undefined ? undefined : readInFlight(session, ledger, fullReadDue);
	const inFlight = phase2 && (await untilStopped(phase2));
	if (goal.kind === 'activate') {
		if (!inFlight?.fullRead) return nothing(!inFlight);
		ledger.events.length = 0; // what finished before the trigger was on is not an event
	}
	// Phase 3, also for what an unfinished phase 2 found missing (no suspect: no read).
	const suspects = inFlight?.suspects ?? [];
	const searched = await untilStopped(locateSuspects(session, ledger, suspects).then(() => true));
	const located = inFlight?.complete === true && searched === true;
	// An unfinished phase 2 or 3: the next poll reads in full.
	const fullReadAt = !located ? 0 : inFlight.fullRead ? started : (current?.fullReadAt ?? started);
	const { list, edge, tracked } = ledger;
	const { pageSize } = session;
	// An empty list at activation: nothing is accounted for, every video to come is new.
	const horizon = Math.max(0, ledger.horizon);
	const state: TriggerState = { version: 2, ...list, horizon, edge, tracked, fullReadAt, pageSize };
	if (Number.isFinite(session.ahead)) state.ahead = session.ahead;
	state.lag = ledger.lag;
	const time = (event: VideoEvent) => Date.parse(String(event.video.created_at));
	const events = ledger.events.sort((left, right) => time(left) - time(right));
	return { events, state, lost: ledger.lost, outOfTime: !located, late: ledger.late };
}
