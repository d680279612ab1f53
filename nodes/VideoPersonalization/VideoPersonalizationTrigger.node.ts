import type { IDataObject, INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { serviceClient } from './transport/client';
import { fetchRestPage } from './transport/pagination';
import type { FinalStatus } from './helpers/videoList';
import { type PageSource, type VideoEvent, VideoPoll } from './trigger/poll';
import { readState, writeState } from './trigger/state';
import { latestFinished } from './trigger/testEvent';

const EVENT_NAMES: Record<FinalStatus, string> = {
	published: 'video.published',
	failed: 'video.failed',
};

function toItem(event: VideoEvent): INodeExecutionData {
	return { json: { ...event.video, event: EVENT_NAMES[event.status] } };
}

export class VideoPersonalizationTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Video Personalization Trigger',
		name: 'videoPersonalizationTrigger',
		icon: { light: 'file:videoPersonalization.svg', dark: 'file:videoPersonalization.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ ($parameter["events"] || []).map(e => "video " + e).join(", ") }}',
		description: 'Starts the workflow when a video is published or its render fails',
		defaults: { name: 'Video Personalization Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'videoPersonalizationApi', required: true }],
		properties: [
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['published'],
				options: [
					{ name: 'Video Failed', value: 'failed', description: 'A video could not be rendered' },
					{ name: 'Video Published', value: 'published', description: 'A video finished rendering and has its URL' },
				],
				description:
					'Which changes start the workflow. Each video fires once per final status; videos that were already finished when the workflow was published do not fire.',
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const events = (this.getNodeParameter('events', []) as string[]).filter(
			(event): event is FinalStatus => event === 'published' || event === 'failed',
		);
		if (events.length === 0) {
			throw new NodeOperationError(this.getNode(), 'Events: choose Video Published, Video Failed or both');
		}
		const api = await serviceClient(this);
		const source: PageSource = {
			page: async (page, limit, status) =>
				await fetchRestPage(
					api,
					{ path: '/videos', qs: status ? { status } : {}, action: `list ${status ?? 'all'} videos to look for finished renders` },
					page,
					limit,
				),
		};

		if (this.getMode() === 'manual') {
			// "Fetch Test Event": the latest matching video, so fields can be mapped; no state changes.
			const latest = await latestFinished(source, events);
			if (!latest) return null;
			return [[toItem({ status: latest.status as FinalStatus, video: latest })]];
		}

		const staticData = this.getWorkflowStaticData('node');
		const budgetMs = typeof this.getPollBudgetMs === 'function' ? this.getPollBudgetMs() : 5 * 60_000;
		const started = Date.now();
		const result = await new VideoPoll(source, readState(staticData as IDataObject), started + budgetMs / 2, () => Date.now()).run();
		for (const id of result.lost) {
			this.logger.warn(`Video Personalization Trigger: video "${id}" left the render queue and could not be found again (deleted?)`);
		}
		writeState(staticData as IDataObject, result.state);
		const items = result.events.filter((event) => events.includes(event.status)).map(toItem);
		return items.length > 0 ? [items] : null;
	}
}
