import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { mapWithConcurrency } from '../helpers/pool';
import { serviceClient } from '../transport/client';
import { failedItem, ITEM_CONCURRENCY, readBudgetMs } from './common';
import { findOperation } from './registry';

// Read by the rate-limit benchmark from dist/actions/router.js.
export { ITEM_CONCURRENCY };

/**
 * The item loop for every operation: one service client for the run, pairedItem on every
 * output, Continue On Fail turning an item's error into an output item. An operation with
 * `executeAll` (Create) runs all items itself.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = findOperation(resource, operationName);
	const unsupported = `The operation "${operationName}" of "${resource}" is not supported`;
	if (!operation) throw new NodeOperationError(this.getNode(), unsupported);
	const api = await serviceClient(this);
	api.willSend(items.length);
	// Calls made for all items at once (checks on renders) take the first item's budget.
	api.budget = {
		budgetMs: (itemIndex) => readBudgetMs(this, itemIndex ?? 0),
		setting: 'Options > Give Up After (Minutes)',
	};
	if ('executeAll' in operation) return [await operation.executeAll.call(this, api)];

	const itemIndexes = [...items.keys()];
	const outputs = await mapWithConcurrency(itemIndexes, ITEM_CONCURRENCY, async (itemIndex) => {
		try {
			const output = await operation.execute.call(this, itemIndex, api);
			return output.map((item) => ({ ...item, pairedItem: { item: itemIndex } }));
		} catch (error) {
			return [failedItem(this, error as Error, itemIndex)];
		}
	});
	return [outputs.flat()];
}
