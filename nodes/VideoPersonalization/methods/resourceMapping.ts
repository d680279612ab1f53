import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeParameterResourceLocator,
	ResourceMapperFields,
} from 'n8n-workflow';

import { TEMPLATE_PERMISSION } from '../helpers/permissions';
import {
	readTemplateFields,
	refusedSubfield,
	TEMPLATE_FIELD_SUBFIELDS,
	templateFieldsQuery,
	toMapperFields,
} from '../helpers/templateFields';
import { serviceClient } from '../transport/client';
import { tryGraphql } from '../transport/graphql';

const UNRESOLVED_EXPRESSION =
	'The Template is an expression that can only be worked out when the workflow runs. Use Key-Value Pairs or ' +
	'JSON, or pick the template From List, By ID or By Name to see its fields.';

/** The template chosen in Create, as the editor has it: by ID (From List or By ID) or by name. */
function chosenTemplate(ctx: ILoadOptionsFunctions): { id: string } | { name: string } | string {
	let locator: unknown;
	try {
		locator = ctx.getNodeParameter('template', undefined, { extractValue: false });
	} catch {
		return UNRESOLVED_EXPRESSION;
	}
	const rl = (locator ?? {}) as Partial<INodeParameterResourceLocator>;
	const raw = typeof locator === 'string' ? locator : rl.value;
	const value = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
	if (!value) return 'Choose a Template above to see the fields it can be personalized with.';
	if (value.startsWith('=') || value.includes('{{')) {
		return UNRESOLVED_EXPRESSION;
	}
	return rl.mode === 'name' ? { name: value } : { id: value };
}

/**
 * The chosen template's customizable fields for Create's Customer Data (resource mapper). Sub-fields
 * the service does not have are dropped from the query one by one (a server need not have them all).
 */
export async function getTemplateFields(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	const criteria = chosenTemplate(this);
	if (typeof criteria === 'string') return { fields: [], emptyFieldsNotice: criteria };
	const api = await serviceClient(this);
	const label = 'id' in criteria ? `ID "${criteria.id}"` : `name "${criteria.name}"`;
	let subfields: string[] = [...TEMPLATE_FIELD_SUBFIELDS];
	for (;;) {
		const outcome = await tryGraphql(api, {
			query: templateFieldsQuery(subfields),
			variables: { criteria },
			action: `load the fields of the template with Template ${label}`,
			permission: TEMPLATE_PERMISSION,
		});
		const notFound =
			!outcome.ok && outcome.errors.some((entry) => entry.code?.toUpperCase() === 'NOT_FOUND');
		if (notFound || (outcome.ok && !outcome.viewer.videoTemplate)) {
			return {
				fields: [],
				emptyFieldsNotice: `No template has the ${label}. Pick it From List to be sure.`,
			};
		}
		if (!outcome.ok) {
			const refused = refusedSubfield(
				outcome.errors.map((entry) => entry.message),
				subfields,
			);
			// Keep asking while something beyond the key (name or id) is left to drop.
			if (!refused || subfields.length <= 1) throw outcome.raise();
			subfields = subfields.filter((name) => name !== refused);
			continue;
		}
		const template = outcome.viewer.videoTemplate as IDataObject;
		const fields = toMapperFields(readTemplateFields(template.fields));
		return fields.length > 0
			? { fields }
			: {
					fields: [],
					emptyFieldsNotice: `The template "${String(template.name ?? label)}" has no customizable fields. Add your own keys below.`,
				};
	}
}
