/**
 * The asset formats and size limits (docs/service-facts.md, "Assets"), checked before a file is
 * sent. The service says "MB", decimal as the spec writes it: 10 MB = 10,000,000 bytes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	type AssetType,
	checkUpload,
	contentFormats,
	identifyFormat,
	type UploadCheck,
	type UploadFacts,
} from '../../../../nodes/VideoPersonalization/helpers/uploadRules.ts';
import { mediaBytes } from '../../../harness/fixtures.mts';

const MB = 1_000_000;
const MiB = 1024 * 1024;

/** The spec's table: type, format, its registered MIME type, its usual extensions. */
const SPEC_FORMATS: Array<[AssetType, string, string, string[]]> = [
	['image', 'JPG', 'image/jpeg', ['jpg', 'jpeg']],
	['image', 'PNG', 'image/png', ['png']],
	['image', 'SVG', 'image/svg+xml', ['svg']],
	['image', 'WEBP', 'image/webp', ['webp']],
	['video', 'MP4', 'video/mp4', ['mp4']],
	['video', 'WEBM', 'video/webm', ['webm']],
	['video', 'MOV', 'video/quicktime', ['mov']],
	['audio', 'MP3', 'audio/mpeg', ['mp3']],
	['audio', 'WAV', 'audio/wav', ['wav']],
	['audio', 'AAC', 'audio/aac', ['aac']],
];

const LIMITS: Array<[AssetType, number, string, string]> = [
	['image', 10 * MB, '10 MB', 'photo.png'],
	['video', 200 * MB, '200 MB', 'clip.mp4'],
	['audio', 50 * MB, '50 MB', 'voice.mp3'],
];

const MIME_OF: Record<string, string> = {
	'photo.png': 'image/png',
	'clip.mp4': 'video/mp4',
	'voice.mp3': 'audio/mpeg',
};

function passed(result: UploadCheck): Extract<UploadCheck, { ok: true }> {
	if (!result.ok)
		throw new Error(`expected the file to pass, got: ${result.field}: ${result.problem}`);
	return result;
}

function failed(result: UploadCheck): Extract<UploadCheck, { ok: false }> {
	if (result.ok) throw new Error(`expected the file to fail, got: ${JSON.stringify(result)}`);
	return result;
}

function facts(
	fileName: string,
	mimeType: string,
	size = 1024,
	requestedType?: AssetType,
): UploadFacts {
	return { fileName, mimeType, size, ...(requestedType ? { requestedType } : {}) };
}

describe('identifyFormat', () => {
	it.each(SPEC_FORMATS)('%s %s by its MIME type %s, whatever the name', (type, label, mime) => {
		for (const name of ['file', 'file.bin', 'file.txt']) {
			const found = identifyFormat(name, mime);
			expect(found?.type).toBe(type);
			expect(found?.format.label).toBe(label);
		}
	});

	it.each(SPEC_FORMATS)(
		'%s %s by MIME type %s in capitals or with parameters',
		(type, label, mime) => {
			for (const written of [mime.toUpperCase(), `${mime}; charset=utf-8`, ` ${mime} ;q=1`]) {
				const found = identifyFormat('file', written);
				expect(found?.type).toBe(type);
				expect(found?.format.label).toBe(label);
			}
		},
	);

	it.each(SPEC_FORMATS)(
		'%s %s by extension when the MIME type says nothing',
		(type, label, _mime, extensions) => {
			for (const extension of extensions) {
				for (const mime of ['', 'application/octet-stream', 'binary/octet-stream']) {
					for (const name of [
						`file.${extension}`,
						`FILE.${extension.toUpperCase()}`,
						`my.archive.${extension}`,
					]) {
						const found = identifyFormat(name, mime);
						expect(found?.type).toBe(type);
						expect(found?.format.label).toBe(label);
					}
				}
			}
		},
	);

	it('judges by MIME type first, then by extension', () => {
		expect(identifyFormat('clip.mp4', 'image/png')?.format.label).toBe('PNG');
		expect(identifyFormat('voice.mp3', 'video/quicktime')?.format.label).toBe('MOV');
	});

	it.each([
		['doc.pdf', 'application/pdf'],
		['anim.gif', 'image/gif'],
		['scan.tiff', 'image/tiff'],
		['movie.avi', 'video/x-msvideo'],
		['movie.mkv', 'video/x-matroska'],
		['sound.ogg', 'audio/ogg'],
		['sound.flac', 'audio/flac'],
		['noextension', ''],
		['noextension', 'application/octet-stream'],
		['photo.png.exe', 'application/octet-stream'],
		['png', ''],
		['', ''],
	])('%j (%j) is not a format of the spec', (name, mime) => {
		expect(identifyFormat(name, mime)).toBeUndefined();
	});
});

describe('checkUpload: formats and types', () => {
	it.each(SPEC_FORMATS)('infers %s from a %s file', (type, label, mime, extensions) => {
		const byMime = passed(checkUpload(facts('upload', mime)));
		expect(byMime).toMatchObject({ type, format: label, mimeType: mime });
		const byName = passed(
			checkUpload(facts(`upload.${extensions[0]}`, 'application/octet-stream')),
		);
		expect(byName.type).toBe(type);
		expect(byName.format).toBe(label);
		// The MIME type sent is one of the format's, not the octet-stream it came with.
		expect(byName.mimeType.startsWith(`${type}/`)).toBe(true);
		expect(identifyFormat('x', byName.mimeType)?.format.label).toBe(label);
	});

	it('sends the MIME type it was given, cleaned', () => {
		expect(passed(checkUpload(facts('a.jpg', 'IMAGE/JPEG; charset=binary'))).mimeType).toBe(
			'image/jpeg',
		);
	});

	it.each(SPEC_FORMATS)('accepts %s %s when that type is requested', (type, _label, mime) => {
		expect(passed(checkUpload(facts('upload', mime, 1024, type))).type).toBe(type);
	});

	it.each(
		SPEC_FORMATS.flatMap(([type, label, mime]) =>
			(['image', 'video', 'audio'] as AssetType[])
				.filter((other) => other !== type)
				.map((other) => [label, mime, other] as const),
		),
	)('refuses a %s file (%s) requested as %s, on the Type field', (label, mime, requested) => {
		const result = failed(checkUpload(facts('upload.file', mime, 1024, requested)));
		expect(result.field).toBe('Type');
		expect(result.problem).toContain('"upload.file"');
		expect(result.problem).toContain(label);
		expect(result.problem).toContain(requested);
		const accepted = SPEC_FORMATS.filter(([type]) => type === requested).map(
			([, format]) => format,
		);
		for (const format of accepted) expect(result.problem).toContain(format);
	});

	it('refuses a format outside the spec, on the File field, listing what is accepted', () => {
		const result = failed(checkUpload(facts('anim.gif', 'image/gif')));
		expect(result.field).toBe('File');
		expect(result.problem).toContain('"anim.gif"');
		expect(result.problem).toContain('image/gif');
		expect(result.problem).toMatch(/not a format the service accepts/);
		for (const [, label] of SPEC_FORMATS) expect(result.problem).toContain(label);
	});

	it('refuses a format outside the spec with a requested type, listing that type’s formats', () => {
		const result = failed(checkUpload(facts('sound.ogg', 'audio/ogg', 1024, 'audio')));
		expect(result.field).toBe('File');
		expect(result.problem).toMatch(/MP3, WAV, AAC/);
		expect(result.problem).not.toMatch(/JPG|MP4/);
	});

	it('says when a file has no MIME type', () => {
		expect(failed(checkUpload(facts('mystery', ''))).problem).toMatch(/no MIME type/);
	});
});

describe('checkUpload: sizes', () => {
	it.each(LIMITS)(
		'%s: exactly %i bytes passes, one byte more fails naming the %s limit',
		(type, limit, label, name) => {
			for (const requested of [undefined, type]) {
				expect(passed(checkUpload(facts(name, MIME_OF[name], limit, requested))).type).toBe(type);
				const over = failed(checkUpload(facts(name, MIME_OF[name], limit + 1, requested)));
				expect(over.field).toBe('File');
				expect(over.problem).toContain(`"${name}"`);
				expect(over.problem).toContain(type);
				expect(over.problem).toContain(`at most ${label}`);
			}
		},
	);

	it.each([
		// [size, image, video, audio]
		[15 * MB, false, true, true],
		[60 * MB, false, true, false],
		[201 * MB, false, false, false],
	])(
		'the limit belongs to the type: %i bytes passes as image %p, video %p, audio %p',
		(size, image, video, audio) => {
			expect(checkUpload(facts('photo.png', 'image/png', size)).ok).toBe(image);
			expect(checkUpload(facts('clip.mp4', 'video/mp4', size)).ok).toBe(video);
			expect(checkUpload(facts('voice.mp3', 'audio/mpeg', size)).ok).toBe(audio);
		},
	);

	it('gives the size of a file that is too big', () => {
		expect(failed(checkUpload(facts('huge.png', 'image/png', 25 * MB))).problem).toContain(
			'25.0 MB',
		);
	});

	it('reads the limits as decimal MB: a 10 MiB image (10.5 MB) is refused before it is sent', () => {
		const tenMib = failed(checkUpload(facts('photo.png', 'image/png', 10 * MiB)));
		expect(tenMib.problem).toBe(
			'"photo.png" (image/png) is 10.5 MB; image files may be at most 10 MB',
		);
		expect(checkUpload(facts('photo.png', 'image/png', 10_000_000)).ok).toBe(true);
		expect(checkUpload(facts('photo.png', 'image/png', 10_000_001)).ok).toBe(false);
	});

	it.each(LIMITS)('%s: an empty file fails', (_type, _limit, _label, name) => {
		const result = failed(checkUpload(facts(name, MIME_OF[name], 0)));
		expect(result.field).toBe('File');
		expect(result.problem).toContain(`"${name}"`);
		expect(result.problem).toMatch(/empty/);
	});

	it('a one-byte file passes', () => {
		expect(passed(checkUpload(facts('tiny.wav', 'audio/wav', 1))).format).toBe('WAV');
	});
});

describe('contentFormats: what the first bytes of a file are', () => {
	const head = (bytes: string) => Buffer.from(bytes, 'latin1');

	it.each([
		['video.mp4', ['MP4', 'MOV']],
		['audio.mp3', ['MP3']],
		['thumbnail.jpg', ['JPG']],
	])('reads real files (made with ffmpeg): %s is %j', (name, formats) => {
		const file = readFileSync(join(process.cwd(), 'sandbox', 'media', name));
		expect(contentFormats(file.subarray(0, 4096))).toEqual(formats);
	});

	it.each(SPEC_FORMATS)('a %s %s file shows its format', (_type, label, _mime, extensions) => {
		expect(contentFormats(mediaBytes(`x.${extensions[0]}`))).toContain(label);
	});

	it.each([
		['an MP3 frame with no tag', '\xff\xfb\x90\x64', ['MP3']],
		['an AAC ADTS frame', '\xff\xf9\x50\x80', ['AAC']],
		[
			'an ID3 tag before an AAC frame',
			'ID3\x04\x00\x00\x00\x00\x00\x02ab\xff\xf1\x50\x80',
			['AAC'],
		],
		['an ID3 tag longer than the bytes read', 'ID3\x04\x00\x00\x00\x01\x00\x00', ['MP3', 'AAC']],
		['M4A audio', '\x00\x00\x00\x1cftypM4A \x00\x00', ['AAC']],
		['a QuickTime movie without ftyp', '\x00\x00\x00\x08wide\x00\x00', ['MP4', 'MOV']],
		['an SVG with a BOM', '\xef\xbb\xbf  <svg>', ['SVG']],
		['XML that is not SVG', '<?xml version="1.0"?><note/>', []],
		['a GIF', 'GIF89a\x01\x00', []],
		['a PDF', '%PDF-1.7', []],
		['nothing', '', []],
	])('%s', (_name, bytes, formats) => {
		expect(contentFormats(head(bytes))).toEqual(formats);
	});
});
