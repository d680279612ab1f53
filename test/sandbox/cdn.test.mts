// The CDN: files of assets, rendered videos, thumbnails and previews; Range requests; no auth; request log.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../sandbox/index.mts';
import { api, http, rawGet } from './helpers.mts';

let sb: Sandbox;
let assetUrl: string;
let jpg: Buffer;
beforeAll(async () => {
	sb = await startSandbox({ quiet: true });
	assetUrl = `${sb.cdnUrl}/assets/${sb.known.unusedAssetId}.jpg`;
	jpg = await readFile(join(process.cwd(), 'sandbox', 'media', 'thumbnail.jpg'));
});
afterAll(() => sb.close());

test('full GET: bytes, Content-Type, Content-Length, Accept-Ranges; no auth needed', async () => {
	const r = await rawGet(assetUrl);
	expect(r.status).toBe(200);
	expect(r.headers?.['content-type']).toBe('image/jpeg');
	expect(r.headers?.['content-length']).toBe(String(jpg.length));
	expect(r.headers?.['accept-ranges']).toBe('bytes');
	expect(r.body.equals(jpg)).toBe(true);
	expect(r.body.subarray(0, 2).toString('hex')).toBe('ffd8');
});

test.each([
	['bytes=0-99', 0, 99],
	['bytes=100-', 100, -1],
	['bytes=-50', -50, -1],
	['bytes=10-10', 10, 10],
	['bytes=0-99999999', 0, -1],
])('Range %s → 206 with Content-Range', async (range, from, to) => {
	const size = jpg.length;
	const start = from < 0 ? size + from : from;
	const end = to < 0 ? size - 1 : to;
	const r = await rawGet(assetUrl, { range });
	expect(r.status).toBe(206);
	expect(r.headers?.['content-range']).toBe(`bytes ${start}-${end}/${size}`);
	expect(r.headers?.['content-length']).toBe(String(end - start + 1));
	expect(r.body.equals(jpg.subarray(start, end + 1))).toBe(true);
});

test('unsatisfiable ranges → 416 with Content-Range bytes */size', async () => {
	for (const range of [
		`bytes=${jpg.length}-`,
		`bytes=${jpg.length + 10}-${jpg.length + 20}`,
		'bytes=-0',
	]) {
		const r = await rawGet(assetUrl, { range });
		expect(r.status).toBe(416);
		expect(r.headers?.['content-range']).toBe(`bytes */${jpg.length}`);
	}
});

test('malformed and multi-range headers are ignored (full 200)', async () => {
	for (const range of ['items=0-5', 'bytes=5-2', 'bytes=0-1,4-5', 'bytes=abc']) {
		const r = await rawGet(assetUrl, { range });
		expect(r.status).toBe(200);
		expect(r.body.length).toBe(jpg.length);
	}
});

test('HEAD has the headers and no body; other methods → 405; unknown files → 404', async () => {
	const head = await fetch(assetUrl, { method: 'HEAD' });
	expect(head.status).toBe(200);
	expect(head.headers.get('content-length')).toBe(String(jpg.length));
	expect((await http(assetUrl, { method: 'POST' })).status).toBe(405);
	expect((await http(`${sb.cdnUrl}/assets/ast_nope.jpg`)).status).toBe(404);
	expect((await http(`${sb.cdnUrl}/assets/${sb.known.unusedAssetId}.png`)).status).toBe(404);
	expect((await http(`${sb.cdnUrl}/nothing`)).status).toBe(404);
});

test('rendered videos: MP4 and JPG thumbnail for published videos only, with ranges', async () => {
	const [published] = sb.store.listVideos(undefined, { status: 'published' });
	const [processing] = sb.store.listVideos(undefined, { status: 'processing' });
	const mp4 = await rawGet(`${sb.cdnUrl}/videos/${published.id}.mp4`);
	expect(mp4.status).toBe(200);
	expect(mp4.headers?.['content-type']).toBe('video/mp4');
	expect(mp4.body.toString('latin1', 4, 8)).toBe('ftyp');
	const part = await rawGet(`${sb.cdnUrl}/videos/${published.id}.mp4`, { range: 'bytes=0-1023' });
	expect(part.status).toBe(206);
	expect(part.body.equals(mp4.body.subarray(0, 1024))).toBe(true);
	const thumb = await rawGet(`${sb.cdnUrl}/videos/${published.id}.jpg`);
	expect(thumb.headers?.['content-type']).toBe('image/jpeg');
	expect(thumb.body.equals(jpg)).toBe(true);
	expect((await rawGet(`${sb.cdnUrl}/videos/${processing.id}.mp4`)).status).toBe(404);
	expect((await rawGet(`${sb.cdnUrl}/videos/vid_nope.mp4`)).status).toBe(404);
	// Template previews and avatars.
	expect(
		(await rawGet(`${sb.cdnUrl}/templates/${sb.known.stockTemplateId}/preview.mp4`)).status,
	).toBe(200);
	expect((await rawGet(`${sb.cdnUrl}/avatars/${sb.known.users.user}.jpg`)).status).toBe(200);
});

test('the request log records whether a request carried Authorization, per server', async () => {
	sb.requests.clear();
	await rawGet(assetUrl);
	await rawGet(assetUrl, { authorization: 'Bearer leaked-key' });
	await api(sb, sb.keys.user, 'GET', '/videos?limit=3&status=published');
	const cdn = sb.requests.log.filter((r) => r.server === 'cdn');
	expect(cdn.map((r) => [r.hadAuthorization, r.authorization])).toEqual([
		[false, undefined],
		[true, 'Bearer leaked-key'],
	]);
	expect(cdn[0]).toMatchObject({
		method: 'GET',
		path: `/assets/${sb.known.unusedAssetId}.jpg`,
		status: 200,
		at: sb.clock.now(),
	});
	const [apiRecord] = sb.requests.log.filter((r) => r.server === 'api');
	expect(apiRecord).toMatchObject({
		method: 'GET',
		path: '/v1/videos',
		query: { limit: '3', status: 'published' },
		status: 200,
		hadAuthorization: true,
		authorization: `Bearer ${sb.keys.user}`,
	});
	expect(sb.requests.count({ server: 'cdn' })).toBe(2);
	expect(sb.requests.count({ server: 'api', path: '/v1/videos' })).toBe(1);
	expect(sb.requests.count({ path: /^\/assets\// })).toBe(2);
	expect(sb.requests.count({ method: 'POST' })).toBe(0);
	sb.requests.clear();
	expect(sb.requests.log).toHaveLength(0);
});
