/**
 * A template's customizable fields as the editor's resource mapper shows them, the values the
 * user mapped as Customer Data, and what Create checks them against. The spec names the kinds (text, media, color, font) but not the
 * sub-fields of a template field (docs/service-facts.md, "Template fields"): every one is read
 * defensively, and a server that lacks one of the sub-fields asked for is asked again without it.
 */
import type { IDataObject, ResourceMapperField } from 'n8n-workflow';

import { optionalText } from './answers';

/** The sub-fields asked for, most useful first; `id` and `name` are kept to the last. */
export const TEMPLATE_FIELD_SUBFIELDS = [
	'id',
	'name',
	'type',
	'required',
	'defaultValue',
	'mediaType',
	'maxLength',
] as const;

type TemplateFieldKind = 'text' | 'media' | 'color' | 'font';

/** One template field, read from whatever the service answered. */
export interface TemplateField {
	/** The key in customer_data: the field's name, else its id. */
	key: string;
	kind: TemplateFieldKind;
	/** For media fields: image, video or audio, when the service says. */
	mediaType?: string;
	required: boolean;
	defaultValue?: string | number | boolean;
	maxLength?: number;
}

/**
 * The query for a template's fields, selecting `subfields` (all from TEMPLATE_FIELD_SUBFIELDS:
 * constant text; what the user typed travels only in `$criteria`).
 */
export function templateFieldsQuery(subfields: readonly string[]): string {
	const known = subfields.filter((name) =>
		(TEMPLATE_FIELD_SUBFIELDS as readonly string[]).includes(name),
	);
	return `query TemplateFields($criteria: VideoTemplateLookupInput!) {
  viewer { videoTemplate(criteria: $criteria) { id name fields { ${known.join(' ')} } } }
}`;
}

/** The sub-field a GraphQL error says the service does not have ("Cannot query field "x" on type "..."). */
export function refusedSubfield(messages: string[], asked: readonly string[]): string | undefined {
	for (const message of messages) {
		const name = /Cannot query field "([^"]+)" on type "([^"]+)"/.exec(message)?.[1];
		if (name && asked.includes(name)) return name;
	}
	return undefined;
}

function kindOf(value: unknown): TemplateFieldKind {
	const kind = (optionalText(value) ?? '').toLowerCase();
	return kind === 'media' || kind === 'color' || kind === 'font' ? kind : 'text';
}

/** The fields of a template, from any answer: entries without a name or id are skipped, duplicates kept once. */
export function readTemplateFields(raw: unknown): TemplateField[] {
	if (!Array.isArray(raw)) return [];
	const fields: TemplateField[] = [];
	const seen = new Set<string>();
	for (const entry of raw) {
		if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) continue;
		const field = entry as IDataObject;
		const key = optionalText(field.name) ?? optionalText(field.id);
		if (!key || seen.has(key)) continue;
		seen.add(key);
		const kind = kindOf(field.type);
		const read: TemplateField = { key, kind, required: field.required === true };
		const mediaType = kind === 'media' ? optionalText(field.mediaType)?.toLowerCase() : undefined;
		if (mediaType) read.mediaType = mediaType;
		const { defaultValue, maxLength } = field;
		if (['string', 'number', 'boolean'].includes(typeof defaultValue))
			read.defaultValue = defaultValue as string | number | boolean;
		if (typeof maxLength === 'number' && maxLength > 0) read.maxLength = maxLength;
		fields.push(read);
	}
	return fields;
}

/**
 * What the input takes, after the key. Kept short: n8n 2.41 cuts a mapper label at about 155
 * pixels (some 24 characters) in the default panel width, and shows no description for it.
 */
function hint(field: TemplateField): string {
	if (field.kind === 'media') return field.mediaType ?? 'media';
	if (field.kind === 'color') return '#RRGGBB';
	if (field.kind === 'font') return 'font name';
	return field.maxLength ? `max ${field.maxLength}` : '';
}

/**
 * Whether an item must give the field: the template requires it and has no default to fall back
 * on (as n8n's Postgres node treats a NOT NULL column with a default: not required).
 */
function mustBeGiven(field: TemplateField): boolean {
	return field.required && field.defaultValue === undefined;
}

/**
 * The resource mapper's view of the fields. The label starts with the key, which is what Map
 * Automatically matches incoming keys against; `*` marks a field the item must give. Nothing is
 * pre-filled: an empty field is not sent, so the template's default applies (a default such as
 * `Hello {{first_name}}!` would read as an n8n expression in the input).
 */
export function toMapperFields(fields: TemplateField[]): ResourceMapperField[] {
	return fields.map((field) => {
		const what = hint(field);
		return {
			id: field.key,
			displayName: `${field.key}${mustBeGiven(field) ? ' *' : ''}${what ? ` (${what})` : ''}`,
			required: mustBeGiven(field),
			defaultMatch: false,
			canBeUsedToMatch: false,
			display: true,
			type: 'string',
		};
	});
}

const HEX_COLOUR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

function shown(value: unknown): string {
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** What is wrong with one value by what the template declares about its field, if anything. */
function valueProblem(field: TemplateField, value: unknown): string | undefined {
	if (isEmpty(value)) return mustBeGiven(field) ? 'is required by the template' : undefined;
	if (typeof value !== 'string' && typeof value !== 'number')
		return `must be text, got ${shown(value)}`;
	const text = String(value).trim();
	if (field.kind === 'color' && !HEX_COLOUR.test(text))
		return `must be a colour such as #1A73E8, got "${shown(text)}"`;
	if (field.kind === 'media' && /\s/.test(text))
		return `must be an asset ID or a file's address, got "${shown(text)}"`;
	const length = [...String(value)].length;
	if (field.maxLength && length > field.maxLength)
		return `is ${length} characters long; the template allows at most ${field.maxLength}`;
	return undefined;
}

/**
 * Each value of `data` that breaks what the template declares about its field (a missing
 * required one, the kind, a colour's form, the length), as "key: problem"; keys the template
 * does not list are the user's own and pass.
 */
export function customerDataProblems(fields: TemplateField[], data: IDataObject): string[] {
	return fields.flatMap((field) => {
		const problem = valueProblem(field, data[field.key]);
		return problem ? [`"${field.key}" ${problem}`] : [];
	});
}

function isEmpty(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

/**
 * The Customer Data the mapper gives for one item: the values set below ("defineBelow"), or, in
 * "autoMapInputData" mode, the input item's keys that are template fields. Empty values are left
 * out, so the template's own default applies. `mapped` is the mapper's value as n8n stores it
 * (ResourceMapperValue: mappingMode, value, schema), read loosely: it is user data.
 */
export function mappedCustomerData(
	mapped: IDataObject | undefined,
	itemJson: IDataObject,
): IDataObject {
	if (!mapped || typeof mapped !== 'object') return {};
	if (mapped.mappingMode === 'autoMapInputData') {
		const data: IDataObject = {};
		const schema = Array.isArray(mapped.schema) ? (mapped.schema as IDataObject[]) : [];
		for (const field of schema) {
			const key = typeof field.id === 'string' ? field.id : undefined;
			if (key && field.removed !== true && !isEmpty(itemJson[key])) data[key] = itemJson[key];
		}
		return data;
	}
	const values = mapped.value;
	if (values === null || typeof values !== 'object' || Array.isArray(values)) return {};
	return Object.fromEntries(Object.entries(values).filter(([, value]) => !isEmpty(value)));
}
