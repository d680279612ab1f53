/**
 * The registry of resources and operations, and the node fields made from it: what the editor
 * lists, and which operation a pair of parameter values reaches.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import {
	findOperation,
	nodeProperties,
	resources,
} from '../../../../nodes/VideoPersonalization/actions/registry.ts';

const registered = Object.entries(resources).map(
	([resource, { operations }]) => [resource, Object.keys(operations)] as const,
);

function selector(name: string, resource?: string): INodeProperties {
	const found = nodeProperties.filter(
		(property) =>
			property.name === name &&
			(resource === undefined || property.displayOptions?.show?.resource?.[0] === resource),
	);
	expect(found).toHaveLength(1);
	return found[0];
}

const options = (property: INodeProperties) => property.options as INodePropertyOptions[];
const sortedByName = (list: INodePropertyOptions[]) =>
	[...list].sort((left, right) => left.name.localeCompare(right.name));

describe('the Resource field', () => {
	it('comes first, lists every resource once, sorted by name, and picks Video', () => {
		const resource = selector('resource');
		expect(nodeProperties[0]).toBe(resource);
		expect(resource.displayOptions).toBeUndefined();
		expect(
			options(resource)
				.map((option) => option.value)
				.sort(),
		).toEqual(Object.keys(resources).sort());
		expect(options(resource)).toEqual(sortedByName(options(resource)));
		expect(resource.default).toBe('video');
		for (const option of options(resource)) expect(option.description).toEqual(expect.any(String));
	});
});

describe.each(registered)('%s', (resource, operations) => {
	const operationField = selector('operation', resource);

	it('has one Operation field, shown for it only, listing each of its operations once, sorted by name', () => {
		expect(operationField.displayOptions).toEqual({ show: { resource: [resource] } });
		expect(operationField.noDataExpression).toBe(true);
		expect(
			options(operationField)
				.map((option) => option.value)
				.sort(),
		).toEqual([...operations].sort());
		expect(options(operationField)).toEqual(sortedByName(options(operationField)));
		for (const option of options(operationField)) {
			expect(option).toEqual({
				name: expect.any(String),
				value: expect.any(String),
				action: expect.any(String),
				description: expect.any(String),
			});
		}
	});

	it('picks one of its own operations by default', () => {
		expect(operations).toContain(operationField.default);
	});

	it.each(operations)(
		'%s: its fields show only for this resource and operation, after the Operation field',
		(operation) => {
			const own = nodeProperties.filter(
				(property) =>
					property.displayOptions?.show?.operation?.includes(operation) &&
					property.displayOptions.show.resource?.includes(resource),
			);
			expect(own.length).toBeGreaterThan(0);
			expect(own.map((property) => property.displayOptions?.show)).toEqual(
				own.map(() => expect.objectContaining({ resource: [resource], operation: [operation] })),
			);
			for (const property of own)
				expect(nodeProperties.indexOf(property)).toBeGreaterThan(
					nodeProperties.indexOf(operationField),
				);
			expect(own).toEqual(
				findOperation(resource, operation)?.description.map((property) =>
					expect.objectContaining({ name: property.name }),
				),
			);
		},
	);
});

describe('every field belongs somewhere', () => {
	it('is the Resource field, an Operation field, or a field of one registered operation', () => {
		const pairs = new Set(
			registered.flatMap(([resource, operations]) =>
				operations.map((operation) => `${resource}/${operation}`),
			),
		);
		for (const property of nodeProperties.slice(1)) {
			const show = property.displayOptions?.show ?? {};
			if (property.name === 'operation') continue;
			expect(pairs.has(`${String(show.resource?.[0])}/${String(show.operation?.[0])}`)).toBe(true);
		}
	});
});

describe('findOperation', () => {
	it.each(
		registered.flatMap(([resource, operations]) =>
			operations.map((operation) => [resource, operation] as const),
		),
	)('reaches %s > %s', (resource, operation) => {
		const found = findOperation(resource, operation);
		// Create runs all its items at once; every other operation runs one item at a time.
		const run = found && ('executeAll' in found ? found.executeAll : found.execute);
		expect(typeof run).toBe('function');
		expect(found?.description).toEqual(expect.any(Array));
	});

	it.each([
		['an unknown resource', 'invoice', 'get'],
		['an operation of another resource', 'user', 'upload'],
		['an unknown operation', 'asset', 'archive'],
		['an inherited name as the resource', 'constructor', 'get'],
		['an inherited name as the operation', 'asset', 'toString'],
		['an empty pair', '', ''],
	])('reaches nothing for %s', (_name, resource, operation) => {
		expect(findOperation(resource, operation)).toBeUndefined();
	});
});
