import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { jsonParse } from 'n8n-workflow';

import { createdVideo } from '../../helpers/answers';
import { TEMPLATE_PERMISSION } from '../../helpers/permissions';
import { customerDataProblem } from '../../helpers/templateFields';
import type { RestRequest, ServiceClient } from '../../transport/client';
import {
	fieldError,
	optionsCollection,
	readBudgetMs,
	readTimeoutMs,
	requiredText,
} from '../common';
import { readTemplateCriteria, resolveTemplate, templateLocator } from '../template/locator';
import type { ItemResult, OperationOption, StagedOutput } from '../types';
import {
	customerDataModeProperties,
	readMappedCustomerData,
	templateFieldsProperty,
} from './templateFieldsMapper';
import {
	readWaitSettings,
	waitForCreatedVideos,
	waitOptions,
	type WaitSettings,
} from './waitForCompletion';

export const ASPECT_RATIOS = ['9:16', '16:9', '1:1'] as const;

export const option: OperationOption = {
	name: 'Create',
	action: 'Create a video',
	description: 'Make a personalized video from a template and customer data',
};

export const properties: INodeProperties[] = [
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
	...customerDataModeProperties,
	templateFieldsProperty,
	{
		displayName: 'Customer Data Fields',
		name: 'customerData',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: { customerDataMode: ['keyValue', 'templateFields'] } },
		options: [
			{
				displayName: 'Field',
				name: 'values',
				values: [
					{
						displayName: 'Name',
						name: 'key',
						type: 'string',
						default: '',
						placeholder: 'e.g. first_name',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: 'e.g. Ana',
					},
				],
			},
		],
	},
	{
		displayName: 'Customer Data (JSON)',
		name: 'customerDataJson',
		type: 'json',
		default: '{\n  "first_name": "Ana",\n  "company": "Acme"\n}',
		displayOptions: { show: { customerDataMode: ['json'] } },
		description: 'A JSON object with the personalization data',
	},
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
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'AI Key Points',
				name: 'aiKeyPoints',
				type: 'string',
				typeOptions: { multipleValues: true },
				default: [],
				placeholder: 'e.g. 20% off this month',
				description: 'Points the AI-generated message should make',
			},
			{
				displayName: 'AI Tone',
				name: 'aiTone',
				type: 'string',
				default: '',
				placeholder: 'e.g. friendly',
				description: 'Tone of the AI-generated message',
			},
			{
				displayName: 'Project ID',
				name: 'projectId',
				type: 'string',
				default: '',
				description: 'Project to put the video in',
			},
		],
	},
	{
		displayName: 'Wait for Completion',
		name: 'waitForCompletion',
		type: 'boolean',
		default: false,
		description:
			'Whether to wait until the video is published or failed and output the final video (with its URL). ' +
			'All items are waited for together.',
	},
	optionsCollection(waitOptions),
];

function readCustomerData(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const mode = ctx.getNodeParameter('customerDataMode', itemIndex, 'keyValue') as string;
	if (mode === 'json') {
		const raw = ctx.getNodeParameter('customerDataJson', itemIndex, '{}') as unknown;
		let parsed: unknown = raw;
		if (typeof raw === 'string') {
			try {
				parsed = jsonParse(raw);
			} catch (error) {
				throw fieldError(
					ctx,
					itemIndex,
					'Customer Data (JSON)',
					`is not valid JSON (${(error as Error).message})`,
					'Write an object such as {"first_name": "Ana"}, or switch Customer Data to Key-Value Pairs.',
				);
			}
		}
		if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
			throw fieldError(
				ctx,
				itemIndex,
				'Customer Data (JSON)',
				'must be a JSON object such as {"first_name": "Ana"}',
			);
		}
		return parsed as IDataObject;
	}
	const pairs = (ctx.getNodeParameter('customerData.values', itemIndex, []) as IDataObject[]) ?? [];
	const data: IDataObject = mode === 'templateFields' ? readMappedCustomerData(ctx, itemIndex) : {};
	pairs.forEach((pair, position) => {
		const key = typeof pair.key === 'string' ? pair.key.trim() : '';
		if (!key) {
			throw fieldError(ctx, itemIndex, 'Customer Data Fields', `field ${position + 1} has no name`);
		}
		data[key] = pair.value as IDataObject[string];
	});
	return data;
}

function readAspectRatio(ctx: IExecuteFunctions, itemIndex: number): string {
	const value = ctx.getNodeParameter('aspectRatio', itemIndex, '9:16') as unknown;
	if (typeof value !== 'string' || !(ASPECT_RATIOS as readonly string[]).includes(value)) {
		const allowed = ASPECT_RATIOS.join(', ');
		throw fieldError(
			ctx,
			itemIndex,
			'Aspect Ratio',
			`must be one of ${allowed}, got ${JSON.stringify(value)}`,
		);
	}
	return value;
}

function readAiMessaging(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: IDataObject,
): IDataObject | undefined {
	const tone = typeof fields.aiTone === 'string' ? fields.aiTone.trim() : '';
	const rawPoints = fields.aiKeyPoints;
	const points = rawPoints === undefined ? [] : Array.isArray(rawPoints) ? rawPoints : [rawPoints];
	const keyPoints = points
		.map((point) => (typeof point === 'string' ? point.trim() : point))
		.filter((point) => point !== '');
	if (keyPoints.some((point) => typeof point !== 'string')) {
		throw fieldError(ctx, itemIndex, 'AI Key Points', 'each key point must be text');
	}
	if (!tone && keyPoints.length === 0) return undefined;
	return { ...(tone ? { tone } : {}), ...(keyPoints.length ? { key_points: keyPoints } : {}) };
}

/** An item's request, checked and with its template resolved, before any video is created. */
export interface PreparedVideo {
	call: RestRequest;
	wait: WaitSettings;
}

/** What `finish` and the run's error need of an item: its wait settings and the video it created. */
export type CreatedState = WaitSettings & { videoId: string };

/**
 * Reads and checks the item and resolves its template. The router runs this for every item
 * before any video is created, so a mistake in one item costs no credits for the others.
 */
export async function prepare(
	this: IExecuteFunctions,
	itemIndex: number,
	api: ServiceClient,
): Promise<PreparedVideo> {
	const title = requiredText(this, itemIndex, 'title', 'Title');
	const criteria = readTemplateCriteria(this, itemIndex);
	const customerData = readCustomerData(this, itemIndex);
	const aspectRatio = readAspectRatio(this, itemIndex);
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const aiMessaging = readAiMessaging(this, itemIndex, fields);
	const timeoutMs = readTimeoutMs(this, itemIndex);
	readBudgetMs(this, itemIndex);
	const wait = readWaitSettings(this, itemIndex, timeoutMs);
	const template = await resolveTemplate(this, api, itemIndex, criteria);
	const problem = customerDataProblem(template.fields, customerData);
	if (problem) {
		throw fieldError(this, itemIndex, 'Customer Data', `${problem} (template "${template.name}")`);
	}

	const body: IDataObject = {
		title,
		template_id: template.id,
		customer_data: customerData,
		aspect_ratio: aspectRatio,
	};
	if (aiMessaging) body.ai_messaging = aiMessaging;
	const projectId = typeof fields.projectId === 'string' ? fields.projectId.trim() : '';
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
	return { call, wait };
}

/** Creates the video; the item's wait settings go on to `finish`, which waits for all renders together. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	api: ServiceClient,
	prepared?: PreparedVideo,
): Promise<StagedOutput<CreatedState>> {
	const { call, wait } = prepared ?? (await prepare.call(this, itemIndex, api));
	const video = createdVideo(await api.object(call));
	if (!video)
		throw api.error({ kind: 'shape', detail: 'The answer holds no video with an id' }, call);
	return { output: [{ json: video }], state: { ...wait, videoId: String(video.id) } };
}

export async function finish(
	this: IExecuteFunctions,
	results: Array<ItemResult<CreatedState>>,
	api: ServiceClient,
): Promise<void> {
	await waitForCreatedVideos(this, api, results);
}

/** The videos this run created, by item, for the error of a run that stops part-way. */
export function describeDone(results: Array<ItemResult<CreatedState>>): string {
	const created = results
		.filter((result) => result.state?.videoId !== undefined)
		.sort((a, b) => a.itemIndex - b.itemIndex)
		.map((result) => `item ${result.itemIndex}: ${result.state?.videoId}`);
	if (created.length === 0) return 'No video was created in this run.';
	const count = created.length === 1 ? '1 video' : `${created.length} videos`;
	return (
		`This run created ${count} before it stopped (${created.join(', ')}): ` +
		'they exist and used credits; run only the other items to avoid duplicates.'
	);
}
