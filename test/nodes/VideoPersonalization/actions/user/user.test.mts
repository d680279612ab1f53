import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../../../harness/engine.mts';
import { credentialsFor, useSandbox } from '../../../../harness/fixtures.mts';

const sandbox = useSandbox();

async function run(operation: string, parameters: IDataObject, key?: string) {
	const s = sandbox();
	return await runNode({
		parameters: { resource: 'user', operation, ...parameters },
		credentials: credentialsFor(s, key ?? s.keys.admin),
	});
}

describe('User > Get', () => {
	it.each(['id', 'email', 'phone'] as const)(
		'finds a user by %s, with every spec field',
		async (findBy) => {
			const s = sandbox();
			const user = s.store.users.get(s.known.users.brandAdmin)!;
			const value = findBy === 'id' ? user.id : user[findBy];
			const { items, error } = await run('get', { findBy, [`${findBy}Value`]: value });
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({
				id: user.id,
				profile: {
					firstName: user.firstName,
					lastName: user.lastName,
					email: user.email,
					phone: user.phone,
					avatar: expect.any(String),
				},
				roles: user.roles,
				verified: user.verified,
				enabled: user.enabled,
				currentStep: user.currentStep,
				brand: { id: user.brandId, name: expect.any(String) },
			});
			expect(Object.keys(items[0].json).sort()).toEqual(
				[
					'id',
					'profile',
					'brand',
					'roles',
					'team',
					'verified',
					'currentStep',
					'enabled',
					'messagingCampaigns',
				].sort(),
			);
		},
	);

	it('lets a user read their own record and explains the rule for another one', async () => {
		const s = sandbox();
		const own = await run('get', { findBy: 'id', idValue: s.known.users.user }, s.keys.user);
		expect(own.error).toBeUndefined();
		const other = await run('get', { findBy: 'id', idValue: s.known.users.admin }, s.keys.user);
		expect(other.error?.message).toBe(
			`The API key may not get the user with User ID "${s.known.users.admin}" (403) [item 0]`,
		);
		expect(other.error?.description).toMatch(/looking up another user needs admin privileges/);
	});

	it('says which user was not found, and refuses an empty value naming the field', async () => {
		const missing = await run('get', { findBy: 'email', emailValue: 'nobody@nowhere.example' });
		expect(missing.error?.message).toBe(
			'Not found: get the user with Email "nobody@nowhere.example" (404) [item 0]',
		);
		const empty = await run('get', { findBy: 'phone', phoneValue: '={{ "" }}' });
		expect(empty.error?.message).toBe('Phone: is empty [item 0]');
	});
});

describe('User > Get Many', () => {
	it('lists users with search and limit, only the chosen fields', async () => {
		const s = sandbox();
		const user = s.store.users.get(s.known.users.user)!;
		const { items, error } = await run('getAll', {
			returnAll: true,
			search: user.lastName,
			options: { fields: ['profile'] },
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.id)).toContain(user.id);
		for (const item of items) expect(Object.keys(item.json).sort()).toEqual(['id', 'profile']);
		const all = await run('getAll', { returnAll: true });
		expect(new Set(all.items.map((item) => item.json.id)).size).toBe(all.items.length);
		expect(all.items.length).toBeGreaterThan(10);
		const limited = await run('getAll', { returnAll: false, limit: 3 });
		expect(limited.items).toHaveLength(3);
	});

	it('explains that listing users needs admin privileges', async () => {
		const s = sandbox();
		const { error } = await run('getAll', { returnAll: true }, s.keys.user);
		expect(error?.message).toBe('The API key may not list users (403) [item 0]');
		expect(error?.description).toMatch(/Listing users needs admin privileges/);
	});
});
