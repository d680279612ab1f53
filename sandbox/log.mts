// The request log: every request the API and CDN servers receive (the control API excluded).
import type { IncomingMessage } from 'node:http';
import { requestMatches } from './http.mts';
import type { RequestMatch, RequestRecord } from './types.mts';

export class RequestLog {
	readonly log: RequestRecord[] = [];

	constructor(private readonly limit: number) {}

	/** Records a request as it arrives; the caller fills in `status` (and `fault`) later. */
	start(server: 'api' | 'cdn', req: IncomingMessage, url: URL, at: number): RequestRecord {
		const auth = req.headers.authorization;
		const record: RequestRecord = {
			server,
			method: (req.method ?? 'GET').toUpperCase(),
			path: url.pathname,
			query: Object.fromEntries(url.searchParams),
			status: 0,
			hadAuthorization: auth !== undefined,
			...(auth !== undefined ? { authorization: auth } : {}),
			at,
		};
		this.add(record);
		return record;
	}

	add(record: RequestRecord): void {
		this.log.push(record);
		// Trim in batches so a full log does not cost a splice per request.
		if (this.log.length > this.limit + Math.max(1, Math.floor(this.limit / 10)))
			this.log.splice(0, this.log.length - this.limit);
	}

	clear(): void {
		this.log.length = 0;
	}

	count(match?: RequestMatch): number {
		let n = 0;
		for (const r of this.log) if (requestMatches(match, r.server, r.method, r.path)) n++;
		return n;
	}
}
