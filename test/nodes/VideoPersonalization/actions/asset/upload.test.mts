import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../../../../sandbox/index.mts';
import { binaryItem, runNode } from '../../../../harness/engine.mts';
import { credentialsFor, mediaBytes, useSandbox } from '../../../../harness/fixtures.mts';

const sandbox = useSandbox();
const MB = 1_000_000;

async function upload(
	items: INodeExecutionData[],
	parameters: IDataObject = {},
	target: Sandbox = sandbox(),
	continueOnFail = false,
) {
	target.requests.clear();
	const result = await runNode({
		parameters: {
			resource: 'asset',
			operation: 'upload',
			binaryPropertyName: 'data',
			...parameters,
		},
		credentials: credentialsFor(target),
		items,
		continueOnFail,
	});
	const posts = target.requests.log.filter(
		(request) => request.method === 'POST' && request.path === '/v1/assets',
	);
	return { ...result, posts };
}

async function download(url: string): Promise<Buffer> {
	const response = await fetch(url);
	expect(response.status).toBe(200);
	return Buffer.from(await response.arrayBuffer());
}

describe('Asset > Upload', () => {
	it.each([
		['logo.jpg', 'image/jpeg', 'image'],
		['logo.png', 'image/png', 'image'],
		['logo.svg', 'image/svg+xml', 'image'],
		['logo.webp', 'image/webp', 'image'],
		['clip.mp4', 'video/mp4', 'video'],
		['clip.webm', 'video/webm', 'video'],
		['clip.mov', 'video/quicktime', 'video'],
		['jingle.mp3', 'audio/mpeg', 'audio'],
		['jingle.wav', 'audio/wav', 'audio'],
		['jingle.aac', 'audio/aac', 'audio'],
	])(
		'uploads %s (%s) as type %s, streamed from the binary store, usable at its URL at once',
		async (fileName, mimeType, type) => {
			const content = mediaBytes(fileName, 4096);
			const item = await binaryItem(content, fileName, mimeType);
			expect(item.binary?.data.id).toEqual(expect.any(String)); // filesystem mode: a file, not base64 in memory
			const { items, error, posts } = await upload([item], { tags: 'launch, spring ,launch' });
			expect(error).toBeUndefined();
			expect(posts).toHaveLength(1);
			const asset = items[0].json;
			expect(asset).toMatchObject({
				name: fileName,
				type,
				content_type: mimeType,
				size: 4096,
				tags: ['launch', 'spring'],
			});
			expect((await download(String(asset.url))).equals(content)).toBe(true);
			expect(
				sandbox()
					.requests.log.filter((request) => request.server === 'cdn')
					.every((request) => !request.hadAuthorization),
			).toBe(true);
		},
	);

	it('infers the type from the file extension when the MIME type is generic, and takes a name', async () => {
		const item = await binaryItem(
			mediaBytes('voice-over.mp3', 100),
			'voice-over.mp3',
			'application/octet-stream',
		);
		const { items, error } = await upload([item], { name: 'Voice over, take 2' });
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			name: 'Voice over, take 2',
			type: 'audio',
			content_type: 'audio/mpeg',
		});
	});

	it('keeps a file name that is not plain ASCII', async () => {
		const item = await binaryItem(mediaBytes('x.png', 64), 'café-façade "1".png', 'image/png');
		const { items, error } = await upload([item]);
		expect(error).toBeUndefined();
		expect(items[0].json.name).toBe('café-façade "1".png');
	});

	it.each([
		[
			'a format the service does not take',
			'notes.pdf',
			'application/pdf',
			'auto',
			1000,
			/Input Binary Field: "notes\.pdf" \(application\/pdf\) is not a format the service accepts/,
		],
		[
			'a type that does not match the file',
			'clip.mp4',
			'video/mp4',
			'image',
			1000,
			/Type: "clip\.mp4" \(video\/mp4\) is MP4, which is not an image format; image accepts JPG, PNG, SVG, WEBP/,
		],
		[
			'an image declared as a video',
			'photo.jpg',
			'image/jpeg',
			'video',
			1000,
			/Type: "photo\.jpg" \(image\/jpeg\) is JPG, which is not a video format; video accepts/,
		],
		[
			'an image over 10 MB',
			'big.png',
			'image/png',
			'auto',
			10 * MB + 1,
			/"big\.png" \(image\/png\) is 10\.0 MB; image files may be at most 10 MB/,
		],
		[
			'audio over 50 MB',
			'long.wav',
			'audio/wav',
			'auto',
			50 * MB + 1,
			/audio files may be at most 50 MB/,
		],
		['an empty file', 'empty.png', 'image/png', 'auto', 0, /"empty\.png" \(image\/png\) is empty/],
	])(
		'refuses %s before sending, naming the rule',
		async (_case, fileName, mimeType, assetType, size, message) => {
			const item = await binaryItem(Buffer.alloc(size), fileName, mimeType);
			const { error, posts } = await upload([item], { assetType });
			expect(error?.message).toMatch(message);
			expect(error?.message).toMatch(/\[item 0\]$/);
			expect(posts).toHaveLength(0);
		},
	);

	it.each([
		[
			'PNG',
			'named and typed WAV',
			'sound.wav',
			'audio/wav',
			'x.png',
			'is PNG by its first bytes, not the WAV its name or type says',
		],
		[
			'PNG',
			'typed WAV',
			'photo.png',
			'audio/wav',
			'x.png',
			'is PNG by its first bytes, not the WAV its name or type says',
		],
		[
			'PNG',
			'named WAV',
			'sound.wav',
			'image/png',
			'x.png',
			'is PNG by its first bytes, not the WAV its name or type says',
		],
		[
			'WAV',
			'named and typed MP3',
			'voice.mp3',
			'audio/mpeg',
			'x.wav',
			'is WAV by its first bytes, not the MP3 its name or type says',
		],
		[
			'MP4',
			'named and typed JPG',
			'photo.jpg',
			'image/jpeg',
			'x.mp4',
			'is MP4 by its first bytes, not the JPG its name or type says',
		],
		[
			'no media',
			'named MP4',
			'clip.mp4',
			'video/mp4',
			'x.bin',
			'is not MP4 by its first bytes (07 26 45 64 83 a2 c1 e0: ".&Ed...."), nor any format the service accepts',
		],
	])(
		'checks the first bytes: a %s file %s is refused before sending, saying what it is',
		async (_what, _claimed, fileName, mimeType, bytesOf, problem) => {
			const item = await binaryItem(mediaBytes(bytesOf), fileName, mimeType);
			const { error, posts } = await upload([item]);
			expect(error?.message).toBe(
				`Input Binary Field: "${fileName}" (${mimeType}) ${problem} [item 0]`,
			);
			expect(posts).toHaveLength(0);
		},
	);

	it('says what the first bytes of a file of no media format are', async () => {
		const pdf = Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj', 'latin1');
		const { error } = await upload([await binaryItem(pdf, 'scan.png', 'image/png')]);
		expect(error?.message).toContain(
			'is not PNG by its first bytes (25 50 44 46 2d 31 2e 34: "%PDF-1.4")',
		);
	});

	it('takes an MP4 named MOV and a MOV named MP4 (one container), and an SVG after an XML prolog', async () => {
		const svg = Buffer.from('<?xml version="1.0"?>\n<!-- logo -->\n<svg viewBox="0 0 8 8"></svg>');
		const { items, error } = await upload([
			await binaryItem(mediaBytes('x.mp4'), 'clip.mov', 'video/quicktime'),
			await binaryItem(mediaBytes('x.mov'), 'clip.mp4', 'video/mp4'),
			await binaryItem(svg, 'logo.svg', 'image/svg+xml'),
		]);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.type)).toEqual(['video', 'video', 'image']);
	});

	it('accepts an image of exactly 10 MB', async () => {
		const item = await binaryItem(mediaBytes('edge.png', 10 * MB), 'edge.png', 'image/png');
		const { items, error } = await upload([item]);
		expect(error).toBeUndefined();
		expect(items[0].json.size).toBe(10 * MB);
	});

	it('names the missing binary field and lists the ones the item has', async () => {
		const item = await binaryItem(mediaBytes('a.png', 10), 'a.png', 'image/png', 'picture');
		const { error } = await upload([item]);
		expect(error?.message).toMatch(
			/Input Binary Field: the input item has no binary field "data" \[item 0\]/,
		);
		expect(error?.description).toMatch(/Binary fields of this item: picture/);
		const none = await upload([{ json: {} }]);
		expect(none.error?.description).toMatch(/has no binary data/);
	});

	it('reports the service refusing a file as too large (413) in plain words', async () => {
		const strict = await startSandbox({ quiet: true, uploadLimits: { image: 1000 } });
		try {
			const item = await binaryItem(mediaBytes('photo.jpg', 5000), 'photo.jpg', 'image/jpeg');
			const { error, posts } = await upload([item], {}, strict);
			expect(posts).toHaveLength(1);
			expect(error?.message).toMatch(/The file is too large for the service \(413\)/);
			expect(error?.description).toMatch(/images up to 10 MB/);
		} finally {
			await strict.close();
		}
	});

	it('with Continue On Fail, uploads the good files and reports the bad one in place', async () => {
		const items = [
			await binaryItem(mediaBytes('a.png', 10), 'a.png', 'image/png'),
			await binaryItem(mediaBytes('b.exe', 10), 'b.exe', 'application/x-msdownload'),
			await binaryItem(mediaBytes('c.mp3', 10), 'c.mp3', 'audio/mpeg'),
		];
		const { items: output, error, posts } = await upload(items, {}, sandbox(), true);
		expect(error).toBeUndefined();
		expect(posts).toHaveLength(2);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[0].json.type).toBe('image');
		expect(output[1].json.error).toMatch(
			/"b\.exe" .* is not a format the service accepts .*\[item 1\]/,
		);
		expect(output[2].json.type).toBe('audio');
	});
});
