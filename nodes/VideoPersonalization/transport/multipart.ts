import { randomBytes } from 'crypto';
import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import { BINARY_ENCODING } from 'n8n-workflow';

import type { PreparedBody } from './call';

export type MultipartFile = { field: string; fileName: string; mimeType: string };
export type MultipartEnvelope = { head: Buffer; tail: Buffer; boundary: string };

export const newBoundary = () => `----n8nVideoPersonalization${randomBytes(12).toString('hex')}`;

const quoted = (value: string) => value.replace(/[\r\n]/g, ' ').replace(/"/g, '%22');

/** `filename="…"` for every parser, plus RFC 5987 `filename*` when the name is not plain ASCII. */
function fileNameParams(fileName: string): string {
	// A backslash escapes the next character of a quoted string (`"a\"` never ends): only filename* carries it.
	const ascii = fileName.replace(/[^\x20-\x7e]|\\/g, '_');
	const plain = `filename="${quoted(ascii)}"`;
	if (ascii === fileName) return plain;
	// RFC 5987 value-chars: encodeURIComponent leaves ' ( ) * as they are, and parsers stop at them.
	const hex = (char: string) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`;
	return `${plain}; filename*=UTF-8''${encodeURIComponent(fileName).replace(/['()*]/g, hex)}`;
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
	const part = (name: string, params = '') =>
		`--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"${params}\r\n`;
	const texts = fields.map(([name, value]) => `${part(name)}\r\n${value}\r\n`).join('');
	const disposition = `; ${fileNameParams(file.fileName)}`;
	const fileHeader = `${part(file.field, disposition)}Content-Type: ${file.mimeType}\r\n\r\n`;
	const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
	return { head: Buffer.from(texts + fileHeader), tail, boundary };
}

type BinaryStream = Awaited<ReturnType<IExecuteFunctions['helpers']['getBinaryStream']>>;

/** The file stream wrapped in the envelope, still a stream: the file is never held in memory. */
export function wrapStream(file: BinaryStream, envelope: MultipartEnvelope): BinaryStream {
	async function* chunks(): AsyncGenerator<Buffer> {
		yield envelope.head;
		for await (const chunk of file) yield chunk as Buffer;
		yield envelope.tail;
	}
	// The static `from` every Node.js readable stream class inherits from stream.Readable (which
	// a community node may not import).
	const Readable = file.constructor as unknown as typeof import('stream').Readable;
	return Readable.from(chunks(), { objectMode: false });
}

/** Size in bytes of a binary property, read without loading it. */
export async function binarySize(ctx: IExecuteFunctions, binary: IBinaryData): Promise<number> {
	if (binary.id) return (await ctx.helpers.getBinaryMetadata(binary.id)).fileSize;
	return Buffer.byteLength(binary.data, BINARY_ENCODING);
}

const HEAD_BYTES = 4096;

/** The first bytes of a binary property (to tell its format), read without loading the rest. */
export async function binaryHead(ctx: IExecuteFunctions, binary: IBinaryData): Promise<Buffer> {
	if (!binary.id)
		return Buffer.from(binary.data.slice(0, Math.ceil(HEAD_BYTES / 3) * 4), BINARY_ENCODING);
	const stream = await ctx.helpers.getBinaryStream(binary.id, HEAD_BYTES);
	try {
		for await (const chunk of stream) return (chunk as Buffer).subarray(0, HEAD_BYTES);
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
		const body = binary.id
			? wrapStream(await ctx.helpers.getBinaryStream(binary.id), envelope)
			: Buffer.concat([envelope.head, Buffer.from(binary.data, BINARY_ENCODING), envelope.tail]);
		return { body: body as PreparedBody['body'], headers };
	};
}
