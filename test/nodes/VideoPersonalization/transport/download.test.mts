/**
 * Downloads of rendered files (Create > Wait for Completion > Download Video) when the service's
 * answer points somewhere the node must not go, with n8n's SSRF protection off (n8n's default):
 * the node's own rule (https, or http on this machine, as the Base URL) applies to the address
 * and to every redirect. "Another machine" is written http://0.0.0.0:<port>: the rule refuses it
 * as not loopback, yet anything sent there would reach the recording server on 127.0.0.1, so a
 * broken check shows up as a request and nothing leaves the machine.
 */
import type { IDataObject } from 'n8n-workflow';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';

import { allText, runNode } from '../../../harness/engine.mts';
import { credentialsFor, useSandbox } from '../../../harness/fixtures.mts';
import { startTestServer, type TestServer } from '../../../harness/httpServer.mts';

const sandbox = useSandbox({
	clock: 'real',
	render: { queueMs: 50, minMs: 200, maxMs: 400, failureShare: 0 },
});

let elsewhere: TestServer;
let redirector: TestServer;
let redirectTo: (path: string) => string;

beforeAll(async () => {
	elsewhere = await startTestServer((_request, response) => response.end('not for the node'));
	redirector = await startTestServer((request, response) => {
		response.writeHead(302, { location: redirectTo(request.url) });
		response.end();
	});
});
afterAll(async () => {
	await elsewhere.close();
	await redirector.close();
});
beforeEach(() => {
	elsewhere.requests.splice(0);
	redirector.requests.splice(0);
});
afterEach(() => {
	sandbox().store.fileBaseUrl = undefined;
});

const anotherMachine = () => elsewhere.url.replace('127.0.0.1', '0.0.0.0');

async function createAndDownload(continueOnFail: boolean, options: IDataObject = {}) {
	const s = sandbox();
	return await runNode({
		parameters: {
			resource: 'video',
			operation: 'create',
			title: 'Download check',
			template: { __rl: true, mode: 'id', value: s.known.stockTemplateId },
			customerDataMode: 'keyValue',
			customerData: { values: [{ key: 'first_name', value: 'Ana' }] },
			waitForCompletion: true,
			options: { pollInterval: 1, downloadVideo: true, ...options },
		},
		credentials: credentialsFor(s),
		continueOnFail,
	});
}

describe('Video > Create, Download Video: where the file address leads', () => {
	it('refuses an address that is http:// to another machine, sends nothing, and Continue On Fail keeps the video', async () => {
		sandbox().store.fileBaseUrl = anotherMachine();
		const { items, error } = await createAndDownload(true);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const video = items[0].json;
		expect(video).toMatchObject({ status: 'published', title: 'Download check' });
		expect(video.url).toBe(`${anotherMachine()}/videos/${String(video.id)}.mp4`);
		expect(video.error).toBe(
			`Refused to download ${String(video.id)}.mp4 of the video "${String(video.id)}": its address is http:// to another machine`,
		);
		expect(video.details).toMatch(/^Nothing was sent to http:\/\/0\.0\.0\.0:\d+\/videos\//);
		expect(items[0].binary?.data).toBeUndefined();
		expect(elsewhere.requests).toHaveLength(0);
	});

	it('without Continue On Fail the run fails naming the video, which was created', async () => {
		sandbox().store.fileBaseUrl = anotherMachine();
		const { error } = await createAndDownload(false);
		expect(error?.message).toMatch(
			/^Refused to download (\S+)\.mp4 of the video "\1": its address is http:\/\//,
		);
		expect(allText(error)).toMatch(/created/);
		expect(elsewhere.requests).toHaveLength(0);
	});

	it('refuses a redirect that leaves the rule, says from where to where, and sends nothing there', async () => {
		sandbox().store.fileBaseUrl = redirector.url;
		redirectTo = (path) => `${anotherMachine()}${path}`;
		const { items } = await createAndDownload(true, { downloadThumbnail: true });
		const video = items[0].json;
		const path = `/videos/${String(video.id)}.mp4`;
		expect(redirector.requests.map((request) => request.url)).toEqual([path]);
		expect(video.error).toBe(
			`Refused to download ${String(video.id)}.mp4 of the video "${String(video.id)}": ` +
				'the content host redirected it to an address that is http:// to another machine',
		);
		expect(video.details).toBe(
			`The content host answered ${redirector.url}${path} with a redirect to ${anotherMachine()}${path}; ` +
				`nothing was sent to ${anotherMachine()}${path}. Files are downloaded over https://, or http:// on ` +
				'this machine (localhost, 127.x.x.x, [::1]) only, as the Base URL (README, "Security").',
		);
		expect(elsewhere.requests).toHaveLength(0);
	});

	it('follows a redirect that stays within the rule, and keeps the file', async () => {
		const s = sandbox();
		s.store.fileBaseUrl = redirector.url;
		redirectTo = (path) => `${s.cdnUrl}${path}`;
		const { items, error } = await createAndDownload(false, { downloadThumbnail: true });
		expect(error).toBeUndefined();
		const { id } = items[0].json;
		expect(redirector.requests.map((request) => request.url).sort()).toEqual(
			[`/videos/${String(id)}.jpg`, `/videos/${String(id)}.mp4`].sort(),
		);
		const stored = await Container.get(BinaryDataService).getAsBuffer(items[0].binary!.data);
		expect(stored.equals(readFileSync(join(process.cwd(), 'sandbox', 'media', 'video.mp4')))).toBe(
			true,
		);
		expect(items[0].binary?.thumbnail?.mimeType).toBe('image/jpeg');
	});

	it('gives up after 5 redirects', async () => {
		sandbox().store.fileBaseUrl = redirector.url;
		redirectTo = (path) => `${redirector.url}${path}`;
		const { items } = await createAndDownload(true);
		expect(items[0].json.error).toMatch(/the content host answered 302 after 5 redirects$/);
		expect(redirector.requests).toHaveLength(6);
	});
});
