// What the queue-mode test and benchmark do with a running n8n: read executions (n8n stores their
// data flattened with `flatted`), wait for them, call production webhooks.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type N8nApi, type Paths, sleep } from '../../scripts/lib/n8n.mjs';
import { QueueCluster } from '../../scripts/lib/queue.mjs';

export type Json = Record<string, unknown>;
export interface Item {
	json: Json;
	binary?: Record<string, { id?: string; mimeType?: string; fileName?: string; fileSize?: string }>;
}
export interface NodeRun {
	executionStatus?: string;
	error?: { message?: string };
	data?: { main?: Array<Item[] | null> };
}
export interface RunData {
	resultData: { runData: Record<string, NodeRun[]>; error?: { message?: string } };
}
export interface Execution {
	id: string;
	status: string;
	mode: string;
	data: RunData;
}
export interface ExecutionSummary {
	id: string;
	status: string;
	mode: string;
	startedAt?: string | null;
	stoppedAt?: string | null;
}

/** Statuses after which an execution does not change any more. */
export const FINAL = new Set(['success', 'error', 'crashed', 'canceled']);

type Flatted = { parse(text: string): unknown };
let flatted: Flatted | undefined;

/** n8n's own copy of flatted, which wrote the execution data. */
function parser(paths: Paths): Flatted {
	flatted ??= createRequire(join(paths.n8nDir, 'node_modules', 'n8n', 'package.json'))(
		'flatted',
	) as Flatted;
	return flatted;
}

export async function getExecution(api: N8nApi, paths: Paths, id: string): Promise<Execution> {
	const raw = (await api.request('GET', `/executions/${id}`)) as {
		id: string;
		status: string;
		mode: string;
		data: string;
	};
	return {
		id: raw.id,
		status: raw.status,
		mode: raw.mode,
		data: parser(paths).parse(raw.data) as RunData,
	};
}

/** Every execution of a workflow, newest first (the API gives at most 100 per page). */
export async function listExecutions(api: N8nApi, workflowId: string): Promise<ExecutionSummary[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const all: ExecutionSummary[] = [];
	for (;;) {
		const lastId = all.length ? `&lastId=${all[all.length - 1].id}` : '';
		const page =
			(
				(await api.request('GET', `/executions?filter=${filter}&limit=100${lastId}`)) as {
					results?: ExecutionSummary[];
				}
			).results ?? [];
		all.push(...page);
		if (page.length < 100) return all;
	}
}

/** Waits until an execution has finished (or is waiting, if `orWaiting`), then reads it whole. */
export async function waitForExecution(
	api: N8nApi,
	paths: Paths,
	id: string,
	{ timeoutMs = 120_000, orWaiting = false } = {},
): Promise<Execution> {
	await QueueCluster.until(
		async () => {
			const { status } = (await api.request('GET', `/executions/${id}`)) as { status: string };
			return FINAL.has(status) || (orWaiting && status === 'waiting');
		},
		{ timeoutMs, everyMs: 500, what: `execution ${id} to ${orWaiting ? 'wait or ' : ''}finish` },
	);
	return await getExecution(api, paths, id);
}

/** "Execute workflow" from a trigger, as the editor does (offloaded to a worker by queue-mode.env). */
export async function runManually(
	api: N8nApi,
	workflowId: string,
	trigger: string,
): Promise<string> {
	const result = (await api.request('POST', `/workflows/${workflowId}/run`, {
		triggerToStartFrom: { name: trigger },
	})) as { executionId?: string };
	if (!result.executionId) throw new Error(`no execution started: ${JSON.stringify(result)}`);
	return result.executionId;
}

/**
 * POSTs to a production webhook, retrying while n8n has not registered it yet (publishing is
 * asynchronous). Gives up on an answer after `timeoutMs`.
 */
export async function callWebhook(
	mainUrl: string,
	path: string,
	body: unknown,
	timeoutMs = 150_000,
): Promise<Response> {
	const deadline = Date.now() + 30_000;
	for (;;) {
		const res = await fetch(`${mainUrl}/webhook/${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
			signal: AbortSignal.timeout(timeoutMs),
		});
		if (res.status !== 404 || Date.now() > deadline) return res;
		await res.arrayBuffer();
		await sleep(250);
	}
}

/** The batch the queue-mode example's webhook takes: `count` customers tagged `tag`, in calls of `perCall`. */
export function customerBatches(
	tag: string,
	count: number,
	perCall: number,
): Array<Array<Record<string, string>>> {
	return Array.from({ length: Math.ceil(count / perCall) }, (_, call) =>
		Array.from({ length: Math.min(perCall, count - call * perCall) }, (_, index) => {
			const n = call * perCall + index + 1;
			return {
				customer_id: `${tag}-${n}`,
				first_name: `Customer${n}`,
				last_name: 'Queue',
				company: `Company ${n}`,
				plan: 'Pro',
				renewal_date: '2026-12-01',
			};
		}),
	);
}
