import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { nodeProperties } from './actions/registry';
import { router } from './actions/router';
import { searchAssets, searchTemplates } from './methods/listSearch';

export class VideoPersonalization implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Video Personalization',
		name: 'videoPersonalization',
		icon: { light: 'file:videoPersonalization.svg', dark: 'file:videoPersonalization.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description:
			'Create personalized videos from templates and customer data, and manage assets, templates, users ' +
			'and organisations of the Video Personalization Service',
		defaults: { name: 'Video Personalization' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'videoPersonalizationApi', required: true }],
		properties: nodeProperties,
	};

	methods = {
		listSearch: { searchTemplates, searchAssets },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
