import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeParameterResourceLocator,
	ResourceMapperFields,
} from 'n8n-workflow';

import { optionalText } from '../helpers/answers';
import { TEMPLATE_PERMISSION } from '../helpers/permissions';
import {
	readTemplateFields,
	refusedSubfield,
	TEMPLATE_FIELD_SUBFIELDS,
	type TemplateField,
	templateFieldsQuery,
	toMapperFields,
} from '../helpers/templateFields';
import { serviceClient, type ServiceClient } from '../transport/client';
import { tryGraphql } from '../transport/graphql';

const UNRESOLVED_EXPRESSION =
	'The Template is an expression that can only be worked out when the workflow runs. Use Key-Value Pairs or ' +
	'JSON, or choose the template By name or By ID to see its fields.';

/** A template by ID or by name, as the lookup takes it. */
export type TemplateLookup = { id: string } | { name: string };

/** A chosen template, as the lookup takes it and as messages name it: `ID "x"`, `name "x"`. */
export interface TemplateChoice {
	lookup: TemplateLookup;
	label: string;
}

/** The Template locator's mode and value as a lookup: By name, or by ID (From list and By ID). */
export function templateChoice(mode: string | undefined, value: string): TemplateChoice {
	return mode === 'name'
		? { lookup: { name: value }, label: `name "${value}"` }
		: { lookup: { id: value }, label: `ID "${value}"` };
}

export interface TemplateWithFields {
	id: string;
	name: string;
	fields: TemplateField[];
}

/**
 * A template with its customizable fields, or undefined when none matches. Sub-fields the service
 * does not have are dropped from the query one by one (a server need not have them all).
 */
export async function fetchTemplateFields(
	api: ServiceClient,
	criteria: TemplateLookup,
	call: { action: string; itemIndex?: number },
): Promise<TemplateWithFields | undefined> {
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

/** The template chosen in Create, as the editor has it: by ID (From List or By ID) or by name. */
function chosenTemplate(ctx: ILoadOptionsFunctions): TemplateChoice | string {
	let locator: unknown;
	try {
		locator = ctx.getNodeParameter('template', undefined, { extractValue: false });
	} catch {
		return UNRESOLVED_EXPRESSION;
	}
	const chosen = (locator ?? {}) as Partial<INodeParameterResourceLocator>;
	const value = optionalText(typeof locator === 'string' ? locator : chosen.value);
	if (!value) return 'Choose a Template above to see the fields it can be personalized with.';
	if (value.startsWith('=') || value.includes('{{')) {
		return UNRESOLVED_EXPRESSION;
	}
	return templateChoice(chosen.mode, value);
}

/**
 * The chosen template's customizable fields for Create's Customer Data (resource mapper). Every
 * state before a template is known is a notice, never an error (n8n's red "no fields" line is off).
 */
export async function getTemplateFields(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	const choice = chosenTemplate(this);
	if (typeof choice === 'string') return { fields: [], emptyFieldsNotice: choice };
	const { lookup, label } = choice;
	const template = await fetchTemplateFields(await serviceClient(this), lookup, {
		action: `load the fields of the template with Template ${label}`,
	});
	if (!template) {
		return {
			fields: [],
			emptyFieldsNotice: `No template has the ${label}. Check it against the service's template library, or pick it From list if your API key may list templates.`,
		};
	}
	return template.fields.length > 0
		? { fields: toMapperFields(template.fields) }
		: {
				fields: [],
				emptyFieldsNotice: `The template "${template.name}" has no customizable fields. Add your own keys below.`,
			};
}
