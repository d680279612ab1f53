import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { asset } from './asset/Asset.resource';
import { organisation } from './organisation/Organisation.resource';
import { template } from './template/Template.resource';
import type { OperationModule, ResourceModule } from './types';
import { user } from './user/User.resource';
import { video } from './video/Video.resource';

/**
 * Every resource of the node with its operations, in the order their fields are listed. The
 * node's fields, the router and the names' types are all read from here: an operation added to
 * its resource is listed, routed and typed with nothing written twice.
 */
export const resources = { video, asset, template, user, organisation };

export type ResourceName = keyof typeof resources;

export type OperationName<Resource extends ResourceName> =
	keyof (typeof resources)[Resource]['operations'] & string;

/** A resource and one of its operations, as the node's parameters hold them. */
export type NodeOperation = {
	[Resource in ResourceName]: { resource: Resource; operation: OperationName<Resource> };
}[ResourceName];

const DEFAULT_RESOURCE: ResourceName = 'video';

const resourcesByValue: Record<string, ResourceModule> = resources;

function listed(): Array<[string, ResourceModule]> {
	return Object.entries(resourcesByValue);
}

function byName(options: INodePropertyOptions[]): INodePropertyOptions[] {
	return [...options].sort((left, right) => left.name.localeCompare(right.name));
}

function resourceSelector(): INodeProperties {
	return {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: byName(
			listed().map(([value, resource]) => ({
				name: resource.name,
				value,
				description: resource.description,
			})),
		),
		default: DEFAULT_RESOURCE,
	};
}

function operationSelector(
	resourceValue: string,
	{ operations, defaultOperation }: ResourceModule,
): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resourceValue] } },
		options: byName(
			Object.entries(operations).map(([value, operation]) => ({
				name: operation.option.name,
				value,
				action: operation.option.action,
				description: operation.option.description,
			})),
		),
		default: defaultOperation,
	};
}

/** The node's fields: Resource, then per resource its Operation list and each operation's fields. */
export const nodeProperties: INodeProperties[] = [
	resourceSelector(),
	...listed().flatMap(([resourceValue, resource]) => [
		operationSelector(resourceValue, resource),
		...Object.entries(resource.operations).flatMap(([operationValue, operation]) =>
			updateDisplayOptions(
				{ show: { resource: [resourceValue], operation: [operationValue] } },
				operation.properties,
			),
		),
	]),
];

/** The operation the parameters name, or undefined when the node has no such operation. */
export function findOperation(resource: string, operation: string): OperationModule | undefined {
	const operations = Object.hasOwn(resourcesByValue, resource)
		? resourcesByValue[resource].operations
		: undefined;
	return operations && Object.hasOwn(operations, operation) ? operations[operation] : undefined;
}
