import type {
	ILoadOptionsFunctions,
	INodeParameterResourceLocator,
	ResourceMapperFields,
} from 'n8n-workflow';

import { optionalText } from '../helpers/answers';
import {
	fetchTemplateFields,
	templateChoice,
	type TemplateChoice,
} from '../actions/template/locator';
import { toMapperFields } from '../helpers/templateFields';
import { serviceClient } from '../transport/client';

const UNRESOLVED_EXPRESSION =
	'The Template is an expression that can only be worked out when the workflow runs. Use Key-Value Pairs or JSON, or choose the template By name or By ID to see its fields.';

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
	if (value.startsWith('=') || value.includes('{{')) return UNRESOLVED_EXPRESSION;
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
