import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { createdVideo, optionalText } from '../../helpers/answers';
import { customerDataProblems } from '../../helpers/templateFields';
import { DEFAULT_TIMEOUT_MS, type RestRequest, type ServiceClient } from '../../transport/client';
import { fieldError, readBudgetMs, readTimeoutMs } from '../common';
import { collection, optionsCollection, textField } from '../fields';
import {
	readTemplateCriteria,
	resolveTemplate,
	TEMPLATE_PERMISSION,
	templateLocator,
} from '../template/locator';
import type { OperationOption } from '../types';
import { customerDataProperties, readCustomerData } from './customerData';
import { checkOnlyOutput, type CreateRun, forEachItem, runCheck, runOutputs } from './createBatch';
import { waitForCreatedVideos } from './waitForCompletion';
import { readWaitSettings, waitOptions } from './waitOptions';

const ASPECT_RATIOS = ['9:16', '16:9', '1:1'];

export const option: OperationOption = {
	name: 'Create',
	action: 'Create a video',
	description: 'Make a personalized video from a template and customer data',
};

export const description: INodeProperties[] = [
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Welcome, Ana!',
		description: 'Title of the new video',
	},
	templateLocator('The template the video is made from'),
	...customerDataProperties,
	{
		displayName: 'Aspect Ratio',
		name: 'aspectRatio',
		type: 'options',
		default: '9:16',
		options: [
			{ name: '9:16 (Vertical)', value: '9:16' },
			{ name: '16:9 (Landscape)', value: '16:9' },
			{ name: '1:1 (Square)', value: '1:1' },
		],
	},
	collection('Additional Fields', 'additionalFields', 'Add Field', [
		{
			displayName: 'AI Key Points',
			name: 'aiKeyPoints',
			type: 'string',
			typeOptions: { multipleValues: true },
			default: [],
			placeholder: 'e.g. 20% off this month',
			description: 'Points the AI-generated message should make',
		},
		textField('AI Tone', 'aiTone', 'Tone of the AI-generated message', 'e.g. friendly'),
		textField('Project ID', 'projectId', 'Project to put the video in'),
	]),
	{
		displayName: 'Wait for Completion',
		name: 'waitForCompletion',
		type: 'boolean',
		default: false,
		description:
			'Whether to wait until the video is published or failed and output the final video (with its URL). All items are waited for together.',
	},
	optionsCollection([
		{
			displayName: 'Check Only (No Credits Spent)',
			name: 'checkOnly',
			type: 'boolean',
			default: false,
			description:
				'Whether to only check each item as Create does and output { ok: true, title, template, customer_data } or { ok: false, problems }, creating no video',
		},
		...waitOptions,
	]),
];

function readAspectRatio(ctx: IExecuteFunctions, itemIndex: number): string {
	const value = ctx.getNodeParameter('aspectRatio', itemIndex, '9:16') as unknown;
	if (typeof value !== 'string' || !ASPECT_RATIOS.includes(value)) {
		const message = `Aspect Ratio: must be one of 9:16, 16:9, 1:1, got ${JSON.stringify(value)}`;
		throw fieldError(ctx, itemIndex, message);
	}
	return value;
}

function readAiMessaging(ctx: IExecuteFunctions, itemIndex: number, fields: IDataObject) {
	const tone = typeof fields.aiTone === 'string' ? fields.aiTone.trim() : '';
	// One key point given as text (an expression) counts as a list of one.
	const points = fields.aiKeyPoints === undefined ? [] : [fields.aiKeyPoints].flat();
	const keyPoints = points
		.map((point) => (typeof point === 'string' ? point.trim() : point))
		.filter((point) => point !== '');
	if (keyPoints.some((point) => typeof point !== 'string')) {
		throw fieldError(ctx, itemIndex, 'AI Key Points: each key point must be text');
	}
	if (!tone && keyPoints.length === 0) return undefined;
	return { ...(tone ? { tone } : {}), ...(keyPoints.length ? { key_points: keyPoints } : {}) };
}

function readTitle(ctx: IExecuteFunctions, itemIndex: number): string {
	const value = ctx.getNodeParameter('title', itemIndex, '') as unknown;
	const title = optionalText(value);
	if (title !== undefined) return title;
	const empty = value === '' || value === undefined || value === null;
	const message = empty ? 'Title: is empty' : `Title: must be text, got ${JSON.stringify(value)}`;
	throw fieldError(ctx, itemIndex, message);
}

/**
 * Reads and checks one item's fields, sending nothing. With Check Only, `problems` notes what is
 * wrong and the reading goes on. A real run and Check Only take this one path.
 */
async function readItem(ctx: IExecuteFunctions, { itemIndex }: { itemIndex: number }) {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const problems: Error[] | undefined = options.checkOnly === true ? [] : undefined;
	const check = async <T>(read: () => T | Promise<T>) => await runCheck(problems, read);
	const title = await check(() => readTitle(ctx, itemIndex));
	const criteria = await check(() => readTemplateCriteria(ctx, itemIndex));
	const customerData = await check(() => readCustomerData(ctx, itemIndex));
	const aspectRatio = await check(() => readAspectRatio(ctx, itemIndex));
	const fields = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const aiMessaging = await check(() => readAiMessaging(ctx, itemIndex, fields));
	const timeoutMs = (await check(() => readTimeoutMs(ctx, itemIndex))) ?? DEFAULT_TIMEOUT_MS;
	// Read here too: a wrong value stops the run before any lookup (other items may share it) is sent.
	const budgetMs = await check(() => readBudgetMs(ctx, itemIndex));
	const wait = await check(() => readWaitSettings(ctx, itemIndex, timeoutMs));
	const projectId = typeof fields.projectId === 'string' ? fields.projectId.trim() : '';
	const read = { title, criteria, customerData, aspectRatio, aiMessaging, projectId };
	return { itemIndex, problems, read, timeoutMs, budgetMs, wait };
}

/**
 * Resolves a read item's template and checks its customer data against it: its request, or
 * undefined when Check Only noted problems.
 */
async function checkedRequest(
	ctx: IExecuteFunctions,
	api: ServiceClient,
	{ itemIndex, problems, read, timeoutMs, budgetMs, wait }: Awaited<ReturnType<typeof readItem>>,
) {
	const check = async <T>(run: () => T | Promise<T>) => await runCheck(problems, run);
	const { title, criteria, customerData, aspectRatio, aiMessaging, projectId } = read;
	const template =
		criteria && budgetMs && (await check(() => resolveTemplate(ctx, api, itemIndex, criteria)));
	if (template && customerData) {
		for (const problem of customerDataProblems(template.fields, customerData)) {
			const message = `Customer Data: ${problem} (template "${template.name}")`;
			await check(() => Promise.reject(fieldError(ctx, itemIndex, message)));
		}
	}
	if (!title || !criteria || !template || !customerData || !aspectRatio || !wait) return undefined;
	if (problems?.length) return undefined;
	const body: IDataObject = {
		title,
		template_id: template.id,
		customer_data: customerData,
		aspect_ratio: aspectRatio,
	};
	if (aiMessaging) body.ai_messaging = aiMessaging;
	if (projectId) body.project_id = projectId;
	const call: RestRequest = {
		method: 'POST',
		path: '/videos',
		body,
		idempotent: false,
		action: `create the video "${title}" from Template ${criteria.label}`,
		permission: TEMPLATE_PERMISSION,
		itemIndex,
		timeoutMs,
	};
	return { itemIndex, call, wait, templateName: template.name };
}

/**
 * Create runs all items itself: every item is read and checked, then its template resolved, before
 * any video is created, so a mistake in one item costs no credits for the others; then the
 * videos are created, then those with Wait for Completion are waited for together. An item with
 * Check Only stops after its checks: its output says what would be sent, or every problem.
 */
export async function executeAll(this: IExecuteFunctions, api: ServiceClient) {
	const run: CreateRun = { outputs: new Map(), created: [] };
	const items = this.getInputData().map((_, itemIndex) => ({ itemIndex }));
	// Every item's fields first, then the templates: a mistake in any item's fields stops the run
	// before any request is sent, and the lookups go right before the creates (a pause between them
	// would let the service's bucket refill unseen, and the pace read the first 429 wrong).
	const read = await forEachItem(this, run, items, async (item) => await readItem(this, item));
	const checked = await forEachItem(this, run, read, async (item) => {
		const request = await checkedRequest(this, api, item);
		if (!item.problems) return request ? [request] : [];
		run.outputs.set(item.itemIndex, checkOnlyOutput(this, item.itemIndex, request, item.problems));
		return [];
	});
	await forEachItem(this, run, checked.flat(), async ({ itemIndex, call, wait }) => {
		const video = createdVideo(await api.sendForObject(call));
		if (!video) {
			throw api.error({ kind: 'shape', detail: 'The answer holds no video with an id' }, call);
		}
		run.created.push({ itemIndex, videoId: String(video.id), wait, item: { json: video } });
	});
	await waitForCreatedVideos(this, api, run.created);
	return runOutputs(this, run);
}
