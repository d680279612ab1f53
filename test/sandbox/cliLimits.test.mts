// `npm run sandbox` flags for the rate limiter and for routes that never answer.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import { http } from './helpers.mts';

interface Ready {
	baseUrl: string;
	graphqlUrl: string;
	controlUrl: string;
	keys: Record<string, string>;
}

interface Started {
	child: ChildProcessWithoutNullStreams;
	exit: Promise<number | null>;
	ready: Promise<Ready>;
	output: () => string;
}

function startCli(args: string[]): Started {
	const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');
	const child = spawn(tsx, ['sandbox/cli.mts', '--port', '0', '--cdn-port', '0', ...args], {
		cwd: process.cwd(),
	});
	let output = '';
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	const ready = new Promise<Ready>((resolve, reject) => {
		child.stdout.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			const line = output.split('\n').find((l) => l.startsWith('SANDBOX_READY '));
			if (line) resolve(JSON.parse(line.slice('SANDBOX_READY '.length)) as Ready);
		});
		void exit.then((code) => reject(new Error(`sandbox exited (${code}): ${output}`)));
	});
	ready.catch(() => undefined);
	return { child, exit, ready, output: () => output };
}

describe('limiter and hang flags', () => {
	let cli: Started;
	let ready: Ready;
	beforeAll(async () => {
		cli = startCli([
			'--clock',
			'manual',
			'--rate-limit',
			'2',
			'--burst',
			'1',
			'--rate-limit-headers',
			'x-ratelimit',
			'--rate-limit-clock',
			'sandbox',
			'--hang',
			'POST /v1/videos',
			'--hang',
			'/v1/graphql',
		]);
		ready = await cli.ready;
	});
	afterAll(async () => {
		if (cli.child.exitCode === null) {
			cli.child.kill('SIGTERM');
			await cli.exit;
		}
	});

	test('the limiter is on as the flags say, and shows in info and the startup text', async () => {
		const info = await http<{ rateLimit: unknown }>(`${ready.controlUrl}/info`);
		expect(info.json.rateLimit).toEqual({
			rate: 2,
			burst: 1,
			headers: 'x-ratelimit',
			scope: 'key',
			clock: 'sandbox',
			shape: 'bucket',
			window: 1,
			retryAfter: true,
			latencyMs: 0,
		});
		expect(cli.output()).toContain('Rate limit: {"rate":2,"burst":1');
		expect(cli.output()).toContain('Never answers: POST /v1/videos, /v1/graphql');
		const get = () =>
			http(`${ready.baseUrl}/videos?limit=1`, {
				headers: { authorization: `Bearer ${ready.keys.user}` },
			});
		const first = await get();
		expect(first.status).toBe(200);
		expect(first.headers.get('x-ratelimit-remaining')).toBe('0');
		const refused = await get();
		expect(refused.status).toBe(429);
		expect(refused.headers.get('retry-after')).toBe('1');
		await http(`${ready.controlUrl}/clock`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ advanceMs: 500 }),
		});
		expect((await get()).status).toBe(200);
		expect((await http(`${ready.controlUrl}/rate-limit`)).json).toMatchObject({
			counters: { requests: 3, limited: 1 },
		});
	});

	test('--hang routes never answer (each key has its own bucket, so the admin key gets through the limiter)', async () => {
		const headers = {
			authorization: `Bearer ${ready.keys.admin}`,
			'content-type': 'application/json',
		};
		await expect(
			fetch(ready.graphqlUrl, {
				method: 'POST',
				headers,
				body: '{"query":"{ __typename }"}',
				signal: AbortSignal.timeout(300),
			}),
		).rejects.toMatchObject({ name: 'TimeoutError' });
		const faults = await http<{
			scripted: Array<{ kind: string; times: string; match: { method?: string; path: string } }>;
		}>(`${ready.controlUrl}/faults`);
		expect(
			faults.json.scripted.map((rule) => [
				rule.kind,
				rule.times,
				rule.match.method,
				rule.match.path,
			]),
		).toEqual([
			['hang', 'always', 'POST', '/v1/videos'],
			['hang', 'always', undefined, '/v1/graphql'],
		]);
	});
});

test('--rate-limit-shape, --rate-limit-window, --no-retry-after and --rate-limit-latency: a window limiter without Retry-After, far away', async () => {
	const cli = startCli([
		'--rate-limit',
		'3',
		'--rate-limit-shape',
		'fixed-window',
		'--rate-limit-window',
		'10',
		'--no-retry-after',
		'--rate-limit-latency',
		'80',
	]);
	try {
		const ready = await cli.ready;
		const info = await http<{ rateLimit: unknown }>(`${ready.controlUrl}/info`);
		expect(info.json.rateLimit).toMatchObject({
			rate: 3,
			shape: 'fixed-window',
			window: 10,
			retryAfter: false,
			latencyMs: 80,
		});
	} finally {
		cli.child.kill('SIGTERM');
		await cli.exit;
	}
});

test.each([
	[['--burst', '2'], '--burst needs --rate-limit'],
	[['--rate-limit', '0'], 'rate must be a number > 0'],
	[
		['--rate-limit', '5', '--rate-limit-headers', 'draft'],
		'--rate-limit-headers must be one of none, ratelimit, x-ratelimit',
	],
	[['--hang', 'videos'], "--hang needs '*', a path or 'METHOD /path'"],
	[['--no-retry-after'], '--no-retry-after needs --rate-limit'],
	[['--rate-limit-latency', '50'], '--rate-limit-latency needs --rate-limit'],
	[
		['--rate-limit', '5', '--rate-limit-shape', 'leaky'],
		'--rate-limit-shape must be one of bucket, fixed-window, sliding-window',
	],
])('%j: exits 2 with the reason and the usage', async (args, message) => {
	const cli = startCli(args);
	expect(await cli.exit).toBe(2);
	expect(cli.output()).toContain(message);
	expect(cli.output()).toContain('Usage: npm run sandbox');
});
