import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	fetchTemplateFields,
	templateChoice,
	type TemplateChoice,
	type TemplateWithFields,
} from '../../methods/resourceMapping';
import type { ServiceClient } from '../../transport/client';
import { fieldError, readLocator } from '../common';

/**
 * By name is the default: every key may look a template up, while listing them needs admin
 * access (docs/service-facts.md, "Who may call what"); for other keys the list finds exact names.
 */
export function templateLocator(description: string): INodeProperties {
	return {
		displayName: 'Template',
		name: 'template',
		type: 'resourceLocator',
		default: { mode: 'name', value: '' },
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
				displayName: 'By name',
				name: 'name',
				type: 'string',
				placeholder: 'e.g. Welcome Video',
			},
		],
	};
}

/** The template an item chose, as the lookup takes it, and how messages name it: `ID "x"`. */
export function readTemplateCriteria(ctx: IExecuteFunctions, itemIndex: number): TemplateChoice {
	const { mode, value } = readLocator(ctx, itemIndex, 'template');
	if (value === undefined) {
		const hint = 'Pick one from the list, or give its ID or exact name.';
		throw fieldError(ctx, itemIndex, 'Template', 'no template chosen', hint);
	}
	return templateChoice(mode, value);
}

/**
 * How long a template found by one execution serves the others on the same key: one execution
 * per CRM contact would otherwise pay a lookup per video. Short, as the template may change.
 */
const TEMPLATE_FRESH_MS = 60_000;

/**
 * The template with its fields, looked up by ID or name once per execution, and once a minute
 * for every execution on the key (the fields are what Create checks every item against before
 * it creates any video).
 */
export async function resolveTemplate(
	ctx: IExecuteFunctions,
	api: ServiceClient,
	itemIndex: number,
	criteria: TemplateChoice,
): Promise<TemplateWithFields> {
	const template = await api.cached(`template ${criteria.label}`, TEMPLATE_FRESH_MS, async () =>
		fetchTemplateFields(api, criteria.lookup, {
			action: `find the template with Template ${criteria.label}`,
			itemIndex,
		}),
	);
	if (!template) {
		const hint = "Check it against the service's template library; names must match exactly.";
		throw fieldError(ctx, itemIndex, 'Template', `no template has the ${criteria.label}`, hint);
	}
	return template;
}
