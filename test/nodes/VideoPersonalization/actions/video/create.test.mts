import { type IDataObject, type INode, type INodeProperties, NodeHelpers } from 'n8n-workflow';

import { engine, NODE_TYPE, runNode } from '../../../../harness/engine.mts';
import { credentialsFor, useSandbox } from '../../../../harness/fixtures.mts';

const sandbox = useSandbox();

function byId(value: string) {
	return { __rl: true, mode: 'id', value };
}

async function create(
	parameters: IDataObject,
	options: { key?: string; items?: IDataObject[]; continueOnFail?: boolean } = {},
) {
	const s = sandbox();
	s.requests.clear();
	const result = await runNode({
		parameters: {
			resource: 'video',
			operation: 'create',
			title: 'Welcome, Ana!',
			template: byId(s.known.stockTemplateId),
			customerDataMode: 'keyValue',
			customerData: { values: [{ key: 'first_name', value: 'Ana' }] },
			...parameters,
		},
		credentials: credentialsFor(s, options.key),
		items: options.items?.map((json) => ({ json })),
		continueOnFail: options.continueOnFail,
	});
	const posts = s.requests.log.filter(
		(request) => request.method === 'POST' && request.path === '/v1/videos',
	);
	return { ...result, posts };
}

describe('Video > Create', () => {
	it('creates a video from key-value customer data and outputs it', async () => {
		const { items, error, posts } = await create({
			aspectRatio: '16:9',
			additionalFields: {
				aiTone: 'friendly',
				aiKeyPoints: ['20% off', 'free shipping'],
				projectId: 'prj_spring',
			},
		});
		expect(error).toBeUndefined();
		expect(posts).toHaveLength(1);
		expect(items).toHaveLength(1);
		const video = sandbox().store.getVideo(String(items[0].json.id));
		expect(video?.title).toBe('Welcome, Ana!');
		expect(video?.customerData).toEqual({ first_name: 'Ana' });
		expect(video?.aiMessaging).toEqual({
			tone: 'friendly',
			key_points: ['20% off', 'free shipping'],
		});
		expect(video?.aspectRatio).toBe('16:9');
		expect(items[0].json).toMatchObject({ id: video?.id, title: 'Welcome, Ana!', url: null });
	});

	it('takes customer data as a JSON object, and each item gets its own video', async () => {
		const { items, error } = await create(
			{
				customerDataMode: 'json',
				customerDataJson:
					'={{ JSON.stringify({ first_name: $json.name, plan: { tier: "gold" } }) }}',
				title: '={{ "Hi " + $json.name }}',
			},
			{ items: [{ name: 'Ana' }, { name: 'Ben' }, { name: 'Chloé' }] },
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		const videos = items.map((item) => sandbox().store.getVideo(String(item.json.id)));
		expect(videos.map((video) => video?.customerData)).toEqual([
			{ first_name: 'Ana', plan: { tier: 'gold' } },
			{ first_name: 'Ben', plan: { tier: 'gold' } },
			{ first_name: 'Chloé', plan: { tier: 'gold' } },
		]);
		expect(videos.map((video) => video?.title)).toEqual(['Hi Ana', 'Hi Ben', 'Hi Chloé']);
		expect(videos.map((video) => video?.aspectRatio)).toEqual(['9:16', '9:16', '9:16']);
	});

	it('finds the template by name through the query-style API, once for all items', async () => {
		const s = sandbox();
		const { items, error } = await create(
			{ template: { __rl: true, mode: 'name', value: s.known.stockTemplateName } },
			{ items: [{}, {}, {}] },
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => s.store.getVideo(String(item.json.id))?.templateId)).toEqual([
			s.known.stockTemplateId,
			s.known.stockTemplateId,
			s.known.stockTemplateId,
		]);
		expect(s.requests.count({ path: '/v1/graphql' })).toBe(1);
	});

	it('shares a template one execution found with the next ones on the same key, not with another key', async () => {
		const s = sandbox();
		const first = await create({}, { items: [{}] });
		expect(first.error).toBeUndefined();
		expect(s.requests.count({ path: '/v1/graphql' })).toBe(1);
		// A second one-item execution on the same key within the minute: no lookup, one request.
		const second = await create({}, { items: [{}] });
		expect(second.error).toBeUndefined();
		expect(second.posts).toHaveLength(1);
		expect(s.requests.count({ path: '/v1/graphql' })).toBe(0);
		expect(s.requests.log).toHaveLength(1);
		// Another API key looks the template up itself.
		const third = await create({}, { items: [{}], key: s.keys.brandAdmin });
		expect(third.error).toBeUndefined();
		expect(s.requests.count({ path: '/v1/graphql' })).toBe(1);
	});

	it.each([
		[
			'invalid JSON',
			{ customerDataMode: 'json', customerDataJson: '{"first_name": "Ana",}' },
			/Customer Data \(JSON\): is not valid JSON/,
		],
		[
			'a JSON array',
			{ customerDataMode: 'json', customerDataJson: '[1, 2]' },
			/Customer Data \(JSON\): must be a JSON object/,
		],
		[
			'an unknown aspect ratio',
			{ aspectRatio: '4:3' },
			/Aspect Ratio: must be one of 9:16, 16:9, 1:1, got "4:3"/,
		],
		[
			'a title that evaluates to nothing',
			{ title: '={{ $json.missing ?? "" }}' },
			/Title: is empty/,
		],
		[
			'a template that evaluates to nothing',
			{ template: { __rl: true, mode: 'id', value: '={{ "" }}' } },
			/Template: no template chosen/,
		],
		[
			'a nameless customer data field',
			{ customerData: { values: [{ key: ' ', value: 'x' }] } },
			/Customer Data Fields: field 1 has no name/,
		],
	])(
		'refuses %s before calling the service, naming the field and the item',
		async (_case, parameters, message) => {
			const { error, posts } = await create(parameters);
			expect(error?.message).toMatch(message);
			expect(error?.message).toMatch(/\[item 0\]$/);
			expect(posts).toHaveLength(0);
		},
	);

	it.each([
		[
			'a text over its length',
			{ title: 'x'.repeat(78) },
			'"title" is 78 characters long; the template allows at most 60',
		],
		[
			'a colour that is not one',
			{ primary_color: 'reddish' },
			'"primary_color" must be a colour such as #1A73E8, got "reddish"',
		],
		[
			'a media value with spaces',
			{ logo: 'my logo.png' },
			'"logo" must be an asset ID or a file\'s address, got "my logo.png"',
		],
		['an object for a text', { subtitle: { a: 1 } }, '"subtitle" must be text, got {"a":1}'],
	])(
		'checks every item against what the template declares before creating the first video: %s',
		async (_case, bad, problem) => {
			const s = sandbox();
			const { error, posts } = await create(
				{ customerDataMode: 'json', customerDataJson: '={{ JSON.stringify($json) }}' },
				{ items: [{ first_name: 'Ana' }, { first_name: 'Ben', ...bad }] },
			);
			expect(error?.message).toBe(
				`Customer Data: ${problem} (template "${s.known.stockTemplateName}") [item 1]`,
			);
			expect(posts).toHaveLength(0);
		},
	);

	it('takes values within what the template declares; a required field with a default may be left out', async () => {
		const s = sandbox();
		const data = {
			title: 'é'.repeat(60),
			primary_color: '#0B6E4F',
			accent: '#fff',
			logo: s.known.usedAssetId,
			background_clip: 'https://cdn.example.com/clip.mp4',
			font: 'Inter',
		};
		const { error, posts } = await create(
			{ customerDataMode: 'json', customerDataJson: JSON.stringify(data) },
			{ items: [{}] },
		);
		expect(error).toBeUndefined();
		expect(posts).toHaveLength(1);
		const { error: untitled } = await create({ customerData: { values: [] } });
		expect(untitled).toBeUndefined();
	});

	it('a field the template requires without a default must be given; with Continue On Fail the others go on', async () => {
		const s = sandbox();
		const subtitle = s.store.templates
			.get(s.known.stockTemplateId)
			?.fields.find((field) => field.name === 'subtitle');
		if (!subtitle) throw new Error('the stock template has no subtitle');
		subtitle.required = true;
		try {
			const { items, posts } = await create(
				{
					customerData: {
						values: [{ key: 'subtitle', value: '={{ $json.subtitle ?? "" }}' }],
					},
				},
				{ items: [{ subtitle: 'Hi' }, {}], continueOnFail: true },
			);
			expect(posts).toHaveLength(1);
			expect(items[1].json.error).toBe(
				`Customer Data: "subtitle" is required by the template (template "${s.known.stockTemplateName}") [item 1]`,
			);
		} finally {
			subtitle.required = false;
		}
	});

	it('says which template was not found or not allowed', async () => {
		const s = sandbox();
		// The template is looked up (with its fields) before any video is created.
		const missing = await create({ template: byId('tpl_does_not_exist') });
		expect(missing.error?.message).toBe(
			'Template: no template has the ID "tpl_does_not_exist" [item 0]',
		);
		expect(missing.posts).toHaveLength(0);
		const byName = await create({
			template: { __rl: true, mode: 'name', value: 'No Such Template' },
		});
		// The service may answer a lookup that matches nothing with null or with a NOT_FOUND error.
		expect(byName.error?.message).toMatch(
			/Template name "No Such Template"|no template has the name "No Such Template"/,
		);
		expect(byName.posts).toHaveLength(0);
		const forbidden = await create({ template: byId(s.known.otherBrandTemplateId) });
		expect(forbidden.error?.message).toMatch(
			/may not find the template with Template ID .* \(403\)/,
		);
		expect(forbidden.posts).toHaveLength(0);
		expect(forbidden.error?.description).toMatch(/brand templates to users of that brand/);
	});

	it('reports missing credits', async () => {
		const { error } = await create({}, { key: sandbox().keys.noCredits });
		expect(error?.message).toMatch(
			/Not enough credits to create the video "Welcome, Ana!" .*\(402\)/,
		);
	});

	it('retries a 429 (the service did not act on it) and creates the video once', async () => {
		const s = sandbox();
		const before = s.store.listVideos().length;
		s.faults.script([
			{ kind: '429', retryAfter: 0, times: 2, match: { method: 'POST', path: '/v1/videos' } },
		]);
		const { items, error, posts } = await create({});
		expect(error).toBeUndefined();
		expect(posts.map((post) => post.status)).toEqual([429, 429, 201]);
		expect(items).toHaveLength(1);
		expect(s.store.listVideos().length).toBe(before + 1);
	});

	it.each(['500', '502', '503', 'reset'] as const)(
		'does not resend a create after %s (it may have been processed)',
		async (kind) => {
			const s = sandbox();
			s.faults.script([{ kind, times: 1, match: { method: 'POST', path: '/v1/videos' } }]);
			const { error, posts } = await create({});
			expect(posts).toHaveLength(1);
			expect(error).toBeDefined();
			s.faults.clear();
		},
	);

	it.each([
		['500', {}],
		['502', {}],
		['503', {}],
		['html', { status: 504 }],
	] as const)('after a %s, warns that the video may have been created', async (kind, extra) => {
		const s = sandbox();
		s.faults.script([{ kind, ...extra, times: 1, match: { method: 'POST', path: '/v1/videos' } }]);
		const { error, posts } = await create({});
		s.faults.clear();
		expect(posts).toHaveLength(1);
		expect(error?.message).toMatch(
			/^The service failed to create the video "Welcome, Ana!" .*\(50\d\)/,
		);
		expect(error?.description).toMatch(
			/try again later\..* may have carried it out: check with Get Many before running it again/,
		);
	});

	it('does not warn of a possible create after 429s (the service did not act on them)', async () => {
		const s = sandbox();
		s.faults.script([
			{ kind: '429', retryAfter: 500, times: 1, match: { method: 'POST', path: '/v1/videos' } },
		]);
		const { error, posts } = await create({});
		s.faults.clear();
		expect(posts).toHaveLength(1);
		// 500 s is more than the default time budget of 5 minutes: it fails at once, saying so.
		expect(error?.message).toMatch(
			/^The service asked to wait 8.3 min before it takes the request to create the video .*\(429\): longer than the time budget of 5 min/,
		);
		expect(error?.description).toMatch(/set Options > Give Up After \(Minutes\) to 11 or more/);
		expect(error?.description).not.toMatch(/may have carried it out/);
	});

	it('warns that a create may have happened when the connection drops after the service processed it', async () => {
		const s = sandbox();
		const before = s.store.listVideos().length;
		s.faults.script([
			{ kind: 'reset-after-commit', times: 1, match: { method: 'POST', path: '/v1/videos' } },
		]);
		const { error, posts } = await create({});
		expect(posts).toHaveLength(1);
		expect(s.store.listVideos().length).toBe(before + 1);
		expect(error?.message).toMatch(
			/connection to the service dropped while trying to create the video/,
		);
		expect(error?.description).toMatch(
			/may have carried it out: check with Get Many before running it again/,
		);
	});

	it('with Continue On Fail, outputs an error item in place of each failed item and goes on', async () => {
		const { items, error } = await create(
			{ customerDataMode: 'json', customerDataJson: '={{ $json.data }}' },
			{
				items: [{ data: '{"a": 1}' }, { data: 'not json' }, { data: '{"b": 2}' }],
				continueOnFail: true,
			},
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[0].json.id).toEqual(expect.any(String));
		expect(items[1].json.error).toMatch(/Customer Data \(JSON\): is not valid JSON .*\[item 1\]/);
		expect(items[2].json.id).toEqual(expect.any(String));
	});

	it("reads every item's fields before it sends anything: a mistake in the last item sends no request", async () => {
		const s = sandbox();
		const { error } = await create(
			{
				template: { __rl: true, mode: 'name', value: s.known.stockTemplateName },
				title: '={{ $json.title }}',
			},
			// A key no other test here uses: no template found before is kept for it.
			{
				items: [...Array.from({ length: 40 }, () => ({ title: 'Ana' })), { title: '' }],
				key: s.keys.orgAdmin,
			},
		);
		expect(error?.message).toMatch(/Title: is empty \[item 40\]/);
		expect(s.requests.log).toEqual([]);
	});

	it('with Continue On Fail, a template lookup that fails for items sharing it gives each item its error', async () => {
		// The items look the template up together (one lookup): each still gets its own error item.
		const { items, error, posts } = await create(
			{ template: byId(sandbox().known.otherBrandTemplateId) },
			{ items: [{}, {}, {}], continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(posts).toHaveLength(0);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		// One lookup failed for all three: each error names its own item.
		items.forEach((item, index) =>
			expect(item.json.error).toMatch(new RegExp(`\\(403\\) \\[item ${index}\\]$`)),
		);
	});

	it('keeps the id of a video that was created but not finished beside its error', async () => {
		const { items } = await create(
			{ waitForCompletion: true, options: { waitTimeout: 0.01, pollInterval: 1 } },
			{ continueOnFail: true },
		);
		expect(items[0].json.error).toMatch(/^Video "vid_[^"]+" was not finished after/);
		expect(sandbox().store.getVideo(String(items[0].json.id))).toBeDefined();
	});
});

describe('Video > Create > Check Only (No Credits Spent)', () => {
	const CHECKED_ITEMS: IDataObject[] = [
		{ name: 'Ana', data: { first_name: 'Ana', primary_color: '#0B6E4F' } },
		{ name: '', data: { title: 'x'.repeat(78), primary_color: 'reddish' } },
		{ name: 'Ben', data: 'not json', ratio: '4:3', giveUpAfter: 0 },
		{ name: 'Chloé', data: {}, template: 'tpl_nope' },
	];
	const checkParameters = (checkOnly: boolean): IDataObject => ({
		title: '={{ $json.name }}',
		template: byId('={{ $json.template ?? "tpl_stock_welcome" }}'),
		customerDataMode: 'json',
		customerDataJson:
			'={{ typeof $json.data === "string" ? $json.data : JSON.stringify($json.data) }}',
		aspectRatio: '={{ $json.ratio ?? "16:9" }}',
		options: { checkOnly, giveUpAfter: '={{ $json.giveUpAfter ?? 5 }}' },
	});

	it('checks every item as Create does, names every problem by item and field, and creates nothing', async () => {
		const s = sandbox();
		const before = s.store.listVideos().length;
		const { items, error, posts } = await create(checkParameters(true), { items: CHECKED_ITEMS });
		expect(error).toBeUndefined();
		expect(posts).toHaveLength(0);
		expect(s.requests.log.filter((request) => request.method === 'POST')).toEqual(
			s.requests.log.filter((request) => request.path === '/v1/graphql'),
		);
		expect(s.store.listVideos()).toHaveLength(before);
		expect(items.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		const template = `(template "${s.known.stockTemplateName}")`;
		expect(items.map((item) => item.json)).toEqual([
			{
				ok: true,
				title: 'Ana',
				template: { id: s.known.stockTemplateId, name: s.known.stockTemplateName },
				customer_data: { first_name: 'Ana', primary_color: '#0B6E4F' },
				aspect_ratio: '16:9',
			},
			{
				ok: false,
				problems: [
					'Title: is empty [item 1]',
					`Customer Data: "title" is 78 characters long; the template allows at most 60 ${template} [item 1]`,
					`Customer Data: "primary_color" must be a colour such as #1A73E8, got "reddish" ${template} [item 1]`,
				],
			},
			{
				ok: false,
				problems: [
					expect.stringMatching(/^Customer Data \(JSON\): is not valid JSON .*\[item 2\]$/),
					'Aspect Ratio: must be one of 9:16, 16:9, 1:1, got "4:3" [item 2]',
					'Give Up After (Minutes): must be a number of minutes above 0, got 0 [item 2]',
				],
			},
			{ ok: false, problems: ['Template: no template has the ID "tpl_nope" [item 3]'] },
		]);
	});

	it('runs the checks of a real Create: its error for each item is the first problem Check Only names', async () => {
		const checked = await create(checkParameters(true), { items: CHECKED_ITEMS });
		const real = await create(checkParameters(false), {
			items: CHECKED_ITEMS,
			continueOnFail: true,
		});
		expect(real.posts).toHaveLength(1);
		const firstProblems = checked.items.map((item) => (item.json.problems as string[])?.[0]);
		expect(real.items.map((item) => item.json.error)).toEqual(firstProblems);
	});

	it('its output feeds a Create: what was checked is what is created', async () => {
		const s = sandbox();
		const checked = await create(checkParameters(true), { items: CHECKED_ITEMS.slice(0, 1) });
		const { items, error } = await create(
			{
				title: '={{ $json.title }}',
				template: byId('={{ $json.template.id }}'),
				customerDataMode: 'json',
				customerDataJson: '={{ JSON.stringify($json.customer_data) }}',
				aspectRatio: '={{ $json.aspect_ratio }}',
			},
			{ items: checked.items.map((item) => item.json) },
		);
		expect(error).toBeUndefined();
		const video = s.store.getVideo(String(items[0].json.id));
		const { ok, template, ...sent } = checked.items[0].json;
		expect(ok).toBe(true);
		expect(video).toMatchObject({
			title: sent.title,
			templateId: (template as IDataObject).id,
			customerData: sent.customer_data,
			aspectRatio: sent.aspect_ratio,
		});
	});

	it('a template the key may not use is a problem of the item (403)', async () => {
		const s = sandbox();
		const { items, posts } = await create(
			{ template: byId(s.known.otherBrandTemplateId), options: { checkOnly: true } },
			{ items: [{}, {}] },
		);
		expect(posts).toHaveLength(0);
		items.forEach((item, index) =>
			expect(item.json).toEqual({
				ok: false,
				problems: [expect.stringMatching(new RegExp(`\\(403\\) \\[item ${index}\\]$`))],
			}),
		);
	});

	it('a lookup that fails for a reason of the service fails the items, each with its own number', async () => {
		const s = sandbox();
		s.faults.script([
			{ kind: 'text', status: 401, times: 'always', match: { path: '/v1/graphql' } },
		]);
		try {
			const parameters = { options: { checkOnly: true } };
			const stopped = await create(parameters, { items: [{}, {}, {}] });
			expect(stopped.error?.message).toBe('The service rejected the API key (401) [item 0]');
			const { items, posts } = await create(parameters, {
				items: [{}, {}, {}],
				continueOnFail: true,
			});
			expect(posts).toHaveLength(0);
			expect(items.map((item) => item.json.error)).toEqual(
				[0, 1, 2].map((index) => `The service rejected the API key (401) [item ${index}]`),
			);
		} finally {
			s.faults.clear();
		}
	});
});

describe('Video > Create: the wait options show only where they apply', () => {
	const WAIT_OPTIONS = [
		'checkOnly',
		'waitTimeout',
		'pollInterval',
		'downloadVideo',
		'downloadThumbnail',
	];

	async function nodeType() {
		const { nodeTypes } = await engine();
		const { description } = nodeTypes.getByNameAndVersion(NODE_TYPE, 1);
		const node: INode = {
			id: 'n',
			name: 'Video Personalization',
			type: NODE_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		};
		return { description, node };
	}

	/** The options the editor offers under Options for these parameters (it checks each with the collection's path). */
	async function offered(parameters: IDataObject): Promise<string[]> {
		const { description, node } = await nodeType();
		const root = { resource: 'video', operation: 'create', ...parameters };
		const collection = description.properties.find(
			(property) =>
				property.name === 'options' &&
				NodeHelpers.displayParameter(root, property, node, description),
		);
		return ((collection?.options ?? []) as INodeProperties[])
			.filter((option) =>
				NodeHelpers.displayParameterPath(
					{ parameters: root },
					option,
					'parameters.options',
					node,
					description,
				),
			)
			.map((option) => option.name);
	}

	it('without Wait for Completion, offers only Check Only, Give Up After and Timeout', async () => {
		expect(await offered({})).toEqual(['checkOnly', 'giveUpAfter', 'timeout']);
		expect(
			await offered({
				waitForCompletion: false,
				options: { downloadVideo: true, downloadThumbnail: true },
			}),
		).toEqual(['checkOnly', 'giveUpAfter', 'timeout']);
	});

	it('with Wait for Completion, offers the wait options, and a binary property name only with its download', async () => {
		expect(await offered({ waitForCompletion: true })).toEqual([
			...WAIT_OPTIONS,
			'giveUpAfter',
			'timeout',
		]);
		expect(await offered({ waitForCompletion: true, options: { downloadVideo: true } })).toEqual([
			'checkOnly',
			'waitTimeout',
			'pollInterval',
			'downloadVideo',
			'videoBinaryProperty',
			'downloadThumbnail',
			'giveUpAfter',
			'timeout',
		]);
		expect(
			await offered({
				waitForCompletion: true,
				options: { downloadVideo: true, downloadThumbnail: true },
			}),
		).toEqual([
			'checkOnly',
			'waitTimeout',
			'pollInterval',
			'downloadVideo',
			'videoBinaryProperty',
			'downloadThumbnail',
			'thumbnailBinaryProperty',
			'giveUpAfter',
			'timeout',
		]);
	});

	it('with Wait for Completion as an expression, offers the wait options', async () => {
		expect(await offered({ waitForCompletion: '={{ $json.wait }}' })).toEqual([
			...WAIT_OPTIONS,
			'giveUpAfter',
			'timeout',
		]);
	});

	it('n8n drops the hidden options from the parameters it resolves', async () => {
		const { description, node } = await nodeType();
		const resolve = (parameters: IDataObject) =>
			NodeHelpers.getNodeParameters(
				description.properties,
				{ resource: 'video', operation: 'create', ...parameters },
				false,
				false,
				node,
				description,
			);
		const options = {
			waitTimeout: 5,
			downloadVideo: true,
			videoBinaryProperty: 'mp4',
			downloadThumbnail: false,
			thumbnailBinaryProperty: 'jpg',
			timeout: 30,
		};
		expect(resolve({ waitForCompletion: false, options })?.options).toEqual({ timeout: 30 });
		expect(resolve({ waitForCompletion: true, options })?.options).toEqual({
			waitTimeout: 5,
			downloadVideo: true,
			videoBinaryProperty: 'mp4',
			downloadThumbnail: false,
			timeout: 30,
		});
	});
});
