import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import * as deleteAsset from './asset/delete.operation';
import * as getAsset from './asset/get.operation';
import * as getAssets from './asset/getAll.operation';
import * as updateAsset from './asset/update.operation';
import * as uploadAsset from './asset/upload.operation';
import * as getOrganisation from './organisation/get.operation';
import * as getOrganisations from './organisation/getAll.operation';
import * as getTemplate from './template/get.operation';
import * as getTemplates from './template/getAll.operation';
import type { OperationModule, ResourceModule } from './types';
import * as getUser from './user/get.operation';
import * as getUsers from './user/getAll.operation';
import * as createVideo from './video/create.operation';
import * as getVideos from './video/getAll.operation';

/**
 * Every resource of the node with its operations by parameter value, in the order their fields
 * are listed; the first is the one the Operation field starts with. The node's fields and the
 * router are read from here.
 */
export const resources: Record<string, ResourceModule> = {
	video: {
		name: 'Video',
		description: 'Personalized videos',
		operations: { getAll: getVideos, create: createVideo },
	},
	asset: {
		name: 'Asset',
		description: 'Images, videos and audio that templates and videos use',
		operations: {
			getAll: getAssets,
			upload: uploadAsset,
			get: getAsset,
			update: updateAsset,
			delete: deleteAsset,
		},
	},
	template: {
		name: 'Template',
		description: 'Video templates to make videos from',
		operations: { get: getTemplate, getAll: getTemplates },
	},
	user: {
		name: 'User',
		description: 'Users of the service',
		operations: { get: getUser, getAll: getUsers },
	},
	organisation: {
		name: 'Organisation',
		description: 'Organisations, with their brands and credits',
		operations: { get: getOrganisation, getAll: getOrganisations },
	},
};

const byName = (options: INodePropertyOptions[]) =>
	options.sort((left, right) => left.name.localeCompare(right.name));

/** The node's fields: Resource, then per resource its Operation list and each operation's fields. */
export const nodeProperties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: byName(
			Object.entries(resources).map(([value, { name, description }]) => ({
				name,
				value,
				description,
			})),
		),
		default: 'video',
	},
	...Object.entries(resources).flatMap(([resource, { operations }]) => [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options' as const,
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: byName(
				Object.entries(operations).map(([value, { option }]) => ({
					name: option.name,
					value,
					action: option.action,
					description: option.description,
				})),
			),
			default: Object.keys(operations)[0],
		},
		...Object.entries(operations).flatMap(([operation, { description }]) =>
			updateDisplayOptions({ show: { resource: [resource], operation: [operation] } }, description),
		),
	]),
];

/** The operation the parameters name, or undefined when the node has no such operation. */
export function findOperation(resource: string, operation: string): OperationModule | undefined {
	const operations = Object.hasOwn(resources, resource) ? resources[resource].operations : {};
	return Object.hasOwn(operations, operation) ? operations[operation] : undefined;
}
