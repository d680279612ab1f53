/**
 * Runs `task` over `inputs` with at most `concurrency` at once; results keep the input order.
 * After a failure no new task starts, and the first failure is what the caller gets.
 */
export async function mapWithConcurrency<Input, Output>(
	inputs: readonly Input[],
	concurrency: number,
	task: (input: Input, index: number) => Promise<Output>,
): Promise<Output[]> {
	const results = new Array<Output>(inputs.length);
	let next = 0;
	let failed = false;
	async function worker(): Promise<void> {
		while (!failed && next < inputs.length) {
			const index = next++;
			let running: Promise<Output>;
			try {
				running = task(inputs[index], index);
			} catch (error) {
				// A task that throws before returning its promise fails like one that rejects.
				failed = true;
				running = Promise.reject(error);
			}
			results[index] = await running.catch(async (error: unknown) => {
				failed = true;
				return await Promise.reject(error);
			});
		}
	}
	const workers = Array.from({ length: Math.min(Math.max(1, concurrency), inputs.length) }, worker);
	await Promise.all(workers);
	return results;
}
