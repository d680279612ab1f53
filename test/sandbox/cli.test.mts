// `npm run sandbox` (sandbox/cli.mts) as a child process: startup output, control API, streaming
// upload memory, clean stop.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import { MiB, streamUpload } from './helpers.mts';

interface Ready {
	baseUrl: string;
	graphqlUrl: string;
	cdnUrl: string;
	controlUrl: string;
	keys: Record<string, string>;
}

let child: ChildProcessWithoutNullStreams;
let ready: Ready;
let stdout = '';
let exit: Promise<number | null>;

beforeAll(async () => {
	const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');
	child = spawn(
		tsx,
		['sandbox/cli.mts', '--port', '0', '--cdn-port', '0', '--seed', '3', '--clock', 'manual'],
		{ cwd: process.cwd() },
	);
	exit = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
	ready = await new Promise<Ready>((resolve, reject) => {
		child.stdout.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
			const line = stdout.split('\n').find((l) => l.startsWith('SANDBOX_READY '));
			if (line) resolve(JSON.parse(line.slice('SANDBOX_READY '.length)) as Ready);
		});
		child.on('exit', (code) => reject(new Error(`sandbox exited early (${code}): ${stdout}`)));
	});
});

afterAll(async () => {
	if (child.exitCode === null) {
		child.kill('SIGKILL');
		await exit;
	}
});

test('prints the base, GraphQL and CDN URLs and every key', async () => {
	expect(ready.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
	expect(ready.graphqlUrl).toBe(`${ready.baseUrl}/graphql`);
	expect(ready.cdnUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
	expect(Object.keys(ready.keys).sort()).toEqual([
		'admin',
		'brandAdmin',
		'expired',
		'noCredits',
		'orgAdmin',
		'otherBrandUser',
		'user',
	]);
	for (const text of [ready.baseUrl, ready.graphqlUrl, ready.cdnUrl, ...Object.values(ready.keys)])
		expect(stdout).toContain(text);
	const r = await fetch(`${ready.baseUrl}/videos?limit=1`, {
		headers: { authorization: `Bearer ${ready.keys.user}` },
	});
	expect(r.status).toBe(200);
	const info = (await (await fetch(`${ready.controlUrl}/info`)).json()) as {
		seed: number;
		clock: { mode: string };
	};
	expect(info).toMatchObject({ seed: 3, clock: { mode: 'manual' } });
});

test('a 128 MiB upload streams to disk: the server memory does not grow by the file size', async () => {
	const rss = async () =>
		((await (await fetch(`${ready.controlUrl}/stats`)).json()) as { memory: { rss: number } })
			.memory.rss;
	// Warm up the upload path once, so lazily loaded code does not count.
	await streamUpload(
		`${ready.baseUrl}/assets`,
		ready.keys.user,
		{ name: 'warm', type: 'video' },
		{ filename: 'w.mp4', contentType: 'video/mp4', size: MiB },
	);
	const baseline = await rss();
	let peak = baseline;
	let sampling = true;
	const sampler = (async () => {
		while (sampling) {
			peak = Math.max(peak, await rss());
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
	})();
	// Garbage chunks wait for V8's external-memory GC (~32 MiB), whatever the file size; a server
	// that held the file would grow by at least the file size.
	const size = 128 * MiB;
	const result = await streamUpload(
		`${ready.baseUrl}/assets`,
		ready.keys.user,
		{ name: 'Big video', type: 'video' },
		{ filename: 'big.mp4', contentType: 'video/mp4', size },
	);
	sampling = false;
	await sampler;
	peak = Math.max(peak, await rss());
	expect(result.status).toBe(201);
	expect(JSON.parse(result.body ?? '{}')).toMatchObject({ size, type: 'video' });
	expect(peak - baseline).toBeLessThan(size / 2);
});

test('stops cleanly on SIGTERM', async () => {
	child.kill('SIGTERM');
	expect(await exit).toBe(0);
	expect(stdout).toContain('sandbox stopped (SIGTERM)');
	await expect(fetch(`${ready.baseUrl}/videos`)).rejects.toThrow();
});
