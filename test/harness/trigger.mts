/**
 * One workflow's trigger against the sandbox, through n8n's engine (a real PollContext), for the
 * trigger's engine tests: what it emitted, the requests each poll sent, and its static data, kept
 * between polls as n8n keeps it (in memory, round-tripped through JSON) and saved as n8n's default
 * scheduler saves it (at activation and after a poll that emitted), for `restart()`.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox/index.mts';
import { capturedLogs, pollTrigger } from './engine.mts';

const MINUTE = 60_000;

/** The trigger's warning about videos listed late, as n8n's log shows it (and a user searches for it). */
const LATE_WARNING =
	/^warn: Video Personalization Trigger: (\d+) video\(s\) appeared in the list later than the trigger waited for them/;

/** How many videos n8n's log reported listed later than the trigger waited, since `capturedLogs` was last emptied. */
export function reportedLate(): number {
	return capturedLogs
		.map((line) => LATE_WARNING.exec(line))
		.reduce((sum, match) => sum + Number(match?.[1] ?? 0), 0);
}

export interface Emitted {
	id: string;
	event: string;
	status: string;
}

/** How a test names an event: the video's id (the default), or with `byStatus` its id and final status. */
export const byId = (event: Emitted): string => event.id;
export const byStatus = (event: Emitted): string => `${event.id}:${event.status}`;

export class SandboxTrigger {
	staticData: IDataObject = {};

	/** The static data as n8n's default scheduler last saved it (JSON). */
	saved = '{}';

	readonly emitted: Emitted[] = [];

	readonly requestsPerPoll: number[] = [];

	constructor(
		private readonly sandbox: Sandbox,
		private readonly events: string[] = ['published', 'failed'],
	) {}

	/** One poll (a manual one is "Fetch Test Event"): what the node returned. */
	async poll(
		options: { mode?: 'trigger' | 'manual'; pollBudgetMs?: number } = {},
	): Promise<INodeExecutionData[][] | null> {
		const before = this.sandbox.requests.count({ server: 'api' });
		// A poll that overlaps this one shares the same object, as n8n's do.
		const staticData = this.staticData;
		try {
			const result = await pollTrigger({
				parameters: { events: this.events },
				credentials: { apiKey: this.sandbox.keys.user, baseUrl: this.sandbox.baseUrl },
				staticData,
				...options,
			});
			const items = result?.[0] ?? [];
			for (const { json } of items)
				this.emitted.push({
					id: String(json.id),
					event: String(json.event),
					status: String(json.status),
				});
			if (options.mode !== 'manual' && (items.length > 0 || this.saved === '{}'))
				this.saved = JSON.stringify(staticData);
			return result;
		} finally {
			this.requestsPerPoll.push(this.sandbox.requests.count({ server: 'api' }) - before);
			this.staticData = JSON.parse(JSON.stringify(staticData)) as IDataObject;
		}
	}

	/** The process restarts: what was in memory is gone, what n8n saved comes back. */
	restart(): void {
		this.staticData = JSON.parse(this.saved) as IDataObject;
	}

	/** Polls a minute apart until two in a row emit nothing. */
	async settle(): Promise<void> {
		for (let quiet = 0, poll = 0; quiet < 2 && poll < 20; poll++) {
			this.sandbox.clock.advance(MINUTE);
			quiet = (await this.poll()) === null ? quiet + 1 : 0;
		}
	}

	/** How many times each event was emitted, named by `key`. */
	counts(key = byId): Map<string, number> {
		const counts = new Map<string, number>();
		for (const event of this.emitted) counts.set(key(event), (counts.get(key(event)) ?? 0) + 1);
		return counts;
	}

	/** Each of `expected` emitted exactly once: those emitted more than once, and those never emitted. */
	verdict(expected: string[], key = byId): { repeated: string[]; missed: string[] } {
		const counts = this.counts(key);
		return {
			repeated: [...counts].filter(([, count]) => count > 1).map(([name]) => name),
			missed: expected.filter((name) => !counts.has(name)),
		};
	}
}
