// The pace of a rate-limit run over time, drawn with Vega-Lite as SVG: requests the limiter let
// through each second and the 429s it answered (from the sandbox's request log), the limit in
// force, and each n8n process's pace as its gate set it (sampled once a second).
import * as vega from 'vega';
import * as vegaLite from 'vega-lite';

export interface TimelineInput {
	title: string;
	/** Seconds since the start: the node's requests, let through or answered 429. */
	requests: Array<{ second: number; limited: boolean }>;
	/** The limit in force each second (requests per second). */
	limit: (second: number) => number;
	/** Each process's pace each second (0: no limit seen yet), from its start. */
	paces: Array<{ startSecond: number; values: number[] }>;
	seconds: number;
}

type Point = { second: number; value: number; series: string };

export function timelinePoints(input: TimelineInput): Point[] {
	const span = Math.max(1, Math.ceil(input.seconds));
	const through = new Array<number>(span).fill(0);
	const refused = new Array<number>(span).fill(0);
	for (const { second, limited } of input.requests) {
		const bin = Math.min(span - 1, Math.max(0, Math.floor(second)));
		if (limited) refused[bin]++;
		else through[bin]++;
	}
	const points: Point[] = [];
	for (let second = 0; second < span; second++) {
		points.push({ second, value: through[second], series: 'let through, per second' });
		points.push({ second, value: input.limit(second), series: 'the limit' });
		if (refused[second] > 0)
			points.push({ second, value: refused[second], series: 'answered 429, per second' });
	}
	input.paces.forEach(({ startSecond, values }, process) =>
		values.forEach((value, index) =>
			points.push({
				second: startSecond + index,
				value,
				series: input.paces.length > 1 ? `pace of process ${process + 1}` : 'pace (the gate)',
			}),
		),
	);
	return points;
}

/** An SVG of the run: lines for the limit, what got through and the paces, red bars for 429s. */
export async function timelineSvg(input: TimelineInput): Promise<string> {
	const values = timelinePoints(input);
	const series = [...new Set(values.map((point) => point.series))];
	const palette: Record<string, string> = {
		'the limit': '#7f7f7f',
		'let through, per second': '#1f77b4',
		'answered 429, per second': '#d62728',
	};
	const others = ['#ff7f0e', '#2ca02c', '#9467bd'];
	const x = {
		field: 'second',
		type: 'quantitative',
		title: 'seconds since the start',
		scale: { domainMin: 0, nice: false },
	} as const;
	const y = { field: 'value', type: 'quantitative', title: 'requests per second' } as const;
	const color = {
		field: 'series',
		type: 'nominal',
		title: null,
		scale: {
			domain: series,
			range: series.map((name, index) => palette[name] ?? others[index % others.length]),
		},
		legend: { labelLimit: 320, orient: 'bottom', columns: 3 },
	} as const;
	const spec = vegaLite.compile({
		$schema: 'https://vega.github.io/schema/vega-lite/v6.json',
		title: input.title,
		width: 640,
		height: 220,
		data: { values },
		layer: [
			{
				transform: [{ filter: "datum.series !== 'answered 429, per second'" }],
				mark: { type: 'line', interpolate: 'step-after', strokeWidth: 1.5 },
				encoding: {
					x,
					y,
					color,
					strokeDash: {
						condition: { test: "datum.series === 'the limit'", value: [4, 3] },
						value: [1, 0],
					},
				},
			},
			{
				transform: [{ filter: "datum.series === 'answered 429, per second'" }],
				mark: { type: 'bar', color: '#d62728', width: 3 },
				encoding: { x, y, color },
			},
		],
	}).spec;
	const view = new vega.View(vega.parse(spec), { renderer: 'none' });
	return await view.toSVG();
}
