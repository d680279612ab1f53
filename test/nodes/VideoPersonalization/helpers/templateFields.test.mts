/** A template's fields read defensively, shown in the resource mapper, mapped into customer_data and checked. */
import {
	customerDataProblems,
	mappedCustomerData,
	readTemplateFields,
	refusedSubfield,
	TEMPLATE_FIELD_SUBFIELDS,
	templateFieldsQuery,
	toMapperFields,
} from '../../../../nodes/VideoPersonalization/helpers/templateFields.ts';

describe('readTemplateFields', () => {
	it('reads the sub-fields the service gives: key from name, kind, media type, required, default, max length', () => {
		expect(
			readTemplateFields([
				{
					id: 'fld_1',
					name: 'first_name',
					label: 'First name',
					type: 'text',
					required: true,
					defaultValue: 'there',
					maxLength: 40,
				},
				{ id: 'fld_2', name: 'logo', type: 'MEDIA', mediaType: 'Image', defaultValue: null },
				{ id: 'fld_3', name: 'brand_color', type: 'color', defaultValue: '#1A73E8' },
				{ id: 'fld_4', name: 'font', type: 'font' },
			]),
		).toEqual([
			{ key: 'first_name', kind: 'text', required: true, defaultValue: 'there', maxLength: 40 },
			{ key: 'logo', kind: 'media', mediaType: 'image', required: false },
			{ key: 'brand_color', kind: 'color', required: false, defaultValue: '#1A73E8' },
			{ key: 'font', kind: 'font', required: false },
		]);
	});

	it('copes with little: no name takes the id, an unknown kind is text, junk is skipped', () => {
		expect(
			readTemplateFields([
				{ name: 'company' },
				{ id: 'fld_9', label: '  ' },
				{
					id: 42,
					type: 'gradient',
					required: 'yes',
					maxLength: -1,
					defaultValue: { nested: true },
				},
				{ label: 'No key at all' },
				null,
				'first_name',
				['x'],
				{ name: 'company', label: 'Duplicate' },
			]),
		).toEqual([
			{ key: 'company', kind: 'text', required: false },
			{ key: 'fld_9', kind: 'text', required: false },
			{ key: '42', kind: 'text', required: false },
		]);
		expect(readTemplateFields(undefined)).toEqual([]);
		expect(readTemplateFields({ items: [] })).toEqual([]);
	});
});

describe('toMapperFields', () => {
	it('labels each field by its key (what Map Automatically matches) and what it takes, * when it must be given', () => {
		const fields = toMapperFields(
			readTemplateFields([
				{ name: 'title', type: 'text', required: true, maxLength: 60, defaultValue: 'Hello!' },
				{ name: 'first_name', type: 'text', required: true },
				{ name: 'logo', type: 'media', mediaType: 'image' },
				{ name: 'clip', type: 'media' },
				{ name: 'primary_color', type: 'color', defaultValue: '#FF0066' },
				{ name: 'font', type: 'font' },
				{ name: 'company' },
			]),
		);
		expect(
			fields.map((field) => [field.id, field.displayName, field.required, field.type]),
		).toEqual([
			// Required with a default: the default applies when it is left empty.
			['title', 'title (max 60)', false, 'string'],
			['first_name', 'first_name *', true, 'string'],
			['logo', 'logo (image)', false, 'string'],
			['clip', 'clip (media)', false, 'string'],
			['primary_color', 'primary_color (#RRGGBB)', false, 'string'],
			['font', 'font (font name)', false, 'string'],
			['company', 'company', false, 'string'],
		]);
		expect(fields[0]).toEqual({
			id: 'title',
			displayName: 'title (max 60)',
			required: false,
			display: true,
			defaultMatch: false,
			canBeUsedToMatch: false,
			type: 'string',
		});
	});
});

describe('customerDataProblems', () => {
	const fields = readTemplateFields([
		{ name: 'title', type: 'text', required: true, maxLength: 5, defaultValue: 'Hi' },
		{ name: 'first_name', type: 'text', required: true },
		{ name: 'logo', type: 'media' },
		{ name: 'color', type: 'color' },
		{ name: 'font', type: 'font' },
	]);
	const ok = { first_name: 'Ana' };

	it.each([
		[{}, '"first_name" is required by the template'],
		[{ first_name: '  ' }, '"first_name" is required by the template'],
		[{ ...ok, title: 'Hello!' }, '"title" is 6 characters long; the template allows at most 5'],
		[{ ...ok, title: ['a'] }, '"title" must be text, got ["a"]'],
		[{ ...ok, color: 'reddish' }, '"color" must be a colour such as #1A73E8, got "reddish"'],
		[{ ...ok, color: '#12345' }, '"color" must be a colour such as #1A73E8, got "#12345"'],
		[{ ...ok, color: 255 }, '"color" must be a colour such as #1A73E8, got "255"'],
		[
			{ ...ok, logo: 'my logo.png' },
			'"logo" must be an asset ID or a file\'s address, got "my logo.png"',
		],
		[{ ...ok, font: true }, '"font" must be text, got true'],
		[
			{ ...ok, title: 'x'.repeat(50) + ' long' },
			'"title" is 55 characters long; the template allows at most 5',
		],
	])('%j: %s', (data, problem) => {
		expect(customerDataProblems(fields, data)).toEqual([problem]);
	});

	it.each([
		[ok],
		[{ ...ok, title: 'Héllo' }],
		[{ ...ok, title: '👋👋👋👋👋' }],
		[{ ...ok, color: '#FFF' }],
		[{ ...ok, color: ' #0b6e4f ' }],
		[{ ...ok, color: '#0B6E4F80' }],
		[{ ...ok, logo: 'ast_acme_logo' }],
		[{ ...ok, logo: 'https://cdn.example.com/a.png' }],
		[{ ...ok, font: 'Inter' }],
		[{ ...ok, first_name: 42, coupon: { any: 'thing' } }],
	])('passes %j', (data) => {
		expect(customerDataProblems(fields, data)).toEqual([]);
	});

	it('names every value that breaks the template, in the order of its fields', () => {
		expect(
			customerDataProblems(fields, { title: 'Hello!', logo: 'my logo', color: 'red' }),
		).toEqual([
			'"title" is 6 characters long; the template allows at most 5',
			'"first_name" is required by the template',
			'"logo" must be an asset ID or a file\'s address, got "my logo"',
			'"color" must be a colour such as #1A73E8, got "red"',
		]);
	});
});

describe('the query', () => {
	it('selects only known sub-fields, with the template chosen only in $criteria', () => {
		const query = templateFieldsQuery(['id', 'name', 'type', 'evil } } mutation { x']);
		expect(query).toContain('fields { id name type }');
		expect(query).toContain('videoTemplate(criteria: $criteria)');
		expect(query).not.toContain('evil');
		expect(templateFieldsQuery(TEMPLATE_FIELD_SUBFIELDS)).toContain(
			'fields { id name type required defaultValue mediaType maxLength }',
		);
	});

	it('finds the sub-field a server refuses, only among those asked for', () => {
		const asked = ['id', 'name', 'type'];
		expect(
			refusedSubfield(['Cannot query field "type" on type "VideoTemplateField".'], asked),
		).toBe('type');
		expect(
			refusedSubfield(['Cannot query field "other" on type "VideoTemplateField".'], asked),
		).toBeUndefined();
		expect(refusedSubfield(['limit must be at most 10'], asked)).toBeUndefined();
	});
});

describe('mappedCustomerData', () => {
	const schema = [{ id: 'first_name' }, { id: 'company' }, { id: 'logo', removed: true }];

	it('takes the values set below, leaving empty ones to the template', () => {
		expect(
			mappedCustomerData(
				{
					mappingMode: 'defineBelow',
					value: { first_name: 'Ana', company: '', logo: null, count: 0, vip: false },
					schema,
				},
				{ first_name: 'ignored' },
			),
		).toEqual({ first_name: 'Ana', count: 0, vip: false });
	});

	it('in auto-map mode takes the input keys that are template fields (and not removed)', () => {
		expect(
			mappedCustomerData(
				{ mappingMode: 'autoMapInputData', value: null, schema },
				{ first_name: 'Ana', company: 'Acme', logo: 'x', email: 'a@b.c' },
			),
		).toEqual({ first_name: 'Ana', company: 'Acme' });
	});

	it('reads nothing from a value that is not a mapping', () => {
		expect(mappedCustomerData(undefined, { a: 1 })).toEqual({});
		expect(mappedCustomerData({ mappingMode: 'defineBelow', value: ['x'] }, {})).toEqual({});
		expect(mappedCustomerData({ mappingMode: 'defineBelow', value: null }, {})).toEqual({});
	});
});
