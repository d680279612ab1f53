/**
 * Runs `task` over `inputs` with at most `concurrency` at once; results keep the input order.
 * After a failure no new task starts; the tasks already running are waited for (a create in
 * flight still finishes on the service, so nothing outlives the node's run), then the first
 * failure in time is what the caller gets.
 */
export async function mapWithConcurrency<Input, Output>(
	inputs: readonly Input[],
	concurrency: number,
	task: (input: Input, index: number) => Promise<Output>,
): Promise<Output[]> {
	const results = new Array<Output>(inputs.length);
	let next = 0;
	let failure: { error: unknown } | undefined;
	async function worker(): Promise<void> {
		while (!failure && next < inputs.length) {
			const index = next++;
			try {
				// Inside the try: a task that throws before returning its promise fails like one that rejects.
				results[index] = await task(inputs[index], index);
			} catch (error) {
				failure ??= { error };
			}
		}
	}
	const workers = Array.from({ length: Math.min(Math.max(1, concurrency), inputs.length) }, worker);
	await Promise.all(workers);
	if (failure) throw failure.error;
	return results;
}
