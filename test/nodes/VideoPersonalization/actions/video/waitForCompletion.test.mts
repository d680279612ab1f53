import type { IDataObject } from 'n8n-workflow';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';

import { runNode } from '../../../../harness/engine.mts';
import { credentialsFor, useSandbox } from '../../../../harness/fixtures.mts';

// A real clock with short renders: the node's own polling loop sees videos finish.
const sandbox = useSandbox({
	clock: 'real',
	dataset: { videos: 300, assets: 4 },
	render: { queueMs: 100, minMs: 300, maxMs: 1500, failureShare: 0.2 },
});

async function createAndWait(count: number, options: IDataObject = {}, continueOnFail = false) {
	const s = sandbox();
	s.requests.clear();
	const result = await runNode({
		parameters: {
			resource: 'video',
			operation: 'create',
			title: '={{ "Video for " + $json.name }}',
			template: { __rl: true, mode: 'id', value: s.known.stockTemplateId },
			customerDataMode: 'keyValue',
			customerData: { values: [{ key: 'first_name', value: '={{ $json.name }}' }] },
			waitForCompletion: true,
			options: { pollInterval: 1, ...options },
		},
		credentials: credentialsFor(s),
		items: Array.from({ length: count }, (_, index) => ({ json: { name: `Customer ${index}` } })),
		continueOnFail,
	});
	const listCalls = s.requests.log.filter(
		(request) => request.method === 'GET' && request.path === '/v1/videos',
	);
	const posts = s.requests.log.filter(
		(request) => request.method === 'POST' && request.path === '/v1/videos',
	);
	return { ...result, listCalls, posts };
}

describe('Video > Create with Wait for Completion', () => {
	it('waits for one video and outputs its final state', async () => {
		const { items, error, posts } = await createAndWait(1);
		expect(error).toBeUndefined();
		expect(posts).toHaveLength(1);
		expect(items).toHaveLength(1);
		const video = items[0].json;
		expect(['published', 'failed']).toContain(video.status);
		expect(sandbox().store.getVideo(String(video.id))?.status).toBe(video.status);
		if (video.status === 'published') {
			expect(video.url).toEqual(expect.stringContaining(sandbox().cdnUrl));
			expect(video.duration).toEqual(expect.any(Number));
		}
	});

	it('waits for 200 videos with one shared list scan per round, not a poll per video', async () => {
		const { items, error, listCalls } = await createAndWait(200);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(200);
		expect(items.map((item) => item.pairedItem)).toEqual(
			Array.from({ length: 200 }, (_, item) => ({ item })),
		);
		for (const item of items) {
			expect(['published', 'failed']).toContain(item.json.status);
			expect(item.json.title).toBe(
				`Video for Customer ${(item.pairedItem as { item: number }).item}`,
			);
		}
		// Each round reads the newest end of the list until it passes the oldest video waited
		// for: about 200/100 + 1 pages, and the renders take a few rounds.
		const rounds = new Set(listCalls.map((call) => Math.floor(call.at / 900))).size;
		expect(listCalls.length).toBeLessThanOrEqual(rounds * 4 + 4);
		expect(listCalls.length).toBeLessThan(200);
	});

	it('downloads the rendered MP4 and thumbnail without sending the API key to the CDN', async () => {
		const s = sandbox();
		const { items, error } = await createAndWait(3, {
			downloadVideo: true,
			downloadThumbnail: true,
		});
		expect(error).toBeUndefined();
		const media = join(process.cwd(), 'sandbox', 'media');
		for (const item of items) {
			if (item.json.status !== 'published') {
				expect(item.binary).toBeUndefined();
				continue;
			}
			const video = item.binary?.data;
			const thumbnail = item.binary?.thumbnail;
			expect(video?.mimeType).toBe('video/mp4');
			expect(video?.fileName).toBe(`${String(item.json.id)}.mp4`);
			expect(thumbnail?.mimeType).toBe('image/jpeg');
			// Stored in n8n's binary store (filesystem mode), byte for byte what the CDN serves.
			expect(video?.id).toEqual(expect.any(String));
			const stored = await Container.get(BinaryDataService).getAsBuffer(video!);
			expect(stored.equals(readFileSync(join(media, 'video.mp4')))).toBe(true);
		}
		const cdnCalls = s.requests.log.filter((request) => request.server === 'cdn');
		expect(cdnCalls.length).toBeGreaterThan(0);
		expect(cdnCalls.every((request) => !request.hadAuthorization)).toBe(true);
	});

	it('gives up after the wait timeout with a clear error per video, and Continue On Fail keeps the rest', async () => {
		const s = sandbox();
		// Renders that take far longer than the timeout.
		s.store.render = { ...s.store.render, minMs: 60_000, maxMs: 60_000 };
		try {
			const strict = await createAndWait(1, { waitTimeout: 0.03 });
			expect(strict.error?.message).toMatch(
				/Video "vid_[^"]+" was not finished after 0\.03 minutes of waiting \(last status: (draft|processing)\) \[item 0\]/,
			);
			expect(strict.error?.description).toMatch(/raise Wait Timeout/);

			const tolerant = await runNode({
				parameters: {
					resource: 'video',
					operation: 'create',
					title: 'Slow',
					template: { __rl: true, mode: 'id', value: s.known.stockTemplateId },
					customerDataMode: 'json',
					customerDataJson: '{}',
					waitForCompletion: true,
					options: { pollInterval: 1, waitTimeout: 0.03 },
				},
				credentials: credentialsFor(s),
				items: [{ json: {} }, { json: {} }],
				continueOnFail: true,
			});
			expect(tolerant.error).toBeUndefined();
			expect(tolerant.items.map((item) => item.json.error)).toEqual([
				expect.stringMatching(/was not finished .*\[item 0\]/),
				expect.stringMatching(/was not finished .*\[item 1\]/),
			]);
		} finally {
			s.store.render = { ...s.store.render, minMs: 300, maxMs: 1500 };
		}
	});

	it('names each created video when checking on them fails, and Continue On Fail keeps every item', async () => {
		const s = sandbox();
		// Every list scan answers an HTML error page that is not worth retrying.
		s.faults.script([
			{ kind: 'html', status: 400, match: { method: 'GET', path: '/v1/videos' }, times: 1000 },
		]);
		try {
			const strict = await createAndWait(1);
			expect(strict.posts).toHaveLength(1);
			expect(strict.error?.message).toMatch(
				/^Video "vid_[^"]+" was created, but checking whether it finished failed: .+ \[item 0\]$/,
			);
			expect(strict.error?.description).toMatch(/do not create it again/);

			const tolerant = await createAndWait(2, {}, true);
			expect(tolerant.error).toBeUndefined();
			expect(tolerant.posts).toHaveLength(2);
			const newest = s.store.listVideos(undefined, {}).slice(0, 2);
			const created = [0, 1].map(
				(index) => newest.find((video) => video.title === `Video for Customer ${index}`)?.id,
			);
			expect(tolerant.items.map((item) => item.json.error)).toEqual([
				expect.stringMatching(
					new RegExp(`^Video "${String(created[0])}" was created.*\\[item 0\\]$`),
				),
				expect.stringMatching(
					new RegExp(`^Video "${String(created[1])}" was created.*\\[item 1\\]$`),
				),
			]);
		} finally {
			s.faults.clear();
		}
	});
});
