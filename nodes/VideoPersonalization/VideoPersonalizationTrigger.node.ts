import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { type FinalStatus, isFinalStatus } from './helpers/videoList';
import { DEFAULT_TIMEOUT_MS, serviceClient, type ServiceClient } from './transport/client';
import { pageAtServiceSize, restList } from './transport/pagination';
import { unplaceable, type VideoEvent } from './trigger/ledger';
import { pollOnce } from './trigger/poll';
import { latestFinished, MIN_REQUEST_MS, type PageSource } from './trigger/session';

/** A poll reads for at most this long, then commits what it has (under the durable scheduler's 45 s). */
const MAX_POLL_MS = 40_000;

const toItem = (event: VideoEvent): INodeExecutionData => ({
	json: { ...event.video, event: `video.${event.status}` },
});

/** The video list through the service client, at the page size the service serves. */
function videoPages(api: ServiceClient): PageSource {
	return {
		page: async (page, limit, status, timeoutMs) => {
			const call = {
				path: '/videos',
				qs: status ? { status } : {},
				action: `list ${status ?? 'all'} videos to look for finished renders`,
				// Every attempt and wait of this request (retries, a 429's Retry-After) ends by then.
				deadline: Date.now() + Math.min(DEFAULT_TIMEOUT_MS, Math.max(MIN_REQUEST_MS, timeoutMs)),
			};
			const listed = await pageAtServiceSize(api, restList(call), page, limit);
			// The poll places every video by its id and created_at: one without them is an answer out of shape.
			for (const [index, video] of listed.page.items.entries()) {
				const problem = unplaceable(video);
				if (problem) throw api.error({ kind: 'shape', detail: `data[${index}]: ${problem}` }, call);
			}
			return { ...listed.page, limit: listed.size };
		},
	};
}

export class VideoPersonalizationTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Video Personalization Trigger',
		name: 'videoPersonalizationTrigger',
		icon: { light: 'file:videoPersonalization.svg', dark: 'file:videoPersonalization.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ ($parameter["events"] || []).map(e => "video " + e).join(", ") }}',
		// n8n's node panel shows one entry for both nodes, with this description: it says what both do.
		description:
			'Create personalized videos from templates and customer data, and start workflows when a video is published or fails',
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
					{
						name: 'Video Published',
						value: 'published',
						description: 'A video finished rendering and has its URL',
					},
				],
				description:
					'Which changes start the workflow. Each video fires once per final status; videos that were already finished when the workflow was published do not fire.',
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const events = (this.getNodeParameter('events', []) as string[]).filter(isFinalStatus);
		if (events.length === 0)
			throw new NodeOperationError(
				this.getNode(),
				'Events: choose Video Published, Video Failed or both',
			);
		const source = videoPages(await serviceClient(this));

		if (this.getMode() === 'manual') {
			// "Fetch Test Event": the latest matching video, so fields can be mapped; no state changes.
			const latest = await latestFinished(source, events);
			return latest ? [[toItem({ status: latest.status as FinalStatus, video: latest })]] : null;
		}

		// n8n's durable scheduler gives a poll 45 s; the default one gives a budget in 2.41.
		const given = typeof this.getPollBudgetMs === 'function' ? this.getPollBudgetMs() : Infinity;
		const run = await pollOnce({
			key: `${this.getWorkflow().id ?? ''}:${this.getNode().id ?? this.getNode().name}`,
			staticData: this.getWorkflowStaticData('node'),
			source,
			now: () => Date.now(),
			budgetMs: Math.min(MAX_POLL_MS, given / 2),
		});
		if (run.status !== 'done') {
			this.logger.debug(
				`Video Personalization Trigger: poll skipped (${run.status === 'busy' ? 'the previous poll is still running' : 'superseded'})`,
			);
			return null;
		}
		if (run.outcome.outOfTime)
			this.logger.debug(
				'Video Personalization Trigger: the poll reached its time limit; the next poll goes on from there',
			);
		for (const id of run.outcome.lost)
			this.logger.warn(
				`Video Personalization Trigger: video "${id}" left the render queue and could not be found again (deleted?)`,
			);
		if (run.outcome.late)
			this.logger.warn(
				`Video Personalization Trigger: ${run.outcome.late} video(s) appeared in the list later than the trigger waited for them; any that had already finished did not start the workflow. It now waits up to ${(run.outcome.state?.lag ?? 0) / 1000} s`,
			);
		const items = run.outcome.events.filter((event) => events.includes(event.status)).map(toItem);
		return items.length > 0 ? [items] : null;
	}
}
