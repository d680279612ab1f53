// POST /v1/assets: multipart/form-data streamed to disk with busboy. The file never sits in memory
// (only its first 64 KiB, for metadata); a size limit is enforced while the bytes arrive.
import { randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { finished, type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { type ApiResponse, type ErrorDetail, HttpError } from './http.mts';
import { detectFormat, type FileFormat, sniffMeta } from './media.mts';
import type { RouteContext } from './rest.mts';
import { assetJson } from './rest.mts';
import { ASSET_TYPES, type AssetType } from './types.mts';

const HEAD_BYTES = 65536;
const MiB = 1024 * 1024;

/** A client still sending after an early error answer gets this long before its connection is closed. */
const DRAIN_GRACE_MS = 30_000;

interface FilePart {
	path: string;
	source: Readable;
	counter: Transform;
	out: WriteStream;
	format: FileFormat;
	/** Bytes received so far. */
	size: () => number;
	/** The first bytes (up to 64 KiB), for metadata. */
	head: Buffer[];
	done: Promise<void>;
}

function isAssetType(value: string | undefined): value is AssetType {
	return value !== undefined && (ASSET_TYPES as readonly string[]).includes(value);
}

function formatLimitMessage(type: AssetType, limit: number): string {
	const size = limit % 1_000_000 === 0 ? `${limit / 1_000_000} MB` : `${limit} bytes`;
	return `File too large: ${type} files may be at most ${size} (${limit} bytes)`;
}

export function handleUpload({ app, req, user }: RouteContext): Promise<ApiResponse> {
	const contentType = req.headers['content-type'] ?? '';
	if (!/^multipart\/form-data/i.test(contentType)) {
		req.resume();
		throw new HttpError(
			415,
			'unsupported_media_type',
			`Upload needs Content-Type: multipart/form-data, got ${contentType || 'none'}`,
		);
	}
	const { store } = app;
	return new Promise<ApiResponse>((resolve, reject) => {
		let settled = false;
		let name: string | undefined;
		let type: string | undefined;
		const tags: string[] = [];
		let tagsError: string | undefined;
		let file: FilePart | undefined;

		let bb: busboy.Busboy;
		try {
			bb = busboy({
				headers: req.headers,
				defParamCharset: 'utf8',
				limits: { fields: 100, fieldSize: MiB, parts: 200 },
			});
		} catch (e) {
			req.resume();
			reject(
				new HttpError(400, 'bad_request', `Malformed multipart request: ${(e as Error).message}`),
			);
			return;
		}

		/** Stops parsing at once, removes the partial file, then answers; whatever the client still sends
		 * is discarded (never stored), and a client that keeps sending is cut off after a grace period. */
		const fail = (error: HttpError) => {
			if (settled) return;
			settled = true;
			req.unpipe(bb);
			req.resume();
			if (!req.complete) {
				const timer = setTimeout(() => req.socket.destroy(), DRAIN_GRACE_MS);
				timer.unref();
				req.once('end', () => clearTimeout(timer));
				req.once('close', () => clearTimeout(timer));
			}
			const partial = file;
			if (!partial) return reject(error);
			void Promise.all([closed(partial.source), closed(partial.counter), closed(partial.out)])
				.then(() => rm(partial.path, { force: true }))
				.then(
					() => reject(error),
					() => reject(error),
				);
			for (const s of [partial.source, partial.counter, partial.out]) s.destroy();
		};

		const mismatch = (format: FileFormat, declared: AssetType) =>
			new HttpError(
				415,
				'unsupported_media_type',
				`The file is ${format.name} (${format.type}) but type is "${declared}"; ${declared} accepts ${formatsOf(declared)}`,
			);

		bb.on('field', (field, value, info) => {
			if (settled) return;
			if (info.valueTruncated)
				return fail(
					new HttpError(413, 'payload_too_large', `Form field ${field} is larger than 1 MB`),
				);
			if (field === 'name') name = value;
			else if (field === 'type') {
				type = value;
				if (file && isAssetType(value) && value !== file.format.type)
					fail(mismatch(file.format, value));
			} else if (/^tags(\[\d*\])?$/.test(field)) {
				const text = value.trim();
				if (text.startsWith('[')) {
					try {
						const parsed: unknown = JSON.parse(text);
						if (!Array.isArray(parsed) || parsed.some((t) => typeof t !== 'string'))
							tagsError = 'a JSON tags value must be an array of strings';
						else tags.push(...(parsed as string[]));
					} catch {
						tagsError = 'tags is not valid JSON';
					}
				} else if (text !== '') tags.push(text);
			}
		});

		bb.on('file', (field, stream, info) => {
			if (settled || field !== 'file') {
				stream.resume();
				return;
			}
			if (file) {
				stream.resume();
				return fail(new HttpError(400, 'bad_request', 'Send exactly one file part (field "file")'));
			}
			const verdict = detectFormat(info.mimeType, info.filename);
			if (!verdict.ok) {
				stream.resume();
				return fail(
					new HttpError(415, 'unsupported_media_type', `Unsupported file: ${verdict.reason}`),
				);
			}
			const format = verdict.format;
			if (isAssetType(type) && type !== format.type) {
				stream.resume();
				return fail(mismatch(format, type));
			}
			const limit = store.uploadLimits[format.type];
			const path = join(app.uploadDir, `${randomUUID()}.${format.ext}`);
			const head: Buffer[] = [];
			let size = 0;
			let headLength = 0;
			const counter = new Transform({
				transform(chunk: Buffer, _encoding, callback) {
					size += chunk.length;
					if (size > limit)
						return callback(
							new HttpError(413, 'payload_too_large', formatLimitMessage(format.type, limit)),
						);
					if (headLength < HEAD_BYTES) {
						head.push(chunk.subarray(0, HEAD_BYTES - headLength));
						headLength += Math.min(chunk.length, HEAD_BYTES - headLength);
					}
					callback(null, chunk);
				},
			});
			const part: FilePart = {
				path,
				source: stream,
				counter,
				out: createWriteStream(path),
				format,
				size: () => size,
				head,
				done: Promise.resolve(),
			};
			file = part;
			part.done = pipeline(stream, part.counter, part.out).catch((e: unknown) => {
				fail(
					e instanceof HttpError
						? e
						: new HttpError(400, 'bad_request', `Upload interrupted: ${(e as Error).message}`),
				);
			});
		});

		bb.on('error', (e: unknown) =>
			fail(new HttpError(400, 'bad_request', `Malformed multipart body: ${(e as Error).message}`)),
		);
		bb.on('partsLimit', () => fail(new HttpError(400, 'bad_request', 'Too many form parts')));
		bb.on('fieldsLimit', () => fail(new HttpError(400, 'bad_request', 'Too many form fields')));
		req.on('aborted', () => fail(new HttpError(400, 'bad_request', 'Client aborted the upload')));

		bb.on('close', () => {
			void (async () => {
				await file?.done;
				if (settled) return;
				const details: ErrorDetail[] = [];
				if (!file)
					details.push({ field: 'file', message: 'is required (a file part named "file")' });
				if (name === undefined || name.trim() === '')
					details.push({ field: 'name', message: 'is required' });
				if (type === undefined || type === '')
					details.push({ field: 'type', message: 'is required (image, video or audio)' });
				else if (!isAssetType(type))
					details.push({ field: 'type', message: 'must be one of image, video, audio' });
				if (tagsError) details.push({ field: 'tags', message: tagsError });
				if (details.length || !file || !isAssetType(type) || name === undefined) {
					return fail(
						new HttpError(
							422,
							'validation_failed',
							`Invalid upload: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}`,
							details,
						),
					);
				}
				if (type !== file.format.type) return fail(mismatch(file.format, type));
				settled = true;
				const now = store.now();
				const meta = sniffMeta(file.format, Buffer.concat(file.head), file.size());
				const asset = store.addAsset({
					brandId: user.brandId,
					name: name.trim(),
					type,
					contentType: file.format.mime,
					ext: file.format.ext,
					size: file.size(),
					...meta,
					tags: [...new Set(tags.map((t) => t.trim()).filter((t) => t !== ''))],
					createdAt: now,
					updatedAt: now,
					filePath: file.path,
					uploaded: true,
					lastUsed: null,
					usedInVideos: 0,
				});
				resolve({ status: 201, body: assetJson(app, asset) });
			})();
		});

		req.pipe(bb);
	});
}

/** Resolves once a stream is closed (or was already), whatever its outcome. */
function closed(stream: Readable | Transform | WriteStream): Promise<void> {
	if (stream.closed || stream.destroyed) return Promise.resolve();
	return new Promise((resolve) => finished(stream, () => resolve()));
}

function formatsOf(type: AssetType): string {
	return { image: 'JPG, PNG, SVG, WEBP', video: 'MP4, WEBM, MOV', audio: 'MP3, WAV, AAC' }[type];
}
