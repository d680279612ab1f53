/**
 * The query-style API's documents. Every query is constant text: what the user types travels
 * only in variables, and the Fields option switches fields on and off through `@include`.
 */

export interface SelectableField {
	/** Field name in the API. */
	name: string;
	/** Selection set for object fields (nested objects are selected with id and name: docs/service-facts.md). */
	selection?: string;
	displayName: string;
}

export const TEMPLATE_FIELDS: SelectableField[] = [
	{ name: 'name', displayName: 'Name' },
	{ name: 'description', displayName: 'Description' },
	{ name: 'templateType', displayName: 'Template Type' },
	{ name: 'aspectRatio', displayName: 'Aspect Ratio' },
	{ name: 'duration', displayName: 'Duration' },
	{ name: 'categories', selection: '{ id name }', displayName: 'Categories' },
	{ name: 'tags', selection: '{ id name }', displayName: 'Tags' },
	{ name: 'fields', selection: '{ id name }', displayName: 'Fields (Customizable)' },
	{ name: 'brand', selection: '{ id name }', displayName: 'Brand' },
	{ name: 'previewImage', displayName: 'Preview Image' },
	{ name: 'previewVideo', displayName: 'Preview Video' },
];

export const USER_FIELDS: SelectableField[] = [
	{
		name: 'profile',
		selection: '{ firstName lastName email phone avatar }',
		displayName: 'Profile',
	},
	{ name: 'brand', selection: '{ id name }', displayName: 'Brand' },
	{ name: 'roles', displayName: 'Roles' },
	{ name: 'team', selection: '{ id name }', displayName: 'Team' },
	{ name: 'verified', displayName: 'Verified' },
	{ name: 'currentStep', displayName: 'Current Step' },
	{ name: 'enabled', displayName: 'Enabled' },
	{ name: 'messagingCampaigns', selection: '{ id name }', displayName: 'Messaging Campaigns' },
];

export const ORGANISATION_FIELDS: SelectableField[] = [
	{ name: 'name', displayName: 'Name' },
	{ name: 'created', displayName: 'Created' },
	{ name: 'updated', displayName: 'Updated' },
	{ name: 'monthlyCredits', displayName: 'Monthly Credits' },
	{ name: 'credits', displayName: 'Credits' },
	{ name: 'userLimits', displayName: 'User Limits' },
	{ name: 'brands', selection: '{ id name }', displayName: 'Brands' },
];

function switchName(field: SelectableField): string {
	return `with_${field.name}`;
}

function fragment(type: string, fields: SelectableField[]): string {
	const lines = fields.map(
		(field) =>
			`  ${field.name} @include(if: $${switchName(field)})${field.selection ? ` ${field.selection}` : ''}`,
	);
	return `fragment ${type}Fields on ${type} {\n  id\n${lines.join('\n')}\n}`;
}

/** The query's first line: named after its field under `viewer` (`findUser`: FindUser), its input. */
function opening(field: string, input: string, fields: SelectableField[]): string {
	const switches = fields.map((field) => `$${switchName(field)}: Boolean = true`).join(', ');
	return `query ${field.charAt(0).toUpperCase()}${field.slice(1)}(${input}, ${switches}) {`;
}

/**
 * One record by its lookup input (`UserLookupInput` for the type `User`); with its field under
 * `viewer`, where the answer is, and the fields it may select.
 */
function lookupQuery(field: string, type: string, fields: SelectableField[]) {
	const query = `${opening(field, `$criteria: ${type}LookupInput!`, fields)}
  viewer { ${field}(criteria: $criteria) { ...${type}Fields } }
}
${fragment(type, fields)}`;
	return { query, field, fields };
}

/** A page of a list by its filter input (`UserListFilterInput` for the type `User`). */
function listQuery(field: string, type: string, fields: SelectableField[]) {
	const query = `${opening(field, `$filter: ${type}ListFilterInput!`, fields)}
  viewer { ${field}(filter: $filter) { items { ...${type}Fields } total page limit pages } }
}
${fragment(type, fields)}`;
	return { query, field, fields };
}

export const TEMPLATE_QUERY = lookupQuery('videoTemplate', 'VideoTemplate', TEMPLATE_FIELDS);
export const TEMPLATES_QUERY = listQuery('videoTemplates', 'VideoTemplate', TEMPLATE_FIELDS);
export const USER_QUERY = lookupQuery('findUser', 'User', USER_FIELDS);
export const USERS_QUERY = listQuery('users', 'User', USER_FIELDS);
export const ORGANISATION_QUERY = lookupQuery('organisation', 'Organisation', ORGANISATION_FIELDS);
export const ORGANISATIONS_QUERY = listQuery('organisations', 'Organisation', ORGANISATION_FIELDS);

/** A page of templates by name, for the Template picker. */
export const TEMPLATE_SEARCH_QUERY = `query TemplateSearch($filter: VideoTemplateListFilterInput!) {
  viewer { videoTemplates(filter: $filter) { items { id name templateType } total page limit pages } }
}`;

/** Variables switching each field on or off; no selection means every field. */
export function fieldSwitches(
	fields: SelectableField[],
	selected: string[] | undefined,
): Record<string, boolean> {
	const wanted = selected && selected.length > 0 ? new Set(selected) : undefined;
	return Object.fromEntries(
		fields.map((field) => [switchName(field), wanted ? wanted.has(field.name) : true]),
	);
}
