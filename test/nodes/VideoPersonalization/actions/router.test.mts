import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { resources } from '../../../../nodes/VideoPersonalization/actions/registry.ts';
import type { Sandbox } from '../../../../sandbox/index.mts';
import { allText, binaryItem, capturedLogs, runNode } from '../../../harness/engine.mts';
import { credentialsFor, mediaBytes, useSandbox } from '../../../harness/fixtures.mts';

const CANARY = 'vpk_canary_5f0c2e8a91d34b7c';
const sandbox = useSandbox({ extraKeys: [{ key: CANARY, role: 'ROLE_ADMIN' }] });

type OperationCase = {
	resource: string;
	operation: string;
	/** Parameters that work, and an expression-driven variant that fails for an item with `fail: true`. */
	parameters: (s: Sandbox) => IDataObject;
	items?: () => Promise<INodeExecutionData[]>;
};

const id = (value: string) => ({ __rl: true, mode: 'id', value });
const failing = (good: string) =>
	`={{ $json.fail ? "missing_${Math.random().toString(36).slice(2, 8)}" : "${good}" }}`;

const operations: OperationCase[] = [
	{
		resource: 'video',
		operation: 'getAll',
		parameters: () => ({ returnAll: false, limit: '={{ $json.fail ? 0 : 2 }}' }),
	},
	{
		resource: 'video',
		operation: 'create',
		parameters: (s) => ({
			title: 'Hello',
			template: id(failing(s.known.stockTemplateId)),
			customerDataMode: 'json',
			customerDataJson: '{}',
		}),
	},
	{
		resource: 'asset',
		operation: 'getAll',
		parameters: () => ({ returnAll: false, limit: '={{ $json.fail ? -1 : 2 }}' }),
	},
	{
		resource: 'asset',
		operation: 'upload',
		parameters: () => ({ binaryPropertyName: '={{ $json.fail ? "nothing" : "data" }}' }),
		items: async () => [
			await binaryItem(mediaBytes('a.png', 16), 'a.png', 'image/png', 'data', {}),
			await binaryItem(mediaBytes('b.png', 16), 'b.png', 'image/png', 'data', { fail: true }),
		],
	},
	{
		resource: 'asset',
		operation: 'get',
		parameters: (s) => ({ assetId: id(failing(s.known.usedAssetId)) }),
	},
	{
		resource: 'asset',
		operation: 'update',
		parameters: (s) => ({
			assetId: id(failing(s.known.audioAssetId)),
			updateFields: { name: 'Renamed' },
		}),
	},
	{
		resource: 'asset',
		operation: 'delete',
		parameters: () => ({ assetId: id('={{ $json.fail ? "ast_missing" : $json.target }}') }),
	},
	{
		resource: 'template',
		operation: 'get',
		parameters: (s) => ({ template: id(failing(s.known.stockTemplateId)) }),
	},
	{
		resource: 'template',
		operation: 'getAll',
		parameters: () => ({ returnAll: false, limit: '={{ $json.fail ? 0 : 2 }}' }),
	},
	{
		resource: 'user',
		operation: 'get',
		parameters: (s) => ({ findBy: 'id', idValue: failing(s.known.users.user) }),
	},
	{
		resource: 'user',
		operation: 'getAll',
		parameters: () => ({ returnAll: false, limit: '={{ $json.fail ? 0 : 2 }}' }),
	},
	{
		resource: 'organisation',
		operation: 'get',
		parameters: (s) => ({ findBy: 'id', idValue: failing(s.known.primaryOrganisationId) }),
	},
	{
		resource: 'organisation',
		operation: 'getAll',
		parameters: () => ({ returnAll: false, limit: '={{ $json.fail ? 0 : 2 }}' }),
	},
];

async function inputs(testCase: OperationCase, s: Sandbox): Promise<INodeExecutionData[]> {
	if (testCase.items) return await testCase.items();
	// Fresh unused assets for Delete, so the good items really delete something.
	const target = () =>
		s.store.addAsset({
			...s.store.getAsset(s.known.unusedAssetId)!,
			id: undefined,
			name: 'to delete',
		}).id;
	return [{ json: { target: target() } }, { json: { fail: true } }, { json: { target: target() } }];
}

describe('every operation, through the router', () => {
	it('has a case for every operation of the registry', () => {
		const registered = Object.entries(resources).flatMap(([resource, { operations }]) =>
			Object.keys(operations).map((operation) => `${resource} > ${operation}`),
		);
		expect(
			operations.map((testCase) => `${testCase.resource} > ${testCase.operation}`).sort(),
		).toEqual(registered.sort());
	});

	it.each(
		operations.map(
			(testCase) => [`${testCase.resource} > ${testCase.operation}`, testCase] as const,
		),
	)(
		'%s: Continue On Fail puts an error item in place of the failed item, paired with it',
		async (_name, testCase) => {
			const s = sandbox();
			const items = await inputs(testCase, s);
			const result = await runNode({
				parameters: {
					resource: testCase.resource,
					operation: testCase.operation,
					...testCase.parameters(s),
				},
				credentials: credentialsFor(s, CANARY),
				items,
				continueOnFail: true,
			});
			expect(result.error).toBeUndefined();
			const failedIndex = items.findIndex((item) => item.json.fail === true);
			const errors = result.items.filter((item) => typeof item.json.error === 'string');
			expect(errors).toHaveLength(1);
			expect(errors[0].pairedItem).toEqual({ item: failedIndex });
			expect(errors[0].json.error).toMatch(new RegExp(`\\[item ${failedIndex}\\]$`));
			const good = result.items.filter((item) => item.json.error === undefined);
			expect(good.length).toBeGreaterThanOrEqual(items.length - 1);
			for (const item of good)
				expect((item.pairedItem as { item: number }).item).not.toBe(failedIndex);
			// Items come out in input order.
			const order = result.items.map((item) => (item.pairedItem as { item: number }).item);
			expect(order).toEqual([...order].sort((left, right) => left - right));
		},
	);

	it.each(
		operations.map(
			(testCase) => [`${testCase.resource} > ${testCase.operation}`, testCase] as const,
		),
	)(
		"%s: without Continue On Fail, the run stops with the item's error",
		async (_name, testCase) => {
			const s = sandbox();
			const items = await inputs(testCase, s);
			const result = await runNode({
				parameters: {
					resource: testCase.resource,
					operation: testCase.operation,
					...testCase.parameters(s),
				},
				credentials: credentialsFor(s, CANARY),
				items,
			});
			const failedIndex = items.findIndex((item) => item.json.fail === true);
			expect(result.error?.message).toMatch(new RegExp(`\\[item ${failedIndex}\\]$`));
			expect(result.error?.context?.itemIndex).toBe(failedIndex);
		},
	);

	it('never lets the API key show up in an output, an error or a log', async () => {
		const s = sandbox();
		const texts: string[] = [];
		for (const testCase of operations) {
			for (const continueOnFail of [true, false]) {
				const result = await runNode({
					parameters: {
						resource: testCase.resource,
						operation: testCase.operation,
						...testCase.parameters(s),
					},
					credentials: credentialsFor(s, CANARY),
					items: await inputs(testCase, s),
					continueOnFail,
				});
				texts.push(allText(result.items), allText(result.error), allText(result.run.data));
			}
		}
		// Faults of every kind on the way.
		s.faults.random({
			rate: 0.5,
			kinds: ['429', '500', '502', '503', 'html', 'text', 'reset'],
			retryAfter: 0,
			seed: 3,
		});
		for (const testCase of operations) {
			const result = await runNode({
				parameters: {
					resource: testCase.resource,
					operation: testCase.operation,
					...testCase.parameters(s),
				},
				credentials: credentialsFor(s, CANARY),
				items: await inputs(testCase, s),
				continueOnFail: true,
			});
			texts.push(allText(result.items), allText(result.error), allText(result.run.data));
		}
		s.faults.clear();
		texts.push(capturedLogs.join('\n'));
		const everything = texts.join('\n');
		expect(everything.length).toBeGreaterThan(10_000);
		expect(everything).not.toContain(CANARY);
		// The key was really used: the sandbox saw it on every API call, and never on the CDN.
		expect(s.requests.log.some((request) => request.authorization === `Bearer ${CANARY}`)).toBe(
			true,
		);
		expect(
			s.requests.log
				.filter((request) => request.server === 'cdn')
				.every((request) => !request.hadAuthorization),
		).toBe(true);
	});
});
