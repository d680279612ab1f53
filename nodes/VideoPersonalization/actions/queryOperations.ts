import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { graphqlGetMany } from '../transport/pagination';
import { type SelectableField, fieldSwitches } from '../helpers/queries';
import { callError, callGraphql } from '../transport/request';
import {
	fieldsOption,
	readFields,
	readSelection,
	readTimeoutMs,
	returnAllAndLimit,
	optionsCollection,
	toItems,
} from './common';
import type { OperationModule, ResourceName } from './types';

/** What identifies one record: the lookup input and how to name it in messages. */
export interface Criteria {
	criteria: IDataObject;
	label: string;
}

interface QueryResourceSpec {
	resource: ResourceName;
	noun: string;
	fields: SelectableField[];
	permission: string;
}

export interface LookupSpec extends QueryResourceSpec {
	/** Field under `viewer`, e.g. `findUser`. */
	field: string;
	query: string;
	criteriaProperties: INodeProperties[];
	readCriteria(ctx: IExecuteFunctions, itemIndex: number): Criteria;
}

export interface ListSpec extends QueryResourceSpec {
	field: string;
	query: string;
	filterProperties: INodeProperties[];
	readFilter(ctx: IExecuteFunctions, itemIndex: number): IDataObject;
}

function optionsProperty(spec: QueryResourceSpec): INodeProperties {
	return optionsCollection([fieldsOption(spec.fields, spec.noun)]);
}

/** Get one record through the query-style API (spec 4.2). */
export function lookupOperation(spec: LookupSpec): OperationModule {
	return {
		description: updateDisplayOptions({ show: { resource: [spec.resource], operation: ['get'] } }, [
			...spec.criteriaProperties,
			optionsProperty(spec),
		]),
		async execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
			const { criteria, label } = spec.readCriteria(this, itemIndex);
			const action = `get the ${spec.noun} with ${label}`;
			const viewer = await callGraphql(this, {
				query: spec.query,
				variables: { criteria, ...fieldSwitches(spec.fields, readFields(this, itemIndex)) },
				action,
				permission: spec.permission,
				itemIndex,
				timeoutMs: readTimeoutMs(this, itemIndex),
			});
			const record = viewer[spec.field];
			if (record === null || typeof record !== 'object' || Array.isArray(record)) {
				// No match: the service may answer null instead of a NOT_FOUND error.
				throw await callError(this, { kind: 'http', status: 404, headers: {}, body: undefined }, { action, itemIndex });
			}
			return [{ json: record as IDataObject }];
		},
	};
}

/** Get many records through the query-style API, every page handled. */
export function listOperation(spec: ListSpec): OperationModule {
	return {
		description: updateDisplayOptions({ show: { resource: [spec.resource], operation: ['getAll'] } }, [
			...returnAllAndLimit(`${spec.noun}s`),
			...spec.filterProperties,
			optionsProperty(spec),
		]),
		async execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
			const records = await graphqlGetMany(
				this,
				{
					query: spec.query,
					field: spec.field,
					filter: spec.readFilter(this, itemIndex),
					variables: fieldSwitches(spec.fields, readFields(this, itemIndex)),
					action: `list ${spec.noun}s`,
					permission: spec.permission,
					itemIndex,
					timeoutMs: readTimeoutMs(this, itemIndex),
				},
				readSelection(this, itemIndex),
			);
			return toItems(records);
		},
	};
}

/** An optional text filter; empty means no filter. */
export function optionalText(ctx: IExecuteFunctions, itemIndex: number, parameter: string): string | undefined {
	const value = ctx.getNodeParameter(parameter, itemIndex, '') as unknown;
	if (typeof value === 'number') return String(value);
	return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}
