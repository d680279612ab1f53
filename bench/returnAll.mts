// Benchmark 1: Return All of 10,000 assets. The node in n8n's engine vs. a minimal hand-written
// client (fetch with keep-alive; page 1, then the other pages in parallel) vs. n8n's HTTP Request
// node with its pagination option, all against one sandbox in a child process, interleaved.
//   npm run bench:return-all            (BENCH_REPS=n to change the repetitions)
import './lib/env.mts';

import type { INodeProperties } from 'n8n-workflow';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { credentialType, runNode } from '../test/harness/engine.mts';
import { BARE_LIST_TYPE } from './lib/bareNode.mts';
import { httpRequestNode, httpRequestPaginationParameters } from './lib/httpRequestNode.mts';
import { startRemoteSandbox, type RemoteSandbox } from './lib/remoteSandbox.mts';
import { median, round, rotated, timed, writeResults, type Figure } from './lib/report.mts';

const ASSETS = 10_000;
const PAGE_SIZE = 100;
const REPS = Number(process.env.BENCH_REPS ?? 11);
const COMMAND = 'npm run bench:return-all';
/** Pages in flight in the latency what-if: every page after the first at once. */
const ALL_AT_ONCE = ASSETS / PAGE_SIZE;

interface Envelope {
	data: Array<{ id: string }>;
	pagination: { total: number; next_page: number | null };
}

/** The minimal client: page 1 gives the total, the other pages go out `concurrency` at a time. */
async function minimalClient(baseUrl: string, key: string, concurrency: number): Promise<string[]> {
	const headers = { authorization: `Bearer ${key}`, accept: 'application/json' };
	const get = async (page: number): Promise<Envelope> => {
		const response = await fetch(`${baseUrl}/assets?page=${page}&limit=${PAGE_SIZE}`, { headers });
		if (!response.ok) throw new Error(`page ${page}: HTTP ${response.status}`);
		return (await response.json()) as Envelope;
	};
	const first = await get(1);
	const pages = Array.from(
		{ length: Math.ceil(first.pagination.total / PAGE_SIZE) - 1 },
		(_, index) => index + 2,
	);
	const results: Envelope[] = new Array<Envelope>(pages.length);
	let next = 0;
	const worker = async () => {
		while (next < pages.length) {
			const index = next++;
			results[index] = await get(pages[index]);
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, pages.length) }, worker));
	return [first, ...results].flatMap((page) => page.data.map((asset) => asset.id));
}

interface Contender {
	name: string;
	/** Returns the asset ids it got, in order. */
	run: () => Promise<string[]>;
}

/**
 * What-if for the diagnosis (the shipped code is not changed): the credential as it was before
 * 23e8362, its two notices shown by `_cnd: { regex }` conditions, which n8n-workflow evaluates in
 * a vm sandbox with a timeout every time it resolves the credential (once per request). Shows
 * what the startsWith/endsWith conditions of the shipped credential save.
 */
const PREVIOUS_NOTICE_CONDITIONS: Record<string, INodeProperties['displayOptions']> = {
	baseUrlVersionNotice: { hide: { baseUrl: ['', { _cnd: { regex: '/v1/*\\s*$' } }] } },
	baseUrlHttpsNotice: {
		show: {
			baseUrl: [
				{
					_cnd: { regex: '^\\s*http://(?!(localhost|127\\.\\d+\\.\\d+\\.\\d+|\\[::1\\])([:/]|$))' },
				},
			],
		},
	},
};

function withPreviousRegexNotices(properties: INodeProperties[]): INodeProperties[] {
	const patched = properties.map((property) =>
		property.name in PREVIOUS_NOTICE_CONDITIONS
			? { ...property, displayOptions: PREVIOUS_NOTICE_CONDITIONS[property.name] }
			: property,
	);
	const count = patched.filter((property) =>
		JSON.stringify(property.displayOptions ?? {}).includes('"regex"'),
	).length;
	if (count !== 2)
		throw new Error(
			`previous credential: expected 2 regex notices, patched ${count} (were the notices renamed?)`,
		);
	return patched;
}

/** Contender names the figures and BENCHMARKS.md refer to. */
const NODE = 'node (Return All)';
const PREVIOUS_CREDENTIAL = 'what-if: node, previous credential (regex notices)';
const ALL_PAGES = `what-if: node, all pages at once (PAGE_CONCURRENCY ${ALL_AT_ONCE})`;
const HTTP = 'HTTP Request node, pagination';
const isMinimal = (name: string) => name.startsWith('minimal client, ');

async function contenders(
	sandbox: RemoteSandbox,
	httpVersion: number | undefined,
): Promise<{ list: Contender[]; shippedConcurrency: number }> {
	const credentials = { apiKey: sandbox.keys.user, baseUrl: sandbox.baseUrl };
	const runTheNode = async () => {
		const result = await runNode({
			parameters: { resource: 'asset', operation: 'getAll', returnAll: true },
			credentials,
		});
		if (result.error) throw result.error;
		return result.items.map((item) => String(item.json.id));
	};
	const type = await credentialType();
	const shipped = type.properties;
	const previous = withPreviousRegexNotices(shipped);
	// The built module the engine loaded (n8n-core requires it, so the cache holds this very object).
	const pagination = createRequire(import.meta.url)(
		join(process.cwd(), 'dist', 'nodes', 'VideoPersonalization', 'transport', 'pagination.js'),
	) as {
		PAGE_CONCURRENCY: number;
	};
	const shippedConcurrency = pagination.PAGE_CONCURRENCY;
	const list: Contender[] = [
		{ name: NODE, run: runTheNode },
		{
			name: PREVIOUS_CREDENTIAL,
			run: async () => {
				type.properties = previous;
				try {
					return await runTheNode();
				} finally {
					type.properties = shipped;
				}
			},
		},
		{
			name: ALL_PAGES,
			run: async () => {
				pagination.PAGE_CONCURRENCY = ALL_AT_ONCE;
				try {
					return await runTheNode();
				} finally {
					pagination.PAGE_CONCURRENCY = shippedConcurrency;
				}
			},
		},
		...[true, false].map(
			(withAuthentication): Contender => ({
				name: `floor: bare node, ${withAuthentication ? 'httpRequestWithAuthentication' : 'httpRequest + own header'}`,
				run: async () => {
					const result = await runNode({
						nodeType: BARE_LIST_TYPE,
						parameters: { path: '/assets', withAuthentication, concurrency: shippedConcurrency },
						credentials,
					});
					if (result.error) throw result.error;
					return result.items.map((item) => String(item.json.id));
				},
			}),
		),
		// The same pages in flight as the shipped node, and all at once.
		{
			name: `minimal client, ${shippedConcurrency} parallel`,
			run: async () => await minimalClient(sandbox.baseUrl, sandbox.keys.user, shippedConcurrency),
		},
		{
			name: 'minimal client, all parallel',
			run: async () => await minimalClient(sandbox.baseUrl, sandbox.keys.user, Infinity),
		},
	];
	if (httpVersion !== undefined) {
		list.push({
			name: HTTP,
			run: async () => {
				const result = await runNode({
					nodeType: 'n8n-nodes-base.httpRequest',
					node: { typeVersion: httpVersion },
					parameters: httpRequestPaginationParameters(`${sandbox.baseUrl}/assets`, PAGE_SIZE),
					credentials,
				});
				if (result.error) throw result.error;
				// One item per page ({ data, pagination }); a workflow would add a Split Out node.
				return result.items.flatMap((item) =>
					((item.json as unknown as Envelope).data ?? []).map((asset) => asset.id),
				);
			},
		});
	}
	return { list, shippedConcurrency };
}

interface Measured {
	times: Map<string, number[]>;
	requests: Map<string, number>;
	medians: Map<string, number>;
}

/** One warm-up per contender (checked: every asset exactly once), then interleaved repetitions. */
async function measure(sandbox: RemoteSandbox, list: Contender[], reps: number): Promise<Measured> {
	const times = new Map<string, number[]>(list.map((contender) => [contender.name, []]));
	const requests = new Map<string, number>();
	for (const contender of list) {
		await sandbox.call('requests.clear');
		const ids = await contender.run();
		requests.set(contender.name, await sandbox.call<number>('requests.count'));
		if (ids.length !== ASSETS || new Set(ids).size !== ASSETS) {
			throw new Error(
				`${contender.name}: got ${ids.length} assets (${new Set(ids).size} distinct), expected ${ASSETS}`,
			);
		}
	}
	for (let rep = 0; rep < reps; rep++) {
		for (const contender of rotated(list, rep)) {
			const { ms, value } = await timed(contender.run);
			if (value.length !== ASSETS) throw new Error(`${contender.name}: ${value.length} assets`);
			times.get(contender.name)?.push(ms);
		}
	}
	return {
		times,
		requests,
		medians: new Map([...times].map(([name, values]) => [name, median(values)])),
	};
}

/** The second scenario: every list request answered this much later (sandbox 'slow' fault), like a real service. */
const LATENCY_MS = 20;
const LATENCY_REPS = Math.max(1, Math.ceil(REPS / 2));

/** The faster of the minimal clients in one scenario. */
function fastestMinimal(measured: Measured): string {
	const names = [...measured.medians.keys()].filter(isMinimal);
	return names.reduce((best, name) =>
		(measured.medians.get(name) ?? Infinity) < (measured.medians.get(best) ?? Infinity)
			? name
			: best,
	);
}

/** The two target figures of one scenario. */
function targetFigures(label: string, measured: Measured, reps: number): Figure[] {
	const node = measured.medians.get(NODE) ?? Number.NaN;
	const minimalName = fastestMinimal(measured);
	const minimal = measured.medians.get(minimalName) ?? Number.NaN;
	const figures: Figure[] = [
		{
			name: `Return All ${ASSETS.toLocaleString('en-US')} assets${label}: node time / fastest minimal client (${minimalName.replace('minimal client, ', '')})`,
			value: round(node / minimal, 2),
			unit: '×',
			target: '<= 1.25',
			met: node / minimal <= 1.25,
			repetitions: reps,
			note: `medians ${round(node, 1)} ms vs ${round(minimal, 1)} ms`,
		},
	];
	const http = measured.medians.get(HTTP);
	if (http !== undefined) {
		figures.push({
			name: `Return All ${ASSETS.toLocaleString('en-US')} assets${label}: HTTP Request node (pagination) time / node time`,
			value: round(http / node, 2),
			unit: '×',
			target: '>= 3',
			met: http / node >= 3,
			repetitions: reps,
			note: `medians ${round(http, 1)} ms vs ${round(node, 1)} ms`,
		});
	}
	return figures;
}

function tableRows(scenario: string, list: Contender[], measured: Measured) {
	const node = measured.medians.get(NODE) ?? Number.NaN;
	return list.map((contender) => {
		const values = measured.times.get(contender.name) ?? [];
		return {
			scenario,
			contender: contender.name,
			'median ms': round(median(values), 1),
			'min ms': round(Math.min(...values), 1),
			'max ms': round(Math.max(...values), 1),
			requests: measured.requests.get(contender.name),
			'vs node': round(median(values) / node, 2),
		};
	});
}

async function main(): Promise<void> {
	const http = await httpRequestNode();
	if (!http.ok) console.warn(`HTTP Request node not measured: ${http.reason}`);
	const sandbox = await startRemoteSandbox({ dataset: { videos: 100, assets: ASSETS } });
	try {
		const { list, shippedConcurrency } = await contenders(
			sandbox,
			http.ok ? http.version : undefined,
		);
		// Loopback: the client's CPU is the limit, so more pages in flight would not change much.
		const loopbackList = list.filter((contender) => contender.name !== ALL_PAGES);
		const loopback = await measure(sandbox, loopbackList, REPS);

		// With every list request answered LATENCY_MS later: no floor or credential rows, but all pages at once.
		const latencyList = list.filter(
			(contender) => [NODE, ALL_PAGES, HTTP].includes(contender.name) || isMinimal(contender.name),
		);
		await sandbox.call('faults.random', {
			rate: 1,
			kinds: ['slow'],
			delayMs: LATENCY_MS,
			match: { method: 'GET', path: '/v1/assets' },
		});
		const latency = await measure(sandbox, latencyList, LATENCY_REPS);
		await sandbox.call('faults.clear');

		const rows = [
			...tableRows('loopback', loopbackList, loopback),
			...tableRows(`+${LATENCY_MS} ms per request`, latencyList, latency),
		];
		const title = `Return All of ${ASSETS.toLocaleString('en-US')} assets: interleaved repetitions after one warm-up each (${REPS} on loopback, ${LATENCY_REPS} with ${LATENCY_MS} ms added to every answer); the shipped node has ${shippedConcurrency} pages in flight`;

		const node = loopback.medians.get(NODE) ?? Number.NaN;
		const previous = loopback.medians.get(PREVIOUS_CREDENTIAL) ?? Number.NaN;
		const minimal = loopback.medians.get(fastestMinimal(loopback)) ?? Number.NaN;
		const figures: Figure[] = [
			...targetFigures('', loopback, REPS),
			{
				name: `Diagnosis, what-if: node with the previous credential (regex notices) / node (shipped credential)`,
				value: round(previous / node, 2),
				unit: '×',
				repetitions: REPS,
				note: `medians ${round(previous, 1)} ms vs ${round(node, 1)} ms; the previous credential would be ${round(previous / minimal, 2)}× the fastest minimal client; not the shipped code`,
			},
			...targetFigures(`, +${LATENCY_MS} ms per request`, latency, LATENCY_REPS),
		];
		const allPages = latency.medians.get(ALL_PAGES) ?? Number.NaN;
		const latencyNode = latency.medians.get(NODE) ?? Number.NaN;
		const latencyHttp = latency.medians.get(HTTP);
		figures.push({
			name: `Diagnosis, what-if, +${LATENCY_MS} ms per request: node with all pages at once (PAGE_CONCURRENCY ${ALL_AT_ONCE}) / fastest minimal client`,
			value: round(allPages / (latency.medians.get(fastestMinimal(latency)) ?? Number.NaN), 2),
			unit: '×',
			repetitions: LATENCY_REPS,
			note: `median ${round(allPages, 1)} ms, ${round(allPages / latencyNode, 2)}× the shipped node${latencyHttp === undefined ? '' : `; HTTP Request node / this = ${round(latencyHttp / allPages, 2)}×`}; not the shipped code`,
		});
		writeResults(
			'return-all',
			COMMAND,
			figures,
			{ title, rows },
			{
				assets: ASSETS,
				repetitions: REPS,
				pageConcurrency: shippedConcurrency,
				latencyMs: LATENCY_MS,
				latencyRepetitions: LATENCY_REPS,
				loopback: {
					timesMs: Object.fromEntries(loopback.times),
					requests: Object.fromEntries(loopback.requests),
				},
				latency: {
					timesMs: Object.fromEntries(latency.times),
					requests: Object.fromEntries(latency.requests),
				},
				httpRequestNode: http.ok
					? { version: http.version, package: http.packageDir, packageVersion: http.packageVersion }
					: { missing: http.reason },
			},
		);
	} finally {
		await sandbox.close();
	}
}

await main();
