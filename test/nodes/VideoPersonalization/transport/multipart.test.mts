/**
 * The multipart/form-data body of Upload Asset (docs/service-facts.md), written by hand so the file can be
 * streamed. Checked against the format (RFC 7578, RFC 2046 boundaries, RFC 5987 file names)
 * and read back by busboy, a real multipart parser.
 */
import busboy from 'busboy';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

import {
	multipartEnvelope,
	type MultipartEnvelope,
	type MultipartFile,
	newBoundary,
	wrapStream,
} from '../../../../nodes/VideoPersonalization/transport/multipart.ts';

interface ParsedFile {
	field: string;
	fileName: string | undefined;
	mimeType: string;
	data: Buffer;
}

interface Parsed {
	fields: Array<[string, string]>;
	files: ParsedFile[];
	/** 'field:<name>' / 'file:<name>' in the order the parser met them. */
	order: string[];
}

async function parseMultipart(body: Buffer | Readable, boundary: string): Promise<Parsed> {
	return await new Promise<Parsed>((resolve, reject) => {
		const parsed: Parsed = { fields: [], files: [], order: [] };
		const parser = busboy({
			headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
			preservePath: true,
			defParamCharset: 'utf8',
		});
		parser.on('field', (name, value) => {
			parsed.fields.push([name, value]);
			parsed.order.push(`field:${name}`);
		});
		parser.on('file', (field, stream, info) => {
			parsed.order.push(`file:${field}`);
			const chunks: Buffer[] = [];
			stream.on('data', (chunk: Buffer) => chunks.push(chunk));
			stream.on('end', () =>
				parsed.files.push({
					field,
					fileName: info.filename,
					mimeType: info.mimeType,
					data: Buffer.concat(chunks),
				}),
			);
		});
		parser.on('close', () => resolve(parsed));
		parser.on('error', reject);
		if (Buffer.isBuffer(body)) parser.end(body);
		else body.pipe(parser);
	});
}

function whole(envelope: MultipartEnvelope, data: Buffer): Buffer {
	return Buffer.concat([envelope.head, data, envelope.tail]);
}

async function drain(stream: Readable): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
	return Buffer.concat(chunks);
}

/** The header lines of the part that follows the n-th delimiter (0 = first part). */
function partHeaders(envelope: MultipartEnvelope, index: number): string[] {
	const part = envelope.head.toString('utf8').split(`--${envelope.boundary}\r\n`)[index + 1];
	return part.slice(0, part.indexOf('\r\n\r\n')).split('\r\n');
}

const png: MultipartFile = { field: 'file', fileName: 'logo.png', mimeType: 'image/png' };
const fields: Array<[string, string]> = [
	['name', 'Brand logo'],
	['type', 'image'],
	['tags', 'brand'],
	['tags', 'logo'],
];

/** RFC 5987 attr-char, plus % for the pct-encoded octets. */
const ATTR_CHARS = /^[A-Za-z0-9!#$&+\-.^_`|~%]+$/;

describe('newBoundary', () => {
	it('is a valid RFC 2046 boundary and different every time', () => {
		const boundaries = Array.from({ length: 50 }, () => newBoundary());
		for (const boundary of boundaries) {
			expect(boundary.length).toBeGreaterThanOrEqual(1);
			expect(boundary.length).toBeLessThanOrEqual(70);
			expect(boundary).toMatch(/^[0-9A-Za-z'()+_,\-./:=? ]*[0-9A-Za-z'()+_,\-./:=?]$/);
		}
		expect(new Set(boundaries).size).toBe(boundaries.length);
	});

	it('is used when none is given', () => {
		const one = multipartEnvelope(fields, png);
		const two = multipartEnvelope(fields, png);
		expect(one.boundary).not.toBe(two.boundary);
		expect(one.head.toString().startsWith(`--${one.boundary}\r\n`)).toBe(true);
		expect(one.tail.toString()).toContain(`--${one.boundary}--`);
	});
});

describe('multipartEnvelope', () => {
	const boundary = 'TestBoundary7f3a';
	const envelope = multipartEnvelope(fields, png, boundary);
	const head = envelope.head.toString('utf8');

	it('reports the boundary it used', () => {
		expect(envelope.boundary).toBe(boundary);
	});

	it('has one part per field, in order, before the file part', () => {
		const parts = head.split(`--${boundary}\r\n`);
		expect(parts[0]).toBe('');
		expect(parts).toHaveLength(fields.length + 2);
		fields.forEach(([name, value], index) => {
			expect(parts[index + 1]).toBe(
				`Content-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
			);
		});
		expect(parts[fields.length + 1]).toBe(
			'Content-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n',
		);
	});

	it('ends the head right where the file bytes start, and the tail closes the body', () => {
		expect(head.endsWith('\r\n\r\n')).toBe(true);
		expect(envelope.tail.toString('utf8')).toMatch(new RegExp(`^\\r\\n--${boundary}--(\\r\\n)?$`));
	});

	it('breaks lines with CRLF only', () => {
		expect(head.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
		expect(envelope.tail.toString('utf8').replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
	});

	it('works without fields', () => {
		const bare = multipartEnvelope([], png, boundary);
		expect(bare.head.toString('utf8').split(`--${boundary}\r\n`)).toHaveLength(2);
	});

	it.each(['with "quotes"', 'line\r\nbreak', 'line\nfeed', 'carriage\rreturn', '"', '\r\n'])(
		'escapes the field name %j: one header line, one quoted string',
		(name) => {
			const escaped = multipartEnvelope([[name, 'value']], png, boundary);
			const headers = partHeaders(escaped, 0);
			expect(headers).toHaveLength(1);
			expect(headers[0]).toMatch(/^Content-Disposition: form-data; name="[^"\r\n]*"$/);
		},
	);

	it.each(['my "best" logo.png', 'two\r\nlines.png', 'line\nfeed.png', 'quote-at-end".png'])(
		'escapes the file name %j: the disposition stays one well-formed line',
		(fileName) => {
			const headers = partHeaders(multipartEnvelope([], { ...png, fileName }, boundary), 0);
			expect(headers).toHaveLength(2);
			expect(headers[0]).toMatch(
				/^Content-Disposition: form-data; name="file"; filename="[^"\r\n]*"(; filename\*=UTF-8''[^\s;"]+)?$/,
			);
			expect(headers[1]).toBe('Content-Type: image/png');
		},
	);

	it.each([
		'logo.png',
		'report 2024 (final).pdf',
		"it's.png",
		'a-b_c.d~e.mp4',
		'semi;colon=equals.png',
	])('gives the plain ASCII name %j only as filename="…"', (fileName) => {
		const headers = partHeaders(multipartEnvelope([], { ...png, fileName }, boundary), 0);
		expect(headers[0]).toBe(`Content-Disposition: form-data; name="file"; filename="${fileName}"`);
	});

	it.each([
		'Café déjà vu.png',
		'日本語.png',
		'видео.mp4',
		'emoji 🎬.mov',
		"l'été (1).png",
		'Ünïcödé*(copy).jpg',
		'tab\there.png',
		'back\\slash.png',
		'ends-with-backslash\\',
	])("gives the name %j as filename*=UTF-8''… with an ASCII fallback", (fileName) => {
		const escaped = multipartEnvelope([], { ...png, fileName }, boundary);
		const headers = partHeaders(escaped, 0);
		const match =
			/^Content-Disposition: form-data; name="file"; filename="([^"\r\n]*)"; filename\*=UTF-8''(\S+)$/.exec(
				headers[0],
			);
		expect(match).not.toBeNull();
		const [, fallback, encoded] = match as RegExpExecArray;
		expect(fallback).toMatch(/^[\x20-\x7e]*$/);
		expect(fallback.endsWith('\\')).toBe(false);
		expect(encoded).toMatch(ATTR_CHARS);
		expect(decodeURIComponent(encoded)).toBe(fileName);
		// The file part's header is plain ASCII, whatever the name.
		const fileHeader = escaped.head.subarray(escaped.head.lastIndexOf(`--${boundary}\r\n`));
		expect([...fileHeader].every((byte) => byte < 0x80)).toBe(true);
	});
});

describe('a real multipart parser reads the body', () => {
	const data = Buffer.concat([
		randomBytes(4096),
		Buffer.from('\r\n--TestBoundary\r\n--\r\n\r\n'),
		randomBytes(1024),
	]);

	it('fields, their order, the file name, MIME type and bytes', async () => {
		const form: Array<[string, string]> = [
			['name', 'Ünïcödé name ✓'],
			['type', 'video'],
			['tags', 'a'],
			['tags', 'multi\r\nline'],
		];
		const envelope = multipartEnvelope(form, {
			field: 'file',
			fileName: 'clip.mp4',
			mimeType: 'video/mp4',
		});
		const parsed = await parseMultipart(whole(envelope, data), envelope.boundary);
		expect(parsed.fields).toEqual(form);
		expect(parsed.order).toEqual([
			'field:name',
			'field:type',
			'field:tags',
			'field:tags',
			'file:file',
		]);
		expect(parsed.files).toHaveLength(1);
		expect(parsed.files[0].fileName).toBe('clip.mp4');
		expect(parsed.files[0].mimeType).toBe('video/mp4');
		expect(parsed.files[0].data.equals(data)).toBe(true);
	});

	it.each([
		'logo.png',
		'report 2024 (final).png',
		"it's.png",
		'Café déjà vu.png',
		'日本語.png',
		'emoji 🎬.png',
		"l'été (1).png",
		'Ünïcödé*(copy).png',
		'two\r\nlines.png',
		'dir\\name.png',
		'ends-with-backslash\\',
	])('the file name %j comes out exactly', async (fileName) => {
		const envelope = multipartEnvelope([['name', 'x']], {
			field: 'file',
			fileName,
			mimeType: 'image/png',
		});
		const parsed = await parseMultipart(whole(envelope, data), envelope.boundary);
		expect(parsed.files.map((file) => file.fileName)).toEqual([fileName]);
		expect(parsed.files[0].data.equals(data)).toBe(true);
	});

	it('a name with quotes still gives one file with its bytes, and no stray quote', async () => {
		const envelope = multipartEnvelope([['na"me', 'x']], {
			field: 'file',
			fileName: 'my "best" logo.png',
			mimeType: 'image/png',
		});
		const parsed = await parseMultipart(whole(envelope, data), envelope.boundary);
		expect(parsed.fields).toHaveLength(1);
		expect(parsed.fields[0][1]).toBe('x');
		expect(parsed.files).toHaveLength(1);
		expect(parsed.files[0].fileName).toMatch(/best.*logo\.png$/);
		expect(parsed.files[0].fileName).not.toContain('"');
		expect(parsed.files[0].data.equals(data)).toBe(true);
	});

	it('an empty file', async () => {
		const envelope = multipartEnvelope(fields, png);
		const parsed = await parseMultipart(whole(envelope, Buffer.alloc(0)), envelope.boundary);
		expect(parsed.files).toHaveLength(1);
		expect(parsed.files[0].data).toHaveLength(0);
	});
});

describe('wrapStream', () => {
	const chunks = [
		Buffer.from('first chunk '),
		randomBytes(300),
		Buffer.from('\r\n--'),
		Buffer.from('last'),
	];
	const data = Buffer.concat(chunks);

	it('is still a stream, and gives head + file + tail', async () => {
		const envelope = multipartEnvelope(fields, png);
		const wrapped = wrapStream(Readable.from(chunks), envelope);
		expect(wrapped).toBeInstanceOf(Readable);
		expect(Buffer.isBuffer(wrapped)).toBe(false);
		expect((await drain(wrapped)).equals(whole(envelope, data))).toBe(true);
	});

	it('is read by a multipart parser as the same form', async () => {
		const envelope = multipartEnvelope(fields, png);
		const parsed = await parseMultipart(
			wrapStream(Readable.from(chunks), envelope),
			envelope.boundary,
		);
		expect(parsed.fields).toEqual(fields);
		expect(parsed.files).toHaveLength(1);
		expect(parsed.files[0].fileName).toBe('logo.png');
		expect(parsed.files[0].mimeType).toBe('image/png');
		expect(parsed.files[0].data.equals(data)).toBe(true);
	});

	it('keeps every byte of a file in many chunks', async () => {
		const many = Array.from({ length: 2000 }, () => randomBytes(512));
		const envelope = multipartEnvelope(fields, png);
		expect(
			(await drain(wrapStream(Readable.from(many), envelope))).equals(
				whole(envelope, Buffer.concat(many)),
			),
		).toBe(true);
	});

	it('wraps an empty file', async () => {
		const envelope = multipartEnvelope(fields, png);
		expect(
			(await drain(wrapStream(Readable.from([]), envelope))).equals(
				whole(envelope, Buffer.alloc(0)),
			),
		).toBe(true);
	});

	it('reads the file only when the wrapper is read', async () => {
		let pulled = 0;
		async function* source(): AsyncGenerator<Buffer> {
			for (const chunk of chunks) {
				pulled++;
				yield chunk;
			}
		}
		const envelope = multipartEnvelope(fields, png);
		const wrapped = wrapStream(Readable.from(source()), envelope);
		await new Promise<void>((resolve) => setImmediate(resolve));
		expect(pulled).toBe(0);
		expect((await drain(wrapped)).equals(whole(envelope, data))).toBe(true);
		expect(pulled).toBe(chunks.length);
	});

	it('passes on an error of the file stream', async () => {
		async function* failing(): AsyncGenerator<Buffer> {
			yield Buffer.from('part of the file');
			throw new Error('disk read failed');
		}
		const wrapped = wrapStream(Readable.from(failing()), multipartEnvelope(fields, png));
		await expect(drain(wrapped)).rejects.toThrow('disk read failed');
	});
});
