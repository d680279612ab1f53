import type { IDataObject } from 'n8n-workflow';

import type { ListOrder } from '../helpers/videoList';

/** A video seen in draft or processing, and where it sits in the full list. */
export interface PendingVideo {
	/** Index from the oldest end of the unfiltered list; stable while videos are not deleted. */
	rank: number | null;
	status: string;
	createdAt: string;
}

/**
 * What the trigger remembers between polls. Bounded by the number of videos in flight, not by
 * the size of the account: finished videos are forgotten once their event is out.
 */
export interface TriggerState {
	version: 1;
	order: ListOrder;
	/** Videos in the unfiltered list whose creation has been accounted for (ranks below it). */
	covered: number;
	pending: Record<string, PendingVideo>;
}

export function emptyState(): TriggerState {
	return { version: 1, order: 'unknown', covered: 0, pending: {} };
}

function isPendingVideo(value: unknown): value is PendingVideo {
	if (value === null || typeof value !== 'object') return false;
	const entry = value as IDataObject;
	return (
		(entry.rank === null || (typeof entry.rank === 'number' && Number.isInteger(entry.rank) && entry.rank >= 0)) &&
		typeof entry.status === 'string' &&
		typeof entry.createdAt === 'string'
	);
}

/** The state kept in static data, or undefined when there is none yet (first poll). */
export function readState(staticData: IDataObject): TriggerState | undefined {
	const raw = staticData.videoTrigger as IDataObject | undefined;
	if (!raw || raw.version !== 1) return undefined;
	const order = raw.order;
	const pending = raw.pending;
	if (
		(order !== 'newest-first' && order !== 'oldest-first' && order !== 'unknown') ||
		typeof raw.covered !== 'number' ||
		!Number.isInteger(raw.covered) ||
		raw.covered < 0 ||
		pending === null ||
		typeof pending !== 'object' ||
		Array.isArray(pending)
	) {
		return undefined;
	}
	const entries = Object.entries(pending as IDataObject).filter(([, entry]) => isPendingVideo(entry));
	return {
		version: 1,
		order,
		covered: raw.covered,
		pending: Object.fromEntries(entries) as Record<string, PendingVideo>,
	};
}

/** Written once, at the end of a poll that succeeded: a failed poll leaves the old state. */
export function writeState(staticData: IDataObject, state: TriggerState): void {
	staticData.videoTrigger = JSON.parse(JSON.stringify(state)) as IDataObject;
}
