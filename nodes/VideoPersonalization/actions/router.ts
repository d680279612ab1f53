import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { mapWithConcurrency } from '../helpers/pool';
import * as asset from './asset/Asset.resource';
import * as organisation from './organisation/Organisation.resource';
import * as template from './template/Template.resource';
import type { ItemResult, OperationModule, ResourceName } from './types';
import * as user from './user/User.resource';
import * as video from './video/Video.resource';

const resources: Record<ResourceName, Record<string, OperationModule>> = {
	video: video.operations,
	asset: asset.operations,
	template: template.operations,
	user: user.operations,
	organisation: organisation.operations,
};

/** Items handled at once; enough to overlap network waits without flooding the service. */
export const ITEM_CONCURRENCY = 4;

/** Every error leaves the node as a NodeApiError or NodeOperationError tied to its item. */
function forItem(ctx: IExecuteFunctions, error: Error, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex = itemIndex;
		if (!/\[item \d+\]$/.test(error.message)) error.message = `${error.message} [item ${itemIndex}]`;
		return error;
	}
	return new NodeOperationError(ctx.getNode(), `${error.message} [item ${itemIndex}]`, { itemIndex });
}

/**
 * The item loop for every operation: pairedItem on every output, continueOnFail turning an
 * item's error into an output item, and the operation's shared `finish` step.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as ResourceName;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = resources[resource]?.[operationName];
	if (!operation) {
		throw new NodeOperationError(this.getNode(), `The operation "${operationName}" of "${resource}" is not supported`);
	}
	const continueOnFail = this.continueOnFail();

	const results = await mapWithConcurrency(
		items.map((_, itemIndex) => itemIndex),
		ITEM_CONCURRENCY,
		async (itemIndex): Promise<ItemResult> => {
			try {
				return { itemIndex, output: await operation.execute.call(this, itemIndex) };
			} catch (error) {
				const itemError = forItem(this, error as Error, itemIndex);
				if (!continueOnFail) throw itemError;
				return { itemIndex, output: [], error: itemError };
			}
		},
	);
	if (operation.finish) await operation.finish.call(this, results);

	const output: INodeExecutionData[] = [];
	for (const result of results) {
		if (result.error) {
			const itemError = forItem(this, result.error, result.itemIndex);
			if (!continueOnFail) throw itemError;
			output.push({
				json: { error: itemError.message, ...(itemError.description ? { details: itemError.description } : {}) },
				pairedItem: { item: result.itemIndex },
			});
			continue;
		}
		for (const item of result.output) output.push({ ...item, pairedItem: { item: result.itemIndex } });
	}
	return [output];
}
