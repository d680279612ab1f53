import { randomBytes } from 'crypto';
import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import { BINARY_ENCODING } from 'n8n-workflow';

import type { PreparedBody } from './call';

export interface MultipartFile {
	field: string;
	fileName: string;
	mimeType: string;
}

export interface MultipartEnvelope {
	head: Buffer;
	tail: Buffer;
	boundary: string;
}

export function newBoundary(): string {
	return `----n8nVideoPersonalization${randomBytes(12).toString('hex')}`;
}

function quoted(value: string): string {
	return value.replace(/[\r\n]/g, ' ').replace(/"/g, '%22');
}

/** `filename="…"` for every parser, plus RFC 5987 `filename*` when the name is not plain ASCII. */
function fileNameParams(fileName: string): string {
	// A backslash escapes the next character of a quoted string (`"a\"` never ends): only filename* carries it.
	const ascii = fileName.replace(/[^\x20-\x7e]|\\/g, '_');
	const plain = `filename="${quoted(ascii)}"`;
	if (ascii === fileName) return plain;
	// RFC 5987 value-chars: encodeURIComponent leaves ' ( ) * as they are, and parsers stop at them.
	const encoded = encodeURIComponent(fileName).replace(
		/['()*]/g,
		(char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
	);
	return `${plain}; filename*=UTF-8''${encoded}`;
}

/**
 * The bytes around the file in a multipart/form-data body: the text fields first (so a
 * server can refuse early), then the file part's header; the tail closes the body.
 */
export function multipartEnvelope(
	fields: Array<[string, string]>,
	file: MultipartFile,
	boundary = newBoundary(),
): MultipartEnvelope {
	const parts = fields.map(
		([name, value]) =>
			`--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`,
	);
	const fileDisposition = `form-data; name="${quoted(file.field)}"; ${fileNameParams(file.fileName)}`;
	parts.push(
		`--${boundary}\r\nContent-Disposition: ${fileDisposition}\r\n` +
			`Content-Type: ${file.mimeType}\r\n\r\n`,
	);
	return {
		head: Buffer.from(parts.join(''), 'utf8'),
		tail: Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8'),
		boundary,
	};
}

type BinaryStream = Awaited<ReturnType<IExecuteFunctions['helpers']['getBinaryStream']>>;

/** The static `from` every Node.js readable stream class inherits from stream.Readable. */
interface ReadableClass {
	from(source: AsyncIterable<Buffer>, options: { objectMode: boolean }): BinaryStream;
}

/** The file stream wrapped in the envelope, still a stream: the file is never held in memory. */
export function wrapStream(file: BinaryStream, envelope: MultipartEnvelope): BinaryStream {
	async function* chunks(): AsyncGenerator<Buffer> {
		yield envelope.head;
		for await (const chunk of file) yield chunk as Buffer;
		yield envelope.tail;
	}
	return (file.constructor as unknown as ReadableClass).from(chunks(), { objectMode: false });
}

/** Size in bytes of a binary property, read without loading it. */
export async function binarySize(ctx: IExecuteFunctions, binary: IBinaryData): Promise<number> {
	if (binary.id) return (await ctx.helpers.getBinaryMetadata(binary.id)).fileSize;
	return Buffer.byteLength(binary.data, BINARY_ENCODING);
}

/** The first bytes of a binary property (to tell its format), read without loading the rest. */
export async function binaryHead(
	ctx: IExecuteFunctions,
	binary: IBinaryData,
	count = 4096,
): Promise<Buffer> {
	if (!binary.id)
		return Buffer.from(binary.data.slice(0, Math.ceil(count / 3) * 4), BINARY_ENCODING);
	const stream = await ctx.helpers.getBinaryStream(binary.id, count);
	try {
		for await (const chunk of stream) return (chunk as Buffer).subarray(0, count);
		return Buffer.alloc(0);
	} finally {
		stream.destroy();
	}
}

/** A fresh multipart body for each attempt (a stream can be read only once). */
export function multipartBody(
	ctx: IExecuteFunctions,
	binary: IBinaryData,
	size: number,
	fields: Array<[string, string]>,
	file: MultipartFile,
): () => Promise<PreparedBody> {
	return async () => {
		const envelope = multipartEnvelope(fields, file);
		const headers = {
			'Content-Type': `multipart/form-data; boundary=${envelope.boundary}`,
			'Content-Length': String(envelope.head.length + size + envelope.tail.length),
		};
		if (binary.id) {
			const stream = await ctx.helpers.getBinaryStream(binary.id);
			return { body: wrapStream(stream, envelope) as unknown as PreparedBody['body'], headers };
		}
		const data = Buffer.from(binary.data, BINARY_ENCODING);
		return { body: Buffer.concat([envelope.head, data, envelope.tail]), headers };
	};
}
