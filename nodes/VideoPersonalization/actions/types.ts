import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { ServiceClient } from '../transport/client';

/** How an operation shows in its resource's Operation list. */
export type OperationOption = { name: string; action: string; description: string };

/**
 * One operation: how it is listed, its fields (the registry shows them only for it) and how it
 * runs: `execute` for one item, the router looping over the items; or `executeAll` for all items
 * at once, when the operation handles the batch itself (Create).
 */
export type OperationModule = { option: OperationOption; description: INodeProperties[] } & (
	| { execute: ItemExecute }
	| { executeAll(this: IExecuteFunctions, api: ServiceClient): Promise<INodeExecutionData[]> }
);

/** Runs an operation for one item: its output items, or it throws the item's error. */
export type ItemExecute = (
	this: IExecuteFunctions,
	itemIndex: number,
	api: ServiceClient,
) => Promise<INodeExecutionData[]>;

/** A resource: how it is listed, and its operations by parameter value (the first is the default). */
export interface ResourceModule {
	name: string;
	description: string;
	operations: Record<string, OperationModule>;
}
