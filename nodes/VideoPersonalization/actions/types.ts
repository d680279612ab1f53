import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { ServiceClient } from '../transport/client';

/** What one input item produced: its output items, or the error it ended with. */
export interface ItemResult<State = unknown> {
	itemIndex: number;
	output: INodeExecutionData[];
	error?: Error;
	/** What `execute` handed on to the operation's `finish` step for this item. */
	state?: State;
}

/** An item's output, with what the operation's `finish` step needs from it. */
export interface StagedOutput<State> {
	output: INodeExecutionData[];
	state: State;
}

/** How an operation shows in its resource's Operation list. */
export interface OperationOption {
	name: string;
	action: string;
	description: string;
}

/** One operation: how it is listed, its fields and how it runs. The router does the item loop around it. */
export interface OperationModule<State = unknown> {
	option: OperationOption;
	/** Its fields; the registry shows them only for this resource and operation. */
	properties: INodeProperties[];
	/**
	 * Checks and lookups run for every item before any item's `execute` (an operation that spends
	 * credits checks all items first, so a mistake in one costs nothing); its result goes to `execute`.
	 */
	prepare?(this: IExecuteFunctions, itemIndex: number, api: ServiceClient): Promise<unknown>;
	execute(
		this: IExecuteFunctions,
		itemIndex: number,
		api: ServiceClient,
		prepared?: unknown,
	): Promise<INodeExecutionData[] | StagedOutput<State>>;
	/** Work shared by all items after each ran once (waiting for renders); may replace outputs or set errors. */
	finish?(
		this: IExecuteFunctions,
		results: Array<ItemResult<State>>,
		api: ServiceClient,
	): Promise<void>;
	/**
	 * What the items that got this far left on the service (the videos created), for the error of a
	 * run that fails part-way without Continue On Fail: nothing done is then lost from sight.
	 */
	describeDone?(results: Array<ItemResult<State>>): string | undefined;
}

type Operations = Record<string, OperationModule>;

/** A resource: how it is listed, and its operations by parameter value. */
export interface ResourceModule<ByValue extends Operations = Operations> {
	name: string;
	description: string;
	/** The operation selected when the resource is picked. */
	defaultOperation: string;
	operations: ByValue;
}

/** A resource, checked (its default is one of its operations), with its operations' names kept. */
export function defineResource<ByValue extends Operations>(
	resource: ResourceModule<ByValue> & { defaultOperation: keyof ByValue },
): ResourceModule<ByValue> {
	return resource;
}
