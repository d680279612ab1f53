import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

/** What one input item produced: its output items, or the error it ended with. */
export interface ItemResult {
	itemIndex: number;
	output: INodeExecutionData[];
	error?: Error;
}

/** One operation: its fields and how it runs. The router does the item loop around it. */
export interface OperationModule {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]>;
	/** Work shared by all items after each ran once (waiting for renders); may replace outputs or set errors. */
	finish?(this: IExecuteFunctions, results: ItemResult[]): Promise<void>;
}

export type ResourceName = 'video' | 'asset' | 'template' | 'user' | 'organisation';
