// Statistics, the printed table and bench/results/<name>.json for every benchmark.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem, type as osType, release } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';

export function median(values: number[]): number {
	if (values.length === 0) return Number.NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function round(value: number, digits = 2): number {
	const factor = 10 ** digits;
	return Math.round(value * factor) / factor;
}

/** Wall time of one call, in milliseconds. */
export async function timed<T>(task: () => Promise<T>): Promise<{ ms: number; value: T }> {
	const started = process.hrtime.bigint();
	const value = await task();
	return { ms: Number(process.hrtime.bigint() - started) / 1e6, value };
}

export interface Figure {
	/** What is measured, e.g. "Return All 10,000 assets: node / minimal client". */
	name: string;
	value: number;
	unit: string;
	/** e.g. "<= 1.25" */
	target?: string;
	met?: boolean;
	/** Repetitions behind the median. */
	repetitions?: number;
	note?: string;
}

export type Row = Record<string, string | number | boolean | null | undefined>;

/** A plain-text table (columns from the first row's keys). */
export function table(rows: Row[]): string {
	if (rows.length === 0) return '(no rows)';
	const columns = Object.keys(rows[0]);
	const text = (value: Row[string]) => (value === undefined || value === null ? '' : String(value));
	const widths = columns.map((column) =>
		Math.max(column.length, ...rows.map((row) => text(row[column]).length)),
	);
	const line = (cells: string[]) =>
		cells
			.map((cell, index) => cell.padEnd(widths[index]))
			.join('  ')
			.trimEnd();
	return [
		line(columns),
		line(widths.map((width) => '-'.repeat(width))),
		...rows.map((row) => line(columns.map((column) => text(row[column])))),
	].join('\n');
}

export function machine(): Record<string, string | number> {
	let os = `${osType()} ${release()}`;
	try {
		const pretty = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(
			readFileSync('/etc/os-release', 'utf8'),
		)?.[1];
		if (pretty) os = `${pretty}, kernel ${release()}`;
	} catch {
		// not Linux: keep the generic name
	}
	return {
		cpu: cpus()[0]?.model ?? 'unknown',
		cores: cpus().length,
		memoryGiB: round(totalmem() / 2 ** 30, 1),
		node: process.version,
		os,
	};
}

export const RESULTS_DIR = join(process.cwd(), 'bench', 'results');

export interface DetailTable {
	title: string;
	rows: Row[];
}

export interface Results {
	name: string;
	command: string;
	date: string;
	machine: Record<string, string | number>;
	figures: Figure[];
	table: DetailTable;
	details: Record<string, unknown>;
	/** Load average (1, 5, 15 min) when the benchmark finished: the machine is shared with other work. */
	loadAverage: number[];
}

/** Prints the detail table and the figures, and writes bench/results/<name>.json. */
export function writeResults(
	name: string,
	command: string,
	figures: Figure[],
	detail: DetailTable,
	details: Record<string, unknown>,
): void {
	mkdirSync(RESULTS_DIR, { recursive: true });
	const result: Results = {
		name,
		command,
		date: new Date().toISOString(),
		machine: machine(),
		figures,
		table: detail,
		details,
		loadAverage: loadavg().map((value) => round(value, 2)),
	};
	writeFileSync(join(RESULTS_DIR, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
	console.log(`\n${detail.title}`);
	console.log(table(detail.rows));
	console.log(`\n${name}: figures`);
	console.log(
		table(
			figures.map((figure) => ({
				figure: figure.name,
				value: `${figure.value} ${figure.unit}`.trim(),
				target: figure.target ?? '',
				met: figure.met === undefined ? '' : figure.met ? 'yes' : 'NO',
				reps: figure.repetitions ?? '',
			})),
		),
	);
	console.log(`(written to bench/results/${name}.json)`);
}

/** Rotates the order of the contenders each repetition, so none always runs first or last. */
export function rotated<T>(items: T[], repetition: number): T[] {
	const shift = repetition % items.length;
	return [...items.slice(shift), ...items.slice(0, shift)];
}
