/** Video > Create with Customer Data from the template's own fields (resource mapper), run in the engine. */
import { type IDataObject, type INode, NodeHelpers } from 'n8n-workflow';

import { engine, NODE_TYPE, resourceMapping, runNode } from '../../../../harness/engine.mts';
import { credentialsFor, useSandbox } from '../../../../harness/fixtures.mts';

const sandbox = useSandbox();

async function create(parameters: IDataObject, items?: IDataObject[]) {
	const s = sandbox();
	const template = { __rl: true, mode: 'id', value: s.known.brandTemplateId };
	// The schema the editor stores with the mapping, as the editor gets it.
	const { fields: schema } = await resourceMapping('getTemplateFields', credentialsFor(s), {
		resource: 'video',
		operation: 'create',
		template,
	});
	const result = await runNode({
		parameters: {
			resource: 'video',
			operation: 'create',
			title: 'Welcome',
			template,
			customerDataMode: 'templateFields',
			...parameters,
			templateFields: {
				schema,
				matchingColumns: [],
				attemptToConvertTypes: false,
				convertFieldsToString: true,
				...(parameters.templateFields as IDataObject),
			},
		},
		credentials: credentialsFor(s),
		items: items?.map((json) => ({ json })),
	});
	return { ...result, videos: result.items.map((item) => s.store.getVideo(String(item.json.id))) };
}

describe('Video > Create with Template Fields', () => {
	it('sends the fields set below (fixed values and expressions), leaves empty ones to the template, and adds own keys', async () => {
		const s = sandbox();
		const { error, videos } = await create(
			{
				templateFields: {
					mappingMode: 'defineBelow',
					value: {
						title: '={{ "Hi " + $json.name }}',
						subtitle: '',
						logo: s.known.usedAssetId,
						primary_color: '#FF0066',
						font: 'Inter',
					},
				},
				customerData: { values: [{ key: 'coupon', value: '={{ $json.coupon }}' }] },
			},
			[
				{ name: 'Ana', coupon: 'A10' },
				{ name: 'Ben', coupon: 'B20' },
			],
		);
		expect(error).toBeUndefined();
		expect(videos.map((video) => video?.customerData)).toEqual([
			{
				title: 'Hi Ana',
				logo: s.known.usedAssetId,
				primary_color: '#FF0066',
				font: 'Inter',
				coupon: 'A10',
			},
			{
				title: 'Hi Ben',
				logo: s.known.usedAssetId,
				primary_color: '#FF0066',
				font: 'Inter',
				coupon: 'B20',
			},
		]);
	});

	it('auto-maps the input keys that are template fields', async () => {
		const { error, videos } = await create(
			{ templateFields: { mappingMode: 'autoMapInputData', value: null } },
			[
				{
					title: 'Hello Chloé',
					logo: 'https://cdn.example.com/logo.png',
					email: 'chloe@example.com',
				},
			],
		);
		expect(error).toBeUndefined();
		expect(videos[0]?.customerData).toEqual({
			title: 'Hello Chloé',
			logo: 'https://cdn.example.com/logo.png',
		});
	});
});

describe('which Customer Data a new node starts with', () => {
	it.each([
		[3, 'templateFields'],
		[2, 'templateFields'],
		[1, 'keyValue'],
	])(
		'version %i: %s (a saved version-1 node, which omits defaults, reads as before)',
		async (typeVersion, mode) => {
			const { nodeTypes } = await engine();
			const { description } = nodeTypes.getByNameAndVersion(NODE_TYPE, typeVersion);
			expect(description.defaultVersion).toBe(3);
			const node: INode = {
				id: 'n',
				name: 'Video Personalization',
				type: NODE_TYPE,
				typeVersion,
				position: [0, 0],
				parameters: {},
			};
			const resolved = NodeHelpers.getNodeParameters(
				description.properties,
				{ resource: 'video', operation: 'create' },
				true,
				false,
				node,
				description,
			);
			expect(resolved?.customerDataMode).toBe(mode);
			expect(Object.keys(resolved ?? {})).toEqual(
				expect.arrayContaining(
					mode === 'templateFields' ? ['templateFields', 'customerData'] : ['customerData'],
				),
			);
		},
	);
});
