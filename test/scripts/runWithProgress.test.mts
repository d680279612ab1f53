import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { registryProgress, runWithProgress } from '../../scripts/lib/n8n.mjs';

// The n8n install's watchdog: a command that goes quiet is stopped and reported as stalled (CI
// once waited 75 minutes on an npm install that printed nothing), one that names a reason to
// give up is stopped at once, and the registry count survives lines split across chunks.
describe('runWithProgress', () => {
	const dir = mkdtempSync(join(tmpdir(), 'run-with-progress-'));
	const logFile = join(dir, 'run.log');
	afterAll(() => rmSync(dir, { recursive: true, force: true }));
	const run = (
		script: string,
		options: {
			stallMs?: number;
			maxMs?: number;
			abortOn?: (text: string) => string | undefined;
			footprint?: () => unknown;
		},
	) =>
		runWithProgress(() => undefined, 'a command', process.execPath, ['-e', script], {
			cwd: dir,
			env: process.env,
			logFile,
			...options,
		});

	type Failure = Error & { stalled?: boolean };
	/** What the run was rejected with (undefined when it resolved). */
	const failureOf = (running: Promise<void>) =>
		running.then(
			() => undefined,
			(caught: Failure) => caught,
		);

	it('resolves when the command succeeds, and keeps its output in the log', async () => {
		await run("console.log('all done')", { stallMs: 10_000 });
		expect(readFileSync(logFile, 'utf8')).toContain('all done');
	});

	it('stops a command that prints nothing for stallMs and says it stalled', async () => {
		const error = await failureOf(
			run("console.log('started'); setTimeout(() => {}, 60_000)", { stallMs: 400 }),
		);
		expect(error).toBeInstanceOf(Error);
		expect(error?.stalled).toBe(true);
		expect(error?.message).toMatch(/a command: no output and no change on disk for \d+s; stopped/);
		expect(error?.message).toContain('started');
	});

	it('stops a command that keeps printing but runs past maxMs', async () => {
		const error = await failureOf(
			run("setInterval(() => console.log('still going'), 50)", { maxMs: 500 }),
		);
		expect(error?.message).toMatch(/^a command: not done after 1s; stopped/);
		expect(error?.stalled).toBe(true);
	});

	it('lets a quiet command run on while its footprint changes', async () => {
		let written = 0;
		await run("console.log('unpacking'); setTimeout(() => {}, 1_500)", {
			stallMs: 400,
			footprint: () => written++,
		});
		expect(written).toBeGreaterThan(1);
	});

	it('stops a command at once when abortOn names a reason, and is not a stall', async () => {
		const error = await failureOf(
			run(
				"console.log('npm warn tar TAR_ENTRY_ERROR ENOSPC: no space left'); setInterval(() => console.log('more'), 50)",
				{ abortOn: (text) => (text.includes('ENOSPC') ? 'the disk is full' : undefined) },
			),
		);
		expect(error?.message).toMatch(/^a command: the disk is full; last lines/);
		expect(error?.stalled).toBeUndefined();
	});

	it('reports the exit code of a failing command with its last lines', async () => {
		await expect(run("console.error('broken'); process.exit(3)", {})).rejects.toThrow(
			/a command failed \(exit 3\); last lines of .*\n[\s\S]*broken/,
		);
	});
});

describe('registryProgress', () => {
	it('counts registry requests across chunks, however the output is cut', () => {
		const progress = registryProgress();
		progress.take('npm http fetch GET 200 https://registry.npmjs.org/a 10ms\nnpm http fe');
		progress.take('tch GET 200 https://registry.npmjs.org/b 12ms\nnpm warn something\n');
		expect(progress.line()).toBe('2 registry requests done');
		progress.take('\nadded 3208 packages in 3s\n');
		expect(progress.line()).toBe('3208 packages added');
	});
});
