// Benchmark 2: upload of a 200 MB video. A child process stores the file in n8n's binary store
// (filesystem mode, as a workflow would), then runs the node's Asset > Upload; its peak RSS
// (the kernel's VmHWM, reset just before the upload) is set against its RSS before the upload.
// A 20 MB upload runs in the same run, interleaved, to show whether the peak follows the size,
// and so does a 200 MB upload with V8's young generation capped (--max-semi-space-size=1), to
// show how much of the peak is the garbage collector's headroom rather than data held.
//   npm run bench:upload            (BENCH_REPS=n to change the repetitions)
import { scratch } from './lib/env.mts';

import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';

import { startSandbox } from '../sandbox/index.mts';
import { median, rotated, round, writeResults, type Figure } from './lib/report.mts';

const MIB = 1024 * 1024;
/** The spec's MB, as the node and the sandbox check it: 200 MB is the largest video the service takes. */
const MB = 1_000_000;
interface Config {
	label: string;
	bytes: number;
	v8Flags: string[];
}

const CONFIGS: Config[] = [
	{ label: '20 MB', bytes: 20 * MB, v8Flags: [] },
	{ label: '200 MB', bytes: 200 * MB, v8Flags: [] },
	{
		label: '200 MB, --max-semi-space-size=1 (diagnosis)',
		bytes: 200 * MB,
		v8Flags: ['--max-semi-space-size=1'],
	},
];
const REPS = Number(process.env.BENCH_REPS ?? 3);
const TARGET_MB = 64;
const COMMAND = 'npm run bench:upload';

interface ChildReport {
	fileBytes: number;
	uploadedBytes: number;
	binaryId: string;
	baselineRssMB: number;
	peakRssMB: number;
	peakAboveBaselineMB: number;
	sampledPeakAboveBaselineMB: number;
	storeStepPeakAboveBaselineMB: number;
	controlReadIntoMemoryAboveBaselineMB: number;
	durationMs: number;
}

function makeFile(bytes: number): string {
	const path = join(scratch, `video-${bytes}.mp4`);
	const block = randomBytes(MIB);
	// An MP4's first bytes (the upload checks them against the name and type).
	block.write('\0\0\0\x18ftypisom', 0, 'latin1');
	const fd = openSync(path, 'w');
	for (let written = 0; written < bytes; written += MIB)
		writeSync(fd, block, 0, Math.min(MIB, bytes - written));
	closeSync(fd);
	return path;
}

function runChild(
	file: string,
	baseUrl: string,
	apiKey: string,
	v8Flags: string[],
): Promise<ChildReport> {
	return new Promise((resolve, reject) => {
		const child = fork(
			join(process.cwd(), 'bench', 'lib', 'uploadChild.mts'),
			[file, baseUrl, apiKey],
			{
				execArgv: ['--import', 'tsx', '--expose-gc', ...v8Flags],
				stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
			},
		);
		let report: ChildReport | undefined;
		child.on('message', (message: ChildReport) => (report = message));
		child.on('exit', (code) =>
			report && code === 0
				? resolve(report)
				: reject(new Error(`upload child exited with ${code}`)),
		);
	});
}

async function main(): Promise<void> {
	const files = new Map(
		[...new Set(CONFIGS.map((config) => config.bytes))].map((bytes) => [bytes, makeFile(bytes)]),
	);
	const sandbox = await startSandbox({ quiet: true, dataset: { videos: 10, assets: 4 } });
	const reports = new Map<string, ChildReport[]>(CONFIGS.map((config) => [config.label, []]));
	try {
		for (let rep = 0; rep < REPS; rep++) {
			for (const config of rotated(CONFIGS, rep)) {
				const report = await runChild(
					files.get(config.bytes) ?? '',
					sandbox.baseUrl,
					sandbox.keys.user,
					config.v8Flags,
				);
				if (report.uploadedBytes !== config.bytes)
					throw new Error(`uploaded ${report.uploadedBytes} bytes of ${config.bytes}`);
				reports.get(config.label)?.push(report);
			}
		}
	} finally {
		await sandbox.close();
	}

	const summary = CONFIGS.map((config) => {
		const runs = reports.get(config.label) ?? [];
		const pick = (key: keyof ChildReport) => round(median(runs.map((run) => Number(run[key]))), 1);
		return {
			upload: `${config.label} (${round(config.bytes / MIB, 1)} MiB)`,
			'baseline RSS MB': pick('baselineRssMB'),
			'peak RSS MB': pick('peakRssMB'),
			'peak above baseline MB': pick('peakAboveBaselineMB'),
			'sampled (5 ms) above MB': pick('sampledPeakAboveBaselineMB'),
			'storing in binary store, above MB': pick('storeStepPeakAboveBaselineMB'),
			'control: file read into memory, above MB': pick('controlReadIntoMemoryAboveBaselineMB'),
			'upload ms': pick('durationMs'),
			'worst above baseline MB': round(Math.max(...runs.map((run) => run.peakAboveBaselineMB)), 1),
			'MB/s': round(config.bytes / MB / (median(runs.map((run) => run.durationMs)) / 1000), 0),
		};
	});
	const title = `Upload through the node, peak RSS of the process running it, ${REPS} child processes per size (medians)`;

	const big = reports.get('200 MB') ?? [];
	const capped = reports.get(CONFIGS[2].label) ?? [];
	const bigAbove = big.map((run) => run.peakAboveBaselineMB);
	const worst = Math.max(...bigAbove);
	const figures: Figure[] = [
		{
			name: `Upload 200 MB video: peak RSS above baseline (worst of ${REPS})`,
			value: round(worst, 1),
			unit: 'MB',
			target: `< ${TARGET_MB} MB`,
			met: worst < TARGET_MB,
			repetitions: REPS,
			note: `median ${round(median(bigAbove), 1)} MB; 20 MB upload: median ${round(median((reports.get('20 MB') ?? []).map((run) => run.peakAboveBaselineMB)), 1)} MB; young generation capped: median ${round(median(capped.map((run) => run.peakAboveBaselineMB)), 1)} MB; control (file read into memory): ${round(median(big.map((run) => run.controlReadIntoMemoryAboveBaselineMB)), 1)} MB`,
		},
		{
			name: 'Upload 200 MB video: peak RSS above baseline / file size (median)',
			value: round(median(bigAbove) / 200, 3),
			unit: '×',
			repetitions: REPS,
		},
	];
	writeResults(
		'upload',
		COMMAND,
		figures,
		{ title, rows: summary },
		{ repetitions: REPS, runs: Object.fromEntries(reports), summary },
	);
}

await main();
