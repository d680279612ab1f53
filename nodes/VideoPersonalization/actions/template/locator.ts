import type { IExecuteFunctions, INodeParameterResourceLocator, INodeProperties } from 'n8n-workflow';

import { callGraphql } from '../../transport/request';
import { fieldError } from '../common';

export const TEMPLATE_PERMISSION =
	'Stock templates are open to all users; brand templates to users of that brand, organisation admins and global admins; other templates to global admins.';

export const TEMPLATES_PERMISSION = 'Listing templates needs admin access.';

export function templateLocator(description: string): INodeProperties {
	return {
		displayName: 'Template',
		name: 'template',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchTemplates', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. tpl_8f2c1a',
			},
			{
				displayName: 'By Name',
				name: 'name',
				type: 'string',
				placeholder: 'e.g. Welcome Video',
			},
		],
	};
}

export interface TemplateCriteria {
	id?: string;
	name?: string;
	/** How the user picked it, for messages: 'ID "x"' or 'name "y"'. */
	label: string;
}

export function readTemplateCriteria(ctx: IExecuteFunctions, itemIndex: number): TemplateCriteria {
	const locator = ctx.getNodeParameter('template', itemIndex, undefined, { extractValue: false }) as
		| INodeParameterResourceLocator
		| string
		| undefined;
	const mode = typeof locator === 'object' && locator !== null ? locator.mode : 'id';
	const raw = typeof locator === 'object' && locator !== null ? locator.value : locator;
	const value = typeof raw === 'number' ? String(raw) : raw;
	if (typeof value !== 'string' || value.trim() === '') {
		throw fieldError(ctx, itemIndex, 'Template', 'no template chosen', 'Pick one from the list, or give its ID or exact name.');
	}
	const text = value.trim();
	return mode === 'name' ? { name: text, label: `name "${text}"` } : { id: text, label: `ID "${text}"` };
}

const TEMPLATE_ID_QUERY = `query TemplateIdByName($criteria: VideoTemplateLookupInput!) {
  viewer { videoTemplate(criteria: $criteria) { id } }
}`;

// One lookup per name per execution, however many items use it.
const idsByName = new WeakMap<object, Map<string, Promise<string>>>();

/** The template's ID; a name is looked up through the query-style API. */
export async function resolveTemplateId(ctx: IExecuteFunctions, itemIndex: number, criteria: TemplateCriteria): Promise<string> {
	if (criteria.id !== undefined) return criteria.id;
	const name = criteria.name ?? '';
	let cache = idsByName.get(ctx);
	if (!cache) {
		cache = new Map();
		idsByName.set(ctx, cache);
	}
	let pending = cache.get(name);
	if (!pending) {
		pending = callGraphql(ctx, {
			query: TEMPLATE_ID_QUERY,
			variables: { criteria: { name } },
			action: `find the template with Template ${criteria.label}`,
			permission: TEMPLATE_PERMISSION,
			itemIndex,
		}).then((viewer) => {
			const template = viewer.videoTemplate as { id?: unknown } | null;
			if (!template || typeof template.id !== 'string') {
				throw fieldError(ctx, itemIndex, 'Template', `no template has the ${criteria.label}`, 'Names must match exactly; pick it from the list to be sure.');
			}
			return template.id;
		});
		cache.set(name, pending);
		pending.catch(() => cache?.delete(name));
	}
	return await pending;
}
