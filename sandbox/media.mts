// File formats of spec 2.4, and light metadata sniffing (dimensions, duration) from a file's first bytes.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { AssetType } from './types.mts';

export interface FileFormat {
	/** Format name as in the spec table. */
	name: string;
	type: AssetType;
	/** Canonical MIME type, stored as the asset's content_type. */
	mime: string;
	/** Canonical file extension (no dot). */
	ext: string;
	mimes: readonly string[];
	exts: readonly string[];
}

export const FORMATS: readonly FileFormat[] = [
	{
		name: 'JPG',
		type: 'image',
		mime: 'image/jpeg',
		ext: 'jpg',
		mimes: ['image/jpeg', 'image/jpg', 'image/pjpeg'],
		exts: ['jpg', 'jpeg'],
	},
	{
		name: 'PNG',
		type: 'image',
		mime: 'image/png',
		ext: 'png',
		mimes: ['image/png'],
		exts: ['png'],
	},
	{
		name: 'SVG',
		type: 'image',
		mime: 'image/svg+xml',
		ext: 'svg',
		mimes: ['image/svg+xml'],
		exts: ['svg'],
	},
	{
		name: 'WEBP',
		type: 'image',
		mime: 'image/webp',
		ext: 'webp',
		mimes: ['image/webp'],
		exts: ['webp'],
	},
	{
		name: 'MP4',
		type: 'video',
		mime: 'video/mp4',
		ext: 'mp4',
		mimes: ['video/mp4'],
		exts: ['mp4'],
	},
	{
		name: 'WEBM',
		type: 'video',
		mime: 'video/webm',
		ext: 'webm',
		mimes: ['video/webm'],
		exts: ['webm'],
	},
	{
		name: 'MOV',
		type: 'video',
		mime: 'video/quicktime',
		ext: 'mov',
		mimes: ['video/quicktime'],
		exts: ['mov'],
	},
	{
		name: 'MP3',
		type: 'audio',
		mime: 'audio/mpeg',
		ext: 'mp3',
		mimes: ['audio/mpeg', 'audio/mp3'],
		exts: ['mp3'],
	},
	{
		name: 'WAV',
		type: 'audio',
		mime: 'audio/wav',
		ext: 'wav',
		mimes: ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave'],
		exts: ['wav'],
	},
	{
		name: 'AAC',
		type: 'audio',
		mime: 'audio/aac',
		ext: 'aac',
		mimes: ['audio/aac', 'audio/x-aac', 'audio/aacp'],
		exts: ['aac'],
	},
];

/** MIME types that say nothing about the format: the file extension decides then. */
const GENERIC_MIMES = new Set([
	'',
	'application/octet-stream',
	'binary/octet-stream',
	'application/binary',
]);

export type FormatVerdict = { ok: true; format: FileFormat } | { ok: false; reason: string };

/** The format of an uploaded file, judged by its MIME type, or by its extension when the MIME type
 * is generic or missing. A known MIME type and a known extension of different asset types are refused. */
export function detectFormat(
	mimeType: string | undefined,
	filename: string | undefined,
): FormatVerdict {
	const mime = (mimeType ?? '').split(';')[0].trim().toLowerCase();
	const dot = (filename ?? '').lastIndexOf('.');
	const ext = dot >= 0 ? (filename ?? '').slice(dot + 1).toLowerCase() : '';
	const byMime = FORMATS.find((f) => f.mimes.includes(mime));
	const byExt = FORMATS.find((f) => f.exts.includes(ext));
	if (byMime && byExt && byMime.type !== byExt.type) {
		return {
			ok: false,
			reason: `MIME type ${mime} (${byMime.type}) and file extension .${ext} (${byExt.type}) disagree`,
		};
	}
	if (byMime) return { ok: true, format: byMime };
	if (GENERIC_MIMES.has(mime) && byExt) return { ok: true, format: byExt };
	const accepted = FORMATS.map((f) => f.name).join(', ');
	return {
		ok: false,
		reason: `unsupported file format (MIME type ${mime || 'none'}, file name ${filename ? `"${filename}"` : 'none'}); accepted: ${accepted}`,
	};
}

export interface MediaMeta {
	width: number | null;
	height: number | null;
	duration: number | null;
}

/** Metadata of a file from its first bytes (up to 64 KiB) and its size. Reads real values where
 * that is simple (PNG, JPEG, SVG, WAV, MP4/MOV with the moov box up front), else plausible ones. */
export function sniffMeta(format: FileFormat, head: Buffer, size: number): MediaMeta {
	if (format.type === 'image') {
		const dims =
			(format.name === 'PNG' && pngSize(head)) ||
			(format.name === 'JPG' && jpegSize(head)) ||
			(format.name === 'SVG' && svgSize(head)) ||
			null;
		return { width: dims ? dims[0] : 1080, height: dims ? dims[1] : 1080, duration: null };
	}
	if (format.type === 'video') {
		const mp4 = format.name === 'MP4' || format.name === 'MOV' ? mp4Meta(head) : null;
		return {
			width: mp4?.width ?? 1080,
			height: mp4?.height ?? 1920,
			duration: mp4?.duration ?? 15,
		};
	}
	const wav = format.name === 'WAV' ? wavDuration(head, size) : null;
	// MP3/AAC: estimate from the size at 128 kbit/s.
	return { width: null, height: null, duration: round3(wav ?? (size * 8) / 128_000) };
}

function round3(n: number): number {
	return Math.round(n * 1000) / 1000;
}

function pngSize(b: Buffer): [number, number] | null {
	if (b.length < 24 || b.readUInt32BE(0) !== 0x89504e47 || b.toString('latin1', 12, 16) !== 'IHDR')
		return null;
	return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

function jpegSize(b: Buffer): [number, number] | null {
	if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null;
	let i = 2;
	while (i + 9 < b.length) {
		if (b[i] !== 0xff) return null;
		const marker = b[i + 1];
		const length = b.readUInt16BE(i + 2);
		const isSof =
			marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
		if (isSof) return [b.readUInt16BE(i + 7), b.readUInt16BE(i + 5)];
		i += 2 + length;
	}
	return null;
}

function svgSize(b: Buffer): [number, number] | null {
	const text = b.toString('utf8');
	const tag = /<svg\b[^>]*>/i.exec(text)?.[0];
	if (!tag) return null;
	const attr = (name: string) =>
		new RegExp(`\\s${name}\\s*=\\s*["']\\s*([0-9.]+)`, 'i').exec(tag)?.[1];
	const w = attr('width');
	const h = attr('height');
	if (w && h) return [Math.round(Number(w)), Math.round(Number(h))];
	const box = /viewBox\s*=\s*["']\s*[-0-9.]+[\s,]+[-0-9.]+[\s,]+([0-9.]+)[\s,]+([0-9.]+)/i.exec(
		tag,
	);
	return box ? [Math.round(Number(box[1])), Math.round(Number(box[2]))] : null;
}

function wavDuration(b: Buffer, size: number): number | null {
	if (
		b.length < 44 ||
		b.toString('latin1', 0, 4) !== 'RIFF' ||
		b.toString('latin1', 8, 12) !== 'WAVE'
	)
		return null;
	let byteRate = 0;
	let i = 12;
	while (i + 8 <= b.length) {
		const id = b.toString('latin1', i, i + 4);
		const len = b.readUInt32LE(i + 4);
		if (id === 'fmt ' && i + 16 <= b.length) byteRate = b.readUInt32LE(i + 16);
		if (id === 'data') return byteRate > 0 ? Math.min(len, size - i - 8) / byteRate : null;
		i += 8 + len + (len % 2);
	}
	return null;
}

/** Duration from mvhd and the first video track's size from tkhd, when the moov box is in `b`. */
function mp4Meta(b: Buffer): { width?: number; height?: number; duration?: number } | null {
	const out: { width?: number; height?: number; duration?: number } = {};
	const walk = (start: number, end: number) => {
		let i = start;
		while (i + 8 <= end) {
			const len = b.readUInt32BE(i);
			const type = b.toString('latin1', i + 4, i + 8);
			if (len < 8) return;
			const boxEnd = Math.min(i + len, end);
			if (type === 'moov' || type === 'trak') walk(i + 8, boxEnd);
			if (type === 'mvhd' && i + 32 <= end) {
				const v1 = b[i + 8] === 1;
				const timescale = v1 ? b.readUInt32BE(i + 28) : b.readUInt32BE(i + 20);
				const duration = v1 ? Number(b.readBigUInt64BE(i + 32)) : b.readUInt32BE(i + 24);
				if (timescale > 0) out.duration = round3(duration / timescale);
			}
			if (type === 'tkhd' && out.width === undefined && i + len <= end) {
				const w = b.readUInt32BE(i + len - 8) / 65536;
				const h = b.readUInt32BE(i + len - 4) / 65536;
				if (w > 0 && h > 0) {
					out.width = Math.round(w);
					out.height = Math.round(h);
				}
			}
			i += len;
		}
	};
	walk(0, b.length);
	return out.duration === undefined && out.width === undefined ? null : out;
}

export interface Fixture {
	path: string;
	size: number;
	format: FileFormat;
	meta: MediaMeta;
}

export interface Fixtures {
	image: Fixture;
	video: Fixture;
	audio: Fixture;
}

/** The committed media files: a real JPG, MP4 and MP3, served for seeded assets, rendered videos,
 * thumbnails and previews. */
export function loadFixtures(mediaDir: string): Fixtures {
	const load = (file: string, ext: string): Fixture => {
		const path = join(mediaDir, file);
		const format = FORMATS.find((f) => f.ext === ext);
		if (!format) throw new Error(`no format for .${ext}`);
		const head = readFileSync(path).subarray(0, 65536);
		const size = statSync(path).size;
		return { path, size, format, meta: sniffMeta(format, head, size) };
	};
	return {
		image: load('thumbnail.jpg', 'jpg'),
		video: load('video.mp4', 'mp4'),
		audio: load('audio.mp3', 'mp3'),
	};
}
