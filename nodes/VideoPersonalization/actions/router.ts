import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { mapWithConcurrency } from '../helpers/pool';
import { serviceClient } from '../transport/client';
import { BUDGET_SETTING, readBudgetMs } from './common';
import { findOperation } from './registry';
import type { ItemResult } from './types';

/** Items handled at once; enough to overlap network waits without flooding the service. */
export const ITEM_CONCURRENCY = 4;

/** Every error leaves the node as a NodeApiError or NodeOperationError tied to its item. */
function forItem(
	ctx: IExecuteFunctions,
	error: Error,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex = itemIndex;
		if (!/\[item \d+\]$/.test(error.message))
			error.message = `${error.message} [item ${itemIndex}]`;
		return error;
	}
	return new NodeOperationError(ctx.getNode(), `${error.message} [item ${itemIndex}]`, {
		itemIndex,
	});
}

/**
 * The item loop for every operation: one service client for the run, pairedItem on every
 * output, continueOnFail turning an item's error into an output item, and the operation's
 * shared `finish` step.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = findOperation(resource, operationName);
	if (!operation) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operationName}" of "${resource}" is not supported`,
		);
	}
	const continueOnFail = this.continueOnFail();
	const api = await serviceClient(this);
	api.expect(items.length);
	// Calls made for all items at once (checks on renders) take the first item's budget.
	api.budget = {
		budgetMs: (itemIndex) => readBudgetMs(this, itemIndex ?? 0),
		setting: BUDGET_SETTING,
	};

	const prepared = new Map<number, unknown>();
	const failed = new Map<number, Error>();
	// Items done so far, for the error of a run that stops part-way.
	const done: ItemResult[] = [];
	const withDone = (error: NodeApiError | NodeOperationError, results: ItemResult[]) => {
		const note = operation.describeDone?.(results);
		if (note) error.description = [error.description, note].filter(Boolean).join(' ');
		return error;
	};
	if (operation.prepare) {
		const prepare = operation.prepare;
		await mapWithConcurrency(
			items.map((_, itemIndex) => itemIndex),
			ITEM_CONCURRENCY,
			async (itemIndex) => {
				try {
					prepared.set(itemIndex, await prepare.call(this, itemIndex, api));
				} catch (error) {
					const itemError = forItem(this, error as Error, itemIndex);
					if (!continueOnFail) throw withDone(itemError, []);
					failed.set(itemIndex, itemError);
				}
			},
		);
	}

	let results: ItemResult[];
	try {
		results = await mapWithConcurrency(
			items.map((_, itemIndex) => itemIndex),
			ITEM_CONCURRENCY,
			async (itemIndex): Promise<ItemResult> => {
				const earlier = failed.get(itemIndex);
				if (earlier) return { itemIndex, output: [], error: earlier };
				try {
					const executed = await operation.execute.call(
						this,
						itemIndex,
						api,
						prepared.get(itemIndex),
					);
					const result: ItemResult = Array.isArray(executed)
						? { itemIndex, output: executed }
						: { itemIndex, output: executed.output, state: executed.state };
					done.push(result);
					return result;
				} catch (error) {
					const itemError = forItem(this, error as Error, itemIndex);
					if (!continueOnFail) throw itemError;
					return { itemIndex, output: [], error: itemError };
				}
			},
		);
	} catch (error) {
		throw withDone(error as NodeApiError | NodeOperationError, done);
	}
	if (operation.finish) await operation.finish.call(this, results, api);

	const output: INodeExecutionData[] = [];
	for (const result of results) {
		if (result.error) {
			const itemError = forItem(this, result.error, result.itemIndex);
			if (!continueOnFail) throw withDone(itemError, results);
			const details = itemError.description ? { details: itemError.description } : {};
			output.push({
				json: { error: itemError.message, ...details },
				pairedItem: { item: result.itemIndex },
			});
			continue;
		}
		for (const item of result.output) {
			output.push({ ...item, pairedItem: { item: result.itemIndex } });
		}
	}
	return [output];
}
