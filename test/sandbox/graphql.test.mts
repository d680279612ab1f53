// Query-style API: schema, defaults, envelope, lookups, searches, limits, and authorization per role (spec section 5).
import { startSandbox, type Sandbox } from '../../sandbox/index.mts';
import { gql, http } from './helpers.mts';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox({ quiet: true });
});
afterAll(() => sb.close());

type Obj = Record<string, unknown>;
interface Page {
	items: Obj[];
	total: number;
	page: number;
	limit: number;
	pages: number;
}

const TEMPLATE_FIELDS = `id name description templateType aspectRatio duration categories { id name } tags { id name }
  fields { id name label type required defaultValue maxLength mediaType } brand { id name } previewImage previewVideo`;
const USER_FIELDS = `id profile { firstName lastName email phone avatar } brand { id name } roles team { id name } verified currentStep enabled messagingCampaigns { id name }`;
const ORG_FIELDS = 'id name created updated monthlyCredits credits userLimits brands { id name }';

const Q = {
	videoTemplate: `query($c: VideoTemplateLookupInput!) { viewer { videoTemplate(criteria: $c) { ${TEMPLATE_FIELDS} } } }`,
	videoTemplates: `query($f: VideoTemplateListFilterInput!) { viewer { videoTemplates(filter: $f) { items { ${TEMPLATE_FIELDS} } total page limit pages } } }`,
	findUser: `query($c: UserLookupInput!) { viewer { findUser(criteria: $c) { ${USER_FIELDS} } } }`,
	users: `query($f: UserListFilterInput!) { viewer { users(filter: $f) { items { ${USER_FIELDS} } total page limit pages } } }`,
	organisation: `query($c: OrganisationLookupInput!) { viewer { organisation(criteria: $c) { ${ORG_FIELDS} } } }`,
	organisations: `query($f: OrganisationListFilterInput!) { viewer { organisations(filter: $f) { items { ${ORG_FIELDS} } total page limit pages } } }`,
};

/** Runs one viewer field; returns its value and the error code, if any. */
async function run<T = Obj>(
	key: string,
	field: keyof typeof Q,
	arg: Obj,
): Promise<{ value: T | null; code?: string; message?: string }> {
	const variables = field.endsWith('s') ? { f: arg } : { c: arg };
	const r = await gql(sb, key, Q[field], variables);
	expect(r.status).toBe(200);
	const viewer = r.json.data?.viewer as Obj;
	const error = r.json.errors?.[0];
	if (error) expect(error).toMatchObject({ path: ['viewer', field] });
	return {
		value: (viewer[field] ?? null) as T | null,
		code: error?.extensions?.code,
		message: error?.message,
	};
}

describe('HTTP level', () => {
	test('missing, invalid and expired keys → HTTP 401 (common error object plus GraphQL errors)', async () => {
		for (const [key, code] of [
			[undefined, 'missing_api_key'],
			['bogus', 'invalid_api_key'],
			[sb.keys.expired, 'expired_api_key'],
		] as const) {
			const r = await gql(sb, key, '{ viewer { findUser(criteria: { id: "x" }) { id } } }');
			expect(r.status).toBe(401);
			expect(r.json.error).toMatchObject({ status: 401, code });
			expect(r.json.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
		}
	});

	test('syntax errors, unknown fields, a missing required argument, bad variables → HTTP 400', async () => {
		const cases: Array<[string, Obj | undefined, string]> = [
			['{ viewer { ', undefined, 'GRAPHQL_PARSE_FAILED'],
			['{ viewer { nope } }', undefined, 'GRAPHQL_VALIDATION_FAILED'],
			['{ viewer { videoTemplate { id } } }', undefined, 'GRAPHQL_VALIDATION_FAILED'],
			[
				'{ viewer { videoTemplate(criteria: { id: "x" }) { nope } } }',
				undefined,
				'GRAPHQL_VALIDATION_FAILED',
			],
			['mutation { viewer }', undefined, 'GRAPHQL_VALIDATION_FAILED'],
			[Q.users, { f: { page: 'one' } }, 'BAD_USER_INPUT'],
			[Q.users, {}, 'BAD_USER_INPUT'],
		];
		for (const [query, variables, code] of cases) {
			const r = await gql(sb, sb.keys.admin, query, variables);
			expect({ query, status: r.status, code: r.json.errors?.[0].extensions?.code }).toEqual({
				query,
				status: 400,
				code,
			});
			expect(r.json.error?.status).toBe(400);
		}
		const noQuery = await http(sb.graphqlUrl, {
			method: 'POST',
			headers: { authorization: `Bearer ${sb.keys.admin}`, 'content-type': 'application/json' },
			body: '{}',
		});
		expect(noQuery.status).toBe(400);
		const badJson = await http(sb.graphqlUrl, {
			method: 'POST',
			headers: { authorization: `Bearer ${sb.keys.admin}`, 'content-type': 'application/json' },
			body: '{',
		});
		expect(badJson.status).toBe(400);
	});

	test('operationName picks an operation; introspection works', async () => {
		const query =
			'query A { viewer { findUser(criteria: { email: "ada.lovelace@acme.example" }) { id } } } query B { __typename }';
		const r = await http<Obj>(sb.graphqlUrl, {
			method: 'POST',
			headers: { authorization: `Bearer ${sb.keys.user}`, 'content-type': 'application/json' },
			body: JSON.stringify({ query, operationName: 'A' }),
		});
		expect(r.json).toEqual({ data: { viewer: { findUser: { id: sb.known.users.user } } } });
		const intro = await gql(sb, sb.keys.user, '{ __type(name: "Viewer") { fields { name } } }');
		const names = (
			(intro.json.data as unknown as { __type: { fields: Array<{ name: string }> } }).__type
				.fields ?? []
		).map((f) => f.name);
		expect(names.sort()).toEqual([
			'findUser',
			'organisation',
			'organisations',
			'users',
			'videoTemplate',
			'videoTemplates',
		]);
	});

	test('one forbidden field does not null the others', async () => {
		const r = await gql(
			sb,
			sb.keys.user,
			`{ viewer { me: findUser(criteria: { id: "${sb.known.users.user}" }) { id } orgs: organisations(filter: {}) { total } } }`,
		);
		expect(r.status).toBe(200);
		expect(r.json.data?.viewer).toEqual({ me: { id: sb.known.users.user }, orgs: null });
		expect(r.json.errors).toHaveLength(1);
		expect(r.json.errors?.[0]).toMatchObject({
			path: ['viewer', 'orgs'],
			extensions: { code: 'FORBIDDEN' },
		});
	});
});

describe('types and fields', () => {
	test('VideoTemplate has every spec 2.5 field', async () => {
		const { value } = await run(sb.keys.user, 'videoTemplate', { id: sb.known.brandTemplateId });
		expect(value).toMatchObject({
			id: sb.known.brandTemplateId,
			name: sb.known.brandTemplateName,
			description: expect.any(String),
			templateType: 'brand',
			aspectRatio: '9:16',
			duration: 30,
			categories: [{ id: 'cat_onboarding', name: 'Onboarding' }],
			tags: [
				{ id: 'tag_welcome', name: 'welcome' },
				{ id: 'tag_brand', name: 'brand' },
			],
			brand: { id: sb.known.primaryBrandId, name: sb.known.primaryBrandName },
			previewImage: `${sb.cdnUrl}/templates/${sb.known.brandTemplateId}/preview.jpg`,
			previewVideo: `${sb.cdnUrl}/templates/${sb.known.brandTemplateId}/preview.mp4`,
		});
		const fields = (value?.fields ?? []) as Obj[];
		expect(fields.map((f) => f.type)).toEqual(
			expect.arrayContaining(['text', 'media', 'color', 'font']),
		);
		expect(fields[0]).toEqual({
			id: 'fld_title',
			name: 'title',
			label: 'Title',
			type: 'text',
			required: true,
			defaultValue: 'Hello {{first_name}}!',
			maxLength: 60,
			mediaType: null,
		});
		expect((await fetch(value?.previewImage as string)).headers.get('content-type')).toBe(
			'image/jpeg',
		);
		const stock = await run(sb.keys.user, 'videoTemplate', { name: sb.known.stockTemplateName });
		expect(stock.value).toMatchObject({
			id: sb.known.stockTemplateId,
			templateType: 'stock',
			brand: null,
		});
	});

	test('User has every spec 2.6 field', async () => {
		const { value } = await run(sb.keys.user, 'findUser', { id: sb.known.users.user });
		expect(value).toEqual({
			id: sb.known.users.user,
			profile: {
				firstName: 'Ada',
				lastName: 'Lovelace',
				email: 'ada.lovelace@acme.example',
				phone: '+14155550101',
				avatar: `${sb.cdnUrl}/avatars/${sb.known.users.user}.jpg`,
			},
			brand: { id: sb.known.primaryBrandId, name: 'Acme Coffee' },
			roles: ['ROLE_USER'],
			team: { id: 'team_marketing', name: 'Marketing' },
			verified: true,
			currentStep: 5,
			enabled: true,
			messagingCampaigns: [
				{ id: 'cmp_spring_launch', name: 'Spring Launch 2026' },
				{ id: 'cmp_loyalty', name: 'Loyalty Rewards' },
			],
		});
		const disabled = await run(sb.keys.admin, 'findUser', { id: sb.known.users.disabled });
		expect(disabled.value).toMatchObject({
			verified: false,
			enabled: false,
			currentStep: 2,
			team: null,
			messagingCampaigns: [],
		});
	});

	test('Organisation has every spec 2.7 field; DateTime is an ISO string', async () => {
		const { value } = await run(sb.keys.orgAdmin, 'organisation', { name: 'acme corporation' });
		const org = sb.store.organisations.get(sb.known.primaryOrganisationId);
		expect(value).toEqual({
			id: sb.known.primaryOrganisationId,
			name: sb.known.primaryOrganisationName,
			created: new Date(org?.created ?? 0).toISOString(),
			updated: new Date(org?.updated ?? 0).toISOString(),
			monthlyCredits: org?.monthlyCredits,
			credits: org?.credits,
			userLimits: 50,
			brands: [
				{ id: sb.known.primaryBrandId, name: 'Acme Coffee' },
				{ id: sb.known.siblingBrandId, name: 'Acme Tea' },
				{ id: sb.known.emptyBrandId, name: 'Acme Outlet' },
			],
		});
	});
});

describe('lists: defaults, envelope, search, limits', () => {
	test('defaults page 1, limit 10; pages = ceil(total / limit); past the end is empty', async () => {
		const { value } = await run<Page>(sb.keys.admin, 'users', {});
		expect(value).toMatchObject({
			page: 1,
			limit: 10,
			total: sb.store.users.size,
			pages: Math.ceil(sb.store.users.size / 10),
		});
		expect(value?.items).toHaveLength(10);
		const last = await run<Page>(sb.keys.admin, 'users', { page: value?.pages });
		expect(last.value?.items.length).toBe(sb.store.users.size - ((value?.pages ?? 1) - 1) * 10);
		const past = await run<Page>(sb.keys.admin, 'users', { page: (value?.pages ?? 1) + 1 });
		expect(past.value).toMatchObject({ items: [], total: sb.store.users.size });
		// Walking every page yields every user once.
		const ids = new Set<unknown>();
		for (let page = 1; page <= Math.ceil(sb.store.users.size / 7); page++) {
			(await run<Page>(sb.keys.admin, 'users', { page, limit: 7 })).value?.items.forEach((u) =>
				ids.add(u.id),
			);
		}
		expect(ids.size).toBe(sb.store.users.size);
	});

	test('explicit nulls take the defaults', async () => {
		const { value } = await run<Page>(sb.keys.admin, 'organisations', { page: null, limit: null });
		expect(value).toMatchObject({ page: 1, limit: 10, total: 12, pages: 2 });
	});

	test('template search (name, case-insensitive) and type filter', async () => {
		const { value } = await run<Page>(sb.keys.admin, 'videoTemplates', {
			search: 'WELCOME',
			limit: 100,
		});
		expect(value?.items.map((t) => t.name).sort()).toEqual([
			'Acme Coffee Welcome',
			'Welcome Onboarding',
		]);
		for (const templateType of ['stock', 'brand', 'scene', 'endcard']) {
			const r = await run<Page>(sb.keys.admin, 'videoTemplates', { templateType, limit: 100 });
			expect(r.value?.total).toBeGreaterThan(0);
			expect(r.value?.items.every((t) => t.templateType === templateType)).toBe(true);
		}
		expect((await run(sb.keys.admin, 'videoTemplates', { templateType: 'promo' })).code).toBe(
			'BAD_USER_INPUT',
		);
	});

	test('user search matches id, email, first or last name; organisation filter matches name', async () => {
		const search = async (term: string) =>
			(
				(await run<Page>(sb.keys.admin, 'users', { search: term, limit: 100 })).value?.items ?? []
			).map((u) => u.id);
		expect(await search('lovelace')).toEqual([sb.known.users.user]);
		expect(await search('Ada')).toContain(sb.known.users.user);
		expect(await search('ada.lovelace@')).toEqual([sb.known.users.user]);
		expect(await search(sb.known.users.admin)).toEqual([sb.known.users.admin]);
		expect(await search('zzzz')).toEqual([]);
		const orgs = await run<Page>(sb.keys.admin, 'organisations', { filter: 'ACME' });
		expect(orgs.value?.items.map((o) => o.id)).toEqual([sb.known.primaryOrganisationId]);
	});

	test('page or limit below 1 → BAD_USER_INPUT', async () => {
		expect((await run(sb.keys.admin, 'users', { page: 0 })).code).toBe('BAD_USER_INPUT');
		expect((await run(sb.keys.admin, 'organisations', { limit: 0 })).code).toBe('BAD_USER_INPUT');
		expect((await run(sb.keys.admin, 'videoTemplates', { limit: -5 })).code).toBe('BAD_USER_INPUT');
	});

	test("limit above the maximum: 'cap' (default) answers maxLimit items, 'reject' is BAD_USER_INPUT", async () => {
		const capped = await run<Page>(sb.keys.admin, 'users', { limit: 1000 });
		expect(capped.code).toBeUndefined();
		expect(capped.value).toMatchObject({ limit: 100, page: 1, pages: 1 });
		sb.store.graphql = { maxLimit: 5, overLimit: 'cap' };
		try {
			const five = await run<Page>(sb.keys.admin, 'users', { limit: 50 });
			expect(five.value).toMatchObject({ limit: 5, pages: Math.ceil(sb.store.users.size / 5) });
			expect(five.value?.items).toHaveLength(5);
			sb.store.graphql = { maxLimit: 5, overLimit: 'reject' };
			const rejected = await run(sb.keys.admin, 'users', { limit: 6 });
			expect(rejected).toMatchObject({ value: null, code: 'BAD_USER_INPUT' });
			expect(rejected.message).toContain('at most 5');
			expect((await run<Page>(sb.keys.admin, 'users', { limit: 5 })).value?.items).toHaveLength(5);
		} finally {
			sb.store.graphql = { maxLimit: 100, overLimit: 'cap' };
		}
	});
});

describe('lookups', () => {
	test('users by id, email (any case) and phone (formatting ignored); criteria combine', async () => {
		const id = sb.known.users.brandAdmin;
		for (const c of [
			{ id },
			{ email: 'GRACE.HOPPER@acme.example' },
			{ phone: '+1 (415) 555-0102' },
			{ id, email: 'grace.hopper@acme.example' },
		]) {
			expect((await run(sb.keys.admin, 'findUser', c)).value?.id).toBe(id);
		}
		expect(
			(await run(sb.keys.admin, 'findUser', { id, email: 'ada.lovelace@acme.example' })).code,
		).toBe('NOT_FOUND');
	});

	test('no criteria or only empty strings → BAD_USER_INPUT; unknown → NOT_FOUND', async () => {
		for (const field of ['videoTemplate', 'findUser', 'organisation'] as const) {
			expect((await run(sb.keys.admin, field, {})).code).toBe('BAD_USER_INPUT');
			expect((await run(sb.keys.admin, field, { id: '  ' })).code).toBe('BAD_USER_INPUT');
			expect((await run(sb.keys.admin, field, { id: 'nope' })).code).toBe('NOT_FOUND');
		}
		expect((await run(sb.keys.admin, 'videoTemplate', { name: 'No Such Template' })).code).toBe(
			'NOT_FOUND',
		);
		expect((await run(sb.keys.admin, 'organisation', { name: 'No Such Org' })).code).toBe(
			'NOT_FOUND',
		);
	});
});

describe('authorization per role (spec section 5)', () => {
	type KeyName = 'user' | 'brandAdmin' | 'orgAdmin' | 'admin' | 'otherBrandUser';
	const ROLES: KeyName[] = ['user', 'brandAdmin', 'orgAdmin', 'admin', 'otherBrandUser'];
	const expectAccess = async (field: keyof typeof Q, arg: Obj, allowed: KeyName[]) => {
		for (const role of ROLES) {
			const r = await run(sb.keys[role], field, arg);
			const got = r.code === undefined ? 'ok' : r.code;
			expect({ field, arg, role, got }).toEqual({
				field,
				arg,
				role,
				got: allowed.includes(role) ? 'ok' : 'FORBIDDEN',
			});
			if (r.code) expect(r.value).toBeNull();
		}
	};

	test('videoTemplate: stock for all, brand templates for that brand and its org admins, the rest for global admins', async () => {
		const k = sb.known;
		await expectAccess('videoTemplate', { id: k.stockTemplateId }, ROLES);
		await expectAccess('videoTemplate', { id: k.brandTemplateId }, [
			'user',
			'brandAdmin',
			'orgAdmin',
			'admin',
		]);
		await expectAccess('videoTemplate', { id: k.sceneTemplateId }, [
			'user',
			'brandAdmin',
			'orgAdmin',
			'admin',
		]);
		await expectAccess('videoTemplate', { id: k.siblingBrandTemplateId }, ['orgAdmin', 'admin']);
		await expectAccess('videoTemplate', { id: k.otherBrandTemplateId }, [
			'admin',
			'otherBrandUser',
		]);
		await expectAccess('videoTemplate', { id: k.platformSceneTemplateId }, ['admin']);
		await expectAccess('videoTemplate', { name: 'Globex Studio Promo' }, [
			'admin',
			'otherBrandUser',
		]);
	});

	test('videoTemplates: admin access; each admin sees the templates visible to it', async () => {
		await expectAccess('videoTemplates', {}, ['brandAdmin', 'orgAdmin', 'admin']);
		const ids = async (key: string) =>
			((await run<Page>(key, 'videoTemplates', { limit: 100 })).value?.items ?? []).map(
				(t) => t.id,
			);
		const all = await ids(sb.keys.admin);
		expect(all).toHaveLength(sb.store.templates.size);
		const brandAdmin = await ids(sb.keys.brandAdmin);
		const orgAdmin = await ids(sb.keys.orgAdmin);
		expect(brandAdmin).toContain(sb.known.brandTemplateId);
		expect(brandAdmin).not.toContain(sb.known.siblingBrandTemplateId);
		expect(orgAdmin).toContain(sb.known.siblingBrandTemplateId);
		for (const list of [brandAdmin, orgAdmin]) {
			expect(list).toContain(sb.known.stockTemplateId);
			expect(list).not.toContain(sb.known.otherBrandTemplateId);
			expect(list).not.toContain(sb.known.platformSceneTemplateId);
		}
	});

	test('findUser: own record for everyone', async () => {
		for (const role of ROLES) {
			const id = sb.known.users[role];
			expect((await run(sb.keys[role], 'findUser', { id })).value?.id).toBe(id);
		}
	});

	test('findUser: another user needs admin privileges over that user', async () => {
		const u = sb.known.users;
		await expectAccess('findUser', { id: u.disabled }, ['brandAdmin', 'orgAdmin', 'admin']);
		await expectAccess('findUser', { id: 'usr_dennis_ritchie' }, ['orgAdmin', 'admin']);
		await expectAccess('findUser', { id: u.noCredits }, ['orgAdmin', 'admin']);
		await expectAccess('findUser', { email: 'linus.torvalds@globex.example' }, ['admin']);
	});

	test('users: admin privileges; brand admins see their brand, org admins their organisation, global admins everyone', async () => {
		await expectAccess('users', {}, ['brandAdmin', 'orgAdmin', 'admin']);
		const brandsOf = async (key: string) => {
			const items = (await run<Page>(key, 'users', { limit: 100 })).value?.items ?? [];
			return new Set(items.map((i) => (i.brand as Obj).id));
		};
		expect([...(await brandsOf(sb.keys.brandAdmin))]).toEqual([sb.known.primaryBrandId]);
		expect([...(await brandsOf(sb.keys.orgAdmin))].sort()).toEqual(
			[sb.known.primaryBrandId, sb.known.emptyBrandId, sb.known.siblingBrandId].sort(),
		);
		expect((await run<Page>(sb.keys.admin, 'users', {})).value?.total).toBe(sb.store.users.size);
	});

	test('organisation: global admins any, organisation admins their own, nobody else', async () => {
		await expectAccess('organisation', { id: sb.known.primaryOrganisationId }, [
			'orgAdmin',
			'admin',
		]);
		await expectAccess('organisation', { id: sb.known.otherOrganisationId }, ['admin']);
		await expectAccess('organisation', { name: 'Initech' }, ['admin']);
	});

	test('organisations: global admins all, organisation admins their own', async () => {
		await expectAccess('organisations', {}, ['orgAdmin', 'admin']);
		expect((await run<Page>(sb.keys.orgAdmin, 'organisations', {})).value).toMatchObject({
			total: 1,
			pages: 1,
			items: [{ id: sb.known.primaryOrganisationId }],
		});
		expect((await run<Page>(sb.keys.admin, 'organisations', {})).value?.total).toBe(
			sb.store.organisations.size,
		);
	});

	test('extra keys act as the seeded user of their role', async () => {
		const extra = await startSandbox({
			quiet: true,
			extraKeys: [{ key: 'canary-key-123', role: 'ROLE_ORG_ADMIN' }],
		});
		try {
			const r = await gql(
				extra,
				'canary-key-123',
				'{ viewer { organisations(filter: {}) { total } } }',
			);
			expect(r.json.data?.viewer).toEqual({ organisations: { total: 1 } });
		} finally {
			await extra.close();
		}
	});
});
