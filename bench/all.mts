// `npm run bench`: every benchmark, one after the other, each in its own process (after the build).
// One benchmark: `npm run bench:<name>`; BENCH_ONLY=upload,trigger to pick some here.
import { spawnSync } from 'node:child_process';

import { round } from './lib/report.mts';

const BENCHMARKS: Array<[string, string]> = [
	['return-all', 'bench/returnAll.mts'],
	['upload', 'bench/upload.mts'],
	['create', 'bench/createVideos.mts'],
	['create-and-wait', 'bench/createAndWait.mts'],
	['trigger', 'bench/trigger.mts'],
	['profile', 'bench/profile.mts'],
];

const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
const started = Date.now();
const failed: string[] = [];
for (const [name, file] of BENCHMARKS) {
	if (only && !only.includes(name)) continue;
	console.log(`\n=== ${name} (${file}) ===`);
	const begun = Date.now();
	const run = spawnSync(process.execPath, ['--import', 'tsx', file], { stdio: 'inherit' });
	console.log(`=== ${name}: ${run.status === 0 ? 'done' : `FAILED (exit ${run.status})`} in ${round((Date.now() - begun) / 1000, 1)} s ===`);
	if (run.status !== 0) failed.push(name);
}
console.log(`\nAll benchmarks: ${round((Date.now() - started) / 1000, 1)} s${failed.length ? `; failed: ${failed.join(', ')}` : ''}`);
process.exitCode = failed.length ? 1 : 0;
