/**
 * Rate limits and failure (issue 12), through the real engine against the sandbox: the time
 * budget, long Retry-After, stopping during a wait, and runs the limiter slows.
 */
import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../harness/engine.mts';
import { credentialsFor, useSandbox } from '../harness/fixtures.mts';

const sandbox = useSandbox({ dataset: { videos: 300, assets: 2500 }, clock: 'real' });

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

async function getAsset(options: IDataObject, cancelWhen?: Promise<unknown>, apiKey?: string) {
	const s = sandbox();
	return await runNode({
		parameters: {
			resource: 'asset',
			operation: 'get',
			assetId: byId(s.known.usedAssetId),
			options,
		},
		credentials: credentialsFor(s, apiKey),
		cancelWhen,
	});
}

async function until(condition: () => boolean): Promise<void> {
	while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

function createMany(count: number, titlePrefix: string) {
	const s = sandbox();
	return runNode({
		parameters: {
			resource: 'video',
			operation: 'create',
			title: `={{ "${titlePrefix}" + $json.n }}`,
			template: byId(s.known.stockTemplateId),
			customerDataMode: 'keyValue',
			customerData: { values: [{ key: 'first_name', value: '={{ "Customer " + $json.n }}' }] },
		},
		credentials: credentialsFor(s),
		items: Array.from({ length: count }, (_, n) => ({ json: { n } })),
	});
}

describe('the time budget (Give Up After)', () => {
	beforeEach(() => sandbox().requests.clear());
	afterEach(() => sandbox().faults.clear());

	it('a service that never answers fails within the budget, not after every timeout in turn', async () => {
		const s = sandbox();
		s.faults.script([{ kind: 'hang', match: { path: '/v1/assets/*' }, times: 'always' }]);
		const { error } = await getAsset({ giveUpAfter: 0.05 });
		expect(error?.message).toMatch(
			/^The service did not answer in time to get the asset .* \(gave up after [23] s, the time budget of 3 s\) \[item 0\]$/,
		);
		expect(error?.description).toMatch(
			/Raise Options > Give Up After \(Minutes\) to keep trying longer/,
		);
		expect(error?.context?.outOfTime).toBe(true);
		// The request's own 60 s timeout stopped at the budget: one request, no retry past it.
		expect(s.requests.count({ path: '/v1/assets/*' })).toBe(1);
	});

	it('a Retry-After longer than the budget fails at once, saying the wait asked for and the option that allows it', async () => {
		const s = sandbox();
		s.faults.script([{ kind: '429', retryAfter: 150, times: 1, match: { path: '/v1/assets/*' } }]);
		const { error } = await getAsset({ giveUpAfter: 2 });
		expect(error?.message).toMatch(
			/^The service asked to wait 2.5 min before it takes the request to get the asset .* \(429\): longer than the time budget of 2 min \[item 0\]$/,
		);
		expect(error?.message).not.toMatch(/retries/);
		expect(error?.description).toMatch(
			/^To wait for it, set Options > Give Up After \(Minutes\) to 4 or more; or run again later\./,
		);
		expect(error?.context?.outOfTime).toBe(true);
		expect(s.requests.count({ path: '/v1/assets/*' })).toBe(1);
	});

	it('a Retry-After within the budget is waited for, and uses no try', async () => {
		const s = sandbox();
		// More 429s than the 8 tries a fault may use: they are the service asking to wait, not failures.
		s.faults.script([{ kind: '429', retryAfter: 0, times: 12, match: { path: '/v1/assets/*' } }]);
		const { error, items } = await getAsset({});
		expect(error).toBeUndefined();
		expect(items[0].json.id).toBe(s.known.usedAssetId);
		expect(s.requests.count({ path: '/v1/assets/*' })).toBe(13);
	});
});

describe('stopping the execution', () => {
	afterEach(() => sandbox().faults.clear());

	it('ends a wait for the rate limit at once, and sends nothing more', async () => {
		const s = sandbox();
		s.requests.clear();
		s.faults.script([{ kind: '429', retryAfter: 120, times: 1, match: { path: '/v1/assets/*' } }]);
		// Stop once the 429 is in; were the wait not cancellable, the run would take 2 minutes (past the test's time limit).
		const asked = until(() => s.requests.count({ path: '/v1/assets/*' }) >= 1).then(
			async () => await new Promise((resolve) => setTimeout(resolve, 200)),
		);
		const { run } = await getAsset({}, asked);
		expect(run.status).toBe('canceled');
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(s.requests.count({ path: '/v1/assets/*' })).toBe(1);
	}, 20_000);
});

describe('one pace per API key, shared by every execution of the process', () => {
	const assetRequests = () =>
		sandbox().requests.log.filter((request) => request.path.startsWith('/v1/assets/'));

	beforeEach(() => sandbox().requests.clear());
	afterEach(() => {
		sandbox().faults.clear();
		sandbox().rateLimit.clear();
	});

	it('executions on one key see one pause: none sends while the 429 that another drew is being waited out', async () => {
		const s = sandbox();
		s.faults.script([{ kind: '429', retryAfter: 2, times: 1, match: { path: '/v1/assets/*' } }]);
		const runs = await Promise.all([getAsset({}), getAsset({}), getAsset({})]);
		for (const { error } of runs) expect(error).toBeUndefined();
		const [refused, ...after] = assetRequests();
		expect(refused.status).toBe(429);
		expect(after.map((request) => request.status)).toEqual([200, 200, 200]);
		for (const request of after) expect(request.at - refused.at).toBeGreaterThanOrEqual(1900);
	}, 30_000);

	it('an execution stopped while it waits its turn leaves at once; the others go on', async () => {
		const s = sandbox();
		s.faults.script([{ kind: '429', retryAfter: 3, times: 1, match: { path: '/v1/assets/*' } }]);
		const refusedSeen = until(() => assetRequests().length >= 1);
		const stopNow = refusedSeen.then(
			async () => await new Promise((resolve) => setTimeout(resolve, 100)),
		);
		const waiting = getAsset({});
		const stoppedRun = getAsset({}, stopNow);
		await stopNow;
		const stopped = Date.now();
		const { run } = await stoppedRun;
		expect(run.status).toBe('canceled');
		expect(Date.now() - stopped).toBeLessThan(1000);
		const { error } = await waiting;
		expect(error).toBeUndefined();
		// The stopped run sent nothing: one 429, then the waiting run's request.
		expect(assetRequests().map((request) => request.status)).toEqual([429, 200]);
	}, 30_000);

	it('two credentials with different keys get two paces: a pause on one does not hold the other', async () => {
		const s = sandbox();
		// One request per 5 s per key: the second request on the user's key draws a 429 of 5 s.
		s.rateLimit.set({ rate: 0.2, burst: 1 });
		const user = Promise.all([getAsset({}), getAsset({})]);
		await until(() => s.rateLimit.counters().limited >= 1);
		const started = Date.now();
		const admin = await getAsset({}, undefined, s.keys.admin);
		expect(admin.error).toBeUndefined();
		expect(Date.now() - started).toBeLessThan(1500);
		expect(s.rateLimit.counters().byKey[s.keys.admin]).toEqual({ requests: 1, limited: 0 });
		for (const { error } of await user) expect(error).toBeUndefined();
	}, 30_000);
});

describe('runs the rate limiter slows', () => {
	afterEach(() => sandbox().rateLimit.clear());

	it('Create at R=10/s, B=1 (no headers): every item gets its video, once; none fails for running out of tries', async () => {
		const s = sandbox();
		s.rateLimit.set({ rate: 10, burst: 1 });
		const { error, items } = await createMany(40, 'Paced A ');
		expect(s.rateLimit.counters().limited).toBeGreaterThan(0);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(40);
		const titles = s.store
			.listVideos()
			.map((video) => video.title)
			.filter((title) => title.startsWith('Paced A '));
		expect(titles.sort()).toEqual(Array.from({ length: 40 }, (_, n) => `Paced A ${n}`).sort());
	}, 60_000);

	it('Return All at R=10/s, B=1 with RateLimit headers: every page, in order', async () => {
		const s = sandbox();
		s.rateLimit.set({ rate: 10, burst: 1, headers: 'ratelimit' });
		const result = await runNode({
			parameters: { resource: 'asset', operation: 'getAll', returnAll: true },
			credentials: credentialsFor(s),
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual(
			s.store.listAssets().map((asset) => asset.id),
		);
		// Paced from the first answer's headers: the 25 pages go through with no 429 or nearly.
		expect(s.rateLimit.counters().limited).toBeLessThanOrEqual(1);
	}, 60_000);
});

describe('nothing paid for is lost', () => {
	beforeEach(() => sandbox().requests.clear());
	afterEach(() => sandbox().faults.clear());

	const posts = () => sandbox().requests.count({ method: 'POST', path: '/v1/videos' });

	it('a Create that fails part-way lists every video the run created, with its item', async () => {
		const s = sandbox();
		// The 5th create is answered 500 (not processed; a create is not retried after a 5xx).
		s.faults.script([
			{ kind: '500', skip: 4, times: 1, match: { method: 'POST', path: '/v1/videos' } },
		]);
		const { error } = await createMany(8, 'Partial B ');
		expect(error?.message).toMatch(
			/^The service failed to create the video "Partial B \d" .*\(500\) \[item \d\]$/,
		);
		const created = new Map(
			s.store
				.listVideos()
				.filter((video) => video.title.startsWith('Partial B '))
				.map((video) => [Number(video.title.slice('Partial B '.length)), video.id]),
		);
		// The items that were in flight when the 5th failed still finished: 4 or more videos.
		expect(created.size).toBeGreaterThanOrEqual(4);
		const listed = [...String(error?.description).matchAll(/item (\d+): (\w+)/g)].map((match) => [
			Number(match[1]),
			match[2],
		]);
		expect(new Map(listed as Array<[number, string]>)).toEqual(created);
		expect(error?.description).toMatch(
			new RegExp(
				`This run created ${created.size} videos before it stopped .*run only the other items to avoid duplicates`,
			),
		);
	});

	it('checks every item before creating any: a bad item costs nothing', async () => {
		const s = sandbox();
		const result = await runNode({
			parameters: {
				resource: 'video',
				operation: 'create',
				title: 'Checked first',
				template: byId(s.known.stockTemplateId),
				customerDataMode: 'json',
				customerDataJson: '={{ $json.data }}',
			},
			credentials: credentialsFor(s),
			items: [
				{ json: { data: '{"a": 1}' } },
				{ json: { data: '{"b": 2}' } },
				{ json: { data: '{"c": 3}' } },
				{ json: { data: 'not json' } },
			],
		});
		expect(result.error?.message).toMatch(
			/^Customer Data \(JSON\): is not valid JSON .* \[item 3\]$/,
		);
		expect(result.error?.description).toMatch(/No video was created in this run\./);
		expect(posts()).toBe(0);
	});

	it("resolves every item's template before creating any", async () => {
		const s = sandbox();
		const result = await runNode({
			parameters: {
				resource: 'video',
				operation: 'create',
				title: 'Resolved first',
				template: { __rl: true, mode: 'name', value: '={{ $json.template }}' },
			},
			credentials: credentialsFor(s),
			items: [
				{ json: { template: 'Welcome Onboarding' } },
				{ json: { template: 'No Such Template' } },
			],
		});
		expect(result.error?.message).toMatch(
			/^Template: no template has the name "No Such Template" \[item 1\]$/,
		);
		expect(posts()).toBe(0);
	});

	it('with Continue On Fail, every item is in the output as its video or its error', async () => {
		const s = sandbox();
		s.faults.script([
			{ kind: '500', skip: 2, times: 1, match: { method: 'POST', path: '/v1/videos' } },
		]);
		const s2 = await runNode({
			parameters: {
				resource: 'video',
				operation: 'create',
				title: '={{ "Partial C " + $json.n }}',
				template: byId(s.known.stockTemplateId),
				customerDataMode: 'json',
				customerDataJson: '={{ $json.data }}',
			},
			credentials: credentialsFor(s),
			items: [0, 1, 2, 3, 4, 5].map((n) => ({ json: { n, data: n === 4 ? 'oops' : '{}' } })),
			continueOnFail: true,
		});
		expect(s2.error).toBeUndefined();
		expect(s2.items.map((item) => item.pairedItem)).toEqual(
			[0, 1, 2, 3, 4, 5].map((item) => ({ item })),
		);
		const errors = s2.items.filter((item) => item.json.error !== undefined);
		expect(errors).toHaveLength(2);
		expect(s2.items[4].json.error).toMatch(/Customer Data \(JSON\)/);
		for (const item of s2.items.filter((entry) => entry.json.error === undefined)) {
			expect(s.store.getVideo(String(item.json.id))?.title).toBe(
				`Partial C ${(item.pairedItem as { item: number }).item}`,
			);
		}
	});

	it('a Return All that fails part-way says how many pages it had', async () => {
		const s = sandbox();
		s.faults.script([
			{
				kind: '503',
				retryAfter: 0,
				skip: 2,
				times: 'always',
				match: { method: 'GET', path: '/v1/assets' },
			},
		]);
		const result = await runNode({
			parameters: { resource: 'asset', operation: 'getAll', returnAll: true },
			credentials: credentialsFor(s),
		});
		expect(result.error?.message).toMatch(/^The service failed to list assets \(503\) \[item 0\]$/);
		expect(result.error?.description).toMatch(
			/retried 7 times\..* It had fetched 2 of 25 pages; nothing is output\.$/,
		);
	});
});
