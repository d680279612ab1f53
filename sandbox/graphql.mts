// The query-style API of spec 4.2 at POST /v1/graphql, built with graphql-js (README "GraphQL").
import {
	buildSchema,
	execute,
	GraphQLError,
	GraphQLScalarType,
	getOperationAST,
	Kind,
	parse,
	validate,
	type DocumentNode,
	type ExecutionResult,
	type GraphQLSchema,
} from 'graphql';
import {
	adminBrandScope,
	canSeeOrganisation,
	canSeeTemplate,
	canSeeUser,
	effectiveRole,
	isAdmin,
	templateRule,
} from './access.mts';
import type { AppContext } from './context.mts';
import { type ApiResponse, errorBody, HttpError, isPlainObject, readJson } from './http.mts';
import type { RouteContext } from './rest.mts';
import type { OrganisationRecord, Store, TemplateRecord, UserRecord } from './store.mts';
import { TEMPLATE_TYPES } from './types.mts';

export const SDL = /* GraphQL */ `
	"An instant, serialized as an ISO 8601 string in UTC."
	scalar DateTime

	type Query {
		viewer: Viewer!
	}

	"Every operation of the query-style API. Lookups and lists are null (with an error) when not allowed."
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
		"Exact name (case-insensitive)"
		name: String
	}

	input VideoTemplateListFilterInput {
		"Matches template name (case-insensitive substring)"
		search: String
		"stock, brand, scene or endcard"
		templateType: String
		page: Int = 1
		limit: Int = 10
	}

	input UserLookupInput {
		id: ID
		email: String
		phone: String
	}

	input UserListFilterInput {
		"Matches user ID, email, first name or last name (case-insensitive substring)"
		search: String
		page: Int = 1
		limit: Int = 10
	}

	input OrganisationLookupInput {
		id: ID
		"Exact name (case-insensitive)"
		name: String
	}

	input OrganisationListFilterInput {
		"Matches organisation name (case-insensitive substring)"
		filter: String
		page: Int = 1
		limit: Int = 10
	}

	type VideoTemplate {
		id: ID!
		name: String!
		description: String
		"stock, brand, scene or endcard"
		templateType: String!
		aspectRatio: String
		duration: Float
		categories: [Category!]!
		tags: [Tag!]!
		fields: [VideoTemplateField!]!
		brand: Brand
		previewImage: String
		previewVideo: String
	}

	type Category {
		id: ID!
		name: String!
	}

	type Tag {
		id: ID!
		name: String!
	}

	"A customizable field of a template."
	type VideoTemplateField {
		id: ID!
		"Key to use in customer_data"
		name: String!
		label: String!
		"text, media, color or font"
		type: String!
		required: Boolean!
		defaultValue: String
		maxLength: Int
		"For media fields: image, video or audio"
		mediaType: String
	}

	type Brand {
		id: ID!
		name: String!
	}

	type Profile {
		firstName: String
		lastName: String
		email: String
		phone: String
		avatar: String
	}

	type Team {
		id: ID!
		name: String!
	}

	type MessagingCampaign {
		id: ID!
		name: String!
	}

	type User {
		id: ID!
		profile: Profile!
		brand: Brand
		roles: [String!]!
		team: Team
		verified: Boolean!
		currentStep: Int
		enabled: Boolean!
		messagingCampaigns: [MessagingCampaign!]!
	}

	type Organisation {
		id: ID!
		name: String!
		created: DateTime
		updated: DateTime
		monthlyCredits: Int
		credits: Int
		userLimits: Int
		brands: [Brand!]!
	}

	type VideoTemplatePage {
		items: [VideoTemplate!]!
		total: Int!
		page: Int!
		limit: Int!
		pages: Int!
	}

	type UserPage {
		items: [User!]!
		total: Int!
		page: Int!
		limit: Int!
		pages: Int!
	}

	type OrganisationPage {
		items: [Organisation!]!
		total: Int!
		page: Int!
		limit: Int!
		pages: Int!
	}
`;

function toIso(value: unknown): string {
	const date =
		value instanceof Date
			? value
			: typeof value === 'number' || typeof value === 'string'
				? new Date(value)
				: undefined;
	if (!date || Number.isNaN(date.getTime()))
		throw new GraphQLError(`DateTime cannot represent ${String(value)}`);
	return date.toISOString();
}

export function buildVpsSchema(): GraphQLSchema {
	const schema = buildSchema(SDL);
	const dateTime = schema.getType('DateTime');
	if (!(dateTime instanceof GraphQLScalarType)) throw new Error('DateTime scalar missing');
	dateTime.serialize = toIso;
	dateTime.parseValue = (value) => new Date(toIso(value));
	dateTime.parseLiteral = (ast) => {
		if (ast.kind !== Kind.STRING)
			throw new GraphQLError('DateTime literal must be an ISO 8601 string');
		return new Date(toIso(ast.value));
	};
	return schema;
}

// ---------------------------------------------------------------- resolvers

function gqlError(
	code: 'FORBIDDEN' | 'NOT_FOUND' | 'BAD_USER_INPUT',
	message: string,
): GraphQLError {
	return new GraphQLError(message, { extensions: { code } });
}

interface PageArgs {
	page?: number | null;
	limit?: number | null;
}

function listPage<T, R>(store: Store, items: T[], args: PageArgs, map: (item: T) => R) {
	const page = args.page ?? 1;
	let limit = args.limit ?? 10;
	if (page < 1) throw gqlError('BAD_USER_INPUT', `page must be >= 1, got ${page}`);
	if (limit < 1) throw gqlError('BAD_USER_INPUT', `limit must be >= 1, got ${limit}`);
	const { maxLimit, overLimit } = store.graphql;
	if (limit > maxLimit) {
		if (overLimit === 'reject')
			throw gqlError('BAD_USER_INPUT', `limit must be at most ${maxLimit}, got ${limit}`);
		limit = maxLimit;
	}
	const offset = (page - 1) * limit;
	return {
		items: items.slice(offset, offset + limit).map(map),
		total: items.length,
		page,
		limit,
		pages: Math.ceil(items.length / limit),
	};
}

/** The given, non-empty lookup criteria; BAD_USER_INPUT when there are none. */
function criteriaOf(
	operation: string,
	criteria: Record<string, unknown>,
	names: string[],
): Record<string, string> {
	const given: Record<string, string> = {};
	for (const name of names) {
		const v = criteria[name];
		if (typeof v === 'string' && v.trim() !== '') given[name] = v.trim();
	}
	if (Object.keys(given).length === 0)
		throw gqlError('BAD_USER_INPUT', `${operation} needs at least one of ${names.join(', ')}`);
	return given;
}

const contains = (text: string, term: string) => text.toLowerCase().includes(term.toLowerCase());
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const digits = (phone: string) => phone.replace(/[^0-9+]/g, '');

class Viewer {
	constructor(
		private readonly app: AppContext,
		private readonly user: UserRecord,
	) {}

	private get store(): Store {
		return this.app.store;
	}

	private templateGql = (t: TemplateRecord) => ({
		...t,
		brand: t.brandId ? this.brandGql(t.brandId) : null,
		previewImage: `${this.app.cdnUrl}/templates/${t.id}/preview.jpg`,
		previewVideo: `${this.app.cdnUrl}/templates/${t.id}/preview.mp4`,
	});

	private brandGql = (id: string) => {
		const b = this.store.brands.get(id);
		return b ? { id: b.id, name: b.name } : null;
	};

	private userGql = (u: UserRecord) => ({
		id: u.id,
		profile: {
			firstName: u.firstName,
			lastName: u.lastName,
			email: u.email,
			phone: u.phone,
			avatar: `${this.app.cdnUrl}/avatars/${u.id}.jpg`,
		},
		brand: this.brandGql(u.brandId),
		roles: u.roles,
		team: u.teamId ? (this.store.teams.get(u.teamId) ?? null) : null,
		verified: u.verified,
		currentStep: u.currentStep,
		enabled: u.enabled,
		messagingCampaigns: u.campaignIds.flatMap((id) => this.store.campaigns.get(id) ?? []),
	});

	private organisationGql = (o: OrganisationRecord) => ({
		...o,
		brands: o.brandIds.flatMap((id) => this.brandGql(id) ?? []),
	});

	videoTemplate({ criteria }: { criteria: Record<string, unknown> }) {
		const c = criteriaOf('videoTemplate', criteria, ['id', 'name']);
		const candidates = [...this.store.templates.values()].filter(
			(t) => (!c.id || t.id === c.id) && (!c.name || same(t.name, c.name)),
		);
		const template =
			candidates.find((t) => canSeeTemplate(this.store, this.user, t)) ?? candidates[0];
		if (!template) throw gqlError('NOT_FOUND', `No video template matches ${describe(c)}`);
		if (!canSeeTemplate(this.store, this.user, template)) {
			throw gqlError(
				'FORBIDDEN',
				`Not allowed to read template ${template.id}: ${templateRule(template)}`,
			);
		}
		return this.templateGql(template);
	}

	videoTemplates({
		filter,
	}: {
		filter: PageArgs & { search?: string | null; templateType?: string | null };
	}) {
		if (!isAdmin(this.user))
			throw gqlError(
				'FORBIDDEN',
				'videoTemplates requires admin access (ROLE_BRAND_ADMIN, ROLE_ORG_ADMIN or ROLE_ADMIN)',
			);
		const { search, templateType } = filter;
		if (templateType && !(TEMPLATE_TYPES as readonly string[]).includes(templateType)) {
			throw gqlError(
				'BAD_USER_INPUT',
				`templateType must be one of ${TEMPLATE_TYPES.join(', ')}, got "${templateType}"`,
			);
		}
		const items = [...this.store.templates.values()].filter(
			(t) =>
				canSeeTemplate(this.store, this.user, t) &&
				(!templateType || t.templateType === templateType) &&
				(!search || contains(t.name, search)),
		);
		return listPage(this.store, items, filter, this.templateGql);
	}

	findUser({ criteria }: { criteria: Record<string, unknown> }) {
		const c = criteriaOf('findUser', criteria, ['id', 'email', 'phone']);
		const target = [...this.store.users.values()].find(
			(u) =>
				(!c.id || u.id === c.id) &&
				(!c.email || same(u.email, c.email)) &&
				(!c.phone || digits(u.phone) === digits(c.phone)),
		);
		if (!target) throw gqlError('NOT_FOUND', `No user matches ${describe(c)}`);
		if (!canSeeUser(this.store, this.user, target)) {
			throw gqlError(
				'FORBIDDEN',
				`Not allowed to read user ${target.id}: looking up another user requires admin privileges over that user's brand`,
			);
		}
		return this.userGql(target);
	}

	users({ filter }: { filter: PageArgs & { search?: string | null } }) {
		if (!isAdmin(this.user))
			throw gqlError(
				'FORBIDDEN',
				'users requires admin privileges (ROLE_BRAND_ADMIN, ROLE_ORG_ADMIN or ROLE_ADMIN)',
			);
		const scope = adminBrandScope(this.store, this.user);
		const term = filter.search;
		const items = [...this.store.users.values()].filter(
			(u) =>
				(!scope || scope.has(u.brandId)) &&
				(!term ||
					contains(u.id, term) ||
					contains(u.email, term) ||
					contains(u.firstName, term) ||
					contains(u.lastName, term)),
		);
		return listPage(this.store, items, filter, this.userGql);
	}

	organisation({ criteria }: { criteria: Record<string, unknown> }) {
		const role = effectiveRole(this.user);
		if (role !== 'ROLE_ADMIN' && role !== 'ROLE_ORG_ADMIN') {
			throw gqlError(
				'FORBIDDEN',
				'organisation is available to global admins (any organisation) and organisation admins (their own) only',
			);
		}
		const c = criteriaOf('organisation', criteria, ['id', 'name']);
		const org = [...this.store.organisations.values()].find(
			(o) => (!c.id || o.id === c.id) && (!c.name || same(o.name, c.name)),
		);
		if (!org) throw gqlError('NOT_FOUND', `No organisation matches ${describe(c)}`);
		if (!canSeeOrganisation(this.store, this.user, org))
			throw gqlError(
				'FORBIDDEN',
				`Not allowed to read organisation ${org.id}: organisation admins may read their own organisation only`,
			);
		return this.organisationGql(org);
	}

	organisations({ filter }: { filter: PageArgs & { filter?: string | null } }) {
		const role = effectiveRole(this.user);
		if (role !== 'ROLE_ADMIN' && role !== 'ROLE_ORG_ADMIN') {
			throw gqlError(
				'FORBIDDEN',
				'organisations requires admin access to organisations (ROLE_ORG_ADMIN: own organisation, ROLE_ADMIN: all)',
			);
		}
		const term = filter.filter;
		const items = [...this.store.organisations.values()].filter(
			(o) => canSeeOrganisation(this.store, this.user, o) && (!term || contains(o.name, term)),
		);
		return listPage(this.store, items, filter, this.organisationGql);
	}
}

function describe(criteria: Record<string, string>): string {
	return Object.entries(criteria)
		.map(([k, v]) => `${k} "${v}"`)
		.join(' and ');
}

// ---------------------------------------------------------------- HTTP

/** A request error (parse, validation, variables): HTTP 400 with the common error object and the GraphQL errors. */
function badRequest(code: string, errors: readonly GraphQLError[]): ApiResponse {
	const body = errorBody(400, code, errors.map((e) => e.message).join('; '));
	return {
		status: 400,
		body: {
			...body,
			errors: errors.map((e) => ({
				...e.toJSON(),
				extensions: { code: code.toUpperCase(), ...e.extensions },
			})),
		},
	};
}

export async function handleGraphql({ app, req, user }: RouteContext): Promise<ApiResponse> {
	const body = await readJson(req);
	if (!isPlainObject(body) || typeof body.query !== 'string' || body.query.trim() === '') {
		throw new HttpError(
			400,
			'bad_request',
			'Expected a JSON body { "query": string, "variables"?: object, "operationName"?: string }',
		);
	}
	const variables = body.variables ?? undefined;
	if (variables !== undefined && variables !== null && !isPlainObject(variables))
		throw new HttpError(400, 'bad_request', 'variables must be a JSON object');
	const operationName = body.operationName ?? undefined;
	if (operationName !== undefined && operationName !== null && typeof operationName !== 'string')
		throw new HttpError(400, 'bad_request', 'operationName must be a string');

	let document: DocumentNode;
	try {
		document = parse(body.query);
	} catch (e) {
		if (e instanceof GraphQLError) return badRequest('graphql_parse_failed', [e]);
		throw e;
	}
	const validationErrors = validate(app.schema, document);
	if (validationErrors.length) return badRequest('graphql_validation_failed', validationErrors);
	const operation = getOperationAST(document, operationName ?? undefined);
	if (operation && operation.operation !== 'query') {
		return badRequest('graphql_validation_failed', [
			new GraphQLError(`Only queries are supported, not ${operation.operation}s`, {
				nodes: operation,
			}),
		]);
	}
	const result = (await execute({
		schema: app.schema,
		document,
		rootValue: { viewer: () => new Viewer(app, user) },
		variableValues: variables ?? undefined,
		operationName: operationName ?? undefined,
	})) as ExecutionResult;
	if (!('data' in result) || result.data === undefined)
		return badRequest('bad_user_input', result.errors ?? []);
	const errors = result.errors?.map((e) => ({
		...e.toJSON(),
		extensions: { code: 'INTERNAL_SERVER_ERROR', ...e.extensions },
	}));
	return { status: 200, body: errors ? { errors, data: result.data } : { data: result.data } };
}
