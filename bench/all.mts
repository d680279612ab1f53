// `npm run bench`: every benchmark, one after the other, each in its own process (after the
// build), then BENCHMARKS.md rewritten from the results. BENCH_ONLY is for trying a few:
// BENCH_ONLY=upload,trigger npm run bench (the run time is then not recorded).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { RESULTS_DIR, round } from './lib/report.mts';

const BENCHMARKS: Array<[string, string]> = [
	['return-all', 'bench/returnAll.mts'],
	['upload', 'bench/upload.mts'],
	['create', 'bench/createVideos.mts'],
	['create-and-wait', 'bench/createAndWait.mts'],
	['trigger', 'bench/trigger.mts'],
	['rate-limit', 'bench/rateLimit.mts'],
	['profile', 'bench/profile.mts'],
];

const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
const started = Date.now();
const failed: string[] = [];
const seconds: Record<string, number> = {};
for (const [name, file] of BENCHMARKS) {
	if (only && !only.includes(name)) continue;
	console.log(`\n=== ${name} (${file}) ===`);
	const begun = Date.now();
	let run = spawnSync(process.execPath, ['--import', 'tsx', file], { stdio: 'inherit' });
	if (run.status !== 0) {
		// Others build in the same tree: dist/ may have been half rewritten. Build and try once more.
		console.log(`=== ${name} failed (exit ${run.status}); building again and retrying once ===`);
		spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
		run = spawnSync(process.execPath, ['--import', 'tsx', file], { stdio: 'inherit' });
	}
	seconds[name] = (Date.now() - begun) / 1000;
	console.log(
		`=== ${name}: ${run.status === 0 ? 'done' : `FAILED (exit ${run.status})`} in ${round(seconds[name], 1)} s ===`,
	);
	if (run.status !== 0) failed.push(name);
}
const total = (Date.now() - started) / 1000;
if (!only && failed.length === 0) {
	mkdirSync(RESULTS_DIR, { recursive: true });
	writeFileSync(
		join(RESULTS_DIR, 'all.json'),
		`${JSON.stringify({ date: new Date().toISOString(), seconds: total, benchmarks: seconds }, null, 2)}\n`,
	);
}
spawnSync(process.execPath, ['--import', 'tsx', 'bench/markdown.mts'], { stdio: 'inherit' });
console.log(
	`\nAll benchmarks: ${round(total, 1)} s${failed.length ? `; failed: ${failed.join(', ')}` : ''}`,
);
process.exitCode = failed.length ? 1 : 0;
