import type { IDataObject } from 'n8n-workflow';

import { isCount } from '../helpers/answers';
import type { ListOrder } from '../helpers/videoList';

/** A video the trigger owes an event for: it was seen in draft or processing and not yet seen finished. */
export interface TrackedVideo {
	status: string;
	/** created_at in ms: where to look for the video in the list. */
	createdAt: number;
	/** Its rank in the list when last seen, if known: where to look first. */
	rank?: number;
	/** Polls in a row whose search showed it missing (deleted after 3). */
	misses?: number;
}

/**
 * What the trigger remembers between polls (docs/architecture.md). Bounded by the videos in flight
 * and the videos of the newest second or so, never by the account's size.
 */
export interface TriggerState {
	version: 2;
	order: ListOrder;
	/** Every video created before this time (ms) is accounted for. */
	horizon: number;
	/** The accounted videos created at or after `horizon`: id -> created_at (ms). */
	edge: Record<string, number>;
	tracked: Record<string, TrackedVideo>;
	/** When the in-flight lists were last read in full (ms): they are read again at least every 10 minutes. */
	fullReadAt: number;
	/** List total and page size at the last poll, and how many videos are older than the horizon. */
	total: number;
	below: number;
	pageSize: number;
	/**
	 * How far the service's clock is at least ahead of the local one (ms), from every created_at
	 * read: with it the horizon trails the service's time (LAG_MS). Absent in states written before it was kept
	 * and before the first video is read: the next poll's own reads give it.
	 */
	ahead?: number;
	/** The listing lag allowed (ms; LAG_MS at first, more once the list showed videos later). */
	lag?: number;
}

/** A state from version 0.1.0: ranks below `covered` accounted for, `pending` in flight. */
export interface StateV1 {
	version: 1;
	order: ListOrder;
	covered: number;
	tracked: Record<string, TrackedVideo>;
}

const STATE_KEY = 'videoTrigger';

const isOrder = (value: unknown): value is ListOrder =>
	value === 'newest-first' || value === 'oldest-first' || value === 'unknown';
// Number.isFinite is false for anything but a finite number (it does not convert).
const isTime = (value: unknown): value is number => Number.isFinite(value);
const isRecord = (value: unknown): value is IDataObject =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

function readTracked(raw: unknown, version: 1 | 2): Record<string, TrackedVideo> | undefined {
	if (!isRecord(raw)) return undefined;
	const tracked: Record<string, TrackedVideo> = {};
	for (const [id, entry] of Object.entries(raw)) {
		if (!isRecord(entry) || typeof entry.status !== 'string') return undefined;
		const at = version === 2 ? entry.createdAt : Date.parse(String(entry.createdAt));
		const video: TrackedVideo = { status: entry.status, createdAt: isTime(at) ? at : Number.NaN };
		if (isCount(entry.rank)) video.rank = entry.rank;
		if (isCount(entry.misses) && entry.misses > 0) video.misses = entry.misses;
		tracked[id] = video;
	}
	return tracked;
}

/** The checks of a version 2 state's fields besides `order` and `tracked`. */
const FIELDS: Record<string, (value: unknown) => boolean> = {
	horizon: isTime,
	edge: (edge) => isRecord(edge) && Object.values(edge).every(isTime),
	fullReadAt: isTime,
	total: isCount,
	below: isCount,
	pageSize: (size) => isCount(size) && size > 0,
};

/** The state kept in static data: undefined before activation (or if it is unreadable, which re-activates). */
export function readState(staticData: IDataObject): TriggerState | StateV1 | undefined {
	const raw = staticData[STATE_KEY];
	if (!isRecord(raw) || !isOrder(raw.order)) return undefined;
	const { version, order } = raw;
	const tracked = readTracked(version === 1 ? raw.pending : raw.tracked, version === 1 ? 1 : 2);
	if (!tracked) return undefined;
	if (version === 1)
		return isCount(raw.covered) ? { version, order, covered: raw.covered, tracked } : undefined;
	if (version !== 2 || !Object.entries(FIELDS).every(([key, valid]) => valid(raw[key])))
		return undefined;
	const fields = Object.fromEntries(Object.keys(FIELDS).map((key) => [key, raw[key]]));
	// Kept only when readable: a state written before one was kept has none.
	for (const key of ['ahead', 'lag']) if (isTime(raw[key])) fields[key] = raw[key];
	return { ...fields, version, order, tracked } as TriggerState;
}

/** Written once, when a poll commits: a poll that fails or is superseded leaves the old state. */
export function writeState(staticData: IDataObject, state: TriggerState): void {
	staticData[STATE_KEY] = JSON.parse(JSON.stringify(state)) as IDataObject;
}
