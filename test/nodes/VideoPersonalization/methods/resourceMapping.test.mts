/** Create's Template Fields (resource mapper), loaded as the editor loads them: a LoadOptionsContext. */
import type { INodeParameterResourceLocator, INodeParameters } from 'n8n-workflow';

import { resourceMapping } from '../../../harness/engine.mts';
import { credentialsFor, useSandbox } from '../../../harness/fixtures.mts';
import { sendJson, startTestServer } from '../../../harness/httpServer.mts';

const sandbox = useSandbox();

function createParameters(template: INodeParameterResourceLocator): INodeParameters {
	return { resource: 'video', operation: 'create', customerDataMode: 'templateFields', template };
}

describe('getTemplateFields', () => {
	it.each([
		['From List', 'list'],
		['By ID', 'id'],
	])(
		'shows the fields of a template chosen %s, labelled by key and what each takes',
		async (_how, mode) => {
			const s = sandbox();
			const { fields, emptyFieldsNotice } = await resourceMapping(
				'getTemplateFields',
				credentialsFor(s),
				createParameters({ __rl: true, mode: mode as string, value: s.known.brandTemplateId }),
			);
			expect(emptyFieldsNotice).toBeUndefined();
			const template = s.store.templates.get(s.known.brandTemplateId)!;
			expect(fields.map((field) => field.id)).toEqual(template.fields.map((field) => field.name));
			expect(fields.map((field) => field.displayName)).toEqual([
				'title (max 60)',
				'subtitle (max 80)',
				'body (max 280)',
				'logo (image)',
				'background_clip (video)',
				'primary_color (#RRGGBB)',
				'font (font name)',
			]);
			// Title is required but has a default: the item need not give it, and nothing is pre-filled.
			expect(fields.find((field) => field.id === 'title')).toMatchObject({
				required: false,
				type: 'string',
			});
			expect(fields.some((field) => 'defaultValue' in field)).toBe(false);
		},
	);

	it('shows the fields of a template chosen By Name, and of an expression that resolves in the editor', async () => {
		const s = sandbox();
		const byName = await resourceMapping(
			'getTemplateFields',
			credentialsFor(s),
			createParameters({ __rl: true, mode: 'name', value: s.known.stockTemplateName }),
		);
		expect(byName.fields.map((field) => field.id)).toContain('title');
		const expression = await resourceMapping(
			'getTemplateFields',
			credentialsFor(s),
			createParameters({ __rl: true, mode: 'id', value: `={{ "${s.known.stockTemplateId}" }}` }),
		);
		expect(expression.fields.map((field) => field.id)).toEqual(
			byName.fields.map((field) => field.id),
		);
	});

	it('another template, other fields (the editor reloads on template.value)', async () => {
		const s = sandbox();
		const endcard = await resourceMapping(
			'getTemplateFields',
			credentialsFor(s, s.keys.admin),
			createParameters({ __rl: true, mode: 'list', value: 'tpl_endcard_platform_cta' }),
		);
		const stock = await resourceMapping(
			'getTemplateFields',
			credentialsFor(s, s.keys.admin),
			createParameters({ __rl: true, mode: 'list', value: s.known.stockTemplateId }),
		);
		expect(endcard.fields.map((field) => field.id)).not.toContain('subtitle');
		expect(stock.fields.map((field) => field.id)).toContain('subtitle');
	});

	it('says what to do when no template is chosen, or it does not exist', async () => {
		const s = sandbox();
		const none = await resourceMapping(
			'getTemplateFields',
			credentialsFor(s),
			createParameters({ __rl: true, mode: 'list', value: '' }),
		);
		expect(none).toEqual({
			fields: [],
			emptyFieldsNotice: 'Choose a Template above to see the fields it can be personalized with.',
		});
		const missing = await resourceMapping(
			'getTemplateFields',
			credentialsFor(s),
			createParameters({ __rl: true, mode: 'name', value: 'No Such Template' }),
		);
		expect(missing.fields).toEqual([]);
		expect(missing.emptyFieldsNotice).toMatch(/^No template has the name "No Such Template"\./);
		const unknownId = await resourceMapping(
			'getTemplateFields',
			credentialsFor(s),
			createParameters({ __rl: true, mode: 'id', value: 'tpl_nope' }),
		);
		expect(unknownId.emptyFieldsNotice).toMatch(/^No template has the ID "tpl_nope"\./);
	});

	it('a field the template requires without a default is marked and required', async () => {
		const s = sandbox();
		const subtitle = s.store.templates
			.get(s.known.stockTemplateId)
			?.fields.find((field) => field.name === 'subtitle');
		if (!subtitle) throw new Error('the stock template has no subtitle');
		subtitle.required = true;
		try {
			const { fields } = await resourceMapping(
				'getTemplateFields',
				credentialsFor(s),
				createParameters({ __rl: true, mode: 'id', value: s.known.stockTemplateId }),
			);
			expect(fields.find((field) => field.id === 'subtitle')).toMatchObject({
				displayName: 'subtitle * (max 80)',
				required: true,
			});
		} finally {
			subtitle.required = false;
		}
	});

	it('an expression only a run can work out is explained, not sent', async () => {
		const s = sandbox();
		s.requests.clear();
		const result = await resourceMapping(
			'getTemplateFields',
			credentialsFor(s),
			createParameters({ __rl: true, mode: 'id', value: '={{ $json.template_id }}' }),
		);
		expect(result.fields).toEqual([]);
		expect(result.emptyFieldsNotice).toMatch(
			/expression that can only be worked out when the workflow runs/,
		);
	});

	it('refuses a template the key may not see with the rule, like the operations', async () => {
		const s = sandbox();
		const refused = await resourceMapping(
			'getTemplateFields',
			credentialsFor(s),
			createParameters({ __rl: true, mode: 'id', value: s.known.otherBrandTemplateId }),
		).catch((error: Error) => error);
		expect((refused as Error).message).toMatch(
			/may not load the fields of the template with Template ID .* \(403\)/,
		);
	});
});

// A service whose template fields have fewer sub-fields than the sandbox's: the sandbox cannot
// change its schema, so a small GraphQL server answers as graphql-js would.
describe('getTemplateFields on a service with other template-field sub-fields', () => {
	it('drops the sub-fields the service does not have and reads what is left', async () => {
		const queries: string[] = [];
		const server = await startTestServer((request, response) => {
			const { query } = JSON.parse(request.body) as { query: string };
			queries.push(query);
			const selection = /fields \{ ([^}]*) \}/.exec(query)?.[1].split(' ') ?? [];
			const missing = selection.find((name) => !['id', 'name', 'type'].includes(name));
			if (missing)
				return sendJson(response, 400, {
					errors: [
						{
							message: `Cannot query field "${missing}" on type "VideoTemplateField".`,
							extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
						},
					],
				});
			sendJson(response, 200, {
				data: {
					viewer: {
						videoTemplate: {
							id: 'tpl_1',
							name: 'Tiny',
							fields: [
								{ id: 'f1', name: 'first_name', type: 'text' },
								{ id: 'f2', name: 'photo', type: 'media' },
								{ id: 'f3', name: 'shade', type: 'gradient' },
							],
						},
					},
				},
			});
		});
		try {
			const { fields } = await resourceMapping(
				'getTemplateFields',
				{ apiKey: 'k_123456', baseUrl: `${server.url}/v1` },
				createParameters({ __rl: true, mode: 'id', value: 'tpl_1' }),
			);
			expect(fields.map((field) => [field.id, field.displayName])).toEqual([
				['first_name', 'first_name'],
				['photo', 'photo (media)'],
				['shade', 'shade'],
			]);
			expect(queries.at(-1)).toContain('fields { id name type }');
			expect(queries).toHaveLength(5);
		} finally {
			await server.close();
		}
	});
});
