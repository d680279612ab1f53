import type { IDataObject, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ApiContext, ApiResponse, CallOptions, Failure, ServiceRequest } from './call';
import { parseServiceConfig, type ServiceConfig } from './config';
import { toNodeApiError } from './errors';
import { gateFor, type KeyGate } from './gate';
import { asObject } from './received';
import { cancelSignal, pause, type Sending, sendWithRetries } from './request';

export type { CallOptions, RestRequest } from './call';

export const CREDENTIAL_TYPE = 'videoPersonalizationApi';

export const DEFAULT_TIMEOUT_MS = 60_000;
/** How long one call may take in all, its retries and rate-limit waits included, unless told otherwise. */
export const DEFAULT_BUDGET_MS = 5 * 60_000;

/** The time budget that sets a call's deadline unless the caller gives one: the item's option, and its name for messages. */
export type BudgetSource = { budgetMs(itemIndex: number | undefined): number; setting?: string };

/** Why no request may be sent (the credential could not be read, or its addresses are refused), as an item's error. */
type CredentialProblem = (itemIndex: number | undefined) => NodeOperationError;

/**
 * Lookups shared by every execution on one API key while fresh (a template found by name), kept
 * by the key's gate object but not in it: the gate paces requests, this spares them. Dropped
 * with the gate.
 */
const freshByKey = new WeakMap<KeyGate, Map<string, { until: number; value: Promise<unknown> }>>();

/**
 * The service as one execution sees it: the credential read once, the API key that every error
 * is cleaned of, the memos the items share, and `send`, the one door every request passes.
 */
export class ServiceClient {
	/** Page sizes the lists were served at, by list, for the rest of the execution (pagination.ts). */
	readonly pageSizes = new Map<string, number>();

	private readonly lookups = new Map<string, Promise<unknown>>();

	/** The hosts that answered in this execution (request.ts: a refused connection elsewhere is retried once). */
	private readonly answered = new Set<string>();

	/**
	 * The API key's gate, shared with every execution and poll of this n8n process that uses the
	 * key: items, pages, checks on renders, pickers. Downloads (sent without the key) skip it.
	 */
	readonly gate: KeyGate | undefined;

	/** The time budget of each call; the node's operations set it from their Give Up After option. */
	budget: BudgetSource = { budgetMs: () => DEFAULT_BUDGET_MS };

	constructor(
		readonly ctx: ApiContext,
		private readonly service: ServiceConfig | CredentialProblem,
		private readonly secrets: string[],
	) {
		if (typeof service !== 'function') this.gate = gateFor(service.baseUrl, secrets[0] ?? '');
	}

	/** This execution will send about `requests` more: a long run may spend more 429s learning the rate. */
	willSend(requests: number): void {
		this.gate?.pacer.willSend(requests);
	}

	/**
	 * Sends one request, retried as its kind allows. Every request of the execution passes here;
	 * those sent with the key wait their turn at the key's gate, so a 429 paces all of them. Each
	 * call has one time limit, its deadline, for all its attempts and waits: the caller's, or the
	 * item's time budget from now. The key goes only to the configured service addresses, and
	 * never along a redirect.
	 */
	async send(request: ServiceRequest): Promise<ApiResponse> {
		const { ctx, service, budget } = this;
		if (typeof service === 'function') throw service(request.itemIndex);
		return await sendWithRetries({
			...request,
			ctx,
			secrets: this.secrets,
			answered: this.answered,
			endpoint: this.endpointOf(request),
			deadline: request.deadline ?? Date.now() + budget.budgetMs(request.itemIndex),
			// The option to raise when time runs out; none to name when the caller set the deadline.
			setting: request.deadline === undefined ? budget.setting : undefined,
			timeoutMs: request.timeoutMs ?? DEFAULT_TIMEOUT_MS,
			// Downloads (sent without the key) skip the key's gate.
			gate: request.to === 'file' ? undefined : this.gate,
			attempt: this.attemptOf(request, service),
		});
	}

	/** Waits `ms` (between checks on renders); false when the execution was stopped meanwhile. */
	async pause(ms: number): Promise<boolean> {
		return await pause(ms, cancelSignal(this.ctx));
	}

	/** A call whose answer is one JSON object (most operations). */
	async sendForObject(request: ServiceRequest): Promise<IDataObject> {
		return this.bodyObject(await this.send(request), request);
	}

	/** A JSON object from a 2xx answer, or a clear error when the body is something else. */
	bodyObject(response: ApiResponse, call: CallOptions | ServiceRequest): IDataObject {
		const { body } = response;
		if (asObject(body)) return body as IDataObject;
		const got =
			typeof body === 'string'
				? `Expected JSON, got ${body.trim().startsWith('<') ? 'an HTML page' : 'text'}`
				: `Expected a JSON object, got ${Array.isArray(body) ? 'an array' : typeof body}`;
		throw this.error({ kind: 'shape', detail: `${got} (status ${response.status})` }, call);
	}

	/** The NodeApiError for a failed call, with the API key kept out of every word of it. */
	error(failure: Failure, call: CallOptions | ServiceRequest): NodeApiError {
		const endpoint = 'idempotent' in call ? this.endpointOf(call) : undefined;
		const context = { ...call, secrets: this.secrets, endpoint };
		return toNodeApiError(this.ctx.getNode(), failure, context);
	}

	/**
	 * One lookup per key for the whole execution, however many items ask for it. A lookup that
	 * fails is forgotten, so the next item asks again.
	 */
	async lookupOnce<T>(key: string, lookup: () => Promise<T>): Promise<T> {
		if (!this.lookups.has(key)) {
			const pending = lookup();
			this.lookups.set(key, pending);
			pending.catch(() => this.lookups.delete(key));
		}
		return (await this.lookups.get(key)) as T;
	}

	/**
	 * Like `lookupOnce`, and shared for `freshMs` with every execution of this process on the same
	 * API key, for lookups a burst of small executions would repeat, so it asks the service once.
	 * What fails or finds nothing is not kept; an execution that waited on another's lookup which
	 * failed (stopped, out of its time) asks itself.
	 */
	async cached<T>(key: string, freshMs: number, lookup: () => Promise<T>): Promise<T> {
		const { gate } = this;
		if (!gate) return await this.lookupOnce(key, lookup);
		return await this.lookupOnce(key, async () => {
			let fresh = freshByKey.get(gate);
			if (!fresh) freshByKey.set(gate, (fresh = new Map()));
			const now = Date.now();
			for (const [name, entry] of fresh) if (entry.until <= now) fresh.delete(name);
			const kept = fresh.get(key);
			const keptValue = kept && (await kept.value.catch(() => undefined));
			if (keptValue !== undefined) return keptValue as T;
			const value = lookup();
			fresh.set(key, { until: now + freshMs, value });
			const forget = () => fresh.get(key)?.value === value && fresh.delete(key);
			value.then((found) => (found === null || found === undefined) && forget(), forget);
			return await value;
		});
	}

	/** Which credential field a request's address comes from, and that address, for its errors. */
	private endpointOf(request: ServiceRequest): Sending['endpoint'] {
		if (request.to === 'file')
			return { field: 'file', url: request.url, redirectedFrom: request.redirectedFrom };
		if (typeof this.service === 'function') return undefined;
		return request.to === 'graphql'
			? { field: 'GraphQL Endpoint', url: this.service.graphqlUrl }
			: { field: 'Base URL', url: this.service.baseUrl };
	}

	/**
	 * One attempt of a request, never along a redirect: an API call with the credential (its API
	 * key); a download without it, as a stream (download.ts checks where a redirect leads).
	 */
	private attemptOf(request: ServiceRequest, config: ServiceConfig): Sending['attempt'] {
		const { ctx } = this;
		const answerAsIs = {
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
		};
		if (request.to === 'file') {
			// Stopped with the execution (n8n adds the signal itself to calls with the credential).
			const abortSignal = cancelSignal(ctx);
			const file = { method: 'GET', url: request.url, encoding: 'stream', abortSignal } as const;
			return async (timeout) => await ctx.helpers.httpRequest({ ...file, ...answerAsIs, timeout });
		}
		const rest = request.to === 'graphql' ? undefined : request;
		return async (timeout) => {
			const prepared = typeof request.body === 'function' ? await request.body() : undefined;
			return await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, {
				method: rest ? rest.method : 'POST',
				url: rest ? `${config.baseUrl}${rest.path}` : config.graphqlUrl,
				qs: rest?.qs,
				headers: { Accept: 'application/json', ...(prepared?.headers ?? {}) },
				body: prepared ? prepared.body : request.body,
				json: prepared === undefined,
				...answerAsIs,
				timeout,
			});
		};
	}
}

/**
 * The client for one execution (a node run, a poll, a list search). The credential is read
 * here, once; what is wrong with it is raised by each request instead, so every item reports
 * it with its own index (and Continue On Fail turns it into that item's error output).
 */
export async function serviceClient(ctx: ApiContext): Promise<ServiceClient> {
	const refuse =
		(message: string, description?: string): CredentialProblem =>
		(itemIndex) =>
			new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
	// Only reading the credential is caught: nothing else here may turn into an error left uncleaned of the key.
	const credentials = await ctx
		.getCredentials(CREDENTIAL_TYPE)
		.catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
	if (credentials instanceof Error) return new ServiceClient(ctx, refuse(credentials.message), []);
	const parsed = parseServiceConfig(credentials);
	const service = parsed.ok
		? parsed.config
		: refuse(
				`Video Personalization API credential: ${parsed.message}`,
				'Open the credential and correct the address.',
			);
	return new ServiceClient(ctx, service, [String(credentials.apiKey ?? '')]);
}
