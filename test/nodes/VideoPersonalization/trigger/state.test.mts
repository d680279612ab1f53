/** The trigger's memory between polls, kept in n8n's static data (saved as JSON). */
import type { IDataObject } from 'n8n-workflow';

import { emptyState, readState, type TriggerState, writeState } from '../../../../nodes/VideoPersonalization/trigger/state.ts';

/** What n8n gives back on the next poll: the static data after being saved and loaded. */
const saved = (staticData: IDataObject): IDataObject => JSON.parse(JSON.stringify(staticData)) as IDataObject;

const busy: TriggerState = {
	version: 1,
	order: 'newest-first',
	covered: 42,
	pending: {
		vid_a: { rank: 40, status: 'processing', createdAt: '2024-03-01T10:00:00Z' },
		vid_b: { rank: null, status: 'draft', createdAt: '' },
		vid_c: { rank: 0, status: 'processing', createdAt: '2024-01-01T00:00:00Z' },
	},
};

/** A state as it would sit in static data, with one part changed. */
function stored(change: IDataObject): IDataObject {
	return { videoTrigger: { ...(JSON.parse(JSON.stringify(busy)) as IDataObject), ...change } };
}

describe('readState accepts what writeState wrote', () => {
	it.each([
		['the empty state', emptyState()],
		['a state with pending videos', busy],
		['an oldest-first state', { ...busy, order: 'oldest-first' as const, pending: {} }],
		['an unknown-order state', { ...busy, order: 'unknown' as const, covered: 0 }],
	])('%s, after a JSON round trip', (_case, state) => {
		const staticData: IDataObject = {};
		writeState(staticData, state);
		expect(readState(saved(staticData))).toEqual(state);
		expect(readState(staticData)).toEqual(state);
	});

	it('the empty state is version 1, unknown order, nothing covered or pending', () => {
		expect(emptyState()).toEqual({ version: 1, order: 'unknown', covered: 0, pending: {} });
		expect(emptyState()).not.toBe(emptyState());
		expect(emptyState().pending).not.toBe(emptyState().pending);
	});

	it('writing again replaces the state and leaves other static data alone', () => {
		const staticData: IDataObject = { other: { kept: true } };
		writeState(staticData, busy);
		writeState(staticData, emptyState());
		expect(readState(saved(staticData))).toEqual(emptyState());
		expect(staticData.other).toEqual({ kept: true });
	});
});

describe('writeState stores a copy', () => {
	it('changing the state afterwards does not change static data', () => {
		const state: TriggerState = JSON.parse(JSON.stringify(busy)) as TriggerState;
		const staticData: IDataObject = {};
		writeState(staticData, state);
		state.covered = 99;
		state.order = 'oldest-first';
		state.pending.vid_a.status = 'published';
		state.pending.vid_a.rank = 7;
		delete state.pending.vid_b;
		state.pending.vid_new = { rank: 43, status: 'draft', createdAt: '2024-04-01T00:00:00Z' };
		expect(readState(staticData)).toEqual(busy);
	});

	it('changing the state read does not add or remove anything in static data', () => {
		const staticData: IDataObject = {};
		writeState(staticData, busy);
		const state = readState(staticData) as TriggerState;
		state.covered = 1;
		state.order = 'oldest-first';
		delete state.pending.vid_a;
		state.pending.vid_new = { rank: 43, status: 'draft', createdAt: '' };
		expect(readState(staticData)).toEqual(busy);
	});
});

describe('readState: nothing usable', () => {
	it.each([
		['no state yet', {}],
		['null', { videoTrigger: null }],
		['a string', { videoTrigger: 'state' }],
		['a number', { videoTrigger: 1 }],
		['an array', { videoTrigger: [busy] }],
		['an empty object', { videoTrigger: {} }],
	] as Array<[string, IDataObject]>)('%s', (_case, staticData) => {
		expect(readState(staticData)).toBeUndefined();
	});

	it.each([
		['version 2', { version: 2 }],
		['version 0', { version: 0 }],
		['version "1"', { version: '1' }],
		['no version', { version: undefined }],
		['order sideways', { order: 'sideways' }],
		['order missing', { order: undefined }],
		['order null', { order: null }],
		['covered as text', { covered: '42' }],
		['covered null', { covered: null }],
		['covered missing', { covered: undefined }],
		['covered negative', { covered: -1 }],
		['covered fractional', { covered: 2.5 }],
		['pending null', { pending: null }],
		['pending missing', { pending: undefined }],
		['pending a string', { pending: 'vid_a' }],
		['pending a list', { pending: [busy.pending.vid_a] }],
	] as Array<[string, IDataObject]>)('%s', (_case, change) => {
		expect(readState(saved(stored(change)))).toBeUndefined();
	});
});

describe('readState drops malformed pending entries and keeps the rest', () => {
	it.each([
		['rank negative', { rank: -1, status: 'draft', createdAt: '' }],
		['rank fractional', { rank: 1.5, status: 'draft', createdAt: '' }],
		['rank as text', { rank: '3', status: 'draft', createdAt: '' }],
		['rank missing', { status: 'draft', createdAt: '' }],
		['status missing', { rank: 1, createdAt: '' }],
		['status a number', { rank: 1, status: 2, createdAt: '' }],
		['createdAt missing', { rank: 1, status: 'draft' }],
		['createdAt a number', { rank: 1, status: 'draft', createdAt: 1709287200000 }],
		['null', null],
		['a string', 'processing'],
		['a number', 5],
	])('%s', (_case, entry) => {
		const staticData = stored({ pending: { ...busy.pending, vid_bad: entry } });
		expect(readState(saved(staticData))).toEqual(busy);
	});

	it('a state whose entries are all malformed has nothing pending', () => {
		const staticData = stored({ pending: { x: null, y: { rank: -5, status: 'draft', createdAt: '' } } });
		expect(readState(saved(staticData))).toEqual({ ...busy, pending: {} });
	});
});
