import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	readTemplateFields,
	refusedSubfield,
	TEMPLATE_FIELD_SUBFIELDS,
	templateFieldsQuery,
} from '../../helpers/templateFields';
import type { ServiceClient } from '../../transport/client';
import { tryGraphql } from '../../transport/graphql';
import { fieldError, readLocator } from '../common';
import { resourceLocator } from '../fields';

/**
 * By name is the default: every key may look a template up, while listing them needs admin
 * access (docs/service-facts.md, "Who may call what"); for other keys the list finds exact names.
 */
export function templateLocator(description: string): INodeProperties {
	return resourceLocator(
		{
			displayName: 'Template',
			name: 'template',
			mode: 'name',
			description,
			modes: [
				{ displayName: 'By name', name: 'name', type: 'string', placeholder: 'e.g. Welcome Video' },
			],
		},
		'searchTemplates',
		'e.g. tpl_8f2c1a',
	);
}

/** Who may look a template up (docs/service-facts.md, "Who may call what"), for the description of a 403. */
export const TEMPLATE_PERMISSION =
	'Stock templates are open to all users; brand templates to users of that brand, organisation admins and global admins; other templates to global admins.';

/**
 * The Template locator's mode and value as a lookup: By name, or by ID (From list and By ID); and
 * as messages name the template: `ID "x"`, `name "x"`.
 */
export function templateChoice(mode: string | undefined, value: string) {
	return mode === 'name'
		? { lookup: { name: value }, label: `name "${value}"` }
		: { lookup: { id: value }, label: `ID "${value}"` };
}

/** A chosen template (methods/resourceMapping.ts reads it too). */
export type TemplateChoice = ReturnType<typeof templateChoice>;

/** The template an item chose, as the lookup takes it, and how messages name it: `ID "x"`. */
export function readTemplateCriteria(ctx: IExecuteFunctions, itemIndex: number) {
	const { mode, value } = readLocator(ctx, itemIndex, 'template');
	if (value === undefined) {
		const hint = 'Pick one from the list, or give its ID or exact name.';
		throw fieldError(ctx, itemIndex, 'Template: no template chosen', hint);
	}
	return templateChoice(mode, value);
}

/**
 * A template with its customizable fields, or undefined when none matches. Sub-fields the service
 * does not have are dropped from the query one by one (a server need not have them all).
 */
export async function fetchTemplateFields(
	api: ServiceClient,
	criteria: { id: string } | { name: string },
	call: { action: string; itemIndex?: number },
) {
	let subfields: string[] = [...TEMPLATE_FIELD_SUBFIELDS];
	for (;;) {
		const outcome = await tryGraphql(api, {
			...call,
			query: templateFieldsQuery(subfields),
			variables: { criteria },
			permission: TEMPLATE_PERMISSION,
		});
		if (outcome.ok) {
			const template = outcome.viewer.videoTemplate as IDataObject | null;
			if (!template || typeof template.id !== 'string') return undefined;
			const fields = readTemplateFields(template.fields);
			return { id: template.id, name: String(template.name ?? template.id), fields };
		}
		if (outcome.errors.some((entry) => entry.code?.toUpperCase() === 'NOT_FOUND')) return undefined;
		const messages = outcome.errors.map((entry) => entry.message);
		const refused = refusedSubfield(messages, subfields);
		// Keep asking while something beyond the key (name or id) is left to drop.
		if (!refused || subfields.length <= 1) throw outcome.raise();
		subfields = subfields.filter((name) => name !== refused);
	}
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
) {
	const action = `find the template with Template ${criteria.label}`;
	const lookup = async () => await fetchTemplateFields(api, criteria.lookup, { action, itemIndex });
	const template = await api.cached(`template ${criteria.label}`, TEMPLATE_FRESH_MS, lookup);
	if (!template) {
		const hint = "Check it against the service's template library; names must match exactly.";
		throw fieldError(ctx, itemIndex, `Template: no template has the ${criteria.label}`, hint);
	}
	return template;
}
