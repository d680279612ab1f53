import type { IDataObject } from 'n8n-workflow';

import { holdsLease, releaseLease, takeLease } from './lease';
import { pageSizeFor, type PollOutcome, runPoll } from './poll';
import { type PageSource, PollSession } from './session';
import { readState, writeState } from './state';

export interface PollRequest {
	/** The trigger: workflow id and node id. */
	key: string;
	staticData: IDataObject;
	source: PageSource;
	now: () => number;
	/** How long the poll may read; it then commits what it has. */
	budgetMs: number;
	/** How long the lease holds past the budget, for requests already sent. */
	leaseMarginMs: number;
}

export type PollRun =
	| { status: 'done'; outcome: PollOutcome; requests: number }
	/** Another poll of this trigger is running: nothing read, nothing emitted. */
	| { status: 'busy' }
	/** This poll outlived its lease and another took over: nothing committed. */
	| { status: 'superseded' };

/** One poll under the lease; the state is written together with the events it returns, or not at all. */
export async function pollOnce(request: PollRequest): Promise<PollRun> {
	const started = request.now();
	const token = takeLease(request.key, started, started + request.budgetMs + request.leaseMarginMs);
	if (!token) return { status: 'busy' };
	try {
		const previous = readState(request.staticData);
		const session = new PollSession(
			request.source,
			started + request.budgetMs,
			request.now,
			pageSizeFor(previous),
		);
		const outcome = await runPoll(session, previous, request.now);
		if (!holdsLease(request.key, token)) return { status: 'superseded' };
		if (outcome.state) writeState(request.staticData, outcome.state);
		return { status: 'done', outcome, requests: session.requests };
	} finally {
		releaseLease(request.key, token);
	}
}
