// Child process of bench/upload.mts: stores a file in n8n's binary store (filesystem mode),
// then uploads it with the node and reports its memory. Run with --expose-gc.
//   argv: <file> <baseUrl> <apiKey>
import './env.mts';

import { createReadStream, readFileSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

import { binaryItem, engine, runNode } from '../../test/harness/engine.mts';
import { mediaBytes } from '../../test/harness/fixtures.mts';

// Memory in MB (10^6 bytes), the stricter reading of the 64 MB target.
const MB = 1e6;

function status(field: 'VmRSS' | 'VmHWM'): number {
	const line = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
		readFileSync('/proc/self/status', 'utf8'),
	);
	if (!line) throw new Error(`no ${field} in /proc/self/status`);
	return Number(line[1]) * 1024;
}

/** Resets the kernel's peak-RSS mark (VmHWM) to the current RSS (Linux: clear_refs 5). */
function resetPeak(): void {
	writeFileSync('/proc/self/clear_refs', '5');
}

async function settle(): Promise<void> {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (!gc) throw new Error('run with --expose-gc');
	for (let round = 0; round < 3; round++) {
		gc();
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

const [file, baseUrl, apiKey] = process.argv.slice(2);
const size = statSync(file).size;

await engine();
// Warm the engine and the HTTP path once with a small upload, so that loading code is baseline.
const warm = await runNode({
	parameters: {
		resource: 'asset',
		operation: 'upload',
		binaryPropertyName: 'data',
		name: 'warm-up',
	},
	credentials: { apiKey, baseUrl },
	items: [await binaryItem(mediaBytes('warm.mp4'), 'warm.mp4', 'video/mp4')],
});
if (warm.error) throw warm.error;

await settle();
resetPeak();
const beforeStore = status('VmRSS');
const item = await binaryItem(createReadStream(file), 'big.mp4', 'video/mp4');
const storePeak = status('VmHWM') - beforeStore;

await settle();
const baseline = status('VmRSS');
resetPeak();
let sampledPeak = baseline;
const sampler = setInterval(() => {
	sampledPeak = Math.max(sampledPeak, status('VmRSS'));
}, 5);
const started = Date.now();
const result = await runNode({
	parameters: {
		resource: 'asset',
		operation: 'upload',
		binaryPropertyName: 'data',
		name: 'Big upload',
	},
	credentials: { apiKey, baseUrl },
	items: [item],
});
const durationMs = Date.now() - started;
clearInterval(sampler);
const peak = status('VmHWM');
if (result.error) throw result.error;
const uploadedSize = Number(result.items[0]?.json.size);

// Control, to show the instrument sees a file held in memory: the same file read into a Buffer.
await settle();
const controlBaseline = status('VmRSS');
resetPeak();
const held = await readFile(file);
const controlPeak = status('VmHWM') - controlBaseline;
if (held.length !== size) throw new Error('control read a different size');

process.send?.({
	fileBytes: size,
	uploadedBytes: uploadedSize,
	binaryId: item.binary?.data.id,
	baselineRssMB: baseline / MB,
	peakRssMB: peak / MB,
	peakAboveBaselineMB: (peak - baseline) / MB,
	sampledPeakAboveBaselineMB: (sampledPeak - baseline) / MB,
	storeStepPeakAboveBaselineMB: storePeak / MB,
	controlReadIntoMemoryAboveBaselineMB: controlPeak / MB,
	durationMs,
});
