// Fault injection: a seeded random mode and a scripted mode, switchable at runtime.
import type { ServerResponse } from 'node:http';
import { errorBody, HttpError, isPlainObject, parsePathSpec, requestMatches } from './http.mts';
import { Rng } from './rng.mts';
import {
	FAULT_KINDS,
	type FaultKind,
	type FaultMatch,
	type FaultParams,
	type RandomFaults,
	type ScriptedFault,
} from './types.mts';

export interface FaultDecision {
	kind: FaultKind;
	retryAfter?: number;
	delayMs: number;
	status?: number;
}

/** Kinds answered without running the request (nothing is committed). 'slow' and
 * 'reset-after-commit' run it first; 'hang' never answers at all. */
const NOT_PROCESSED = new Set<FaultKind>([
	'429',
	'500',
	'502',
	'503',
	'reset',
	'text',
	'html',
	'hang',
]);

export function faultSkipsProcessing(kind: FaultKind): boolean {
	return NOT_PROCESSED.has(kind);
}

interface ScriptState {
	rule: ScriptedFault;
	remaining: number;
	skip: number;
}

export class FaultInjector {
	private scripted: ScriptState[] = [];
	private randomCfg?: { cfg: RandomFaults; rng: Rng };

	constructor(private readonly defaultSeed: number) {}

	random(cfg: RandomFaults): void {
		if (!(cfg.rate >= 0 && cfg.rate <= 1))
			throw new RangeError('faults.random: rate must be within 0..1');
		if (!Array.isArray(cfg.kinds) || cfg.kinds.length === 0)
			throw new RangeError('faults.random: kinds must list at least one kind');
		cfg.kinds.forEach(checkKind);
		this.randomCfg = {
			cfg: { ...cfg, kinds: [...cfg.kinds] },
			rng: new Rng(cfg.seed ?? this.defaultSeed),
		};
	}

	/** Replaces the scripted rules. The first active rule matching a request decides. */
	script(rules: ScriptedFault[]): void {
		rules.forEach((r) => {
			checkKind(r.kind);
			if (
				r.times !== undefined &&
				r.times !== 'always' &&
				!(typeof r.times === 'number' && r.times >= 0)
			)
				throw new RangeError("faults.script: times must be a number >= 0 or 'always'");
		});
		this.scripted = rules.map((rule) => ({
			rule,
			remaining: rule.times === 'always' ? Infinity : (rule.times ?? 1),
			skip: rule.skip ?? 0,
		}));
	}

	clear(): void {
		this.scripted = [];
		this.randomCfg = undefined;
	}

	/** The fault for a request, if any. Scripted rules go first, then the random mode. */
	decide(server: 'api' | 'cdn', method: string, path: string): FaultDecision | undefined {
		for (const state of this.scripted) {
			if (state.remaining <= 0 || !requestMatches(state.rule.match, server, method, path, 'api'))
				continue;
			if (state.skip > 0) {
				state.skip--;
				return undefined;
			}
			state.remaining--;
			return decision(state.rule.kind, state.rule);
		}
		this.scripted = this.scripted.filter((s) => s.remaining > 0);
		const random = this.randomCfg;
		if (random && requestMatches(random.cfg.match, server, method, path, 'api')) {
			if (random.rng.float() < random.cfg.rate)
				return decision(random.rng.pick(random.cfg.kinds), random.cfg);
		}
		return undefined;
	}

	/** Pending scripted rules and the random configuration, for the control API (RegExp paths as strings). */
	describe(): {
		scripted: Array<
			Omit<ScriptedFault, 'match'> & { match?: JsonMatch; remaining: number | 'always' }
		>;
		random: (Omit<RandomFaults, 'match'> & { match?: JsonMatch }) | null;
	} {
		const random = this.randomCfg?.cfg;
		return {
			scripted: this.scripted
				.filter((s) => s.remaining > 0)
				.map((s) => ({
					...s.rule,
					match: jsonMatch(s.rule.match),
					skip: s.skip,
					remaining: s.remaining === Infinity ? 'always' : s.remaining,
				})),
			random: random ? { ...random, match: jsonMatch(random.match) } : null,
		};
	}
}

type JsonMatch = Omit<FaultMatch, 'path'> & { path?: string };

function jsonMatch(match: FaultMatch | undefined): JsonMatch | undefined {
	return (
		match && { ...match, path: match.path instanceof RegExp ? String(match.path) : match.path }
	);
}

function checkKind(kind: FaultKind): void {
	if (!FAULT_KINDS.includes(kind))
		throw new RangeError(`unknown fault kind ${String(kind)}; one of ${FAULT_KINDS.join(', ')}`);
}

function decision(kind: FaultKind, params: FaultParams): FaultDecision {
	return {
		kind,
		retryAfter: params.retryAfter,
		delayMs: params.delayMs ?? 1500,
		status: params.status,
	};
}

const HTML_PAGE = (status: number, text: string) =>
	`<html>\r\n<head><title>${status} ${text}</title></head>\r\n<body>\r\n<center><h1>${status} ${text}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;

const STATUS_TEXT: Record<number, string> = {
	429: 'Too Many Requests',
	500: 'Internal Server Error',
	502: 'Bad Gateway',
	503: 'Service Temporarily Unavailable',
	504: 'Gateway Time-out',
};

/** Answers a request with a not-processed fault. Returns the HTTP status sent. */
export function sendFault(res: ServerResponse, fault: FaultDecision, graphql: boolean): number {
	const kind = fault.kind;
	if (kind === 'hang') {
		// The connection stays open and nothing is ever written: the client's timeout ends it (or close()).
		res.req.resume();
		return 0;
	}
	if (kind === 'reset') {
		// Headers and the start of a plausible body, then a TCP reset.
		const partial = Buffer.from('{"data":[{"id":"');
		res.writeHead(200, {
			'Content-Type': 'application/json; charset=utf-8',
			'Content-Length': '4096',
		});
		res.write(partial, () => resetSocket(res));
		return 200;
	}
	if (kind === 'text' || kind === 'html') {
		const status = fault.status ?? (kind === 'text' ? 500 : 502);
		const text = STATUS_TEXT[status] ?? 'Error';
		const body = Buffer.from(kind === 'text' ? `${text}\n` : HTML_PAGE(status, text));
		const retryAfter: Record<string, string> =
			status === 503 && fault.retryAfter !== undefined
				? { 'Retry-After': String(fault.retryAfter) }
				: {};
		res.writeHead(status, {
			...retryAfter,
			'Content-Type': kind === 'text' ? 'text/plain; charset=utf-8' : 'text/html',
			'Content-Length': String(body.length),
		});
		res.end(body);
		return status;
	}
	const status = Number(kind);
	const headers: Record<string, string> = {};
	if (status === 429 || (status === 503 && fault.retryAfter !== undefined))
		headers['Retry-After'] = String(fault.retryAfter ?? 1);
	const codes: Record<number, [string, string]> = {
		429: ['rate_limited', `Too many requests; retry after ${headers['Retry-After']} s`],
		500: ['internal_error', 'Internal server error'],
		502: ['bad_gateway', 'Bad gateway: the upstream service did not answer'],
		503: ['service_unavailable', 'Service temporarily unavailable'],
	};
	const [code, message] = codes[status];
	const body = Buffer.from(JSON.stringify(errorBody(status, code, message, { graphql })));
	res.writeHead(status, {
		...headers,
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': String(body.length),
	});
	res.end(body);
	return status;
}

/** Time the client gets to read what was sent before the reset: a TCP RST makes the peer drop
 * data it has not read yet, and without it the client could see the reset without the headers. */
const RESET_GRACE_MS = 30;

/** Destroys the connection with a TCP RST (the client sees ECONNRESET), after a short grace. */
export function resetSocket(res: ServerResponse): void {
	const socket = res.socket;
	if (!socket) return;
	setTimeout(() => {
		if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
		else socket.destroy();
	}, RESET_GRACE_MS);
}

/** Sends the first half of a complete response, then resets the connection. */
export function sendTruncated(
	res: ServerResponse,
	status: number,
	headers: Record<string, string>,
	body: Buffer,
): void {
	res.writeHead(status, headers);
	res.write(body.subarray(0, Math.max(1, Math.floor(body.length / 2))), () => resetSocket(res));
}

/** A slow answer's delay. Unref'd: an answer still delayed when the sandbox closes (its client
 * gave up) must not hold the process open (Jest would not exit after the run). */
export function wait(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

// ---------------------------------------------------------------- JSON forms (control API)

function parseMatch(value: unknown): FaultMatch | undefined {
	if (value === undefined || value === null) return undefined;
	if (!isPlainObject(value)) throw new HttpError(400, 'bad_request', 'match must be an object');
	const server = value.server;
	if (server !== undefined && server !== 'api' && server !== 'cdn')
		throw new HttpError(400, 'bad_request', 'match.server must be api or cdn');
	return {
		method: typeof value.method === 'string' ? value.method : undefined,
		path: parsePathSpec(value),
		server,
	};
}

function parseParams(value: Record<string, unknown>): FaultParams {
	const num = (k: string) => (typeof value[k] === 'number' ? (value[k] as number) : undefined);
	return { retryAfter: num('retryAfter'), delayMs: num('delayMs'), status: num('status') };
}

export function parseRandomFaults(value: unknown): RandomFaults {
	if (!isPlainObject(value)) throw new HttpError(400, 'bad_request', 'random must be an object');
	if (typeof value.rate !== 'number' || !Array.isArray(value.kinds))
		throw new HttpError(400, 'bad_request', 'random needs rate (number) and kinds (array)');
	return {
		...parseParams(value),
		rate: value.rate,
		kinds: value.kinds as FaultKind[],
		seed: typeof value.seed === 'number' ? value.seed : undefined,
		match: parseMatch(value.match),
	};
}

export function parseScriptedFaults(value: unknown): ScriptedFault[] {
	if (!Array.isArray(value)) throw new HttpError(400, 'bad_request', 'script must be an array');
	return value.map((item: unknown) => {
		if (!isPlainObject(item) || typeof item.kind !== 'string')
			throw new HttpError(400, 'bad_request', 'each scripted fault needs a kind');
		return {
			...parseParams(item),
			kind: item.kind as FaultKind,
			match: parseMatch(item.match),
			times: typeof item.times === 'number' || item.times === 'always' ? item.times : undefined,
			skip: typeof item.skip === 'number' ? item.skip : undefined,
		};
	});
}
