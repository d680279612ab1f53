/** The trigger's memory between polls, kept in n8n's static data (saved as JSON). */
import type { IDataObject } from 'n8n-workflow';

import {
	LAG_MS,
	Ledger,
	MAX_LAG_MS,
} from '../../../../nodes/VideoPersonalization/trigger/ledger.ts';
import {
	readState,
	type TriggerState,
	writeState,
} from '../../../../nodes/VideoPersonalization/trigger/state.ts';
import {
	type PageSource,
	PollSession,
} from '../../../../nodes/VideoPersonalization/trigger/session.ts';
import {
	holdsLease,
	releaseLease,
	takeLease,
} from '../../../../nodes/VideoPersonalization/trigger/lease.ts';

/** What n8n gives back on the next poll: the static data after being saved and loaded. */
const saved = (staticData: IDataObject): IDataObject =>
	JSON.parse(JSON.stringify(staticData)) as IDataObject;

const busy: TriggerState = {
	version: 2,
	order: 'newest-first',
	horizon: Date.UTC(2026, 10, 23, 9, 0, 0),
	edge: { vid_new: Date.UTC(2026, 10, 23, 9, 0, 0) },
	tracked: {
		vid_a: { status: 'processing', createdAt: Date.UTC(2026, 10, 23, 8, 0, 0), rank: 40 },
		vid_b: { status: 'draft', createdAt: Date.UTC(2026, 10, 22), misses: 2 },
	},
	fullReadAt: Date.UTC(2026, 10, 23, 9, 1, 0),
	total: 42,
	below: 41,
	pageSize: 100,
	ahead: -3_600_000,
	lag: 130_000,
};

describe('the trigger state', () => {
	it('reads back what it wrote, after a JSON round trip, and leaves other static data alone', () => {
		const staticData: IDataObject = { other: { kept: true } };
		writeState(staticData, busy);
		expect(readState(saved(staticData))).toEqual(busy);
		expect(staticData.other).toEqual({ kept: true });
	});

	it('carries over a state from version 0.1.0: its pending videos become tracked', () => {
		const legacy = {
			videoTrigger: {
				version: 1,
				order: 'oldest-first',
				covered: 12,
				pending: {
					vid_a: { rank: 3, status: 'processing', createdAt: '2026-11-20T10:00:00Z' },
					vid_b: { rank: null, status: 'draft', createdAt: '' },
				},
			},
		};
		const state = readState(legacy);
		expect(state).toEqual({
			version: 1,
			order: 'oldest-first',
			covered: 12,
			tracked: {
				vid_a: { status: 'processing', createdAt: Date.parse('2026-11-20T10:00:00Z'), rank: 3 },
				vid_b: { status: 'draft', createdAt: Number.NaN },
			},
		});
	});

	it('loads a state written before `ahead` was kept (issue 28) without it: the poll reads it again', () => {
		const before: TriggerState = { ...busy };
		delete before.ahead;
		expect(readState(saved({ videoTrigger: before }))).toEqual(before);
		const unreadable = readState(saved({ videoTrigger: { ...busy, ahead: 'soon' } }));
		expect(unreadable).toEqual(before);
	});

	it('loads a state written before `lag` was kept without it: LAG_MS, and its rank is not compared', () => {
		const before: TriggerState = { ...busy };
		delete before.lag;
		expect(readState(saved({ videoTrigger: before }))).toEqual(before);
		// Its `below` may be approximate (older code kept a lower bound): a rise proves nothing yet.
		const old = new Ledger(before);
		old.appearedBelow(5);
		expect({ late: old.late, lag: old.lag }).toEqual({ late: 0, lag: LAG_MS });
		const kept = new Ledger(busy);
		kept.appearedBelow(5);
		kept.appearedBelow(0);
		expect({ late: kept.late, lag: kept.lag }).toEqual({ late: 5, lag: 260_000 });
	});

	it('lets the lag allowed follow a late listing seen, to twice it, never beyond MAX_LAG_MS', () => {
		const ledger = new Ledger(busy);
		const newest = busy.edge.vid_new;
		const video = (id: string, lateMs: number) => ({
			id,
			status: 'published',
			created_at: new Date(newest - lateMs).toISOString(),
		});
		ledger.newcomer(video('vid_1', 50_000), undefined); // within half the lag allowed: unchanged
		expect(ledger.lag).toBe(130_000);
		ledger.newcomer(video('vid_2', 100_000), undefined);
		expect(ledger.lag).toBe(200_000);
		ledger.newcomer(video('vid_3', 3_600_000), undefined);
		expect(ledger.lag).toBe(MAX_LAG_MS);
		for (let count = 0; count < 3; count++) ledger.appearedBelow(1);
		expect({ lag: ledger.lag, late: ledger.late }).toEqual({ lag: MAX_LAG_MS, late: 3 });
	});

	it('learns how far the service is ahead from the created_at read, never from the local clock', async () => {
		let local = Date.UTC(2026, 10, 23, 12, 0, 0);
		const at = (ms: number) => new Date(ms).toISOString();
		// The service's clock is an hour behind the local one; its newest video is 5 s old.
		const service = local - 3_600_000;
		const source: PageSource = {
			page: async () => {
				local += 200;
				return {
					items: [
						{ id: 'a', created_at: at(service - 5000) },
						{ id: 'b', created_at: 'x' },
					],
					total: 2,
					page: 1,
					limit: 100,
					nextPage: null,
				};
			},
		};
		const session = new PollSession(source, Number.POSITIVE_INFINITY, () => local, 100);
		expect(session.floor).toBe(Number.NEGATIVE_INFINITY);
		await session.read(1);
		expect(session.ahead).toBe(service - 5000 - local);
		const next = new PollSession(source, Number.POSITIVE_INFINITY, () => local, 100, session.ahead);
		expect(next.floor).toBe(service - 5000);
		expect(next.floor).toBeLessThan(service + 200);
	});

	it.each([
		['nothing yet', {}],
		['an unknown version', { videoTrigger: { ...busy, version: 3 } }],
		['a horizon that is not a time', { videoTrigger: { ...busy, horizon: 'yesterday' } }],
		[
			'a tracked entry without a status',
			{ videoTrigger: { ...busy, tracked: { vid_a: { createdAt: 1 } } } },
		],
		['an edge entry that is not a time', { videoTrigger: { ...busy, edge: { vid_a: '1' } } }],
		['a page size of 0', { videoTrigger: { ...busy, pageSize: 0 } }],
	])('is undefined (the trigger activates again) for %s', (_case, staticData) => {
		expect(readState(saved(staticData as IDataObject))).toBeUndefined();
	});
});

describe('the lease: one poll at a time per trigger', () => {
	it('refuses a second poll while the first holds it, and frees it on release or expiry', () => {
		const first = takeLease('wf:node', 1000, 5000);
		expect(first).toBeDefined();
		expect(takeLease('wf:node', 2000, 6000)).toBeUndefined();
		expect(takeLease('wf:other', 2000, 6000)).toBeDefined();
		const takeover = takeLease('wf:node', 5000, 9000);
		expect(takeover).toBeDefined();
		expect(holdsLease('wf:node', first as symbol)).toBe(false);
		releaseLease('wf:node', first as symbol);
		expect(holdsLease('wf:node', takeover as symbol)).toBe(true);
		releaseLease('wf:node', takeover as symbol);
		expect(takeLease('wf:node', 5001, 9000)).toBeDefined();
	});
});
