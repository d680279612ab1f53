// The request log: every request the API and CDN servers receive (the control API excluded).
import { requestMatches } from './http.mts';
import type { RequestMatch, RequestRecord } from './types.mts';

export class RequestLog {
	readonly log: RequestRecord[] = [];

	constructor(private readonly limit: number) {}

	add(record: RequestRecord): void {
		this.log.push(record);
		// Trim in batches so a full log does not cost a splice per request.
		if (this.log.length > this.limit + Math.max(1, Math.floor(this.limit / 10))) this.log.splice(0, this.log.length - this.limit);
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
