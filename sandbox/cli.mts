// `npm run sandbox`: runs the sandbox until SIGINT/SIGTERM. Flags: see README "CLI" or --help.
import { parseArgs } from 'node:util';
import { startSandbox, type Sandbox } from './index.mts';
import { RATE_LIMIT_HEADERS, RATE_LIMIT_SHAPES } from './rateLimit.mts';
import type { SandboxOptions, ScriptedFault } from './types.mts';

const HELP = `Usage: npm run sandbox -- [flags]
  --host <addr>              listen address (default 127.0.0.1)
  --port <n>                 API port (default 5680; 0 = random)
  --cdn-port <n>             CDN port (default 5681; 0 = random)
  --seed <n>                 data seed (default 1)
  --dataset default|large    ~250 videos/120 assets, or 100,000 videos/10,000 assets
  --clock real|manual        real (default): time follows the wall clock
  --queue-ms <n>             draft time of a new video (default 2000)
  --render-min-ms <n>        shortest render (default 10000)
  --render-max-ms <n>        longest render (default 30000)
  --failure-share <0..1>     share of failed renders (default 0.1)
  --list-order newest-first|oldest-first
  --listing-lag <a>-<b>      the video list shows each new video a to b seconds after its
                             created_at (seeded per video; default: at once)
  --graphql-max-limit <n>    largest query-style page (default 100)
  --graphql-over-limit cap|reject
  --data-dir <path>          keep uploads here (default: a temp dir removed on exit)
  --rate-limit <R>           rate limiter on: a token bucket of R requests per second (API only)
  --burst <B>                the bucket's size (default ceil(R))
  --rate-limit-headers none|ratelimit|x-ratelimit
                             rate-limit headers on limited routes (default none: Retry-After only)
  --rate-limit-scope key|global
                             one bucket per API key (default) or one for all
  --rate-limit-clock wall|sandbox
                             refill with wall time (default) or with the sandbox clock
  --rate-limit-shape bucket|fixed-window|sliding-window
                             a token bucket (default) or R x window requests per window
  --rate-limit-window <s>    the window of the window shapes, seconds (default 1)
  --no-retry-after           429s without Retry-After
  --rate-limit-latency <ms>  a service this far away: requests the limiter matches answered this much later
  --hang <route>             never answer matching API requests (repeatable): '*' for all,
                             '/v1/videos', 'POST /v1/videos', '/v1/assets*' (a prefix)
  --quiet                    print only the READY line`;

function num(name: string, value: string | undefined): number | undefined {
	if (value === undefined) return undefined;
	const n = Number(value);
	if (!Number.isFinite(n)) throw new Error(`--${name} needs a number, got ${value}`);
	return n;
}

/** `--hang` routes as scripted 'hang' faults for every matching request: '[METHOD ]PATH'. */
function hangRules(routes: string[]): ScriptedFault[] {
	return routes.map((route) => {
		const m = /^(?:([A-Za-z]+)\s+)?(\S+)$/.exec(route.trim());
		if (!m || !(m[2] === '*' || m[2].startsWith('/')))
			throw new Error(`--hang needs '*', a path or 'METHOD /path', got ${route}`);
		return { kind: 'hang', times: 'always', match: { method: m[1]?.toUpperCase(), path: m[2] } };
	});
}

/** `--listing-lag 1-5` (seconds) as a ListingLag in ms; one number is a fixed lag. */
function listingLag(value: string | undefined): SandboxOptions['listingLag'] {
	if (value === undefined) return undefined;
	const m = /^(\d+(?:\.\d+)?)(?:-(\d+(?:\.\d+)?))?$/.exec(value.trim());
	if (!m) throw new Error(`--listing-lag needs seconds 'a-b' or 'a', got ${value}`);
	const [minMs, maxMs] = [Number(m[1]) * 1000, Number(m[2] ?? m[1]) * 1000];
	if (maxMs < minMs) throw new Error(`--listing-lag needs a <= b, got ${value}`);
	return { minMs, maxMs };
}

interface CliOptions extends SandboxOptions {
	hang: ScriptedFault[];
}

function options(argv: string[]): CliOptions | undefined {
	const { values } = parseArgs({
		args: argv,
		options: {
			host: { type: 'string' },
			port: { type: 'string' },
			'cdn-port': { type: 'string' },
			seed: { type: 'string' },
			dataset: { type: 'string' },
			clock: { type: 'string' },
			'queue-ms': { type: 'string' },
			'render-min-ms': { type: 'string' },
			'render-max-ms': { type: 'string' },
			'failure-share': { type: 'string' },
			'list-order': { type: 'string' },
			'listing-lag': { type: 'string' },
			'graphql-max-limit': { type: 'string' },
			'graphql-over-limit': { type: 'string' },
			'data-dir': { type: 'string' },
			'rate-limit': { type: 'string' },
			burst: { type: 'string' },
			'rate-limit-headers': { type: 'string' },
			'rate-limit-scope': { type: 'string' },
			'rate-limit-clock': { type: 'string' },
			'rate-limit-shape': { type: 'string' },
			'rate-limit-window': { type: 'string' },
			'no-retry-after': { type: 'boolean' },
			'rate-limit-latency': { type: 'string' },
			hang: { type: 'string', multiple: true },
			quiet: { type: 'boolean' },
			help: { type: 'boolean', short: 'h' },
		},
	});
	if (values.help) return undefined;
	const oneOf = <T extends string>(
		name: string,
		value: string | undefined,
		allowed: readonly T[],
	): T | undefined => {
		if (value === undefined) return undefined;
		if (!(allowed as readonly string[]).includes(value))
			throw new Error(`--${name} must be one of ${allowed.join(', ')}`);
		return value as T;
	};
	return {
		host: values.host,
		port: num('port', values.port) ?? 5680,
		cdnPort: num('cdn-port', values['cdn-port']) ?? 5681,
		seed: num('seed', values.seed),
		dataset: oneOf('dataset', values.dataset, ['default', 'large'] as const),
		clock: oneOf('clock', values.clock, ['real', 'manual'] as const) ?? 'real',
		render: {
			queueMs: num('queue-ms', values['queue-ms']),
			minMs: num('render-min-ms', values['render-min-ms']),
			maxMs: num('render-max-ms', values['render-max-ms']),
			failureShare: num('failure-share', values['failure-share']),
		},
		listOrder: oneOf('list-order', values['list-order'], ['newest-first', 'oldest-first'] as const),
		listingLag: listingLag(values['listing-lag']),
		graphql: {
			maxLimit: num('graphql-max-limit', values['graphql-max-limit']),
			overLimit: oneOf('graphql-over-limit', values['graphql-over-limit'], [
				'cap',
				'reject',
			] as const),
		},
		dataDir: values['data-dir'],
		rateLimit: rateLimitOptions(values, oneOf),
		hang: hangRules(values.hang ?? []),
		quiet: values.quiet,
	};
}

function rateLimitOptions(
	values: Record<string, string | boolean | string[] | undefined>,
	oneOf: <T extends string>(
		name: string,
		value: string | undefined,
		allowed: readonly T[],
	) => T | undefined,
): SandboxOptions['rateLimit'] {
	const text = (name: string) => values[name] as string | undefined;
	const rate = num('rate-limit', text('rate-limit'));
	const others = [
		'burst',
		'rate-limit-headers',
		'rate-limit-scope',
		'rate-limit-clock',
		'rate-limit-shape',
		'rate-limit-window',
		'no-retry-after',
		'rate-limit-latency',
	].filter((name) => values[name] !== undefined);
	if (rate === undefined) {
		if (others.length) throw new Error(`--${others[0]} needs --rate-limit`);
		return undefined;
	}
	return {
		rate,
		burst: num('burst', text('burst')),
		headers: oneOf('rate-limit-headers', text('rate-limit-headers'), RATE_LIMIT_HEADERS),
		scope: oneOf('rate-limit-scope', text('rate-limit-scope'), ['key', 'global'] as const),
		clock: oneOf('rate-limit-clock', text('rate-limit-clock'), ['wall', 'sandbox'] as const),
		shape: oneOf('rate-limit-shape', text('rate-limit-shape'), RATE_LIMIT_SHAPES),
		window: num('rate-limit-window', text('rate-limit-window')),
		retryAfter: values['no-retry-after'] ? false : undefined,
		latencyMs: num('rate-limit-latency', text('rate-limit-latency')),
	};
}

/** Drops undefined values so defaults apply. */
function defined<T extends object>(obj: T): T {
	return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}

async function main(): Promise<void> {
	let opts: CliOptions | undefined;
	try {
		opts = options(process.argv.slice(2));
	} catch (e) {
		console.error(`${(e as Error).message}\n\n${HELP}`);
		process.exit(2);
	}
	if (!opts) {
		console.log(HELP);
		return;
	}
	if (opts.render) opts.render = defined(opts.render);
	if (opts.graphql) opts.graphql = defined(opts.graphql);
	if (opts.rateLimit) opts.rateLimit = defined(opts.rateLimit);
	const started = Date.now();
	const { hang, ...sandboxOptions } = opts;
	let sandbox: Sandbox;
	try {
		sandbox = await startSandbox(defined(sandboxOptions));
	} catch (e) {
		if (!(e instanceof RangeError)) throw e;
		console.error(`${e.message}\n\n${HELP}`);
		process.exit(2);
	}
	if (hang.length) sandbox.faults.script(hang);
	const ready = {
		baseUrl: sandbox.baseUrl,
		graphqlUrl: sandbox.graphqlUrl,
		cdnUrl: sandbox.cdnUrl,
		controlUrl: sandbox.controlUrl,
		keys: sandbox.keys,
	};
	if (!opts.quiet) {
		const width = Math.max(...Object.keys(sandbox.keys).map((k) => k.length));
		console.log(
			[
				`Video Personalization sandbox (seed ${opts.seed ?? 1}, dataset ${opts.dataset ?? 'default'}, clock ${opts.clock}) ready in ${Date.now() - started} ms`,
				`  API:      ${sandbox.baseUrl}`,
				`  GraphQL:  ${sandbox.graphqlUrl}`,
				`  CDN:      ${sandbox.cdnUrl}`,
				`  Control:  ${sandbox.controlUrl}/info`,
				...(opts.rateLimit ? [`  Rate limit: ${JSON.stringify(sandbox.rateLimit.config())}`] : []),
				...(hang.length
					? [
							`  Never answers: ${hang.map((rule) => `${rule.match?.method ?? ''} ${String(rule.match?.path)}`.trim()).join(', ')}`,
						]
					: []),
				'  Keys (Authorization: Bearer <key>):',
				...Object.entries(sandbox.keys).map(([name, key]) => `    ${name.padEnd(width)}  ${key}`),
				'  Ctrl-C to stop.',
			].join('\n'),
		);
	}
	console.log(`SANDBOX_READY ${JSON.stringify(ready)}`);
	let stopping = false;
	const stop = (signal: string) => {
		if (stopping) return;
		stopping = true;
		void sandbox.close().then(() => {
			if (!opts.quiet) console.log(`sandbox stopped (${signal})`);
			process.exit(0);
		});
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

void main();
