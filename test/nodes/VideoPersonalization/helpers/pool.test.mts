/**
 * mapWithConcurrency, measured with counters: tasks take a number of event-loop turns
 * (setImmediate), not time, so the tests do not depend on how fast the machine is.
 */
import { mapWithConcurrency } from '../../../../nodes/VideoPersonalization/helpers/pool.ts';

const turn = async (): Promise<void> => await new Promise<void>((resolve) => setImmediate(resolve));
const turns = async (count: number): Promise<void> => {
	for (let index = 0; index < count; index++) await turn();
};
const range = (count: number): number[] => Array.from({ length: count }, (_, index) => index);

interface Probe {
	started: number[];
	finished: number[];
	running: number;
	maxRunning: number;
	/** How many tasks had started when the first failure was thrown. */
	startedAtFailure?: number;
}

function probe(): Probe {
	return { started: [], finished: [], running: 0, maxRunning: 0 };
}

/** A task taking `length(index)` turns that fails when `fails(index)` is true. */
function task(
	state: Probe,
	length: (index: number) => number,
	fails: (index: number) => boolean = () => false,
) {
	return async (input: number, index: number): Promise<string> => {
		state.started.push(index);
		state.running++;
		state.maxRunning = Math.max(state.maxRunning, state.running);
		try {
			await turns(length(index));
			if (fails(index)) {
				state.startedAtFailure ??= state.started.length;
				throw new Error(`task ${index} failed`);
			}
			return `result of ${input}`;
		} finally {
			state.running--;
			state.finished.push(index);
		}
	};
}

describe('mapWithConcurrency', () => {
	it('gives nothing for no inputs and starts no task', async () => {
		const state = probe();
		await expect(
			mapWithConcurrency(
				[],
				4,
				task(state, () => 1),
			),
		).resolves.toEqual([]);
		expect(state.started).toEqual([]);
	});

	it('keeps the input order when later tasks finish first', async () => {
		const state = probe();
		const inputs = range(12);
		const results = await mapWithConcurrency(
			inputs,
			4,
			task(state, (index) => 12 - index),
		);
		expect(results).toEqual(inputs.map((input) => `result of ${input}`));
		expect(state.finished).not.toEqual([...state.finished].sort((a, b) => a - b));
	});

	it('passes each input with its index', async () => {
		const seen: Array<[string, number]> = [];
		await mapWithConcurrency(['a', 'b', 'c'], 2, async (input, index) => {
			seen.push([input, index]);
			await turn();
		});
		expect(seen.sort()).toEqual([
			['a', 0],
			['b', 1],
			['c', 2],
		]);
	});

	it.each([1, 2, 3, 4, 8])(
		'never runs more than %i at once, and uses all of them',
		async (concurrency) => {
			for (const count of [1, 2, 3, 9, 25]) {
				const state = probe();
				const results = await mapWithConcurrency(
					range(count),
					concurrency,
					task(state, (index) => 1 + ((index * 7) % 5)),
				);
				expect(state.maxRunning).toBe(Math.min(concurrency, count));
				expect(state.running).toBe(0);
				expect([...state.started].sort((a, b) => a - b)).toEqual(range(count));
				expect(results).toHaveLength(count);
			}
		},
	);

	it('starts no new task after a failure and rejects with it', async () => {
		const state = probe();
		const run = mapWithConcurrency(
			range(30),
			3,
			task(
				state,
				(index) => (index === 4 ? 1 : 3),
				(index) => index === 4,
			),
		);
		await expect(run).rejects.toThrow('task 4 failed');
		await turns(40); // let the tasks still in flight finish
		expect(state.startedAtFailure).toBeDefined();
		expect(state.started).toHaveLength(state.startedAtFailure as number);
		expect(state.started.length).toBeLessThan(30);
		expect(state.running).toBe(0);
	});

	it('rejects only once the tasks already running have finished', async () => {
		const state = probe();
		// Task 0 fails at once while tasks 1 and 2 still need 10 turns.
		const run = mapWithConcurrency(
			range(9),
			3,
			task(
				state,
				(index) => (index === 0 ? 1 : 10),
				(index) => index === 0,
			),
		);
		await expect(run).rejects.toThrow('task 0 failed');
		expect(state.running).toBe(0);
		expect([...state.finished].sort((a, b) => a - b)).toEqual([0, 1, 2]);
	});

	it('rejects with the first failure in time, not in input order', async () => {
		const state = probe();
		const run = mapWithConcurrency(
			range(10),
			2,
			task(
				state,
				(index) => (index === 0 ? 6 : 1),
				(index) => index <= 1,
			),
		);
		await expect(run).rejects.toThrow('task 1 failed');
		await turns(20);
	});

	it('later failures of tasks in flight do not surface as unhandled rejections', async () => {
		const unhandled: unknown[] = [];
		const listener = (reason: unknown): void => {
			unhandled.push(reason);
		};
		process.on('unhandledRejection', listener);
		try {
			const state = probe();
			const run = mapWithConcurrency(
				range(8),
				4,
				task(
					state,
					(index) => index + 1,
					() => true,
				),
			);
			await expect(run).rejects.toThrow('task 0 failed');
			await turns(20);
			expect(unhandled).toEqual([]);
		} finally {
			process.off('unhandledRejection', listener);
		}
	});

	it('a task that throws before returning its promise counts as a failure too', async () => {
		const state = probe();
		const asyncTask = task(state, () => 2);
		const run = mapWithConcurrency(range(20), 3, (input, index) => {
			if (index === 1) {
				state.startedAtFailure ??= state.started.length;
				throw new Error('thrown at once');
			}
			return asyncTask(input, index);
		});
		await expect(run).rejects.toThrow('thrown at once');
		await turns(20);
		expect(state.started).toHaveLength(state.startedAtFailure as number);
	});
});
