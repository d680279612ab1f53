/**
 * The reliability matrix: every bad input and every failure the service can answer with
 * gives an error that says which item, and which field or call, and what to do.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox/index.mts';
import { binaryItem, runNode } from '../harness/engine.mts';
import { credentialsFor, mediaBytes, useSandbox } from '../harness/fixtures.mts';

const sandbox = useSandbox();
const MB = 1_000_000;

interface BadCase {
	name: string;
	resource: string;
	operation: string;
	parameters: (s: Sandbox) => IDataObject;
	/** The failing item is the second of three (index 1), so "[item 1]" must be named. */
	bad?: IDataObject;
	/** Input items of their own, the failing one marked with `fail: true` (default: three plain items). */
	items?: (s: Sandbox) => Promise<INodeExecutionData[]>;
	key?: (s: Sandbox) => string;
	/** What the message must say (the field, or the call with its field value). */
	message: RegExp;
	/** What the description must say, when the fix is explained there. */
	description?: RegExp;
	faults?: (s: Sandbox) => void;
}

const id = (value: string) => ({ __rl: true, mode: 'id', value });

async function file(
	name = 'a.png',
	mime = 'image/png',
	size = 16,
	json: IDataObject = {},
): Promise<INodeExecutionData> {
	return await binaryItem(mediaBytes(name, size), name, mime, 'data', json);
}

/** Two good files around a failing one (by default a good file with `fail: true` set). */
async function threeFiles(
	failing: [string, string, number?] = ['b.png', 'image/png'],
): Promise<INodeExecutionData[]> {
	return [
		await file(),
		await file(failing[0], failing[1], failing[2] ?? 16, { fail: true }),
		await file('c.mp3', 'audio/mpeg'),
	];
}

function freshAsset(s: Sandbox): string {
	return s.store.addAsset({
		...s.store.getAsset(s.known.unusedAssetId)!,
		id: undefined,
		name: 'disposable',
	}).id;
}
const create = (s: Sandbox): IDataObject => ({
	title: '={{ $json.title ?? "Hello" }}',
	template: id(s.known.stockTemplateId),
	customerDataMode: 'json',
	customerDataJson: '={{ $json.data ?? "{}" }}',
});

const cases: BadCase[] = [
	// Video > Create: fields
	{
		name: 'invalid JSON customer data',
		resource: 'video',
		operation: 'create',
		parameters: create,
		bad: { data: '{"a": 1,,}' },
		message: /^Customer Data \(JSON\): is not valid JSON/,
	},
	{
		name: 'customer data that is a JSON array',
		resource: 'video',
		operation: 'create',
		parameters: create,
		bad: { data: '[]' },
		message: /^Customer Data \(JSON\): must be a JSON object/,
	},
	{
		name: 'customer data that is a JSON number',
		resource: 'video',
		operation: 'create',
		parameters: create,
		bad: { data: '42' },
		message: /^Customer Data \(JSON\): must be a JSON object/,
	},
	{
		name: 'customer data that is a JSON string',
		resource: 'video',
		operation: 'create',
		parameters: create,
		bad: { data: '"Ana"' },
		message: /^Customer Data \(JSON\): must be a JSON object/,
	},
	{
		name: 'a nameless key-value field',
		resource: 'video',
		operation: 'create',
		parameters: (s) => ({
			...create(s),
			customerDataMode: 'keyValue',
			customerData: { values: [{ key: '={{ $json.key ?? "name" }}', value: 'x' }] },
		}),
		bad: { key: '' },
		message: /^Customer Data Fields: field 1 has no name/,
	},
	{
		name: 'an unknown aspect ratio',
		resource: 'video',
		operation: 'create',
		parameters: (s) => ({ ...create(s), aspectRatio: '={{ $json.ratio ?? "9:16" }}' }),
		bad: { ratio: '4:3' },
		message: /^Aspect Ratio: must be one of 9:16, 16:9, 1:1, got "4:3"/,
	},
	{
		name: 'an aspect ratio that is a number',
		resource: 'video',
		operation: 'create',
		parameters: (s) => ({ ...create(s), aspectRatio: '={{ $json.ratio ?? "9:16" }}' }),
		bad: { ratio: 16 },
		message: /^Aspect Ratio: must be one of .*got 16/,
	},
	{
		name: 'an empty title',
		resource: 'video',
		operation: 'create',
		parameters: create,
		bad: { title: '' },
		message: /^Title: is empty/,
	},
	{
		name: 'a title that is not text',
		resource: 'video',
		operation: 'create',
		parameters: (s) => ({ ...create(s), title: '={{ $json.fail ? { a: 1 } : "Hi" }}' }),
		bad: {},
		message: /^Title: must be text/,
	},
	{
		name: 'no template',
		resource: 'video',
		operation: 'create',
		parameters: (s) => ({
			...create(s),
			template: id('={{ $json.fail ? "" : "tpl_stock_welcome" }}'),
		}),
		bad: {},
		message: /^Template: no template chosen/,
	},
	{
		name: 'an unknown template ID',
		resource: 'video',
		operation: 'create',
		parameters: (s) => ({
			...create(s),
			template: id(`={{ $json.fail ? "tpl_nope" : "${s.known.stockTemplateId}" }}`),
		}),
		bad: {},
		// Looked up before any video is created.
		message: /^Template: no template has the ID "tpl_nope"/,
	},
	{
		name: 'an unknown template name',
		resource: 'video',
		operation: 'create',
		parameters: (s) => ({
			...create(s),
			template: {
				__rl: true,
				mode: 'name',
				value: `={{ $json.fail ? "No Such" : "${s.known.stockTemplateName}" }}`,
			},
		}),
		bad: {},
		message: /^Template: no template has the name "No Such"/,
	},
	{
		name: 'a template of another brand',
		resource: 'video',
		operation: 'create',
		parameters: (s) => ({
			...create(s),
			template: id(
				`={{ $json.fail ? "${s.known.otherBrandTemplateId}" : "${s.known.stockTemplateId}" }}`,
			),
		}),
		bad: {},
		message: /^The API key may not find the template with Template ID "tpl_[^"]+" \(403\)/,
		description: /brand templates to users of that brand/,
	},
	{
		name: 'key points that are not text',
		resource: 'video',
		operation: 'create',
		parameters: (s) => ({
			...create(s),
			additionalFields: { aiKeyPoints: '={{ $json.fail ? [1, 2] : ["ok"] }}' },
		}),
		bad: {},
		message: /^AI Key Points: each key point must be text/,
	},
	{
		name: 'a wait timeout of 0',
		resource: 'video',
		operation: 'create',
		parameters: (s) => ({
			...create(s),
			waitForCompletion: '={{ $json.fail === true }}',
			options: { waitTimeout: '={{ $json.fail ? 0 : 1 }}' },
		}),
		bad: {},
		message: /^Wait Timeout \(Minutes\): must be a number above 0, got 0/,
	},
	{
		name: 'a negative check interval',
		resource: 'video',
		operation: 'create',
		parameters: (s) => ({
			...create(s),
			waitForCompletion: '={{ $json.fail === true }}',
			options: { pollInterval: '={{ $json.fail ? -1 : 5 }}' },
		}),
		bad: {},
		message: /^Check Every \(Seconds\): must be a number above 0, got -1/,
	},
	{
		name: 'a binary property name with spaces',
		resource: 'video',
		operation: 'create',
		parameters: (s) => ({
			...create(s),
			waitForCompletion: '={{ $json.fail === true }}',
			options: {
				downloadVideo: true,
				videoBinaryProperty: '={{ $json.fail ? "my video" : "data" }}',
			},
		}),
		bad: {},
		message: /^Video Binary Property: must be a name made of letters/,
	},
	{
		name: 'a request timeout of 0',
		resource: 'video',
		operation: 'create',
		parameters: (s) => ({ ...create(s), options: { timeout: '={{ $json.fail ? 0 : 30 }}' } }),
		bad: {},
		message: /^Timeout: must be a number of seconds above 0, got 0/,
	},
	{
		name: 'a brand without credits',
		resource: 'video',
		operation: 'create',
		parameters: create,
		key: (s) => s.keys.noCredits,
		message: /^Not enough credits to create the video "Hello"/,
		description: /organisation admin can move credits/,
	},

	// Get Many: limits
	...(['video', 'asset', 'template', 'user', 'organisation'] as const).flatMap((resource) =>
		[
			['0', 0],
			['-5', -5],
			['1.5', 1.5],
			['text', '"ten"'],
		].map(
			([label, value]): BadCase => ({
				name: `a Limit of ${label} (${resource})`,
				resource,
				operation: 'getAll',
				parameters: () => ({ returnAll: false, limit: `={{ $json.fail ? ${value} : 2 }}` }),
				key: (s) => s.keys.admin,
				bad: {},
				message: /^Limit: must be a whole number of 1 or more, got/,
			}),
		),
	),

	// Asset > Upload (three files, the middle one failing)
	{
		name: 'a missing binary property',
		resource: 'asset',
		operation: 'upload',
		parameters: () => ({ binaryPropertyName: '={{ $json.fail ? "file" : "data" }}' }),
		items: () => threeFiles(),
		message: /^Input Binary Field: the input item has no binary field "file"/,
		description: /Binary fields of this item: data/,
	},
	{
		name: 'an item without binary data',
		resource: 'asset',
		operation: 'upload',
		parameters: () => ({}),
		items: async () => [await file('a.png', 'image/png'), { json: { fail: true } }],
		message: /^Input Binary Field: the input item has no binary field "data"/,
		description: /has no binary data/,
	},
	{
		name: 'a format the service does not take',
		resource: 'asset',
		operation: 'upload',
		parameters: () => ({}),
		items: () => threeFiles(['deck.pdf', 'application/pdf']),
		message:
			/^Input Binary Field: "deck\.pdf" \(application\/pdf\) is not a format the service accepts/,
	},
	{
		name: 'a video declared as an image',
		resource: 'asset',
		operation: 'upload',
		parameters: () => ({ assetType: '={{ $json.fail ? "image" : "auto" }}' }),
		items: () => threeFiles(['clip.mp4', 'video/mp4']),
		message: /^Type: "clip\.mp4" \(video\/mp4\) is MP4, which is not an image format/,
	},
	{
		name: 'an image over 10 MB',
		resource: 'asset',
		operation: 'upload',
		parameters: () => ({}),
		items: () => threeFiles(['huge.jpg', 'image/jpeg', 10 * MB + 1]),
		message:
			/^Input Binary Field: "huge\.jpg" \(image\/jpeg\) is 10\.0 MB; image files may be at most 10 MB/,
	},
	{
		name: 'audio over 50 MB',
		resource: 'asset',
		operation: 'upload',
		parameters: () => ({}),
		items: () => threeFiles(['talk.mp3', 'audio/mpeg', 50 * MB + 1]),
		message: /"talk\.mp3" \(audio\/mpeg\) is 50\.0 MB; audio files may be at most 50 MB/,
	},
	{
		name: 'an empty file',
		resource: 'asset',
		operation: 'upload',
		parameters: () => ({}),
		items: () => threeFiles(['void.png', 'image/png', 0]),
		message: /^Input Binary Field: "void\.png" \(image\/png\) is empty/,
	},
	{
		name: 'an unknown asset type',
		resource: 'asset',
		operation: 'upload',
		parameters: () => ({ assetType: '={{ $json.fail ? "document" : "auto" }}' }),
		items: () => threeFiles(),
		message: /^Type: must be auto, image, video or audio, got "document"/,
	},
	{
		name: 'a name that is not text',
		resource: 'asset',
		operation: 'upload',
		parameters: () => ({ name: '={{ $json.fail ? 42 : "ok" }}' }),
		items: () => threeFiles(),
		message: /^Name: must be text, got 42/,
	},
	{
		name: 'tags that are not text',
		resource: 'asset',
		operation: 'upload',
		parameters: () => ({ tags: '={{ $json.fail ? { a: 1 } : "x" }}' }),
		items: () => threeFiles(),
		message: /^Tags: must be text with tags separated by commas/,
	},

	// Asset > Get / Update / Delete
	{
		name: 'an unknown asset',
		resource: 'asset',
		operation: 'get',
		parameters: (s) => ({
			assetId: id(`={{ $json.fail ? "ast_gone" : "${s.known.usedAssetId}" }}`),
		}),
		bad: {},
		message: /^Not found: get the asset with Asset ID "ast_gone" \(404\)/,
	},
	{
		name: 'no asset chosen',
		resource: 'asset',
		operation: 'get',
		parameters: (s) => ({ assetId: id(`={{ $json.fail ? "" : "${s.known.usedAssetId}" }}`) }),
		bad: {},
		message: /^Asset: no asset chosen/,
	},
	{
		name: 'an update with nothing to change',
		resource: 'asset',
		operation: 'update',
		parameters: (s) => ({
			assetId: id(s.known.audioAssetId),
			updateFields: { name: '={{ $json.fail ? undefined : "Jingle" }}' },
		}),
		bad: {},
		message: /^(Update Fields: nothing to update|Name: must not be empty when given)/,
	},
	{
		name: 'an empty new name',
		resource: 'asset',
		operation: 'update',
		parameters: (s) => ({
			assetId: id(s.known.audioAssetId),
			updateFields: { name: '={{ $json.fail ? "" : "Jingle" }}' },
		}),
		bad: {},
		message: /^Name: must not be empty when given/,
	},
	{
		name: 'deleting an asset still in use',
		resource: 'asset',
		operation: 'delete',
		parameters: (s) => ({
			assetId: id(`={{ $json.fail ? "${s.known.usedAssetId}" : $json.target }}`),
		}),
		items: async (s) => [
			{ json: { target: freshAsset(s) } },
			{ json: { fail: true } },
			{ json: { target: freshAsset(s) } },
		],
		message:
			/^Asset "ast_acme_logo" is still used by \d+ videos? and \d+ templates?; it was not deleted/,
	},

	// Query-style lookups
	{
		name: 'an unknown user email',
		resource: 'user',
		operation: 'get',
		parameters: (s) => ({
			findBy: 'email',
			emailValue: `={{ $json.fail ? "ghost@x.example" : "${s.store.users.get(s.known.users.user)?.email}" }}`,
		}),
		key: (s) => s.keys.admin,
		bad: {},
		message: /^Not found: get the user with Email "ghost@x\.example" \(404\)/,
	},
	{
		name: 'an empty phone number',
		resource: 'user',
		operation: 'get',
		parameters: (s) => ({
			findBy: 'phone',
			phoneValue: `={{ $json.fail ? "" : "${s.store.users.get(s.known.users.user)?.phone}" }}`,
		}),
		key: (s) => s.keys.admin,
		bad: {},
		message: /^Phone: is empty/,
	},
	{
		name: 'another user looked up by a regular user',
		resource: 'user',
		operation: 'get',
		parameters: (s) => ({
			findBy: 'id',
			idValue: `={{ $json.fail ? "${s.known.users.admin}" : "${s.known.users.user}" }}`,
		}),
		bad: {},
		message: /^The API key may not get the user with User ID "[^"]+" \(403\)/,
		description: /needs admin privileges/,
	},
	{
		name: 'an unknown organisation name',
		resource: 'organisation',
		operation: 'get',
		parameters: (s) => ({
			findBy: 'name',
			nameValue: `={{ $json.fail ? "Nope Inc" : "${s.known.primaryOrganisationName}" }}`,
		}),
		key: (s) => s.keys.admin,
		bad: {},
		message: /^Not found: get the organisation with Name "Nope Inc" \(404\)/,
	},
	{
		name: 'a template type the service rejects (GraphQL error)',
		resource: 'template',
		operation: 'getAll',
		parameters: () => ({
			returnAll: true,
			filters: { templateType: '={{ $json.fail ? "poster" : "stock" }}' },
		}),
		key: (s) => s.keys.admin,
		bad: {},
		message: /^The service rejected the query to list templates/,
		description: /templateType must be one of/,
	},

	// What the service or the network answers
	{
		name: 'an expired key',
		resource: 'video',
		operation: 'getAll',
		parameters: () => ({ returnAll: false, limit: 1 }),
		key: (s) => s.keys.expired,
		message: /^The service rejected the API key \(401\)/,
		description: /may be mistyped, revoked or expired/,
	},
	{
		name: 'an HTML error page from a proxy, after the retries',
		resource: 'asset',
		operation: 'get',
		parameters: (s) => ({ assetId: id(s.known.usedAssetId) }),
		faults: (s) =>
			s.faults.script([
				{ kind: 'html', status: 503, retryAfter: 0, times: 50, match: { path: '/v1/assets/*' } },
			]),
		message: /^The service failed to get the asset with Asset ID "ast_[^"]+" \(503\)/,
		description: /HTML page instead of JSON.*retried 7 times/,
	},
	{
		name: 'a plain-text 503, after the retries',
		resource: 'video',
		operation: 'getAll',
		parameters: () => ({ returnAll: true }),
		faults: (s) =>
			s.faults.script([
				{ kind: 'text', status: 503, retryAfter: 0, times: 50, match: { path: '/v1/videos' } },
			]),
		message: /^The service failed to list videos \(503\)/,
		description: /plain text instead of JSON/,
	},
	{
		name: 'rate limiting that does not stop, until the time budget',
		resource: 'organisation',
		operation: 'getAll',
		parameters: () => ({ returnAll: true, options: { giveUpAfter: 0.05 } }),
		key: (s) => s.keys.admin,
		faults: (s) =>
			s.faults.script([
				{ kind: '429', retryAfter: 1, times: 'always', match: { path: '/v1/graphql' } },
			]),
		message:
			/^The service is rate limiting requests \(429\) and still was after [1-9]\d* retr(y|ies) \(gave up after [23] s, the time budget of 3 s\)/,
		description: /Raise Options > Give Up After \(Minutes\) to keep trying longer/,
	},
	{
		name: 'a service that does not answer in time',
		resource: 'video',
		operation: 'create',
		parameters: (s) => ({ ...create(s), options: { timeout: 1 } }),
		faults: (s) =>
			s.faults.script([
				{ kind: 'slow', delayMs: 2500, times: 1, match: { method: 'POST', path: '/v1/videos' } },
			]),
		message: /^The service did not answer in time to create the video "Hello"/,
		description: /No answer within 1 s.*may have carried it out/,
	},
];

describe('reliability matrix: bad input and failures give clear errors', () => {
	afterEach(() => sandbox().faults.clear());

	it('has at least 40 cases', () => {
		expect(cases.length).toBeGreaterThanOrEqual(40);
	});

	it.each(cases.map((testCase) => [testCase.name, testCase] as const))(
		'%s',
		async (_name, testCase) => {
			const s = sandbox();
			const items: INodeExecutionData[] = testCase.items
				? await testCase.items(s)
				: testCase.bad !== undefined
					? [{ json: {} }, { json: { fail: true, ...testCase.bad } }, { json: {} }]
					: [{ json: { fail: true } }];
			const badIndex = items.findIndex((item) => item.json.fail === true);
			testCase.faults?.(s);
			const result = await runNode({
				parameters: {
					resource: testCase.resource,
					operation: testCase.operation,
					...testCase.parameters(s),
				},
				credentials: credentialsFor(s, testCase.key?.(s)),
				items,
				continueOnFail: true,
			});
			expect(result.error).toBeUndefined();
			const failed = result.items.filter((item) => typeof item.json.error === 'string');
			expect(failed).toHaveLength(1);
			expect(failed[0].pairedItem).toEqual({ item: badIndex });
			expect(failed[0].json.error).toMatch(testCase.message);
			expect(failed[0].json.error).toMatch(new RegExp(`\\[item ${badIndex}\\]$`));
			if (testCase.description) expect(failed[0].json.details).toMatch(testCase.description);
		},
	);
});
