// The control API under /__sandbox/ on the API server, for out-of-process users (real-n8n e2e
// tests, `npm start`). No authentication, no faults, not in the request log. README "Control API".
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from './context.mts';
import { parseRandomFaults, parseScriptedFaults } from './faults.mts';
import {
	errorBody,
	HttpError,
	isPlainObject,
	parsePathSpec,
	readJson,
	requestMatches,
	sendJson,
} from './http.mts';
import { parseRateLimitConfig } from './rateLimit.mts';
import type { AddVideosOptions, VideoOutcome } from './store.mts';
import type { RequestRecord } from './types.mts';

type Json = Record<string, unknown>;

function num(body: Json, key: string, required = false): number | undefined {
	const v = body[key];
	if (v === undefined || v === null) {
		if (required) throw new HttpError(400, 'bad_request', `${key} (number) is required`);
		return undefined;
	}
	if (typeof v !== 'number' || !Number.isFinite(v))
		throw new HttpError(400, 'bad_request', `${key} must be a number`);
	return v;
}

function timeSpec(body: Json, key: string): number | { from: number; to: number } | undefined {
	const v = body[key];
	if (v === undefined || v === null || typeof v === 'number') return v ?? undefined;
	if (isPlainObject(v) && typeof v.from === 'number' && typeof v.to === 'number')
		return { from: v.from, to: v.to };
	throw new HttpError(
		400,
		'bad_request',
		`${key} must be a number (ms since epoch) or { from, to }`,
	);
}

async function body(req: IncomingMessage): Promise<Json> {
	const len = req.headers['content-length'];
	if (len === '0' || (len === undefined && req.headers['transfer-encoding'] === undefined))
		return {};
	const parsed = await readJson(req);
	if (!isPlainObject(parsed)) throw new HttpError(400, 'bad_request', 'Body must be a JSON object');
	return parsed;
}

function filterRequests(log: RequestRecord[], url: URL): RequestRecord[] {
	const q = url.searchParams;
	const server = q.get('server');
	const path = parsePathSpec({
		path: q.get('path') ?? undefined,
		pathRegex: q.get('pathRegex') ?? undefined,
	});
	const match = {
		method: q.get('method') ?? undefined,
		path,
		server: server === 'api' || server === 'cdn' ? (server as 'api' | 'cdn') : undefined,
	};
	return log.filter((r) => requestMatches(match, r.server, r.method, r.path));
}

export async function handleControl(
	app: AppContext,
	info: () => unknown,
	req: IncomingMessage,
	res: ServerResponse,
	url: URL,
): Promise<void> {
	const method = (req.method ?? 'GET').toUpperCase();
	const route = `${method} ${url.pathname.replace(/\/+$/, '')}`;
	const { store, clock, faults, requests, rateLimiter } = app;
	const rateLimitState = () => ({ config: rateLimiter.config(), counters: rateLimiter.counters() });
	try {
		let m: RegExpExecArray | null;
		switch (route) {
			case 'GET /__sandbox':
			case 'GET /__sandbox/info':
				return sendJson(res, 200, info());
			case 'GET /__sandbox/clock':
				return sendJson(res, 200, {
					now: clock.now(),
					iso: new Date(clock.now()).toISOString(),
					mode: clock.mode,
				});
			case 'POST /__sandbox/clock': {
				const b = await body(req);
				const advanceMs = num(b, 'advanceMs', true) ?? 0;
				if (advanceMs < 0) throw new HttpError(400, 'bad_request', 'advanceMs must be >= 0');
				clock.advance(advanceMs);
				return sendJson(res, 200, { now: clock.now(), iso: new Date(clock.now()).toISOString() });
			}
			case 'GET /__sandbox/faults':
				return sendJson(res, 200, faults.describe());
			case 'POST /__sandbox/faults': {
				const b = await body(req);
				if (b.random === undefined && b.script === undefined)
					throw new HttpError(400, 'bad_request', 'Give random and/or script');
				try {
					if (b.random !== undefined) faults.random(parseRandomFaults(b.random));
					if (b.script !== undefined) faults.script(parseScriptedFaults(b.script));
				} catch (e) {
					if (e instanceof HttpError) throw e;
					throw new HttpError(400, 'bad_request', (e as Error).message);
				}
				return sendJson(res, 200, faults.describe());
			}
			case 'DELETE /__sandbox/faults':
				faults.clear();
				return sendJson(res, 200, faults.describe());
			case 'GET /__sandbox/rate-limit':
				return sendJson(res, 200, rateLimitState());
			case 'POST /__sandbox/rate-limit': {
				const config = parseRateLimitConfig(await body(req));
				try {
					rateLimiter.set(config);
				} catch (e) {
					throw new HttpError(400, 'bad_request', (e as Error).message);
				}
				return sendJson(res, 200, rateLimitState());
			}
			case 'DELETE /__sandbox/rate-limit':
				rateLimiter.clear();
				return sendJson(res, 200, rateLimitState());
			case 'DELETE /__sandbox/rate-limit/counters':
				rateLimiter.resetCounters();
				return sendJson(res, 200, rateLimitState());
			case 'GET /__sandbox/list-order':
				return sendJson(res, 200, { order: store.listOrder });
			case 'POST /__sandbox/list-order': {
				const b = await body(req);
				if (b.order !== 'newest-first' && b.order !== 'oldest-first')
					throw new HttpError(400, 'bad_request', 'order must be newest-first or oldest-first');
				store.listOrder = b.order;
				return sendJson(res, 200, { order: store.listOrder });
			}
			case 'POST /__sandbox/graphql': {
				const b = await body(req);
				const maxLimit = num(b, 'maxLimit');
				if (maxLimit !== undefined && (!Number.isInteger(maxLimit) || maxLimit < 1))
					throw new HttpError(400, 'bad_request', 'maxLimit must be an integer >= 1');
				if (b.overLimit !== undefined && b.overLimit !== 'cap' && b.overLimit !== 'reject')
					throw new HttpError(400, 'bad_request', 'overLimit must be cap or reject');
				store.graphql = {
					maxLimit: maxLimit ?? store.graphql.maxLimit,
					overLimit: (b.overLimit as 'cap' | 'reject' | undefined) ?? store.graphql.overLimit,
				};
				return sendJson(res, 200, store.graphql);
			}
			case 'GET /__sandbox/requests': {
				const list = filterRequests(requests.log, url);
				return sendJson(res, 200, { count: list.length, requests: list });
			}
			case 'DELETE /__sandbox/requests':
				requests.clear();
				return sendJson(res, 200, { count: 0 });
			case 'POST /__sandbox/videos/finish-all': {
				const b = await body(req);
				if (b.status !== undefined && b.status !== 'published' && b.status !== 'failed')
					throw new HttpError(400, 'bad_request', 'status must be published or failed');
				return sendJson(res, 200, {
					finished: store.finishAll(b.status as 'published' | 'failed' | undefined),
				});
			}
			case 'POST /__sandbox/videos': {
				const b = await body(req);
				const count = num(b, 'count', true) ?? 0;
				const options: AddVideosOptions = {
					brandId: typeof b.brandId === 'string' ? b.brandId : undefined,
					templateId: typeof b.templateId === 'string' ? b.templateId : undefined,
					title: typeof b.title === 'string' ? b.title : undefined,
					createdAt: timeSpec(b, 'createdAt'),
					finishAt: timeSpec(b, 'finishAt'),
					failureShare: num(b, 'failureShare'),
					outcome: b.outcome === 'published' || b.outcome === 'failed' ? b.outcome : undefined,
					customerData: isPlainObject(b.customerData) ? b.customerData : undefined,
				};
				let created;
				try {
					created = store.addVideos(count, options);
				} catch (e) {
					throw new HttpError(400, 'bad_request', (e as Error).message);
				}
				return sendJson(res, 201, {
					created: created.length,
					ids: created.slice(0, 1000).map((v) => v.id),
				});
			}
			case 'POST /__sandbox/credits': {
				const b = await body(req);
				try {
					store.setCredits({
						brandId: typeof b.brandId === 'string' ? b.brandId : undefined,
						organisationId: typeof b.organisationId === 'string' ? b.organisationId : undefined,
						credits: num(b, 'credits', true) ?? 0,
					});
				} catch (e) {
					if (e instanceof HttpError) throw e;
					throw new HttpError(400, 'bad_request', (e as Error).message);
				}
				return sendJson(res, 200, { ok: true });
			}
			case 'GET /__sandbox/stats':
				return sendJson(res, 200, {
					memory: process.memoryUsage(),
					videos: store.videos.size,
					assets: store.assets.size,
					requests: requests.log.length,
				});
		}
		if (method === 'POST' && (m = /^\/__sandbox\/videos\/([^/]+)\/outcome$/.exec(url.pathname))) {
			const b = await body(req);
			const status = b.status;
			if (
				status !== 'published' &&
				status !== 'failed' &&
				status !== 'draft' &&
				status !== 'processing'
			) {
				throw new HttpError(
					400,
					'bad_request',
					'status must be published, failed, draft or processing',
				);
			}
			const outcome: VideoOutcome =
				status === 'published' || status === 'failed'
					? { status, at: num(b, 'at') }
					: status === 'draft'
						? { status }
						: { status };
			if (!store.videos.has(m[1])) throw new HttpError(404, 'not_found', `No video ${m[1]}`);
			try {
				const v = store.setVideoOutcome(m[1], outcome);
				return sendJson(res, 200, {
					id: v.id,
					status: v.status,
					finishAt: Number.isFinite(v.finishAt) ? v.finishAt : null,
				});
			} catch (e) {
				throw new HttpError(400, 'bad_request', (e as Error).message);
			}
		}
		throw new HttpError(404, 'not_found', `No control route ${route}`);
	} catch (e) {
		const err =
			e instanceof HttpError ? e : new HttpError(500, 'internal_error', (e as Error).message);
		sendJson(res, err.status, errorBody(err.status, err.code, err.message));
	}
}
