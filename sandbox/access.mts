// Authorization of spec section 5, shared by REST (create video) and the query-style API.
// README "Authorization" is the readable version of this file.
import type { OrganisationRecord, Store, TemplateRecord, UserRecord } from './store.mts';
import type { Role } from './types.mts';

const RANK: Record<Role, number> = {
	ROLE_USER: 0,
	ROLE_BRAND_ADMIN: 1,
	ROLE_ORG_ADMIN: 2,
	ROLE_ADMIN: 3,
};

/** The strongest role a user holds. */
export function effectiveRole(user: UserRecord): Role {
	return user.roles.reduce<Role>((best, r) => (RANK[r] > RANK[best] ? r : best), 'ROLE_USER');
}

/** "Admin access/privileges": brand, organisation or global administrators. */
export function isAdmin(user: UserRecord): boolean {
	return effectiveRole(user) !== 'ROLE_USER';
}

/** Brand ids an administrator administers (undefined: all, for global admins). */
export function adminBrandScope(store: Store, user: UserRecord): Set<string> | undefined {
	const role = effectiveRole(user);
	if (role === 'ROLE_ADMIN') return undefined;
	if (role === 'ROLE_ORG_ADMIN') return new Set(store.organisationOf(user).brandIds);
	if (role === 'ROLE_BRAND_ADMIN') return new Set([user.brandId]);
	return new Set();
}

/** videoTemplate: stock templates for everyone; a brand's templates for users of that brand and the
 * admins of its organisation; everything else (platform scenes/end cards) for global admins only. */
export function canSeeTemplate(store: Store, user: UserRecord, template: TemplateRecord): boolean {
	const role = effectiveRole(user);
	if (role === 'ROLE_ADMIN' || template.templateType === 'stock') return true;
	if (template.brandId === null) return false;
	if (template.brandId === user.brandId) return true;
	return (
		role === 'ROLE_ORG_ADMIN' &&
		store.brands.get(template.brandId)?.organisationId === store.organisationOf(user).id
	);
}

/** findUser: own record for everyone; other users for admins within their scope. */
export function canSeeUser(store: Store, viewer: UserRecord, target: UserRecord): boolean {
	if (viewer.id === target.id) return true;
	if (!isAdmin(viewer)) return false;
	const scope = adminBrandScope(store, viewer);
	return scope === undefined || scope.has(target.brandId);
}

/** organisation: global admins any, organisation admins their own; nobody else. */
export function canSeeOrganisation(
	store: Store,
	viewer: UserRecord,
	org: OrganisationRecord,
): boolean {
	const role = effectiveRole(viewer);
	return (
		role === 'ROLE_ADMIN' ||
		(role === 'ROLE_ORG_ADMIN' && store.organisationOf(viewer).id === org.id)
	);
}

export function templateRule(template: TemplateRecord): string {
	if (template.templateType === 'stock') return 'stock templates are available to all users';
	if (template.brandId)
		return 'a brand template is visible to users of that brand, organisation admins and global admins';
	return 'this template is visible to global admins (ROLE_ADMIN) only';
}
