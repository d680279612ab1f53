// The rate-limit benchmark's minimal client: plain fetch (undici, keep-alive) from Node, one
// dispatcher sending at the times the shared Pacer allows, at most `concurrency` requests in
// flight (the node's own), a 429 puts its task back at the head of the queue.
import { Pacer } from './pacer.mts';

export interface PacedOutcome {
	/** Tasks that ended in a 2xx. */
	ok: number;
	/** Tasks that ended in another status or a network error (not retried). */
	failed: number;
	firstError?: string;
	stats: Pacer['stats'];
	/** The pace it ended at (requests per second), for the report. */
	pace?: number;
}

export interface Attempt {
	status: number;
	headers: Record<string, string | undefined>;
}

/**
 * Runs `count` tasks through the pacer. `send(index)` makes one HTTP request for task `index`
 * and says how it was answered; `deadline` (performance.now() ms) stops the run.
 */
export async function runPaced(
	count: number,
	pacer: Pacer,
	send: (index: number) => Promise<Attempt>,
	deadline = Infinity,
): Promise<PacedOutcome & { timedOut: boolean }> {
	const queue = Array.from({ length: count }, (_, index) => index);
	let ok = 0;
	let failed = 0;
	let firstError: string | undefined;
	let wake: (() => void) | undefined;
	/** Until the next answer or `ms`, whichever comes first; the timer does not outlive the wait. */
	const answerOrTimeout = async (ms: number) => {
		let timer: NodeJS.Timeout | undefined;
		await new Promise<void>((resolve) => {
			wake = resolve;
			if (Number.isFinite(ms)) timer = setTimeout(resolve, Math.max(0, ms));
		});
		clearTimeout(timer);
	};
	while (ok + failed < count) {
		const now = performance.now();
		if (now > deadline) break;
		const at = queue.length ? pacer.nextSendAt(now) : undefined;
		// An answer may arrive meanwhile (a 429 moves the time): look again after either.
		if (at === undefined) {
			await answerOrTimeout(deadline - now);
			continue;
		}
		if (at - now > 0.5) {
			await answerOrTimeout(Math.min(at, deadline) - now);
			continue;
		}
		const index = queue.shift() as number;
		const sentAt = performance.now();
		pacer.onSent(sentAt);
		void send(index)
			.then(
				(attempt) => {
					pacer.onAnswer(performance.now(), sentAt, attempt);
					if (attempt.status === 429) queue.unshift(index);
					else if (attempt.status >= 200 && attempt.status < 300) ok++;
					else {
						failed++;
						firstError ??= `task ${index}: HTTP ${attempt.status}`;
					}
				},
				(error: unknown) => {
					pacer.onAnswer(performance.now(), sentAt, { status: 0, headers: {} });
					failed++;
					firstError ??= `task ${index}: ${error instanceof Error ? error.message : String(error)}`;
				},
			)
			.finally(() => wake?.());
	}
	return {
		ok,
		failed,
		firstError,
		stats: pacer.stats,
		pace: pacer.pace,
		timedOut: ok + failed < count,
	};
}

function headersOf(response: Response): Record<string, string | undefined> {
	return Object.fromEntries(response.headers);
}

export interface PacedTarget {
	baseUrl: string;
	apiKey: string;
	concurrency: number;
	useHeaders: boolean;
	deadline: number;
}

/** Create `count` videos titled `${titlePrefix}${index}`. */
export async function pacedCreate(
	target: PacedTarget,
	count: number,
	titlePrefix: string,
	templateId: string,
): Promise<PacedOutcome & { timedOut: boolean }> {
	const headers = {
		authorization: `Bearer ${target.apiKey}`,
		'content-type': 'application/json',
		accept: 'application/json',
	};
	return await runPaced(
		count,
		new Pacer({ useHeaders: target.useHeaders, concurrency: target.concurrency }),
		async (index) => {
			const body = JSON.stringify({
				title: `${titlePrefix}${index}`,
				template_id: templateId,
				customer_data: { first_name: `Customer ${index}` },
			});
			const response = await fetch(`${target.baseUrl}/videos`, { method: 'POST', headers, body });
			await response.arrayBuffer();
			return { status: response.status, headers: headersOf(response) };
		},
		target.deadline,
	);
}

interface Envelope {
	data: Array<{ id: string }>;
	pagination: { total: number };
}

/** Every asset: page 1 (alone: it gives the total), then the other pages through the pacer. */
export async function pacedReturnAll(
	target: PacedTarget,
	pageSize: number,
): Promise<PacedOutcome & { timedOut: boolean; ids: string[]; requests: number }> {
	const headers = { authorization: `Bearer ${target.apiKey}`, accept: 'application/json' };
	const pages = new Map<number, Envelope>();
	let requests = 0;
	const get = async (page: number): Promise<Attempt> => {
		requests++;
		const response = await fetch(`${target.baseUrl}/assets?page=${page}&limit=${pageSize}`, {
			headers,
		});
		if (response.ok) pages.set(page, (await response.json()) as Envelope);
		else await response.arrayBuffer();
		return { status: response.status, headers: headersOf(response) };
	};
	// One pacer for all pages: what page 1's answer teaches applies to the others.
	const pacer = new Pacer({ useHeaders: target.useHeaders, concurrency: target.concurrency });
	const first = await runPaced(1, pacer, () => get(1), target.deadline);
	const total = pages.get(1)?.pagination.total;
	if (total === undefined) return { ...first, ids: [], requests };
	const rest = await runPaced(
		Math.ceil(total / pageSize) - 1,
		pacer,
		(index) => get(index + 2),
		target.deadline,
	);
	const ids = [...pages.entries()]
		.sort(([a], [b]) => a - b)
		.flatMap(([, page]) => page.data.map((asset) => asset.id));
	return {
		ok: first.ok + rest.ok,
		failed: first.failed + rest.failed,
		firstError: first.firstError ?? rest.firstError,
		stats: rest.stats,
		pace: rest.pace,
		timedOut: first.timedOut || rest.timedOut,
		ids,
		requests,
	};
}
