// The API server's request pipeline: control API, request log, rate limiter, faults, routing,
// serialization.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from './context.mts';
import { handleControl } from './control.mts';
import { faultSkipsProcessing, sendFault, sendTruncated, wait } from './faults.mts';
import { type ApiResponse, errorBody, errorResponse, sendJson, serialize } from './http.mts';
import { routeApi } from './rest.mts';

let requestCounter = 0;

export async function handleApi(
	app: AppContext,
	info: () => unknown,
	req: IncomingMessage,
	res: ServerResponse,
): Promise<void> {
	const url = new URL(req.url ?? '/', 'http://api');
	const path = url.pathname;
	if (path === '/__sandbox' || path.startsWith('/__sandbox/'))
		return handleControl(app, info, req, res, url);

	const record = app.requests.start('api', req, url, app.clock.now());
	const method = record.method;
	const isGraphql = path === '/v1/graphql';
	res.setHeader('X-Request-Id', `req_${(++requestCounter).toString(36).padStart(6, '0')}`);

	// The limiter is the service's own: it sees every request first, and a request it refuses
	// is not run (nor faulted). Its headers go on every answer it lets through. A service far
	// away (its latencyMs): half of it before the limiter sees the request, half before the
	// request is run and answered (the log keeps the time it came in).
	const away = app.rateLimiter.latencyMs(method, path) / 2;
	if (away > 0) await wait(away);
	const limit = app.rateLimiter.check(method, path, req.headers.authorization);
	if (away > 0) await wait(away);
	if (limit) for (const [name, value] of Object.entries(limit.headers)) res.setHeader(name, value);
	if (limit && !limit.allowed) {
		req.resume();
		record.rateLimited = true;
		record.status = 429;
		return sendJson(
			res,
			429,
			errorBody(429, 'rate_limited', limit.message ?? 'Too many requests', { graphql: isGraphql }),
		);
	}

	const fault = app.faults.decide('api', method, path);
	if (fault) record.fault = fault.kind;
	if (fault && faultSkipsProcessing(fault.kind)) {
		// Not processed: the body is discarded, nothing is committed.
		req.resume();
		record.status = sendFault(res, fault, isGraphql);
		return;
	}

	let response: ApiResponse;
	try {
		await app.beforeRequest?.({ method, path, query: url.searchParams });
		response = await routeApi(app, req, url);
	} catch (e) {
		response = errorResponse(e, isGraphql);
		if (response.status === 500)
			app.log(`500 on ${method} ${path}: ${(e as Error).stack ?? String(e)}`);
	}
	if (fault?.kind === 'slow') await wait(fault.delayMs);
	record.status = response.status;
	if (res.destroyed || res.writableEnded) return;
	const s = serialize(response);
	if (fault?.kind === 'reset-after-commit') return sendTruncated(res, s.status, s.headers, s.body);
	res.writeHead(s.status, s.headers);
	res.end(s.body);
}
