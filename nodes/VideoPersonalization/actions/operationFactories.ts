import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { fieldSwitches, type SelectableField } from '../helpers/queries';
import { graphql } from '../transport/graphql';
import { graphqlGetMany, restGetMany } from '../transport/pagination';
import {
	fieldsOption,
	filtersCollection,
	optionsCollection,
	readFields,
	readSelection,
	readTimeoutMs,
	returnAllAndLimit,
	toItems,
} from './common';
import type { OperationModule, OperationOption } from './types';

/**
 * Operations made from a description of what differs between them: Get and Get Many through
 * the query-style API, and Get Many over a REST list.
 */

/** What identifies one record: the lookup input and how to name it in messages. */
export interface Criteria {
	criteria: IDataObject;
	label: string;
}

interface QueryResourceSpec {
	option: OperationOption;
	noun: string;
	fields: SelectableField[];
	permission: string;
	/** Field under `viewer`, e.g. `findUser`. */
	field: string;
	query: string;
}

export interface LookupSpec extends QueryResourceSpec {
	criteriaProperties: INodeProperties[];
	readCriteria(ctx: IExecuteFunctions, itemIndex: number): Criteria;
}

export interface ListSpec extends QueryResourceSpec {
	filterProperties: INodeProperties[];
	readFilter(ctx: IExecuteFunctions, itemIndex: number): IDataObject;
}

export interface RestListSpec {
	option: OperationOption;
	noun: string;
	/** The list's path under the Base URL, e.g. `/assets`. */
	path: string;
	/** The options of the Filters collection. */
	filters: INodeProperties[];
	/** The list's query parameters, from the Filters collection. */
	readQuery(filters: IDataObject): IDataObject;
}

function fieldsProperty(spec: QueryResourceSpec): INodeProperties {
	return optionsCollection([fieldsOption(spec.fields, spec.noun)]);
}

/** Get one record through the query-style API; a lookup answered with null is Not Found. */
export function lookupOperation(spec: LookupSpec): OperationModule {
	return {
		option: spec.option,
		properties: [...spec.criteriaProperties, fieldsProperty(spec)],
		async execute(this: IExecuteFunctions, itemIndex, api): Promise<INodeExecutionData[]> {
			const { criteria, label } = spec.readCriteria(this, itemIndex);
			const action = `get the ${spec.noun} with ${label}`;
			const viewer = await graphql(api, {
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
				throw api.error({ kind: 'notFound' }, { action, itemIndex });
			}
			return [{ json: record as IDataObject }];
		},
	};
}

/** Get many records through the query-style API, every page handled. */
export function listOperation(spec: ListSpec): OperationModule {
	return {
		option: spec.option,
		properties: [
			...returnAllAndLimit(`${spec.noun}s`),
			...spec.filterProperties,
			fieldsProperty(spec),
		],
		async execute(this: IExecuteFunctions, itemIndex, api): Promise<INodeExecutionData[]> {
			const records = await graphqlGetMany(
				api,
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

/** Get many records of a REST list, every page handled, filtered by its query parameters. */
export function restListOperation(spec: RestListSpec): OperationModule {
	return {
		option: spec.option,
		properties: [
			...returnAllAndLimit(`${spec.noun}s`),
			filtersCollection(spec.filters),
			optionsCollection(),
		],
		async execute(this: IExecuteFunctions, itemIndex, api): Promise<INodeExecutionData[]> {
			const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
			const records = await restGetMany(
				api,
				{
					path: spec.path,
					qs: spec.readQuery(filters),
					action: `list ${spec.noun}s`,
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
function optionalText(
	ctx: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
): string | undefined {
	const value = ctx.getNodeParameter(parameter, itemIndex, '') as unknown;
	if (typeof value === 'number') return String(value);
	return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

/** The filter of a query-style Get Many that is one optional text field, sent under its name. */
export function textFilter(
	field: INodeProperties,
): Pick<ListSpec, 'filterProperties' | 'readFilter'> {
	return {
		filterProperties: [field],
		readFilter(ctx, itemIndex) {
			const text = optionalText(ctx, itemIndex, field.name);
			return text ? { [field.name]: text } : {};
		},
	};
}
