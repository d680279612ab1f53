// The CDN ({cdn_url}): uploaded files, seeded asset files, rendered videos and thumbnails, template
// previews and avatars. No authentication; HTTP Range supported.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from './context.mts';
import { faultSkipsProcessing, resetSocket, sendFault, wait } from './faults.mts';
import { errorBody, sendJson } from './http.mts';
import type { RequestRecord } from './types.mts';

interface CdnFile {
	path: string;
	contentType: string;
}

function resolveFile(app: AppContext, path: string): CdnFile | undefined {
	const { store, fixtures } = app;
	let m = /^\/assets\/([^/.]+)\.([a-z0-9]+)$/.exec(path);
	if (m) {
		const asset = store.getAsset(m[1]);
		return asset && asset.ext === m[2]
			? { path: asset.filePath, contentType: asset.contentType }
			: undefined;
	}
	m = /^\/videos\/([^/.]+)\.(mp4|jpg)$/.exec(path);
	if (m) {
		const video = store.videos.get(m[1]);
		const now = store.now();
		if (!video || video.createdAt > now || store.videoStatus(video, now) !== 'published')
			return undefined;
		const f = m[2] === 'mp4' ? fixtures.video : fixtures.image;
		return { path: f.path, contentType: f.format.mime };
	}
	m = /^\/templates\/([^/]+)\/preview\.(mp4|jpg)$/.exec(path);
	if (m) {
		if (!store.templates.has(m[1])) return undefined;
		const f = m[2] === 'mp4' ? fixtures.video : fixtures.image;
		return { path: f.path, contentType: f.format.mime };
	}
	m = /^\/avatars\/([^/.]+)\.jpg$/.exec(path);
	if (m && store.users.has(m[1]))
		return { path: fixtures.image.path, contentType: fixtures.image.format.mime };
	return undefined;
}

/** A single byte range of a file of `size` bytes; undefined to ignore the header (RFC 9110: invalid
 * or multi-range headers may be ignored), 'unsatisfiable' for a 416. */
export function parseRange(
	header: string | undefined,
	size: number,
): { start: number; end: number } | 'unsatisfiable' | undefined {
	if (!header) return undefined;
	const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
	if (!m || (m[1] === '' && m[2] === '')) return undefined;
	if (m[1] === '') {
		const suffix = Number(m[2]);
		if (suffix === 0 || size === 0) return 'unsatisfiable';
		return { start: Math.max(0, size - suffix), end: size - 1 };
	}
	const start = Number(m[1]);
	if (m[2] !== '' && Number(m[2]) < start) return undefined;
	if (start >= size) return 'unsatisfiable';
	return { start, end: m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1) };
}

function sendError(
	res: ServerResponse,
	record: RequestRecord,
	status: number,
	code: string,
	message: string,
	headers: Record<string, string> = {},
): void {
	record.status = status;
	sendJson(res, status, errorBody(status, code, message), headers);
}

export async function handleCdn(
	app: AppContext,
	req: IncomingMessage,
	res: ServerResponse,
): Promise<void> {
	const url = new URL(req.url ?? '/', 'http://cdn');
	const record = app.requests.start('cdn', req, url, app.clock.now());
	const method = record.method;
	const fault = app.faults.decide('cdn', method, url.pathname);
	if (fault) record.fault = fault.kind;
	if (fault && faultSkipsProcessing(fault.kind) && fault.kind !== 'reset') {
		record.status = sendFault(res, fault, false);
		return;
	}
	if (fault?.kind === 'slow') await wait(fault.delayMs);

	if (method !== 'GET' && method !== 'HEAD')
		return sendError(
			res,
			record,
			405,
			'method_not_allowed',
			`${method} is not allowed on the CDN`,
			{ Allow: 'GET, HEAD' },
		);
	const file = resolveFile(app, url.pathname);
	const info = file && (await stat(file.path).catch(() => undefined));
	if (!file || !info)
		return sendError(res, record, 404, 'not_found', `No such file: ${url.pathname}`);

	const size = info.size;
	const range = parseRange(
		typeof req.headers.range === 'string' ? req.headers.range : undefined,
		size,
	);
	const headers: Record<string, string> = {
		'Content-Type': file.contentType,
		'Accept-Ranges': 'bytes',
		'Last-Modified': info.mtime.toUTCString(),
		ETag: `"${size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`,
		'Cache-Control': 'public, max-age=3600',
	};
	if (range === 'unsatisfiable') {
		return sendError(
			res,
			record,
			416,
			'range_not_satisfiable',
			`Range ${req.headers.range} is outside the file (${size} bytes)`,
			{ 'Content-Range': `bytes */${size}` },
		);
	}
	const start = range ? range.start : 0;
	const end = range ? range.end : size - 1;
	const status = range ? 206 : 200;
	headers['Content-Length'] = String(Math.max(0, end - start + 1));
	if (range) headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
	record.status = status;
	res.writeHead(status, headers);
	if (method === 'HEAD' || size === 0) {
		res.end();
		return;
	}
	const isReset = fault?.kind === 'reset' || fault?.kind === 'reset-after-commit';
	// A reset sends half of the body, then a TCP RST.
	const stream = createReadStream(file.path, {
		start,
		end: isReset ? start + Math.max(0, Math.floor((end - start) / 2)) : end,
	});
	stream.on('error', () => res.destroy());
	if (isReset) {
		stream.on('data', (chunk) => res.write(chunk));
		stream.on('end', () => res.write('', () => resetSocket(res)));
	} else stream.pipe(res);
}
