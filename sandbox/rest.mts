// REST operations of spec 4.1 under /v1 (README "REST").
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { canSeeTemplate, templateRule } from './access.mts';
import type { AppContext } from './context.mts';
import { handleGraphql } from './graphql.mts';
import {
	type ApiResponse,
	type ErrorDetail,
	HttpError,
	isPlainObject,
	iso,
	readJson,
} from './http.mts';
import type { AiMessaging, AssetRecord, UserRecord, VideoRecord } from './store.mts';
import { handleUpload } from './upload.mts';
import {
	ASPECT_RATIOS,
	ASSET_TYPES,
	type AspectRatio,
	type AssetType,
	VIDEO_STATUSES,
	type VideoStatus,
} from './types.mts';

export interface RouteContext {
	app: AppContext;
	req: IncomingMessage;
	url: URL;
	user: UserRecord;
	params: string[];
}

type Handler = (rc: RouteContext) => Promise<ApiResponse> | ApiResponse;

const ROUTES: Array<{ pattern: RegExp; handlers: Record<string, Handler> }> = [
	{ pattern: /^\/v1\/videos$/, handlers: { GET: listVideos, POST: createVideo } },
	{ pattern: /^\/v1\/assets$/, handlers: { GET: listAssets, POST: handleUpload } },
	{
		pattern: /^\/v1\/assets\/([^/]+)$/,
		handlers: { GET: getAsset, PATCH: updateAsset, PUT: updateAsset, DELETE: deleteAsset },
	},
	{ pattern: /^\/v1\/graphql$/, handlers: { POST: handleGraphql } },
];

/** Authenticates, routes and runs one API request. Throws HttpError for error answers. */
export async function routeApi(
	app: AppContext,
	req: IncomingMessage,
	url: URL,
): Promise<ApiResponse> {
	const path = url.pathname;
	if (path !== '/v1' && !path.startsWith('/v1/'))
		throw new HttpError(404, 'not_found', `No such path: ${path} (the API lives under /v1)`);
	const user = authenticate(app, req);
	for (const route of ROUTES) {
		const m = route.pattern.exec(path);
		if (!m) continue;
		const method = (req.method ?? 'GET').toUpperCase();
		const handler = route.handlers[method];
		if (!handler) {
			const allow = Object.keys(route.handlers).join(', ');
			throw new HttpError(
				405,
				'method_not_allowed',
				`${method} is not allowed on ${path}; allowed: ${allow}`,
				undefined,
				{ Allow: allow },
			);
		}
		return handler({ app, req, url, user, params: m.slice(1).map(decodeURIComponent) });
	}
	throw new HttpError(404, 'not_found', `No such path: ${path}`);
}

function authenticate(app: AppContext, req: IncomingMessage): UserRecord {
	const header = req.headers.authorization;
	const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
	if (!header)
		throw new HttpError(
			401,
			'missing_api_key',
			'Missing Authorization header; send Authorization: Bearer <API key>',
			undefined,
			{ 'WWW-Authenticate': 'Bearer' },
		);
	if (!match)
		throw new HttpError(
			401,
			'invalid_api_key',
			'Malformed Authorization header; expected "Bearer <API key>"',
			undefined,
			{ 'WWW-Authenticate': 'Bearer' },
		);
	const result = app.store.authenticate(match[1]);
	if ('user' in result) return result.user;
	if (result.error === 'expired') {
		throw new HttpError(
			401,
			'expired_api_key',
			`The API key expired on ${iso(result.expiredAt ?? 0)}; create a new key in the developer dashboard`,
			undefined,
			{
				'WWW-Authenticate': 'Bearer error="invalid_token", error_description="expired"',
			},
		);
	}
	throw new HttpError(401, 'invalid_api_key', 'Invalid API key', undefined, {
		'WWW-Authenticate': 'Bearer error="invalid_token"',
	});
}

// ---------------------------------------------------------------- serialization

export function videoJson(
	app: AppContext,
	video: VideoRecord,
	now: number,
): Record<string, unknown> {
	const status = app.store.videoStatus(video, now);
	const done = status === 'published';
	const files = app.store.fileBaseUrl ?? app.cdnUrl;
	return {
		id: video.id,
		title: video.title,
		status,
		duration: done ? video.duration : null,
		created_at: iso(video.createdAt),
		url: done ? `${files}/videos/${video.id}.mp4` : null,
		thumbnail: done ? `${files}/videos/${video.id}.jpg` : null,
	};
}

export function assetJson(app: AppContext, asset: AssetRecord): Record<string, unknown> {
	return {
		id: asset.id,
		name: asset.name,
		type: asset.type,
		url: `${app.cdnUrl}/assets/${asset.id}.${asset.ext}`,
		content_type: asset.contentType,
		size: asset.size,
		width: asset.width,
		height: asset.height,
		duration: asset.duration,
		tags: [...asset.tags],
		created_at: iso(asset.createdAt),
	};
}

function envelope<T>(data: T[], total: number, page: number, limit: number) {
	const pages = Math.ceil(total / limit);
	return {
		data,
		pagination: {
			total,
			page,
			limit,
			next_page: page < pages ? page + 1 : null,
			prev_page: page > 1 ? page - 1 : null,
		},
	};
}

// ---------------------------------------------------------------- query parameters

function singleParam(url: URL, name: string): string | undefined {
	const values = url.searchParams.getAll(name);
	if (values.length > 1)
		throw new HttpError(
			400,
			'invalid_query',
			`Query parameter ${name} given ${values.length} times`,
		);
	return values[0];
}

function intParam(url: URL, name: string, fallback: number, min: number, max: number): number {
	const raw = singleParam(url, name);
	if (raw === undefined) return fallback;
	const bound = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `between ${min} and ${max}`;
	if (!/^[0-9]{1,15}$/.test(raw))
		throw new HttpError(
			400,
			'invalid_query',
			`Query parameter ${name} must be an integer ${bound}, got "${raw}"`,
		);
	const value = Number(raw);
	if (value < min || value > max)
		throw new HttpError(
			400,
			'invalid_query',
			`Query parameter ${name} must be an integer ${bound}, got ${value}`,
		);
	return value;
}

function enumParam<T extends string>(url: URL, name: string, allowed: readonly T[]): T | undefined {
	const raw = singleParam(url, name);
	if (raw === undefined) return undefined;
	if (!(allowed as readonly string[]).includes(raw))
		throw new HttpError(
			400,
			'invalid_query',
			`Query parameter ${name} must be one of ${allowed.join(', ')}, got "${raw}"`,
		);
	return raw as T;
}

function paging(url: URL): { page: number; limit: number; offset: number } {
	const page = intParam(url, 'page', 1, 1, Number.MAX_SAFE_INTEGER);
	const limit = intParam(url, 'limit', 20, 1, 100);
	return { page, limit, offset: (page - 1) * limit };
}

// ---------------------------------------------------------------- videos

function listVideos({ app, url, user }: RouteContext): ApiResponse {
	const { page, limit, offset } = paging(url);
	const status = enumParam<VideoStatus>(url, 'status', VIDEO_STATUSES);
	const now = app.store.now();
	const result = app.store.pageVideos(user.brandId, { status, offset, limit });
	return {
		status: 200,
		body: envelope(
			result.items.map((v) => videoJson(app, v, now)),
			result.total,
			page,
			limit,
		),
	};
}

interface CreateVideoInput {
	title: string;
	template_id: string;
	customer_data: Record<string, unknown>;
	ai_messaging: AiMessaging | null;
	aspect_ratio: AspectRatio;
	project_id: string | null;
}

function validateCreateVideo(body: unknown): CreateVideoInput {
	if (!isPlainObject(body))
		throw new HttpError(400, 'invalid_body', 'Request body must be a JSON object');
	const details: ErrorDetail[] = [];
	const requireString = (field: string) => {
		const v = body[field];
		if (v === undefined || v === null) details.push({ field, message: 'is required' });
		else if (typeof v !== 'string') details.push({ field, message: 'must be a string' });
		else if (v.trim() === '') details.push({ field, message: 'must not be empty' });
	};
	requireString('title');
	requireString('template_id');
	const customerData = body.customer_data;
	if (customerData === undefined || customerData === null)
		details.push({ field: 'customer_data', message: 'is required' });
	else if (!isPlainObject(customerData))
		details.push({ field: 'customer_data', message: 'must be a JSON object' });
	const ai = body.ai_messaging;
	if (ai !== undefined && ai !== null) {
		if (!isPlainObject(ai))
			details.push({ field: 'ai_messaging', message: 'must be a JSON object' });
		else {
			if (ai.tone !== undefined && ai.tone !== null && typeof ai.tone !== 'string')
				details.push({ field: 'ai_messaging.tone', message: 'must be a string' });
			const kp = ai.key_points;
			if (
				kp !== undefined &&
				kp !== null &&
				(!Array.isArray(kp) || kp.some((k) => typeof k !== 'string'))
			) {
				details.push({ field: 'ai_messaging.key_points', message: 'must be an array of strings' });
			}
		}
	}
	const ratio = body.aspect_ratio;
	if (
		ratio !== undefined &&
		ratio !== null &&
		!(typeof ratio === 'string' && (ASPECT_RATIOS as readonly string[]).includes(ratio))
	) {
		details.push({ field: 'aspect_ratio', message: `must be one of ${ASPECT_RATIOS.join(', ')}` });
	}
	const project = body.project_id;
	if (project !== undefined && project !== null && typeof project !== 'string')
		details.push({ field: 'project_id', message: 'must be a string' });
	if (details.length) {
		throw new HttpError(
			422,
			'validation_failed',
			`Invalid video: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}`,
			details,
		);
	}
	return {
		title: body.title as string,
		template_id: body.template_id as string,
		customer_data: customerData as Record<string, unknown>,
		ai_messaging: isPlainObject(ai) ? (ai as AiMessaging) : null,
		aspect_ratio: (ratio as AspectRatio | undefined | null) ?? '9:16',
		project_id: (project as string | undefined | null) ?? null,
	};
}

async function createVideo({ app, req, user }: RouteContext): Promise<ApiResponse> {
	const input = validateCreateVideo(await readJson(req));
	const { store } = app;
	const template = store.templates.get(input.template_id);
	if (!template)
		throw new HttpError(404, 'template_not_found', `No template with id ${input.template_id}`);
	if (!canSeeTemplate(store, user, template))
		throw new HttpError(
			403,
			'forbidden',
			`Template ${template.id} is not available to this key: ${templateRule(template)}`,
		);
	const idempotencyKey = req.headers['idempotency-key'];
	const key =
		typeof idempotencyKey === 'string' && idempotencyKey !== '' ? idempotencyKey : undefined;
	const fingerprint = JSON.stringify(input);
	if (key) {
		const previous = store.idempotentVideo(user.id, key);
		if (previous) {
			if (previous.fingerprint !== fingerprint) {
				throw new HttpError(
					409,
					'idempotency_conflict',
					`Idempotency-Key "${key}" was already used with a different request body`,
				);
			}
			const video = store.videos.get(previous.videoId);
			if (video)
				return {
					status: 201,
					headers: { 'Idempotent-Replayed': 'true' },
					body: videoJson(app, video, store.now()),
				};
		}
	}
	if (!store.chargeCredit(user.brandId)) {
		const brand = store.brand(user.brandId);
		throw new HttpError(
			402,
			'insufficient_credits',
			`Brand ${brand.name} has no credits left (brand share ${brand.credits}); an organisation admin can allocate more`,
		);
	}
	const video = store.createVideo({
		brandId: user.brandId,
		title: input.title,
		templateId: template.id,
		customerData: input.customer_data,
		aiMessaging: input.ai_messaging,
		aspectRatio: input.aspect_ratio,
		projectId: input.project_id,
	});
	if (key) store.rememberIdempotentVideo(user.id, key, { fingerprint, videoId: video.id });
	return { status: 201, body: videoJson(app, video, store.now()) };
}

// ---------------------------------------------------------------- assets

function listAssets({ app, url, user }: RouteContext): ApiResponse {
	const { page, limit, offset } = paging(url);
	const type = enumParam<AssetType>(url, 'type', ASSET_TYPES);
	const tag = singleParam(url, 'tag');
	const result = app.store.pageAssets(user.brandId, { type, tag, offset, limit });
	return {
		status: 200,
		body: envelope(
			result.items.map((a) => assetJson(app, a)),
			result.total,
			page,
			limit,
		),
	};
}

function findAsset({ app, user, params }: RouteContext): AssetRecord {
	const asset = app.store.getAsset(params[0]);
	// Assets of other brands are invisible: 404, not 403.
	if (!asset || asset.brandId !== user.brandId)
		throw new HttpError(404, 'not_found', `No asset with id ${params[0]}`);
	return asset;
}

function getAsset(rc: RouteContext): ApiResponse {
	const asset = findAsset(rc);
	return {
		status: 200,
		body: {
			...assetJson(rc.app, asset),
			last_used: asset.lastUsed === null ? null : iso(asset.lastUsed),
			used_in_videos: asset.usedInVideos,
			used_in_templates: rc.app.store.usedInTemplates(asset.id),
		},
	};
}

async function updateAsset(rc: RouteContext): Promise<ApiResponse> {
	const asset = findAsset(rc);
	const body = await readJson(rc.req);
	if (!isPlainObject(body))
		throw new HttpError(400, 'invalid_body', 'Request body must be a JSON object');
	const details: ErrorDetail[] = [];
	if (body.name !== undefined && (typeof body.name !== 'string' || body.name.trim() === ''))
		details.push({ field: 'name', message: 'must be a non-empty string' });
	if (
		body.tags !== undefined &&
		(!Array.isArray(body.tags) || body.tags.some((t) => typeof t !== 'string'))
	)
		details.push({ field: 'tags', message: 'must be an array of strings' });
	if (details.length)
		throw new HttpError(
			422,
			'validation_failed',
			`Invalid update: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}`,
			details,
		);
	const updated = rc.app.store.updateAsset(asset.id, {
		name: body.name as string | undefined,
		tags: body.tags as string[] | undefined,
	});
	return {
		status: 200,
		body: { ...assetJson(rc.app, updated), updated_at: iso(updated.updatedAt) },
	};
}

async function deleteAsset(rc: RouteContext): Promise<ApiResponse> {
	const asset = findAsset(rc);
	rc.app.store.deleteAsset(asset.id);
	if (asset.uploaded) await rm(asset.filePath, { force: true });
	return { status: 200, body: { id: asset.id, deleted: true } };
}
