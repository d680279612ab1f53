import type { IExecuteFunctions, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { nodeProperties } from './actions/registry';
import { router } from './actions/router';
import { searchAssets, searchTemplates } from './methods/listSearch';
import { getTemplateFields } from './methods/resourceMapping';

export class VideoPersonalization implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Video Personalization',
		name: 'videoPersonalization',
		icon: { light: 'file:videoPersonalization.svg', dark: 'file:videoPersonalization.dark.svg' },
		group: ['transform'],
		// 2: Create's Customer Data starts with the template's own fields (Template Fields).
		// 3: Organisation > Get Many's name filter is in a Filters collection.
		version: [1, 2, 3],
		defaultVersion: 3,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description:
			'Create personalized videos from templates and customer data, and manage assets, templates, users and organisations of the Video Personalization Service',
		defaults: { name: 'Video Personalization' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'videoPersonalizationApi', required: true }],
		properties: nodeProperties,
	};

	methods = {
		listSearch: { searchTemplates, searchAssets },
		resourceMapping: { getTemplateFields },
	};

	async execute(this: IExecuteFunctions) {
		return await router.call(this);
	}
}
