import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as asset from './actions/asset/Asset.resource';
import * as organisation from './actions/organisation/Organisation.resource';
import { router } from './actions/router';
import * as template from './actions/template/Template.resource';
import * as user from './actions/user/User.resource';
import * as video from './actions/video/Video.resource';
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
			'Create personalized videos from templates and customer data, and manage assets, templates, users and organisations of the Video Personalization Service',
		defaults: { name: 'Video Personalization' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'videoPersonalizationApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Asset', value: 'asset', description: 'Images, videos and audio that templates and videos use' },
					{ name: 'Organisation', value: 'organisation', description: 'Organisations, with their brands and credits' },
					{ name: 'Template', value: 'template', description: 'Video templates to make videos from' },
					{ name: 'User', value: 'user', description: 'Users of the service' },
					{ name: 'Video', value: 'video', description: 'Personalized videos' },
				],
				default: 'video',
			},
			...video.description,
			...asset.description,
			...template.description,
			...user.description,
			...organisation.description,
		],
	};

	methods = {
		listSearch: { searchTemplates, searchAssets },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
