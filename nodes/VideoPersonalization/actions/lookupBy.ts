import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { fieldError } from './common';
import type { Criteria, LookupSpec } from './operationFactories';

export interface LookupKey {
	/** Lookup input field, e.g. `email`. */
	key: string;
	displayName: string;
	placeholder: string;
}

/** "Find By" plus one field per key, for lookups by id, name, email or phone (docs/service-facts.md). */
export function lookupByProperties(noun: string, keys: LookupKey[]): INodeProperties[] {
	return [
		{
			displayName: 'Find By',
			name: 'findBy',
			type: 'options',
			default: 'id',
			options: keys.map((key) => ({ name: key.displayName, value: key.key })),
			description: `How to identify the ${noun}`,
		},
		...keys.map(
			(key): INodeProperties => ({
				displayName: key.displayName,
				name: `${key.key}Value`,
				type: 'string',
				required: true,
				default: '',
				placeholder: key.placeholder,
				displayOptions: { show: { findBy: [key.key] } },
			}),
		),
	];
}

export function readLookupBy(
	ctx: IExecuteFunctions,
	itemIndex: number,
	keys: LookupKey[],
): Criteria {
	const findBy = ctx.getNodeParameter('findBy', itemIndex, keys[0].key) as string;
	const key = keys.find((candidate) => candidate.key === findBy);
	if (!key) {
		const allowed = keys.map((candidate) => candidate.key).join(', ');
		throw fieldError(ctx, itemIndex, 'Find By', `must be one of ${allowed}`);
	}
	const raw = ctx.getNodeParameter(`${key.key}Value`, itemIndex, '') as unknown;
	const value = typeof raw === 'number' ? String(raw) : raw;
	if (typeof value !== 'string' || value.trim() === '') {
		throw fieldError(ctx, itemIndex, key.displayName, 'is empty');
	}
	return { criteria: { [key.key]: value.trim() }, label: `${key.displayName} "${value.trim()}"` };
}

/** The criteria part of a lookup by one of `keys`: its fields and how they are read. */
export function lookupBy(
	noun: string,
	keys: LookupKey[],
): Pick<LookupSpec, 'criteriaProperties' | 'readCriteria'> {
	return {
		criteriaProperties: lookupByProperties(noun, keys),
		readCriteria: (ctx, itemIndex) => readLookupBy(ctx, itemIndex, keys),
	};
}
