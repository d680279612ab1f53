/**
 * How Create runs a batch: each item's checks (all noted with Check Only), Check Only's output,
 * the item loop, and the videos a run that stops part-way created, named in its error.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { mapWithConcurrency } from '../../helpers/pool';
import type { RestRequest } from '../../transport/client';
import { failedItem, itemError, ITEM_CONCURRENCY } from '../common';
import type { CreatedVideo } from './waitForCompletion';

/**
 * Runs one of an item's checks. In a real run a problem is thrown, so the first one stops the
 * item; with Check Only (`problems` given) it is noted and the next checks still run. A failure
 * of the service (other than refusing the item's template, 403) is thrown either way.
 */
export async function runCheck<T>(problems: Error[] | undefined, check: () => T | Promise<T>) {
	let failure: unknown;
	try {
		return await check();
	} catch (error) {
		failure = error;
	}
	const refused = failure instanceof NodeApiError && failure.httpCode === '403';
	if (!problems || !(failure instanceof NodeOperationError || refused)) throw failure;
	problems.push(failure as Error);
	return undefined;
}

/**
 * Check Only's output for an item: what Create would send (`request`, the item's checked request
 * with its template resolved), or every problem found, by field.
 */
export function checkOnlyOutput(
	ctx: IExecuteFunctions,
	itemIndex: number,
	request: { call: RestRequest; templateName: string } | undefined,
	problems: Error[],
): INodeExecutionData {
	const messages = problems.map((problem) => itemError(ctx, problem, itemIndex).message);
	const { template_id: id, ...body } = (request?.call.body ?? {}) as IDataObject;
	const json: IDataObject = request
		? { ok: true, title: body.title, template: { id, name: request.templateName }, ...body }
		: { ok: false, problems: [...new Set(messages)] };
	return { json, pairedItem: { item: itemIndex } };
}

type ItemFailure = NodeApiError | NodeOperationError;

/** Where a Create run stands: each item's output so far, and the videos it created. */
export type CreateRun = { outputs: Map<number, INodeExecutionData>; created: CreatedVideo[] };

const inItemOrder = (left: CreatedVideo, right: CreatedVideo) => left.itemIndex - right.itemIndex;

/**
 * Adds to the error of a run that stops part-way the videos it created: they exist and used
 * credits, so nothing done is lost from sight.
 */
function namingCreatedVideos(error: ItemFailure, created: CreatedVideo[]): ItemFailure {
	const ids = [...created]
		.sort(inItemOrder)
		.map((video) => `item ${video.itemIndex}: ${video.videoId}`);
	const count = ids.length === 1 ? '1 video' : `${ids.length} videos`;
	const note =
		ids.length === 0
			? 'No video was created in this run.'
			: `This run created ${count} before it stopped (${ids.join(', ')}): they exist and used credits; run only the other items to avoid duplicates.`;
	error.description = [error.description, note].filter(Boolean).join(' ');
	return error;
}

/**
 * Runs `task` for each input, a few at once. With Continue On Fail an item that fails gets its
 * error as output; without, the run stops once the tasks under way are done, naming the videos
 * created.
 */
export async function forEachItem<Input extends { itemIndex: number }, Output>(
	ctx: IExecuteFunctions,
	run: CreateRun,
	inputs: Input[],
	task: (input: Input) => Promise<Output>,
): Promise<Output[]> {
	try {
		const outputs = await mapWithConcurrency(inputs, ITEM_CONCURRENCY, async (input) => {
			try {
				return [await task(input)];
			} catch (error) {
				run.outputs.set(input.itemIndex, failedItem(ctx, error as Error, input.itemIndex));
				return [];
			}
		});
		return outputs.flat();
	} catch (error) {
		throw namingCreatedVideos(error as ItemFailure, run.created);
	}
}

/**
 * The run's outputs in item order: each created video as the wait left it, or with Continue On
 * Fail its item's error; without, the first such error stops the run, naming the videos created.
 */
export function runOutputs(ctx: IExecuteFunctions, run: CreateRun): INodeExecutionData[] {
	try {
		for (const { itemIndex, item, error, videoId } of [...run.created].sort(inItemOrder)) {
			const output = error ? failedItem(ctx, error, itemIndex) : item;
			// A video that exists keeps its id beside its error (not finished, or not checked).
			if (error) output.json = { id: videoId, ...output.json };
			run.outputs.set(itemIndex, { ...output, pairedItem: { item: itemIndex } });
		}
	} catch (error) {
		throw namingCreatedVideos(error as ItemFailure, run.created);
	}
	return [...run.outputs.entries()].sort(([left], [right]) => left - right).map(([, item]) => item);
}
