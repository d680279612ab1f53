/** A template's fields read defensively, shown in the resource mapper, and mapped into customer_data. */
import {
	mappedCustomerData,
	readTemplateFields,
	refusedSubfield,
	TEMPLATE_FIELD_SUBFIELDS,
	templateFieldsQuery,
	toMapperFields,
} from '../../../../nodes/VideoPersonalization/helpers/templateFields.ts';

describe('readTemplateFields', () => {
	it('reads the sub-fields the service gives: key from name, label, kind, media type, required, default, max length', () => {
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
				{
					id: 'fld_2',
					name: 'logo',
					label: 'Logo',
					type: 'MEDIA',
					mediaType: 'Image',
					required: false,
					defaultValue: null,
				},
				{
					id: 'fld_3',
					name: 'brand_color',
					label: 'Brand color',
					type: 'color',
					defaultValue: '#1A73E8',
				},
				{ id: 'fld_4', name: 'font', label: 'Font', type: 'font' },
			]),
		).toEqual([
			{
				key: 'first_name',
				label: 'First name',
				kind: 'text',
				required: true,
				defaultValue: 'there',
				maxLength: 40,
			},
			{ key: 'logo', label: 'Logo', kind: 'media', mediaType: 'image', required: false },
			{
				key: 'brand_color',
				label: 'Brand color',
				kind: 'color',
				required: false,
				defaultValue: '#1A73E8',
			},
			{ key: 'font', label: 'Font', kind: 'font', required: false },
		]);
	});

	it('copes with little: no label shows the name, no name the id, an unknown kind is text, junk is skipped', () => {
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
			{ key: 'company', label: 'company', kind: 'text', required: false },
			{ key: 'fld_9', label: 'fld_9', kind: 'text', required: false },
			{ key: '42', label: '42', kind: 'text', required: false },
		]);
		expect(readTemplateFields(undefined)).toEqual([]);
		expect(readTemplateFields({ items: [] })).toEqual([]);
	});
});

describe('toMapperFields', () => {
	it('labels each field with what its input takes, keyed by the customer_data key, all as text inputs', () => {
		const fields = toMapperFields(
			readTemplateFields([
				{
					name: 'title',
					label: 'Title',
					type: 'text',
					required: true,
					maxLength: 60,
					defaultValue: 'Hello!',
				},
				{ name: 'logo', label: 'Logo', type: 'media', mediaType: 'image' },
				{ name: 'clip', label: 'Clip', type: 'media' },
				{ name: 'primary_color', label: 'Primary color', type: 'color' },
				{ name: 'accent', label: 'Accent', type: 'color', defaultValue: '#FF0066' },
				{ name: 'font', label: 'Font', type: 'font' },
				{ name: 'company' },
			]),
		);
		expect(
			fields.map((field) => [field.id, field.displayName, field.required, field.type]),
		).toEqual([
			['title', 'Title (max 60 chars)', true, 'string'],
			['logo', 'Logo (image asset ID or URL)', false, 'string'],
			['clip', 'Clip (media asset ID or URL)', false, 'string'],
			['primary_color', 'Primary color (e.g. #1A73E8)', false, 'string'],
			['accent', 'Accent (e.g. #FF0066)', false, 'string'],
			['font', 'Font (font name)', false, 'string'],
			['company', 'company', false, 'string'],
		]);
		expect(fields[0]).toMatchObject({
			defaultValue: 'Hello!',
			display: true,
			defaultMatch: false,
			canBeUsedToMatch: false,
		});
		expect(fields[1]).not.toHaveProperty('defaultValue');
	});
});

describe('the query', () => {
	it('selects only known sub-fields, with the template chosen only in $criteria', () => {
		const query = templateFieldsQuery(['id', 'name', 'label', 'evil } } mutation { x']);
		expect(query).toContain('fields { id name label }');
		expect(query).toContain('videoTemplate(criteria: $criteria)');
		expect(query).not.toContain('evil');
		expect(templateFieldsQuery(TEMPLATE_FIELD_SUBFIELDS)).toContain(
			'fields { id name label type required defaultValue mediaType maxLength }',
		);
	});

	it('finds the sub-field a server refuses, only among those asked for', () => {
		const asked = ['id', 'name', 'label'];
		expect(
			refusedSubfield(['Cannot query field "label" on type "VideoTemplateField".'], asked),
		).toBe('label');
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
