/**
 * The query-style documents, parsed and validated by graphql-js against a schema written from
 * the service's interface (docs/service-facts.md, "Query-style API"), and run against it to
 * check the field switches.
 */
import {
	buildSchema,
	type DocumentNode,
	execute,
	type FieldNode,
	type FragmentDefinitionNode,
	Kind,
	type OperationDefinitionNode,
	parse,
	validate,
	visit,
} from 'graphql';

import {
	fieldSwitches,
	ORGANISATION_FIELDS,
	ORGANISATION_QUERY,
	ORGANISATIONS_QUERY,
	type SelectableField,
	TEMPLATE_FIELDS,
	TEMPLATE_QUERY,
	TEMPLATE_SEARCH_QUERY,
	TEMPLATES_QUERY,
	USER_FIELDS,
	USER_QUERY,
	USERS_QUERY,
} from '../../../../nodes/VideoPersonalization/helpers/queries.ts';

/**
 * The spec's types. Where the spec does not show an object's fields (Team, MessagingCampaign,
 * VideoTemplateField: "not shown"), they are given id and name, as the spec says of Category,
 * Tag and Brand; that is an assumption of the queries, not a fact of the spec.
 */
const SPEC_SDL = /* GraphQL */ `
	scalar DateTime

	type Query {
		viewer: Viewer
	}

	type Viewer {
		videoTemplate(criteria: VideoTemplateLookupInput!): VideoTemplate
		videoTemplates(filter: VideoTemplateListFilterInput!): VideoTemplatePage
		findUser(criteria: UserLookupInput!): User
		users(filter: UserListFilterInput!): UserPage
		organisation(criteria: OrganisationLookupInput!): Organisation
		organisations(filter: OrganisationListFilterInput!): OrganisationPage
	}

	input VideoTemplateLookupInput {
		id: ID
		name: String
	}
	input VideoTemplateListFilterInput {
		search: String
		templateType: String
		page: Int
		limit: Int
	}
	input UserLookupInput {
		id: ID
		email: String
		phone: String
	}
	input UserListFilterInput {
		search: String
		page: Int
		limit: Int
	}
	input OrganisationLookupInput {
		id: ID
		name: String
	}
	input OrganisationListFilterInput {
		filter: String
		page: Int
		limit: Int
	}

	type VideoTemplatePage {
		items: [VideoTemplate]
		total: Int
		page: Int
		limit: Int
		pages: Int
	}
	type UserPage {
		items: [User]
		total: Int
		page: Int
		limit: Int
		pages: Int
	}
	type OrganisationPage {
		items: [Organisation]
		total: Int
		page: Int
		limit: Int
		pages: Int
	}

	type VideoTemplate {
		id: ID
		name: String
		description: String
		templateType: String
		aspectRatio: String
		duration: Float
		categories: [Category]
		tags: [Tag]
		fields: [VideoTemplateField]
		brand: Brand
		previewImage: String
		previewVideo: String
	}
	type Category {
		id: ID
		name: String
	}
	type Tag {
		id: ID
		name: String
	}
	type Brand {
		id: ID
		name: String
	}

	type User {
		id: ID
		profile: Profile
		brand: Brand
		roles: [String]
		team: Team
		verified: Boolean
		currentStep: Int
		enabled: Boolean
		messagingCampaigns: [MessagingCampaign]
	}
	type Profile {
		firstName: String
		lastName: String
		email: String
		phone: String
		avatar: String
	}

	type Organisation {
		id: ID
		name: String
		created: DateTime
		updated: DateTime
		monthlyCredits: Int
		credits: Int
		userLimits: Int
		brands: [Brand]
	}

	# Fields not shown by the spec (assumed):
	type VideoTemplateField {
		id: ID
		name: String
	}
	type Team {
		id: ID
		name: String
	}
	type MessagingCampaign {
		id: ID
		name: String
	}
`;

const schema = buildSchema(SPEC_SDL);

interface Case {
	name: string;
	query: string;
	field: string;
	argument: 'criteria' | 'filter';
	input: string;
	type: string;
	fields: SelectableField[];
	list: boolean;
}

const CASES: Case[] = [
	{
		name: 'TEMPLATE_QUERY',
		query: TEMPLATE_QUERY.query,
		field: 'videoTemplate',
		argument: 'criteria',
		input: 'VideoTemplateLookupInput',
		type: 'VideoTemplate',
		fields: TEMPLATE_FIELDS,
		list: false,
	},
	{
		name: 'TEMPLATES_QUERY',
		query: TEMPLATES_QUERY.query,
		field: 'videoTemplates',
		argument: 'filter',
		input: 'VideoTemplateListFilterInput',
		type: 'VideoTemplate',
		fields: TEMPLATE_FIELDS,
		list: true,
	},
	{
		name: 'USER_QUERY',
		query: USER_QUERY.query,
		field: 'findUser',
		argument: 'criteria',
		input: 'UserLookupInput',
		type: 'User',
		fields: USER_FIELDS,
		list: false,
	},
	{
		name: 'USERS_QUERY',
		query: USERS_QUERY.query,
		field: 'users',
		argument: 'filter',
		input: 'UserListFilterInput',
		type: 'User',
		fields: USER_FIELDS,
		list: true,
	},
	{
		name: 'ORGANISATION_QUERY',
		query: ORGANISATION_QUERY.query,
		field: 'organisation',
		argument: 'criteria',
		input: 'OrganisationLookupInput',
		type: 'Organisation',
		fields: ORGANISATION_FIELDS,
		list: false,
	},
	{
		name: 'ORGANISATIONS_QUERY',
		query: ORGANISATIONS_QUERY.query,
		field: 'organisations',
		argument: 'filter',
		input: 'OrganisationListFilterInput',
		type: 'Organisation',
		fields: ORGANISATION_FIELDS,
		list: true,
	},
];

/** The fields of each type in the spec's tables, id first. */
const SPEC_FIELDS: Record<string, string[]> = {
	VideoTemplate: [
		'id',
		'name',
		'description',
		'templateType',
		'aspectRatio',
		'duration',
		'categories',
		'tags',
		'fields',
		'brand',
		'previewImage',
		'previewVideo',
	],
	User: [
		'id',
		'profile',
		'brand',
		'roles',
		'team',
		'verified',
		'currentStep',
		'enabled',
		'messagingCampaigns',
	],
	Organisation: [
		'id',
		'name',
		'created',
		'updated',
		'monthlyCredits',
		'credits',
		'userLimits',
		'brands',
	],
};

function operation(document: DocumentNode): OperationDefinitionNode {
	const operations = document.definitions.filter(
		(definition): definition is OperationDefinitionNode =>
			definition.kind === Kind.OPERATION_DEFINITION,
	);
	expect(operations).toHaveLength(1);
	return operations[0];
}

function fragmentFields(document: DocumentNode): FieldNode[] {
	const fragments = document.definitions.filter(
		(definition): definition is FragmentDefinitionNode =>
			definition.kind === Kind.FRAGMENT_DEFINITION,
	);
	expect(fragments).toHaveLength(1);
	return fragments[0].selectionSet.selections.filter(
		(selection): selection is FieldNode => selection.kind === Kind.FIELD,
	);
}

/** A value for every field of the type, so a run shows which fields the query returned. */
function sample(type: string, id: string): Record<string, unknown> {
	const pair = (prefix: string) => ({ id: `${prefix}_1`, name: `${prefix} name` });
	const values: Record<string, Record<string, unknown>> = {
		VideoTemplate: {
			name: 'Welcome',
			description: 'Intro',
			templateType: 'stock',
			aspectRatio: '9:16',
			duration: 12.5,
			categories: [pair('cat')],
			tags: [pair('tag')],
			fields: [pair('fld')],
			brand: pair('brd'),
			previewImage: 'https://cdn.example.com/p.jpg',
			previewVideo: 'https://cdn.example.com/p.mp4',
		},
		User: {
			profile: {
				firstName: 'Ana',
				lastName: 'Silva',
				email: 'ana@example.com',
				phone: '+100',
				avatar: 'https://cdn.example.com/a.png',
			},
			brand: pair('brd'),
			roles: ['ROLE_USER'],
			team: pair('team'),
			verified: true,
			currentStep: 3,
			enabled: true,
			messagingCampaigns: [pair('mc')],
		},
		Organisation: {
			name: 'Acme',
			created: '2024-01-01T00:00:00Z',
			updated: '2024-02-01T00:00:00Z',
			monthlyCredits: 100,
			credits: 42,
			userLimits: 10,
			brands: [pair('brd')],
		},
	};
	return { id, ...values[type] };
}

async function run(
	testCase: Case,
	selected: string[] | undefined,
): Promise<Record<string, unknown>> {
	const record = sample(testCase.type, 'rec_1');
	const answer = testCase.list
		? { items: [record], total: 1, page: 1, limit: 10, pages: 1 }
		: record;
	const result = await execute({
		schema,
		document: parse(testCase.query),
		rootValue: { viewer: { [testCase.field]: () => answer } },
		variableValues: { [testCase.argument]: {}, ...fieldSwitches(testCase.fields, selected) },
	});
	expect(result.errors).toBeUndefined();
	const viewer = (result.data as { viewer: Record<string, Record<string, unknown>> }).viewer;
	const value = viewer[testCase.field];
	return testCase.list ? (value.items as Array<Record<string, unknown>>)[0] : value;
}

describe('the schema written from the spec', () => {
	it('is a valid schema', () => {
		expect(schema.getQueryType()?.name).toBe('Query');
	});
});

describe.each(CASES)('$name', (testCase) => {
	const document = parse(testCase.query);

	it('comes with its field under viewer and the fields it may select', () => {
		const queries = [
			TEMPLATE_QUERY,
			TEMPLATES_QUERY,
			USER_QUERY,
			USERS_QUERY,
			ORGANISATION_QUERY,
			ORGANISATIONS_QUERY,
		];
		expect(queries.find(({ query }) => query === testCase.query)).toEqual({
			query: testCase.query,
			field: testCase.field,
			fields: testCase.fields,
		});
	});

	it('parses without syntax errors', () => {
		expect(() => parse(testCase.query)).not.toThrow();
		expect(operation(document).operation).toBe('query');
	});

	it('validates against the spec schema', () => {
		expect(validate(schema, document).map((error) => error.message)).toEqual([]);
	});

	it(`asks viewer.${testCase.field} with a required $${testCase.argument} of type ${testCase.input}`, () => {
		const variables = operation(document).variableDefinitions ?? [];
		const argument = variables.find(
			(variable) => variable.variable.name.value === testCase.argument,
		);
		expect(argument?.type.kind).toBe(Kind.NON_NULL_TYPE);
		expect(testCase.query).toContain(`$${testCase.argument}: ${testCase.input}!`);
		const viewer = operation(document).selectionSet.selections[0] as FieldNode;
		expect(viewer.name.value).toBe('viewer');
		const field = viewer.selectionSet?.selections[0] as FieldNode;
		expect(field.name.value).toBe(testCase.field);
		expect(field.arguments?.map((argumentNode) => argumentNode.name.value)).toEqual([
			testCase.argument,
		]);
	});

	if (testCase.list) {
		it('selects the list envelope: items, total, page, limit, pages', () => {
			const viewer = operation(document).selectionSet.selections[0] as FieldNode;
			const field = viewer.selectionSet?.selections[0] as FieldNode;
			const names = field.selectionSet?.selections.map(
				(selection) => (selection as FieldNode).name.value,
			);
			expect(names?.sort()).toEqual(['items', 'limit', 'page', 'pages', 'total']);
		});
	}

	it(`selects every ${testCase.type} field of the spec`, () => {
		expect(fragmentFields(document).map((field) => field.name.value)).toEqual(
			SPEC_FIELDS[testCase.type],
		);
	});

	it('always selects id; every other field has its own @include switch, declared as a Boolean that defaults to true', () => {
		const fields = fragmentFields(document);
		const id = fields.find((field) => field.name.value === 'id');
		expect(id?.directives ?? []).toEqual([]);
		const declared = new Map(
			(operation(document).variableDefinitions ?? []).map(
				(variable) => [variable.variable.name.value, variable] as const,
			),
		);
		const switches = Object.keys(fieldSwitches(testCase.fields, undefined));
		for (const field of fields.filter((node) => node.name.value !== 'id')) {
			expect(field.directives).toHaveLength(1);
			const directive = field.directives?.[0];
			expect(directive?.name.value).toBe('include');
			const condition = directive?.arguments?.[0].value;
			expect(condition?.kind).toBe(Kind.VARIABLE);
			const variableName = condition?.kind === Kind.VARIABLE ? condition.name.value : '';
			expect(switches).toContain(variableName);
			const definition = declared.get(variableName);
			expect(definition?.type).toMatchObject({ kind: Kind.NAMED_TYPE, name: { value: 'Boolean' } });
			expect(definition?.defaultValue).toMatchObject({ kind: Kind.BOOLEAN, value: true });
		}
		// One switch per selectable field, and no variable the query does not declare.
		expect(switches.sort()).toEqual(
			[...declared.keys()].filter((name) => name !== testCase.argument).sort(),
		);
	});

	it('returns every field when nothing is selected', async () => {
		for (const selected of [undefined, []]) {
			expect(Object.keys(await run(testCase, selected)).sort()).toEqual(
				[...SPEC_FIELDS[testCase.type]].sort(),
			);
		}
	});

	it('returns only id and the selected fields', async () => {
		const [first, , third] = testCase.fields.map((field) => field.name);
		expect(Object.keys(await run(testCase, [first])).sort()).toEqual(['id', first].sort());
		expect(Object.keys(await run(testCase, [first, third])).sort()).toEqual(
			['id', first, third].sort(),
		);
	});

	it('returns the id even when the selection names no known field', async () => {
		expect(await run(testCase, ['notAField'])).toEqual({ id: 'rec_1' });
	});

	it('selects nested objects with the fields the spec names', async () => {
		const full = await run(testCase, undefined);
		if (testCase.type === 'User') {
			expect(full.profile).toEqual({
				firstName: 'Ana',
				lastName: 'Silva',
				email: 'ana@example.com',
				phone: '+100',
				avatar: 'https://cdn.example.com/a.png',
			});
			expect(full.brand).toEqual({ id: 'brd_1', name: 'brd name' });
		}
		if (testCase.type === 'VideoTemplate') {
			expect(full.categories).toEqual([{ id: 'cat_1', name: 'cat name' }]);
			expect(full.tags).toEqual([{ id: 'tag_1', name: 'tag name' }]);
			expect(full.brand).toEqual({ id: 'brd_1', name: 'brd name' });
		}
		if (testCase.type === 'Organisation')
			expect(full.brands).toEqual([{ id: 'brd_1', name: 'brd name' }]);
	});
});

describe('fieldSwitches', () => {
	it.each([
		['TEMPLATE_FIELDS', TEMPLATE_FIELDS],
		['USER_FIELDS', USER_FIELDS],
		['ORGANISATION_FIELDS', ORGANISATION_FIELDS],
	])('%s: no selection (undefined or empty) switches every field on', (_name, fields) => {
		for (const selected of [undefined, []]) {
			const switches = fieldSwitches(fields, selected);
			expect(Object.keys(switches)).toHaveLength(fields.length);
			expect(Object.values(switches).every((value) => value === true)).toBe(true);
		}
	});

	it.each([
		['TEMPLATE_FIELDS', TEMPLATE_FIELDS],
		['USER_FIELDS', USER_FIELDS],
		['ORGANISATION_FIELDS', ORGANISATION_FIELDS],
	])(
		'%s: a selection switches exactly the selected fields on and the others off',
		(_name, fields) => {
			const everyField = Object.keys(fieldSwitches(fields, undefined));
			fields.forEach((field, index) => {
				const switches = fieldSwitches(fields, [field.name]);
				expect(Object.keys(switches)).toEqual(everyField);
				expect(Object.values(switches).filter(Boolean)).toHaveLength(1);
				expect(switches[everyField[index]]).toBe(true);
			});
			const allSelected = fieldSwitches(
				fields,
				fields.map((field) => field.name),
			);
			expect(Object.values(allSelected).every(Boolean)).toBe(true);
		},
	);

	it('ignores names that are not fields, adding no variable', () => {
		const switches = fieldSwitches(ORGANISATION_FIELDS, ['credits', 'id', 'nonsense']);
		expect(Object.keys(switches)).toHaveLength(ORGANISATION_FIELDS.length);
		expect(Object.values(switches).filter(Boolean)).toHaveLength(1);
	});

	it('the id is never a switch: it cannot be deselected', () => {
		for (const fields of [TEMPLATE_FIELDS, USER_FIELDS, ORGANISATION_FIELDS]) {
			expect(fields.map((field) => field.name)).not.toContain('id');
		}
	});
});

describe('the queries are constant text', () => {
	it.each(CASES)(
		'$name: every argument and directive value is a variable, so user input travels only in variables',
		(testCase) => {
			const values: string[] = [];
			visit(parse(testCase.query), {
				Argument(node) {
					values.push(node.value.kind);
				},
			});
			expect(values.length).toBeGreaterThan(0);
			expect(values.every((kind) => kind === Kind.VARIABLE)).toBe(true);
		},
	);
});

describe.each([['TEMPLATE_SEARCH_QUERY', TEMPLATE_SEARCH_QUERY, 'videoTemplates', 'filter']])(
	'%s (the Template picker)',
	(_name, query, field, argument) => {
		it('validates against the spec schema', () => {
			expect(validate(schema, parse(query)).map((error) => error.message)).toEqual([]);
		});

		it(`asks viewer.${field} with the one variable $${argument}`, () => {
			const document = parse(query);
			expect(
				(operation(document).variableDefinitions ?? []).map(
					(variable) => variable.variable.name.value,
				),
			).toEqual([argument]);
			const viewer = operation(document).selectionSet.selections[0] as FieldNode;
			expect((viewer.selectionSet?.selections[0] as FieldNode).name.value).toBe(field);
		});

		it('is constant text: every argument value is a variable', () => {
			const values: string[] = [];
			visit(parse(query), {
				Argument(node) {
					values.push(node.value.kind);
				},
			});
			expect(values).toEqual([Kind.VARIABLE]);
		});
	},
);
