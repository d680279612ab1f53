/**
 * The six situations in which 0.1.0's trigger broke exactly once (issue 11), each through the real
 * engine (PollContext) against the sandbox, with the sandbox changing between two requests of a poll.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../../../sandbox/index.mts';
import { SandboxTrigger } from '../../../harness/trigger.mts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const FAR = 10_000 * MINUTE;

/** Runs `change` before each of the next `times` list requests of the video list. */
function duringListReads(
	sandbox: Sandbox,
	times: number,
	change: (request: number) => void | Promise<void>,
): void {
	let seen = 0;
	sandbox.beforeRequest(async ({ path }) => {
		if (path !== '/v1/videos' || seen >= times) return;
		await change(seen++);
	});
}

describe('trigger regressions (issue 11): exactly once where 0.1.0 was not', () => {
	let sandbox: Sandbox;

	beforeEach(async () => {
		sandbox = await startSandbox({ quiet: true, dataset: { videos: 120, assets: 4 } });
	});
	afterEach(async () => await sandbox.close());

	it('1. newest first, videos created while a poll pages through 280 new ones: none lost', async () => {
		sandbox.setListOrder('newest-first');
		const trigger = new SandboxTrigger(sandbox);
		await trigger.poll();
		const start = sandbox.clock.now();
		const batch = sandbox.store.addVideos(280, {
			createdAt: { from: start + SECOND, to: start + 40 * SECOND },
			finishAt: start + 50 * SECOND,
		});
		sandbox.clock.advance(MINUTE);
		const during: string[] = [];
		duringListReads(sandbox, 40, () => {
			sandbox.clock.advance(SECOND);
			during.push(
				...sandbox.store
					.addVideos(1, { finishAt: sandbox.clock.now() + 1 })
					.map((video) => video.id),
			);
		});
		await trigger.poll();
		sandbox.beforeRequest(undefined);
		sandbox.clock.advance(5 * MINUTE);
		await trigger.settle();
		expect(trigger.verdict([...batch.map((video) => video.id), ...during])).toEqual({
			repeated: [],
			missed: [],
		});
	});

	it('2. two polls of one trigger overlap: the second emits nothing, no event comes out twice', async () => {
		const trigger = new SandboxTrigger(sandbox);
		await trigger.poll();
		const start = sandbox.clock.now();
		const batch = sandbox.store.addVideos(58, {
			createdAt: start + SECOND,
			finishAt: start + 30 * SECOND,
		});
		sandbox.clock.advance(MINUTE);
		let overlapping: INodeExecutionData[][] | null | undefined;
		duringListReads(sandbox, 1, async () => {
			// The first poll is held up (a long Retry-After): n8n starts the next one meanwhile.
			overlapping = await trigger.poll();
		});
		const first = await trigger.poll();
		sandbox.beforeRequest(undefined);
		expect(overlapping).toBeNull();
		expect(first?.[0].length).toBeGreaterThanOrEqual(58);
		await trigger.settle();
		expect(trigger.verdict(batch.map((video) => video.id))).toEqual({ repeated: [], missed: [] });
	});

	it("3. every video shares one created_at second (a new account's first bulk batch): no guess, nothing twice", async () => {
		const empty = await startSandbox({ quiet: true, dataset: { videos: 0, assets: 4 } });
		try {
			empty.setListOrder('oldest-first');
			const now = empty.clock.now();
			const batch = empty.store.addVideos(150, {
				createdAt: now,
				finishAt: { from: now + MINUTE, to: now + 4 * MINUTE },
			});
			empty.clock.advance(SECOND);
			const trigger = new SandboxTrigger(empty);
			await trigger.poll();
			// The bulk job goes on in the same second; then the first 150 finish.
			const more = empty.store.addVideos(5, { createdAt: now, finishAt: now + FAR });
			empty.clock.advance(5 * MINUTE);
			await trigger.poll();
			// A later video shows the order at last.
			const later = empty.store.addVideos(1, { finishAt: empty.clock.now() + MINUTE });
			for (const video of more) empty.store.setVideoOutcome(video.id, { status: 'published' });
			empty.clock.advance(5 * MINUTE);
			await trigger.settle();
			batch.push(...more);
			expect(trigger.verdict([...batch, ...later].map((video) => video.id))).toEqual({
				repeated: [],
				missed: [],
			});
		} finally {
			await empty.close();
		}
	});

	it('4. a video rendered again fires again, also when it shares the newest second with many others', async () => {
		const trigger = new SandboxTrigger(sandbox);
		await trigger.poll();
		const now = sandbox.clock.now();
		const batch = sandbox.store.addVideos(150, {
			createdAt: now + SECOND,
			finishAt: now + 10 * SECOND,
			outcome: 'published',
		});
		sandbox.clock.advance(MINUTE);
		await trigger.poll();
		const again = batch[10]; // on the second page of the newest second
		sandbox.store.setVideoOutcome(again.id, { status: 'processing' });
		sandbox.clock.advance(MINUTE);
		await trigger.poll();
		sandbox.store.setVideoOutcome(again.id, { status: 'published' });
		await trigger.settle();
		expect(trigger.counts().get(again.id)).toBe(2);
		expect(trigger.verdict(batch.map((video) => video.id)).missed).toEqual([]);
	});

	it('5. a video in flight since activation is not dropped when a large batch is created while it is searched for', async () => {
		const large = await startSandbox({ quiet: true, dataset: { videos: 3000, assets: 4 } });
		await sandbox.close();
		sandbox = large;
		sandbox.setListOrder('newest-first');
		const now = sandbox.clock.now();
		// In flight for ages: the oldest videos of the list.
		const tracked = sandbox.store.addVideos(5, {
			createdAt: now - 3 * 24 * 60 * MINUTE,
			finishAt: now + FAR,
		});
		const trigger = new SandboxTrigger(sandbox);
		await trigger.poll();
		for (const video of tracked) sandbox.store.setVideoOutcome(video.id, { status: 'published' });
		sandbox.clock.advance(MINUTE);
		// While the poll looks for them in the whole list, a bulk job creates 500 videos before each of 4 reads.
		let created = 0;
		let reads = 0;
		sandbox.beforeRequest(({ path, query }) => {
			if (path !== '/v1/videos' || query.get('status') || ++reads <= 1 || reads > 5) return;
			sandbox.clock.advance(SECOND);
			created += sandbox.store.addVideos(500, {
				createdAt: sandbox.clock.now(),
				finishAt: sandbox.clock.now() + FAR,
			}).length;
		});
		await trigger.poll();
		await trigger.poll();
		await trigger.poll();
		sandbox.beforeRequest(undefined);
		await trigger.settle();
		expect(created).toBe(2000);
		expect(trigger.verdict(tracked.map((video) => video.id))).toEqual({ repeated: [], missed: [] });
	});

	it('6. polls cut short by their time budget record nothing twice and lose nothing', async () => {
		const trigger = new SandboxTrigger(sandbox);
		await trigger.poll();
		const start = sandbox.clock.now();
		const batch = sandbox.store.addVideos(600, {
			createdAt: { from: start + SECOND, to: start + 50 * SECOND },
			finishAt: start + 2 * MINUTE,
		});
		sandbox.clock.advance(MINUTE);
		// Each request takes 40 ms; the poll may read for 60 ms: a page or two per poll.
		sandbox.beforeRequest(async () => await new Promise((resolve) => setTimeout(resolve, 40)));
		for (let poll = 0; poll < 12; poll++) {
			sandbox.clock.advance(10 * SECOND);
			await trigger.poll({ pollBudgetMs: 120 });
		}
		sandbox.beforeRequest(undefined);
		await trigger.settle();
		expect(trigger.verdict(batch.map((video) => video.id))).toEqual({ repeated: [], missed: [] });
	});
});
