// Benchmark 2: upload of a 200 MB video. A child process stores the file in n8n's binary store
// (filesystem mode, as a workflow would), then runs the node's Asset > Upload; its peak RSS
// (the kernel's VmHWM, reset just before the upload) is set against its RSS before the upload.
// A 20 MB upload runs in the same run, interleaved, to show whether the peak follows the size.
//   npm run bench:upload            (BENCH_REPS=n to change the repetitions)
import { scratch } from './lib/env.mts';

import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';

import { startSandbox } from '../sandbox/index.mts';
import { median, round, writeResults, type Figure } from './lib/report.mts';

const MIB = 1024 * 1024;
const SIZES_MIB = [20, 200];
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
	durationMs: number;
}

function makeFile(mib: number): string {
	const path = join(scratch, `video-${mib}MiB.mp4`);
	const block = randomBytes(MIB);
	const fd = openSync(path, 'w');
	for (let index = 0; index < mib; index++) writeSync(fd, block);
	closeSync(fd);
	return path;
}

function runChild(file: string, baseUrl: string, apiKey: string): Promise<ChildReport> {
	return new Promise((resolve, reject) => {
		const child = fork(join(process.cwd(), 'bench', 'lib', 'uploadChild.mts'), [file, baseUrl, apiKey], {
			execArgv: ['--import', 'tsx', '--expose-gc'],
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		let report: ChildReport | undefined;
		child.on('message', (message: ChildReport) => (report = message));
		child.on('exit', (code) => (report && code === 0 ? resolve(report) : reject(new Error(`upload child exited with ${code}`))));
	});
}

async function main(): Promise<void> {
	const files = new Map(SIZES_MIB.map((mib) => [mib, makeFile(mib)]));
	const sandbox = await startSandbox({ quiet: true, dataset: { videos: 10, assets: 4 } });
	const reports = new Map<number, ChildReport[]>(SIZES_MIB.map((mib) => [mib, []]));
	try {
		for (let rep = 0; rep < REPS; rep++) {
			for (const mib of rep % 2 === 0 ? SIZES_MIB : [...SIZES_MIB].reverse()) {
				const report = await runChild(files.get(mib) ?? '', sandbox.baseUrl, sandbox.keys.user);
				if (report.uploadedBytes !== mib * MIB) throw new Error(`uploaded ${report.uploadedBytes} bytes of ${mib * MIB}`);
				reports.get(mib)?.push(report);
			}
		}
	} finally {
		await sandbox.close();
	}

	const summary = SIZES_MIB.map((mib) => {
		const runs = reports.get(mib) ?? [];
		const pick = (key: keyof ChildReport) => round(median(runs.map((run) => Number(run[key]))), 1);
		return {
			file: `${mib} MiB (${round((mib * MIB) / 1e6, 1)} MB)`,
			'baseline RSS MB': pick('baselineRssMB'),
			'peak RSS MB': pick('peakRssMB'),
			'peak above baseline MB': pick('peakAboveBaselineMB'),
			'sampled (5 ms) above MB': pick('sampledPeakAboveBaselineMB'),
			'storing in binary store, above MB': pick('storeStepPeakAboveBaselineMB'),
			'upload ms': pick('durationMs'),
			'MB/s': round((mib * MIB) / 1e6 / (median(runs.map((run) => run.durationMs)) / 1000), 0),
		};
	});
	const title = `Upload through the node, peak RSS of the process running it, ${REPS} child processes per size (medians)`;

	const big = reports.get(200) ?? [];
	const bigAbove = median(big.map((run) => run.peakAboveBaselineMB));
	const figures: Figure[] = [
		{
			name: 'Upload 200 MiB video: peak RSS above baseline',
			value: round(bigAbove, 1),
			unit: 'MB',
			target: `< ${TARGET_MB} MB`,
			met: bigAbove < TARGET_MB,
			repetitions: REPS,
		},
		{
			name: 'Upload 200 MiB video: peak RSS above baseline / file size',
			value: round(bigAbove / ((200 * MIB) / 1e6), 3),
			unit: '×',
			repetitions: REPS,
		},
	];
	writeResults('upload', COMMAND, figures, { title, rows: summary }, { repetitions: REPS, runs: Object.fromEntries(reports), summary });
}

await main();
