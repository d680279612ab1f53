// Benchmark 1: Return All of 10,000 assets. The node in n8n's engine vs. a minimal hand-written
// client (fetch with keep-alive; page 1, then the other pages in parallel) vs. n8n's HTTP Request
// node with its pagination option, all against one sandbox in a child process, interleaved.
//   npm run bench:return-all            (BENCH_REPS=n to change the repetitions)
import './lib/env.mts';

import type { INodeProperties } from 'n8n-workflow';

import { credentialType, runNode } from '../test/harness/engine.mts';
import { BARE_LIST_TYPE } from './lib/bareNode.mts';
import { httpRequestNode, httpRequestPaginationParameters } from './lib/httpRequestNode.mts';
import { startRemoteSandbox, type RemoteSandbox } from './lib/remoteSandbox.mts';
import { median, round, rotated, timed, writeResults, type Figure } from './lib/report.mts';

const ASSETS = 10_000;
const PAGE_SIZE = 100;
const REPS = Number(process.env.BENCH_REPS ?? 11);
const COMMAND = 'npm run bench:return-all';

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
	const pages = Array.from({ length: Math.ceil(first.pagination.total / PAGE_SIZE) - 1 }, (_, index) => index + 2);
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
 * What-if for the diagnosis (the code is not changed): the credential's two notices shown by
 * `_cnd: { regex }` conditions, which n8n evaluates in a vm sandbox every time it resolves the
 * credential (once per request), replaced by plain startsWith conditions.
 */
function withoutRegexNotices(properties: INodeProperties[]): INodeProperties[] {
	return properties.map((property) =>
		JSON.stringify(property.displayOptions ?? {}).includes('"regex"')
			? { ...property, displayOptions: { show: { baseUrl: [{ _cnd: { startsWith: 'http://' } }] } } }
			: property,
	);
}

async function contenders(sandbox: RemoteSandbox, httpVersion: number | undefined): Promise<Contender[]> {
	const credentials = { apiKey: sandbox.keys.user, baseUrl: sandbox.baseUrl };
	const runTheNode = async () => {
		const result = await runNode({ parameters: { resource: 'asset', operation: 'getAll', returnAll: true }, credentials });
		if (result.error) throw result.error;
		return result.items.map((item) => String(item.json.id));
	};
	const type = await credentialType();
	const shipped = type.properties;
	const list: Contender[] = [
		{ name: 'node (Return All)', run: runTheNode },
		{
			name: 'what-if: node, credential notices without regex',
			run: async () => {
				type.properties = withoutRegexNotices(shipped);
				try {
					return await runTheNode();
				} finally {
					type.properties = shipped;
				}
			},
		},
		...[true, false].map(
			(withAuthentication): Contender => ({
				name: `floor: bare node, ${withAuthentication ? 'httpRequestWithAuthentication' : 'httpRequest + own header'}`,
				run: async () => {
					const result = await runNode({ nodeType: BARE_LIST_TYPE, parameters: { path: '/assets', withAuthentication }, credentials });
					if (result.error) throw result.error;
					return result.items.map((item) => String(item.json.id));
				},
			}),
		),
		{ name: 'minimal client, 4 parallel', run: async () => await minimalClient(sandbox.baseUrl, sandbox.keys.user, 4) },
		{ name: 'minimal client, all parallel', run: async () => await minimalClient(sandbox.baseUrl, sandbox.keys.user, Infinity) },
	];
	if (httpVersion !== undefined) {
		const runHttp = async () => {
			const result = await runNode({
				nodeType: 'n8n-nodes-base.httpRequest',
				node: { typeVersion: httpVersion },
				parameters: httpRequestPaginationParameters(`${sandbox.baseUrl}/assets`, PAGE_SIZE),
				credentials,
			});
			if (result.error) throw result.error;
			// One item per page ({ data, pagination }); a workflow would add a Split Out node.
			return result.items.flatMap((item) => ((item.json as unknown as Envelope).data ?? []).map((asset) => asset.id));
		};
		list.push(
			{ name: 'HTTP Request node, pagination', run: runHttp },
			{
				// It resolves the same credential on every request, so the what-if applies to it too.
				name: 'what-if: HTTP Request node, credential notices without regex',
				run: async () => {
					type.properties = withoutRegexNotices(shipped);
					try {
						return await runHttp();
					} finally {
						type.properties = shipped;
					}
				},
			},
		);
	}
	return list;
}

async function main(): Promise<void> {
	const http = await httpRequestNode();
	if (!http.ok) console.warn(`HTTP Request node not measured: ${http.reason}`);
	const sandbox = await startRemoteSandbox({ dataset: { videos: 100, assets: ASSETS } });
	try {
		const list = await contenders(sandbox, http.ok ? http.version : undefined);
		const times = new Map<string, number[]>(list.map((contender) => [contender.name, []]));
		const requests = new Map<string, number>();
		// Warm-up: every contender once (JIT, connections, engine load), checked for completeness.
		for (const contender of list) {
			await sandbox.call('requests.clear');
			const ids = await contender.run();
			requests.set(contender.name, await sandbox.call<number>('requests.count'));
			if (ids.length !== ASSETS || new Set(ids).size !== ASSETS) {
				throw new Error(`${contender.name}: got ${ids.length} assets (${new Set(ids).size} distinct), expected ${ASSETS}`);
			}
		}
		for (let rep = 0; rep < REPS; rep++) {
			for (const contender of rotated(list, rep)) {
				const { ms, value } = await timed(contender.run);
				if (value.length !== ASSETS) throw new Error(`${contender.name}: ${value.length} assets`);
				times.get(contender.name)?.push(ms);
			}
		}

		const medians = new Map([...times].map(([name, values]) => [name, median(values)]));
		const node = medians.get('node (Return All)') ?? Number.NaN;
		const minimalName = (medians.get('minimal client, 4 parallel') ?? Infinity) <= (medians.get('minimal client, all parallel') ?? Infinity)
			? 'minimal client, 4 parallel'
			: 'minimal client, all parallel';
		const minimal = medians.get(minimalName) ?? Number.NaN;
		const rows = list.map((contender) => {
			const values = times.get(contender.name) ?? [];
			return {
				contender: contender.name,
				'median ms': round(median(values), 1),
				'min ms': round(Math.min(...values), 1),
				'max ms': round(Math.max(...values), 1),
				requests: requests.get(contender.name),
				'vs node': round(median(values) / node, 2),
			};
		});
		const title = `Return All of ${ASSETS.toLocaleString('en-US')} assets, ${REPS} interleaved repetitions after one warm-up each`;

		const figures: Figure[] = [
			{
				name: `Return All ${ASSETS.toLocaleString('en-US')} assets: node time / fastest minimal client (${minimalName})`,
				value: round(node / minimal, 2),
				unit: '×',
				target: '<= 1.25',
				met: node / minimal <= 1.25,
				repetitions: REPS,
				note: `medians ${round(node, 1)} ms vs ${round(minimal, 1)} ms`,
			},
		];
		const whatIf = medians.get('what-if: node, credential notices without regex') ?? Number.NaN;
		figures.push({
			name: `Diagnosis, what-if: node with the credential's regex notices replaced / fastest minimal client`,
			value: round(whatIf / minimal, 2),
			unit: '×',
			repetitions: REPS,
			note: `median ${round(whatIf, 1)} ms; not the shipped code`,
		});
		const httpMedian = medians.get('HTTP Request node, pagination');
		const httpWhatIf = medians.get('what-if: HTTP Request node, credential notices without regex');
		if (httpWhatIf !== undefined) {
			figures.push({
				name: `Diagnosis, what-if: HTTP Request node time / node time, both with the regex notices replaced`,
				value: round(httpWhatIf / whatIf, 2),
				unit: '×',
				repetitions: REPS,
				note: `medians ${round(httpWhatIf, 1)} ms vs ${round(whatIf, 1)} ms; not the shipped code`,
			});
		}
		if (httpMedian !== undefined) {
			figures.push({
				name: `Return All ${ASSETS.toLocaleString('en-US')} assets: HTTP Request node (pagination) time / node time`,
				value: round(httpMedian / node, 2),
				unit: '×',
				target: '>= 3',
				met: httpMedian / node >= 3,
				repetitions: REPS,
				note: `medians ${round(httpMedian, 1)} ms vs ${round(node, 1)} ms`,
			});
		}
		writeResults('return-all', COMMAND, figures, { title, rows }, {
			assets: ASSETS,
			repetitions: REPS,
			timesMs: Object.fromEntries(times),
			requests: Object.fromEntries(requests),
			httpRequestNode: http.ok ? { version: http.version, package: http.packageDir } : { missing: http.reason },
			rows,
		});
	} finally {
		await sandbox.close();
	}
}

await main();
