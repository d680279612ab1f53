import type {
	IExecuteFunctions,
	INodeParameterResourceLocator,
	INodeProperties,
} from 'n8n-workflow';

import { TEMPLATE_PERMISSION } from '../../helpers/permissions';
import { TEMPLATE_ID_QUERY } from '../../helpers/queries';
import type { ServiceClient } from '../../transport/client';
import { graphql } from '../../transport/graphql';
import { fieldError } from '../common';

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
	const locator = ctx.getNodeParameter('template', itemIndex, undefined, {
		extractValue: false,
	}) as INodeParameterResourceLocator | string | undefined;
	const mode = typeof locator === 'object' && locator !== null ? locator.mode : 'id';
	const raw = typeof locator === 'object' && locator !== null ? locator.value : locator;
	const value = typeof raw === 'number' ? String(raw) : raw;
	if (typeof value !== 'string' || value.trim() === '') {
		throw fieldError(
			ctx,
			itemIndex,
			'Template',
			'no template chosen',
			'Pick one from the list, or give its ID or exact name.',
		);
	}
	const text = value.trim();
	return mode === 'name'
		? { name: text, label: `name "${text}"` }
		: { id: text, label: `ID "${text}"` };
}

/** The template's ID; a name is looked up through the query-style API, once per execution. */
export async function resolveTemplateId(
	ctx: IExecuteFunctions,
	api: ServiceClient,
	itemIndex: number,
	criteria: TemplateCriteria,
): Promise<string> {
	if (criteria.id !== undefined) return criteria.id;
	const name = criteria.name ?? '';
	return await api.once(`template id of ${name}`, async () => {
		const viewer = await graphql(api, {
			query: TEMPLATE_ID_QUERY,
			variables: { criteria: { name } },
			action: `find the template with Template ${criteria.label}`,
			permission: TEMPLATE_PERMISSION,
			itemIndex,
		});
		const template = viewer.videoTemplate as { id?: unknown } | null;
		if (!template || typeof template.id !== 'string') {
			throw fieldError(
				ctx,
				itemIndex,
				'Template',
				`no template has the ${criteria.label}`,
				'Names must match exactly; pick it from the list to be sure.',
			);
		}
		return template.id;
	});
}
