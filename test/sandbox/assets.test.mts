// REST assets: list, get, update, delete, usage counts, and multipart uploads (formats, limits, streaming).
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../sandbox/index.mts';
import {
	api,
	http,
	type Json,
	MB,
	MiB,
	pngBytes,
	streamUpload,
	upload,
	wavBytes,
} from './helpers.mts';

interface Asset {
	id: string;
	name: string;
	type: string;
	url: string;
	content_type: string;
	size: number;
	width: number | null;
	height: number | null;
	duration: number | null;
	tags: string[];
	created_at: string;
	last_used?: string | null;
	used_in_videos?: number;
	used_in_templates?: number;
	updated_at?: string;
}
type AssetList = {
	data: Asset[];
	pagination: {
		total: number;
		page: number;
		limit: number;
		next_page: number | null;
		prev_page: number | null;
	};
} & Json;
type AssetJson = Asset & Json;

const BASE_KEYS = [
	'content_type',
	'created_at',
	'duration',
	'height',
	'id',
	'name',
	'size',
	'tags',
	'type',
	'url',
	'width',
];

let sb: Sandbox;
let dataDir: string;
beforeAll(async () => {
	dataDir = await mkdtemp(join(tmpdir(), 'vps-assets-test-'));
	sb = await startSandbox({ quiet: true, dataDir });
});
afterAll(async () => {
	await sb.close();
	await rm(dataDir, { recursive: true, force: true });
});

const list = (query = '', key = sb.keys.user) => api<AssetList>(sb, key, 'GET', `/assets${query}`);
const uploadFiles = () => readdir(join(dataDir, 'uploads'));

describe('list assets', () => {
	test('envelope, default limit, exactly the base fields', async () => {
		const r = await list();
		expect(r.status).toBe(200);
		expect(r.json.pagination).toEqual({
			total: 120,
			page: 1,
			limit: 20,
			next_page: 2,
			prev_page: null,
		});
		for (const a of r.json.data) {
			expect(Object.keys(a).sort()).toEqual(BASE_KEYS);
			expect(a.url).toBe(`${sb.cdnUrl}/assets/${a.id}.${a.url.split('.').pop()}`);
			expect(new Date(a.created_at).toISOString()).toBe(a.created_at);
		}
		const last = await list('?limit=100&page=2');
		expect(last.json.data).toHaveLength(20);
		expect(last.json.pagination).toEqual({
			total: 120,
			page: 2,
			limit: 100,
			next_page: null,
			prev_page: 1,
		});
	});

	test('type filter and the null rules per type', async () => {
		let sum = 0;
		for (const type of ['image', 'video', 'audio']) {
			const r = await list(`?type=${type}&limit=100`);
			const items = r.json.data;
			expect(items.length).toBeGreaterThan(0);
			sum += r.json.pagination.total;
			for (const a of items) {
				expect(a.type).toBe(type);
				if (type === 'image')
					expect(a).toMatchObject({
						duration: null,
						width: expect.any(Number),
						height: expect.any(Number),
					});
				if (type === 'audio')
					expect(a).toMatchObject({ width: null, height: null, duration: expect.any(Number) });
				if (type === 'video')
					expect(a).toMatchObject({
						width: expect.any(Number),
						height: expect.any(Number),
						duration: expect.any(Number),
					});
			}
		}
		expect(sum).toBe(120);
	});

	test('tag filter (exact tag, case-insensitive), combined with type', async () => {
		const r = await list('?tag=logo&limit=100');
		expect(r.json.data.map((a) => a.id)).toContain(sb.known.usedAssetId);
		expect(r.json.data.every((a) => a.tags.includes('logo'))).toBe(true);
		expect((await list('?tag=LOGO&limit=100')).json.pagination.total).toBe(r.json.pagination.total);
		expect((await list('?tag=log')).json.pagination.total).toBe(0);
		const both = await list('?tag=jingle&type=audio');
		expect(both.json.data.map((a) => a.id)).toContain(sb.known.audioAssetId);
		expect(
			(await list('?tag=jingle&type=image')).json.data.find((a) => a.id === sb.known.audioAssetId),
		).toBeUndefined();
	});

	test('bad query parameters → 400; scope is the caller brand', async () => {
		for (const q of ['?type=document', '?limit=101', '?page=0', '?tag=a&tag=b']) {
			expect((await list(q)).json.error).toMatchObject({ status: 400, code: 'invalid_query' });
		}
		const other = await list('', sb.keys.otherBrandUser);
		expect(other.json.pagination.total).toBe(10);
		expect(other.json.data.map((a) => a.id)).toContain(sb.known.otherBrandAssetId);
	});
});

describe('get, update, delete', () => {
	test('get: base fields plus last_used, used_in_videos, used_in_templates', async () => {
		const r = await api<AssetJson>(sb, sb.keys.user, 'GET', `/assets/${sb.known.usedAssetId}`);
		expect(r.status).toBe(200);
		expect(Object.keys(r.json).sort()).toEqual(
			[...BASE_KEYS, 'last_used', 'used_in_templates', 'used_in_videos'].sort(),
		);
		expect(r.json).toMatchObject({
			id: sb.known.usedAssetId,
			name: 'Acme Logo',
			type: 'image',
			used_in_videos: 25,
			used_in_templates: 3,
		});
		expect(new Date(r.json.last_used as string).toISOString()).toBe(r.json.last_used);
		const unused = await api<AssetJson>(
			sb,
			sb.keys.user,
			'GET',
			`/assets/${sb.known.unusedAssetId}`,
		);
		expect(unused.json).toMatchObject({ used_in_videos: 0, used_in_templates: 0, last_used: null });
		expect(
			(await api<AssetJson>(sb, sb.keys.user, 'GET', `/assets/${sb.known.videoAssetId}`)).json,
		).toMatchObject({ used_in_videos: 0, used_in_templates: 2 });
	});

	test('unknown asset and another brand asset → 404', async () => {
		expect((await api(sb, sb.keys.user, 'GET', '/assets/ast_nope')).json.error).toMatchObject({
			status: 404,
			code: 'not_found',
		});
		expect(
			(await api(sb, sb.keys.user, 'GET', `/assets/${sb.known.otherBrandAssetId}`)).status,
		).toBe(404);
		expect(
			(await api(sb, sb.keys.otherBrandUser, 'GET', `/assets/${sb.known.otherBrandAssetId}`))
				.status,
		).toBe(200);
		expect((await api(sb, sb.keys.user, 'PATCH', '/assets/ast_nope', { name: 'x' })).status).toBe(
			404,
		);
		expect((await api(sb, sb.keys.user, 'DELETE', '/assets/ast_nope')).status).toBe(404);
	});

	test('used_in_videos and last_used count videos whose customer_data references the asset id or url', async () => {
		const before = (
			await api<AssetJson>(sb, sb.keys.user, 'GET', `/assets/${sb.known.unusedAssetId}`)
		).json;
		const clip = (await api<AssetJson>(sb, sb.keys.user, 'GET', `/assets/${sb.known.videoAssetId}`))
			.json;
		sb.clock.advance(60_000);
		const r = await api(sb, sb.keys.user, 'POST', '/videos', {
			title: 'Uses assets',
			template_id: sb.known.stockTemplateId,
			customer_data: {
				banner: sb.known.unusedAssetId,
				again: sb.known.unusedAssetId,
				nested: { clip: clip.url },
				foreign: sb.known.otherBrandAssetId,
			},
		});
		expect(r.status).toBe(201);
		const after = (
			await api<AssetJson>(sb, sb.keys.user, 'GET', `/assets/${sb.known.unusedAssetId}`)
		).json;
		expect(after.used_in_videos).toBe((before.used_in_videos ?? 0) + 1);
		expect(after.last_used).toBe(new Date(sb.clock.now()).toISOString());
		expect(
			(await api<AssetJson>(sb, sb.keys.user, 'GET', `/assets/${sb.known.videoAssetId}`)).json
				.used_in_videos,
		).toBe((clip.used_in_videos ?? 0) + 1);
		expect(
			(
				await api<AssetJson>(
					sb,
					sb.keys.otherBrandUser,
					'GET',
					`/assets/${sb.known.otherBrandAssetId}`,
				)
			).json.used_in_videos,
		).toBe(0);
	});

	test('update (PATCH and PUT): name and tags replace, response has updated_at', async () => {
		const id = sb.known.unusedAssetId;
		sb.clock.advance(1000);
		const r = await api<AssetJson>(sb, sb.keys.user, 'PATCH', `/assets/${id}`, {
			name: 'Renamed',
			tags: ['a', 'b'],
		});
		expect(r.status).toBe(200);
		expect(Object.keys(r.json).sort()).toEqual([...BASE_KEYS, 'updated_at'].sort());
		expect(r.json).toMatchObject({
			id,
			name: 'Renamed',
			tags: ['a', 'b'],
			updated_at: new Date(sb.clock.now()).toISOString(),
		});
		const put = await api<AssetJson>(sb, sb.keys.user, 'PUT', `/assets/${id}`, { tags: [] });
		expect(put.json).toMatchObject({ name: 'Renamed', tags: [] });
		expect((await api<AssetJson>(sb, sb.keys.user, 'PATCH', `/assets/${id}`, {})).status).toBe(200);
		const get = await api<AssetJson>(sb, sb.keys.user, 'GET', `/assets/${id}`);
		expect(get.json).toMatchObject({ name: 'Renamed', tags: [] });
		expect(get.json.updated_at).toBeUndefined();
	});

	test.each([
		[{ name: '' }, 'name'],
		[{ name: 5 }, 'name'],
		[{ tags: 'a,b' }, 'tags'],
		[{ tags: ['a', 1] }, 'tags'],
	])('invalid update %j → 422', async (body, field) => {
		const r = await api(sb, sb.keys.user, 'PATCH', `/assets/${sb.known.unusedAssetId}`, body);
		expect(r.status).toBe(422);
		expect(r.json.error?.details?.[0].field).toBe(field);
	});

	test('delete: {id, deleted: true} even while in use; then gone from API and CDN', async () => {
		const asset = (await api<AssetJson>(sb, sb.keys.user, 'GET', `/assets/${sb.known.usedAssetId}`))
			.json;
		expect(asset.used_in_videos).toBeGreaterThan(0);
		expect((await http(asset.url)).status).toBe(200);
		const r = await api(sb, sb.keys.user, 'DELETE', `/assets/${asset.id}`);
		expect(r.status).toBe(200);
		expect(r.json).toEqual({ id: asset.id, deleted: true });
		expect((await api(sb, sb.keys.user, 'GET', `/assets/${asset.id}`)).status).toBe(404);
		expect((await api(sb, sb.keys.user, 'DELETE', `/assets/${asset.id}`)).status).toBe(404);
		expect(
			(await list('?limit=100&tag=logo')).json.data.find((a) => a.id === asset.id),
		).toBeUndefined();
		expect((await http(asset.url)).status).toBe(404);
		expect((await list()).json.pagination.total).toBe(119);
	});
});

describe('upload', () => {
	const FORMATS: Array<[string, string, string, string]> = [
		['image', 'photo.jpg', 'image/jpeg', 'image/jpeg'],
		['image', 'pic.png', 'image/png', 'image/png'],
		['image', 'logo.svg', 'image/svg+xml', 'image/svg+xml'],
		['image', 'p.webp', 'image/webp', 'image/webp'],
		['video', 'clip.mp4', 'video/mp4', 'video/mp4'],
		['video', 'clip.webm', 'video/webm', 'video/webm'],
		['video', 'clip.mov', 'video/quicktime', 'video/quicktime'],
		['audio', 'song.mp3', 'audio/mpeg', 'audio/mpeg'],
		['audio', 'voice.wav', 'audio/wav', 'audio/wav'],
		['audio', 'voice2.wav', 'audio/x-wav', 'audio/wav'],
		['audio', 'jingle.aac', 'audio/aac', 'audio/aac'],
		// MIME type generic: the extension decides.
		['image', 'generic.jpeg', 'application/octet-stream', 'image/jpeg'],
		['audio', 'generic.mp3', 'application/octet-stream', 'audio/mpeg'],
	];

	test.each(FORMATS)(
		'%s %s (%s) → 201 with content_type %s and the null rules',
		async (type, filename, mime, contentType) => {
			const data = Buffer.from(`fake ${filename} bytes`);
			const r = await upload(sb, sb.keys.user, [
				{ name: 'name', value: `Upload ${filename}` },
				{ name: 'type', value: type },
				{ name: 'file', file: { filename, contentType: mime, data } },
			]);
			expect(r.status).toBe(201);
			const a = r.json as AssetJson;
			expect(Object.keys(a).sort()).toEqual(BASE_KEYS);
			expect(a).toMatchObject({
				name: `Upload ${filename}`,
				type,
				content_type: contentType,
				size: data.length,
				tags: [],
			});
			if (type === 'image')
				expect(a).toMatchObject({
					duration: null,
					width: expect.any(Number),
					height: expect.any(Number),
				});
			if (type === 'audio')
				expect(a).toMatchObject({ width: null, height: null, duration: expect.any(Number) });
			if (type === 'video')
				expect(a).toMatchObject({
					width: expect.any(Number),
					height: expect.any(Number),
					duration: expect.any(Number),
				});
			const file = await fetch(a.url);
			expect(file.status).toBe(200);
			expect(file.headers.get('content-type')).toBe(contentType);
			expect(Buffer.from(await file.arrayBuffer()).equals(data)).toBe(true);
		},
	);

	test('uploaded asset: listed first, gettable, real PNG dimensions and WAV duration', async () => {
		const png = await upload(sb, sb.keys.user, [
			{ name: 'name', value: 'Real PNG' },
			{ name: 'type', value: 'image' },
			{
				name: 'file',
				file: { filename: 'real.png', contentType: 'image/png', data: pngBytes(640, 360) },
			},
		]);
		expect(png.json).toMatchObject({ width: 640, height: 360, duration: null });
		const id = (png.json as AssetJson).id;
		expect((await list('?limit=1')).json.data[0].id).toBe(id);
		expect((await api(sb, sb.keys.user, 'GET', `/assets/${id}`)).json).toMatchObject({
			id,
			used_in_videos: 0,
			used_in_templates: 0,
			last_used: null,
		});
		const wav = await upload(sb, sb.keys.user, [
			{ name: 'name', value: 'Two seconds' },
			{ name: 'type', value: 'audio' },
			{ name: 'file', file: { filename: 'two.wav', contentType: 'audio/wav', data: wavBytes(2) } },
		]);
		expect(wav.json).toMatchObject({ duration: 2, width: null, height: null });
	});

	test('the committed MP4 fixture: real dimensions and duration', async () => {
		const { readFile } = await import('node:fs/promises');
		const data = await readFile(join(process.cwd(), 'sandbox', 'media', 'video.mp4'));
		const r = await upload(sb, sb.keys.user, [
			{ name: 'file', file: { filename: 'v.mp4', contentType: 'video/mp4', data } },
			{ name: 'name', value: 'Fixture' },
			{ name: 'type', value: 'video' },
		]);
		expect(r.json).toMatchObject({ width: 144, height: 256, duration: 2 });
	});

	test('tags: repeated fields, tags[] fields, or one field holding a JSON array', async () => {
		const send = (parts: Array<{ name: string; value: string }>) =>
			upload(sb, sb.keys.user, [
				{ name: 'name', value: 'Tagged' },
				{ name: 'type', value: 'image' },
				...parts,
				{
					name: 'file',
					file: { filename: 't.jpg', contentType: 'image/jpeg', data: Buffer.from('jpg') },
				},
			]);
		expect(
			(
				await send([
					{ name: 'tags', value: 'a' },
					{ name: 'tags', value: 'b' },
				])
			).json,
		).toMatchObject({ tags: ['a', 'b'] });
		expect(
			(
				await send([
					{ name: 'tags[]', value: 'c' },
					{ name: 'tags[]', value: 'd' },
				])
			).json,
		).toMatchObject({ tags: ['c', 'd'] });
		expect((await send([{ name: 'tags', value: '["e","f"]' }])).json).toMatchObject({
			tags: ['e', 'f'],
		});
		expect((await send([{ name: 'tags', value: 'solo' }])).json).toMatchObject({ tags: ['solo'] });
		const bad = await send([{ name: 'tags', value: '[1,2]' }]);
		expect(bad.status).toBe(422);
		expect(bad.json.error?.details?.[0].field).toBe('tags');
	});

	test.each([
		['image/png', 'a.png', 'video', 'png declared as video'],
		['video/mp4', 'a.mp4', 'audio', 'mp4 declared as audio'],
		['image/gif', 'a.gif', 'image', 'GIF is not an accepted format'],
		['application/pdf', 'a.pdf', 'image', 'unknown format'],
		['application/octet-stream', 'noext', 'image', 'no MIME type, no extension'],
		['video/mp4', 'a.png', 'video', 'MIME type and extension disagree'],
	])('%s %s as %s → 415 (%s)', async (mime, filename, type) => {
		const before = (await list()).json.pagination.total;
		const r = await upload(sb, sb.keys.user, [
			{ name: 'name', value: 'x' },
			{ name: 'type', value: type },
			{ name: 'file', file: { filename, contentType: mime, data: Buffer.from('x') } },
		]);
		expect(r.status).toBe(415);
		expect(r.json.error).toMatchObject({ status: 415, code: 'unsupported_media_type' });
		expect((await list()).json.pagination.total).toBe(before);
	});

	test('type given after the file is still checked against the format → 415', async () => {
		const r = await upload(sb, sb.keys.user, [
			{ name: 'name', value: 'x' },
			{
				name: 'file',
				file: { filename: 'a.png', contentType: 'image/png', data: Buffer.from('x') },
			},
			{ name: 'type', value: 'audio' },
		]);
		expect(r.status).toBe(415);
	});

	test.each([
		[['name', 'type'], 'file'],
		[['file', 'type'], 'name'],
		[['file', 'name'], 'type'],
	])('parts %j without %s → 422', async (present, missing) => {
		const parts = [];
		if (present.includes('name')) parts.push({ name: 'name', value: 'x' });
		if (present.includes('type')) parts.push({ name: 'type', value: 'image' });
		if (present.includes('file'))
			parts.push({
				name: 'file',
				file: { filename: 'a.jpg', contentType: 'image/jpeg', data: Buffer.from('x') },
			});
		const r = await upload(sb, sb.keys.user, parts);
		expect(r.status).toBe(422);
		expect(r.json.error).toMatchObject({ status: 422, code: 'validation_failed' });
		expect(r.json.error?.details?.map((d) => d.field)).toEqual([missing]);
	});

	test('a type outside image/video/audio → 422; a JSON body → 415; two files → 400', async () => {
		const bad = await upload(sb, sb.keys.user, [
			{ name: 'name', value: 'x' },
			{ name: 'type', value: 'document' },
			{
				name: 'file',
				file: { filename: 'a.jpg', contentType: 'image/jpeg', data: Buffer.from('x') },
			},
		]);
		expect(bad.status).toBe(422);
		expect(bad.json.error?.details?.[0].field).toBe('type');
		expect(
			(await api(sb, sb.keys.user, 'POST', '/assets', { name: 'x' })).json.error,
		).toMatchObject({ status: 415 });
		const two = await upload(sb, sb.keys.user, [
			{ name: 'name', value: 'x' },
			{ name: 'type', value: 'image' },
			{
				name: 'file',
				file: { filename: 'a.jpg', contentType: 'image/jpeg', data: Buffer.from('x') },
			},
			{
				name: 'file',
				file: { filename: 'b.jpg', contentType: 'image/jpeg', data: Buffer.from('y') },
			},
		]);
		expect(two.status).toBe(400);
		const broken = await http(`${sb.baseUrl}/assets`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${sb.keys.user}`,
				'content-type': 'multipart/form-data; boundary=zzz',
			},
			body: '--zzz\r\nContent-Disposition: form-data; name="name"\r\n\r\nx',
		});
		expect(broken.status).toBe(400);
	});

	test('no key → 401 without reading the upload', async () => {
		const form = new FormData();
		form.append('name', 'x');
		const r = await http(`${sb.baseUrl}/assets`, { method: 'POST', body: form });
		expect(r.status).toBe(401);
	});

	test('image limit (decimal MB): exactly 10,000,000 bytes → 201; one byte more → 413 and no partial file left', async () => {
		const url = `${sb.baseUrl}/assets`;
		const ok = await streamUpload(
			url,
			sb.keys.user,
			{ name: 'Exact', type: 'image' },
			{ filename: 'big.jpg', contentType: 'image/jpeg', size: 10 * MB },
		);
		expect(ok.status).toBe(201);
		expect(JSON.parse(ok.body ?? '{}')).toMatchObject({ size: 10 * MB });
		const filesBefore = (await uploadFiles()).length;
		const over = await streamUpload(
			url,
			sb.keys.user,
			{ name: 'Over', type: 'image' },
			{ filename: 'big.jpg', contentType: 'image/jpeg', size: 10 * MB + 1 },
		);
		expect(over.status).toBe(413);
		expect(JSON.parse(over.body ?? '{}').error).toMatchObject({
			status: 413,
			code: 'payload_too_large',
		});
		expect((await uploadFiles()).length).toBe(filesBefore);
	});

	test('the limit follows the file format even when type comes after the file', async () => {
		const boundary = 'b0undary';
		const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n`;
		const tail = `\r\n--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nimage\r\n--${boundary}--\r\n`;
		const body = Buffer.concat([Buffer.from(head), Buffer.alloc(10 * MB + 10), Buffer.from(tail)]);
		const r = await http(`${sb.baseUrl}/assets`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${sb.keys.user}`,
				'content-type': `multipart/form-data; boundary=${boundary}`,
			},
			body,
		});
		expect(r.status).toBe(413);
	});

	test('a 413 is answered as soon as the limit is passed, while the client is still sending', async () => {
		const filesBefore = (await uploadFiles()).length;
		const total = 60 * MiB;
		const result = await streamUpload(
			`${sb.baseUrl}/assets`,
			sb.keys.user,
			{ name: 'Huge', type: 'image' },
			{ filename: 'huge.png', contentType: 'image/png', size: total },
		);
		expect(result.status).toBe(413);
		expect(result.error).toBeUndefined();
		// The answer came while the client still had most of the 60 MiB to send (the server discards it).
		expect(result.sentAtResponse).toBeLessThan(total);
		expect((await uploadFiles()).length).toBe(filesBefore);
	});

	test('audio limit: 50 MB + 1 byte → 413', async () => {
		const r = await streamUpload(
			`${sb.baseUrl}/assets`,
			sb.keys.user,
			{ name: 'Long', type: 'audio' },
			{ filename: 'long.mp3', contentType: 'audio/mpeg', size: 50 * MB + 1 },
		);
		expect(r.status).toBe(413);
		expect(JSON.parse(r.body ?? '{}').error.message).toContain('50 MB');
	});
});

describe('upload limits are configurable (to test the video limit without 200 MB)', () => {
	let small: Sandbox;
	beforeAll(async () => {
		small = await startSandbox({ quiet: true, uploadLimits: { video: MiB } });
	});
	afterAll(() => small.close());

	test('video: limit → 201, limit + 1 → 413', async () => {
		const url = `${small.baseUrl}/assets`;
		const file = { filename: 'v.mp4', contentType: 'video/mp4' };
		expect(
			(
				await streamUpload(
					url,
					small.keys.user,
					{ name: 'v', type: 'video' },
					{ ...file, size: MiB },
				)
			).status,
		).toBe(201);
		expect(
			(
				await streamUpload(
					url,
					small.keys.user,
					{ name: 'v', type: 'video' },
					{ ...file, size: MiB + 1 },
				)
			).status,
		).toBe(413);
		// The spec limits are the defaults.
		expect(sb.store.uploadLimits).toEqual({
			image: 10_000_000,
			video: 200_000_000,
			audio: 50_000_000,
		});
	});
});
