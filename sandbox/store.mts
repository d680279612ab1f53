// The sandbox's data: organisations > brands > users, templates, assets and videos, with the video
// lifecycle derived lazily from the clock. Seeded by seed.mts; read and changed by the HTTP layers
// and, directly, by tests (sandbox.store).
import type { Clock } from './clock.mts';
import { mixSeed, Rng } from './rng.mts';
import type {
	AspectRatio,
	AssetType,
	GraphqlOptions,
	ListingLag,
	ListOrder,
	RenderOptions,
	Role,
	TemplateType,
	UploadLimits,
	VideoStatus,
} from './types.mts';

export interface OrganisationRecord {
	id: string;
	name: string;
	created: number;
	updated: number;
	monthlyCredits: number;
	/** Credits available in the organisation pool (the brands' shares are drawn from it). */
	credits: number;
	userLimits: number;
	brandIds: string[];
}

export interface BrandRecord {
	id: string;
	name: string;
	organisationId: string;
	/** The brand's share of its organisation's pool. */
	credits: number;
}

export interface NamedRecord {
	id: string;
	name: string;
}

export interface UserRecord {
	id: string;
	firstName: string;
	lastName: string;
	email: string;
	phone: string;
	brandId: string;
	roles: Role[];
	teamId: string | null;
	verified: boolean;
	currentStep: number;
	enabled: boolean;
	campaignIds: string[];
}

export interface TemplateFieldRecord {
	id: string;
	name: string;
	label: string;
	type: 'text' | 'media' | 'color' | 'font';
	required: boolean;
	defaultValue: string | null;
	maxLength: number | null;
	mediaType: AssetType | null;
}

export interface TemplateRecord {
	id: string;
	name: string;
	description: string;
	templateType: TemplateType;
	aspectRatio: AspectRatio;
	duration: number;
	categories: NamedRecord[];
	tags: NamedRecord[];
	fields: TemplateFieldRecord[];
	/** Owning brand; null for stock templates and for platform scenes/end cards (global admins only). */
	brandId: string | null;
	/** Assets the template uses (they count in used_in_templates). */
	assetIds: string[];
}

export interface AssetRecord {
	id: string;
	seq: number;
	brandId: string;
	name: string;
	type: AssetType;
	contentType: string;
	/** File extension of the CDN path. */
	ext: string;
	size: number;
	width: number | null;
	height: number | null;
	duration: number | null;
	tags: string[];
	createdAt: number;
	updatedAt: number;
	/** File served by the CDN (an upload or a committed fixture). */
	filePath: string;
	uploaded: boolean;
	lastUsed: number | null;
	usedInVideos: number;
}

export type AiMessaging = { tone?: string; key_points?: string[] } & Record<string, unknown>;

export interface VideoRecord {
	id: string;
	seq: number;
	brandId: string;
	title: string;
	templateId: string;
	/** The video exists (is listed) from this instant. */
	createdAt: number;
	/** Draft until this instant, then processing. */
	processingAt: number;
	/** Processing until this instant, then `outcome`. Infinity: never finishes. */
	finishAt: number;
	outcome: 'published' | 'failed';
	/** Seconds, shown once published. */
	duration: number;
	aspectRatio: AspectRatio;
	projectId: string | null;
	/** Kept for videos created through the API or addVideos; null for seeded ones. */
	customerData: Record<string, unknown> | null;
	aiMessaging: AiMessaging | null;
	/** Ids of the assets customer_data references. */
	assetIds: string[];
}

/** A video as tests see it: the record plus its status now. */
export type VideoInfo = Readonly<VideoRecord> & { status: VideoStatus };

export interface KeyRecord {
	userId: string;
	/** null: never expires. */
	expiresAt: number | null;
}

export interface KnownIds {
	primaryOrganisationId: string;
	primaryOrganisationName: string;
	primaryBrandId: string;
	primaryBrandName: string;
	/** Brand of the organisation with 0 credits (the noCredits key's). */
	emptyBrandId: string;
	/** Second brand of the primary organisation. */
	siblingBrandId: string;
	otherOrganisationId: string;
	otherOrganisationName: string;
	otherBrandId: string;
	stockTemplateId: string;
	stockTemplateName: string;
	brandTemplateId: string;
	brandTemplateName: string;
	siblingBrandTemplateId: string;
	otherBrandTemplateId: string;
	/** A scene with no brand: only global admins may see it. */
	platformSceneTemplateId: string;
	sceneTemplateId: string;
	endcardTemplateId: string;
	/** Image asset of the primary brand used in videos and templates. */
	usedAssetId: string;
	/** Image asset of the primary brand used nowhere. */
	unusedAssetId: string;
	videoAssetId: string;
	audioAssetId: string;
	otherBrandAssetId: string;
	users: Record<
		| 'user'
		| 'brandAdmin'
		| 'orgAdmin'
		| 'admin'
		| 'otherBrandUser'
		| 'noCredits'
		| 'expired'
		| 'disabled',
		string
	>;
}

export interface ResolvedRender {
	queueMs: number;
	minMs: number;
	maxMs: number;
	failureShare: number;
}

export const DEFAULT_RENDER: ResolvedRender = {
	queueMs: 2_000,
	minMs: 10_000,
	maxMs: 30_000,
	failureShare: 0.1,
};

/** The spec's limits are decimal megabytes: 10 MB = 10,000,000 bytes. */
const MB = 1_000_000;
export const DEFAULT_UPLOAD_LIMITS: Record<AssetType, number> = {
	image: 10 * MB,
	video: 200 * MB,
	audio: 50 * MB,
};

export interface AddVideosOptions {
	/** Default: the primary brand. */
	brandId?: string;
	/** Default: the known stock template. */
	templateId?: string;
	/** Title prefix; each video gets ` #<n>` appended. Default 'Bulk video'. */
	title?: string;
	/** When the videos appear (a window spreads them uniformly). Default: now. */
	createdAt?: number | { from: number; to: number };
	/** When each video finishes (a window spreads them uniformly). Default: created + queue + seeded render time. */
	finishAt?: number | { from: number; to: number };
	/** Share of failed renders; default the render config's. */
	failureShare?: number;
	/** Force one outcome for all. */
	outcome?: 'published' | 'failed';
	customerData?: Record<string, unknown>;
}

export type VideoOutcome =
	| { status: 'published' | 'failed'; at?: number }
	| { status: 'draft' }
	| { status: 'processing' };

interface IdempotencyEntry {
	fingerprint: string;
	videoId: string;
}

export interface StoreConfig {
	seed: number;
	clock: Clock;
	render?: RenderOptions;
	listOrder?: ListOrder;
	listingLag?: ListingLag;
	graphql?: GraphqlOptions;
	uploadLimits?: UploadLimits;
}

export interface Page<T> {
	items: T[];
	total: number;
}

const ASSET_URL_PATH = /\/assets\/(ast_[A-Za-z0-9_]+)\.[A-Za-z0-9]+$/;

export class Store {
	readonly seed: number;
	readonly clock: Clock;
	render: ResolvedRender;
	listOrder: ListOrder;
	/** Each video is listed only from `listedAt()` on (README "Listing lag"); undefined: at once. */
	listingLag: ListingLag | undefined;
	graphql: Required<GraphqlOptions>;
	/**
	 * Tests: where answers say published videos' files are (`<fileBaseUrl>/videos/<id>.mp4|.jpg`)
	 * instead of the sandbox's CDN, as a service answer pointing elsewhere would.
	 */
	fileBaseUrl: string | undefined = undefined;
	uploadLimits: Record<AssetType, number>;

	readonly organisations = new Map<string, OrganisationRecord>();
	readonly brands = new Map<string, BrandRecord>();
	readonly users = new Map<string, UserRecord>();
	readonly teams = new Map<string, NamedRecord>();
	readonly campaigns = new Map<string, NamedRecord>();
	readonly templates = new Map<string, TemplateRecord>();
	readonly assets = new Map<string, AssetRecord>();
	readonly videos = new Map<string, VideoRecord>();
	readonly keys = new Map<string, KeyRecord>();
	known!: KnownIds;

	/** Per brand, sorted by (createdAt, seq). */
	private readonly videosByBrand = new Map<string, VideoRecord[]>();
	private readonly assetsByBrand = new Map<string, AssetRecord[]>();
	private readonly idempotency = new Map<string, IdempotencyEntry>();
	private videoSeq = 0;
	private assetSeq = 0;
	private addVideosCalls = 0;

	constructor(config: StoreConfig) {
		this.seed = config.seed;
		this.clock = config.clock;
		this.render = resolveRender(config.render);
		this.listOrder = config.listOrder ?? 'newest-first';
		this.listingLag = checkListingLag(config.listingLag);
		this.graphql = {
			maxLimit: config.graphql?.maxLimit ?? 100,
			overLimit: config.graphql?.overLimit ?? 'cap',
		};
		this.uploadLimits = { ...DEFAULT_UPLOAD_LIMITS, ...config.uploadLimits };
	}

	now(): number {
		return this.clock.now();
	}

	// ---------------------------------------------------------------- keys and users

	/** The user behind a bearer key, or why there is none. */
	authenticate(
		key: string | undefined,
	): { user: UserRecord } | { error: 'missing' | 'invalid' | 'expired'; expiredAt?: number } {
		if (!key) return { error: 'missing' };
		const record = this.keys.get(key);
		if (!record) return { error: 'invalid' };
		if (record.expiresAt !== null && record.expiresAt <= this.now())
			return { error: 'expired', expiredAt: record.expiresAt };
		const user = this.users.get(record.userId);
		if (!user) return { error: 'invalid' };
		return { user };
	}

	addKey(key: string, userId: string, expiresAt: number | null = null): void {
		if (!this.users.has(userId)) throw new Error(`addKey: unknown user ${userId}`);
		this.keys.set(key, { userId, expiresAt });
	}

	organisationOf(user: UserRecord): OrganisationRecord {
		const brand = this.brand(user.brandId);
		const org = this.organisations.get(brand.organisationId);
		if (!org) throw new Error(`brand ${brand.id} has no organisation`);
		return org;
	}

	brand(id: string): BrandRecord {
		const brand = this.brands.get(id);
		if (!brand) throw new Error(`unknown brand ${id}`);
		return brand;
	}

	// ---------------------------------------------------------------- records (seeding)

	addOrganisation(org: OrganisationRecord): void {
		this.organisations.set(org.id, org);
	}

	addBrand(brand: BrandRecord): void {
		this.brands.set(brand.id, brand);
		this.organisations.get(brand.organisationId)?.brandIds.push(brand.id);
		this.videosByBrand.set(brand.id, []);
		this.assetsByBrand.set(brand.id, []);
	}

	addUser(user: UserRecord): void {
		this.users.set(user.id, user);
	}

	addTemplate(template: TemplateRecord): void {
		this.templates.set(template.id, template);
	}

	// ---------------------------------------------------------------- credits

	/** Sets a brand's share and/or an organisation's pool. */
	setCredits(target: { brandId?: string; organisationId?: string; credits: number }): void {
		if (!Number.isInteger(target.credits) || target.credits < 0)
			throw new RangeError('credits must be an integer >= 0');
		if (target.brandId) this.brand(target.brandId).credits = target.credits;
		else if (target.organisationId) {
			const org = this.organisations.get(target.organisationId);
			if (!org) throw new Error(`unknown organisation ${target.organisationId}`);
			org.credits = target.credits;
		} else throw new Error('setCredits needs brandId or organisationId');
	}

	/** Takes one credit from the brand's share (and so from the organisation pool). False when none is left. */
	chargeCredit(brandId: string): boolean {
		const brand = this.brand(brandId);
		const org = this.organisations.get(brand.organisationId);
		if (!org || brand.credits < 1 || org.credits < 1) return false;
		brand.credits -= 1;
		org.credits -= 1;
		return true;
	}

	// ---------------------------------------------------------------- videos

	videoStatus(video: VideoRecord, now = this.now()): VideoStatus {
		if (now < video.processingAt) return 'draft';
		if (now < video.finishAt) return 'processing';
		return video.outcome;
	}

	getVideo(id: string): VideoInfo | undefined {
		const video = this.videos.get(id);
		return video && { ...video, status: this.videoStatus(video) };
	}

	/** Every video of a brand that exists now, in list order (or the given one). */
	listVideos(
		brandId?: string,
		options: { status?: VideoStatus; order?: ListOrder } = {},
	): VideoInfo[] {
		const page = this.pageVideos(brandId ?? this.known.primaryBrandId, {
			...options,
			offset: 0,
			limit: Number.MAX_SAFE_INTEGER,
		});
		const now = this.now();
		return page.items.map((v) => ({ ...v, status: this.videoStatus(v, now) }));
	}

	/** When the video list starts showing `video`: created_at plus its seeded listing lag, if any. */
	listedAt(video: VideoRecord): number {
		const lag = this.listingLag;
		if (!lag) return video.createdAt;
		const rng = new Rng(mixSeed(this.seed, 0x1a9, video.seq));
		return video.createdAt + Math.round(lag.minMs + rng.float() * (lag.maxMs - lag.minMs));
	}

	/** One page of a brand's videos that exist now (created_at <= now) and are listed (`listedAt`). */
	pageVideos(
		brandId: string,
		options: { status?: VideoStatus; order?: ListOrder; offset: number; limit: number },
	): Page<VideoRecord> {
		const all = this.videosByBrand.get(brandId) ?? [];
		const now = this.now();
		const visible = countAtOrBefore(all, now);
		const status = options.status;
		const listed = this.listingLag ? (v: VideoRecord) => this.listedAt(v) <= now : undefined;
		const match =
			status || listed
				? (v: VideoRecord) =>
						(!listed || listed(v)) && (!status || this.videoStatus(v, now) === status)
				: undefined;
		return pageOf(
			all,
			visible,
			options.order ?? this.listOrder,
			options.offset,
			options.limit,
			match,
		);
	}

	/** A new video from the API: draft now, processing after the queue time, then published or failed
	 * after a render time and outcome drawn from (seed, sequence number). */
	createVideo(input: {
		brandId: string;
		title: string;
		templateId: string;
		customerData: Record<string, unknown>;
		aiMessaging: AiMessaging | null;
		aspectRatio: AspectRatio;
		projectId: string | null;
	}): VideoRecord {
		const seq = ++this.videoSeq;
		const rng = new Rng(mixSeed(this.seed, 0x5eed, seq));
		const now = this.now();
		const { queueMs, minMs, maxMs, failureShare } = this.render;
		const renderMs = Math.round(minMs + rng.float() * (maxMs - minMs));
		const failed = rng.chance(failureShare);
		const video: VideoRecord = {
			id: this.newId('vid', seq),
			seq,
			brandId: input.brandId,
			title: input.title,
			templateId: input.templateId,
			createdAt: now,
			processingAt: now + queueMs,
			finishAt: now + queueMs + renderMs,
			outcome: failed ? 'failed' : 'published',
			duration: this.templates.get(input.templateId)?.duration ?? 30,
			aspectRatio: input.aspectRatio,
			projectId: input.projectId,
			customerData: input.customerData,
			aiMessaging: input.aiMessaging,
			assetIds: this.referencedAssets(input.brandId, input.customerData),
		};
		this.insertVideos([video]);
		return video;
	}

	/** Bulk creation without HTTP (no credits charged). Deterministic from the seed and the call order. */
	addVideos(count: number, options: AddVideosOptions = {}): VideoInfo[] {
		if (!Number.isInteger(count) || count < 0)
			throw new RangeError('addVideos: count must be an integer >= 0');
		const brandId = options.brandId ?? this.known.primaryBrandId;
		this.brand(brandId);
		const templateId = options.templateId ?? this.known.stockTemplateId;
		const template = this.templates.get(templateId);
		if (!template) throw new Error(`addVideos: unknown template ${templateId}`);
		const rng = new Rng(mixSeed(this.seed, 0xadd, ++this.addVideosCalls));
		const now = this.now();
		const { queueMs, minMs, maxMs } = this.render;
		const failureShare = options.failureShare ?? this.render.failureShare;
		const pickTime = (spec: number | { from: number; to: number } | undefined, fallback: number) =>
			spec === undefined
				? fallback
				: typeof spec === 'number'
					? spec
					: Math.round(spec.from + rng.float() * (spec.to - spec.from));
		const assetIds = options.customerData
			? this.referencedAssets(brandId, options.customerData)
			: [];
		const created: VideoRecord[] = [];
		for (let i = 0; i < count; i++) {
			const seq = ++this.videoSeq;
			const createdAt = pickTime(options.createdAt, now);
			const finishAt = Math.max(
				createdAt,
				pickTime(
					options.finishAt,
					createdAt + queueMs + Math.round(minMs + rng.float() * (maxMs - minMs)),
				),
			);
			const failed = options.outcome ? options.outcome === 'failed' : rng.chance(failureShare);
			created.push({
				id: this.newId('vid', seq),
				seq,
				brandId,
				title: `${options.title ?? 'Bulk video'} #${seq}`,
				templateId,
				createdAt,
				processingAt: Math.min(createdAt + queueMs, finishAt),
				finishAt,
				outcome: failed ? 'failed' : 'published',
				duration: template.duration,
				aspectRatio: template.aspectRatio,
				projectId: null,
				customerData: options.customerData ?? null,
				aiMessaging: null,
				assetIds,
			});
		}
		this.insertVideos(created);
		return created.map((v) => ({ ...v, status: this.videoStatus(v, now) }));
	}

	/** Forces how and when a video finishes ('draft'/'processing': hold it there from now on). */
	setVideoOutcome(id: string, outcome: VideoOutcome): VideoInfo {
		const video = this.videos.get(id);
		if (!video) throw new Error(`setVideoOutcome: unknown video ${id}`);
		const now = this.now();
		if (outcome.status === 'draft') {
			video.processingAt = Infinity;
			video.finishAt = Infinity;
		} else if (outcome.status === 'processing') {
			video.processingAt = Math.min(video.processingAt, now);
			video.finishAt = Infinity;
		} else {
			const at = outcome.at ?? now;
			if (at < video.createdAt)
				throw new RangeError('setVideoOutcome: at is before the video was created');
			video.outcome = outcome.status;
			video.finishAt = at;
			video.processingAt = Math.min(video.processingAt, at);
		}
		return { ...video, status: this.videoStatus(video, now) };
	}

	/** Every video not yet finished (draft or processing, existing now) finishes now with its own outcome,
	 * or with `status` when given. Returns how many. */
	finishAll(status?: 'published' | 'failed'): number {
		const now = this.now();
		let n = 0;
		for (const video of this.videos.values()) {
			if (video.createdAt > now || now >= video.finishAt) continue;
			video.processingAt = Math.min(video.processingAt, now);
			video.finishAt = now;
			if (status) video.outcome = status;
			n++;
		}
		return n;
	}

	/** Records that also count asset usage; used by seeding and by the methods above. */
	insertVideos(videos: VideoRecord[]): void {
		const touched = new Set<VideoRecord[]>();
		for (const video of videos) {
			if (this.videos.has(video.id)) throw new Error(`duplicate video id ${video.id}`);
			this.videos.set(video.id, video);
			const list = this.videosByBrand.get(video.brandId);
			if (!list) throw new Error(`unknown brand ${video.brandId}`);
			const last = list[list.length - 1];
			list.push(video);
			if (last && compareByCreation(last, video) > 0) touched.add(list);
			for (const assetId of video.assetIds) this.countAssetUse(assetId, video.createdAt);
		}
		for (const list of touched) list.sort(compareByCreation);
	}

	nextVideoSeq(): number {
		return ++this.videoSeq;
	}

	/** Fingerprinted replay of create requests carrying an Idempotency-Key (see README). */
	idempotentVideo(userId: string, key: string): IdempotencyEntry | undefined {
		return this.idempotency.get(`${userId}\n${key}`);
	}

	rememberIdempotentVideo(userId: string, key: string, entry: IdempotencyEntry): void {
		this.idempotency.set(`${userId}\n${key}`, entry);
	}

	// ---------------------------------------------------------------- assets

	getAsset(id: string): AssetRecord | undefined {
		return this.assets.get(id);
	}

	listAssets(
		brandId?: string,
		options: { type?: AssetType; tag?: string; order?: ListOrder } = {},
	): AssetRecord[] {
		return this.pageAssets(brandId ?? this.known.primaryBrandId, {
			...options,
			offset: 0,
			limit: Number.MAX_SAFE_INTEGER,
		}).items;
	}

	pageAssets(
		brandId: string,
		options: { type?: AssetType; tag?: string; order?: ListOrder; offset: number; limit: number },
	): Page<AssetRecord> {
		const all = this.assetsByBrand.get(brandId) ?? [];
		const tag = options.tag?.toLowerCase();
		const { type } = options;
		const match =
			type || tag !== undefined
				? (a: AssetRecord) =>
						(!type || a.type === type) &&
						(tag === undefined || a.tags.some((t) => t.toLowerCase() === tag))
				: undefined;
		return pageOf(
			all,
			all.length,
			options.order ?? this.listOrder,
			options.offset,
			options.limit,
			match,
		);
	}

	/** Adds an asset record (seeded or uploaded). `id` and `seq` are assigned when missing. */
	addAsset(asset: Omit<AssetRecord, 'id' | 'seq'> & { id?: string }): AssetRecord {
		const seq = ++this.assetSeq;
		const record: AssetRecord = { ...asset, id: asset.id ?? this.newId('ast', seq), seq };
		if (this.assets.has(record.id)) throw new Error(`duplicate asset id ${record.id}`);
		this.assets.set(record.id, record);
		const list = this.assetsByBrand.get(record.brandId);
		if (!list) throw new Error(`unknown brand ${record.brandId}`);
		list.splice(insertionIndex(list, record), 0, record);
		return record;
	}

	updateAsset(id: string, changes: { name?: string; tags?: string[] }): AssetRecord {
		const asset = this.assets.get(id);
		if (!asset) throw new Error(`updateAsset: unknown asset ${id}`);
		if (changes.name !== undefined) asset.name = changes.name;
		if (changes.tags !== undefined) asset.tags = [...changes.tags];
		asset.updatedAt = this.now();
		return asset;
	}

	deleteAsset(id: string): AssetRecord | undefined {
		const asset = this.assets.get(id);
		if (!asset) return undefined;
		this.assets.delete(id);
		const list = this.assetsByBrand.get(asset.brandId);
		if (list) list.splice(list.indexOf(asset), 1);
		return asset;
	}

	usedInTemplates(assetId: string): number {
		let n = 0;
		for (const t of this.templates.values()) if (t.assetIds.includes(assetId)) n++;
		return n;
	}

	/** Assets of the brand referenced by customer data values: an asset id, or an asset's CDN url. */
	referencedAssets(brandId: string, data: unknown): string[] {
		const found = new Set<string>();
		const visit = (value: unknown, depth: number) => {
			if (depth > 8) return;
			if (typeof value === 'string') {
				const id = value.startsWith('ast_') ? value : ASSET_URL_PATH.exec(value)?.[1];
				if (id && this.assets.get(id)?.brandId === brandId) found.add(id);
			} else if (Array.isArray(value)) value.forEach((v) => visit(v, depth + 1));
			else if (value && typeof value === 'object')
				Object.values(value).forEach((v) => visit(v, depth + 1));
		};
		visit(data, 0);
		return [...found];
	}

	private countAssetUse(assetId: string, at: number): void {
		const asset = this.assets.get(assetId);
		if (!asset) return;
		asset.usedInVideos++;
		if (asset.lastUsed === null || at > asset.lastUsed) asset.lastUsed = at;
	}

	// ---------------------------------------------------------------- ids

	/** Opaque, seed-derived, unique id like `vid_3f9c0a1b2d4e5f60`. */
	newId(prefix: string, seq: number): string {
		const taken = prefix === 'vid' ? this.videos : this.assets;
		for (let salt = 0; ; salt++) {
			const a = (mixSeed(this.seed, hashPrefix(prefix), seq, salt) >>> 0)
				.toString(16)
				.padStart(8, '0');
			const b = (mixSeed(this.seed, hashPrefix(prefix) + 1, seq, salt) >>> 0)
				.toString(16)
				.padStart(8, '0');
			const id = `${prefix}_${a}${b}`;
			if (!taken.has(id)) return id;
		}
	}
}

function hashPrefix(prefix: string): number {
	return prefix.charCodeAt(0) * 65536 + prefix.charCodeAt(1) * 256 + prefix.charCodeAt(2);
}

export function resolveRender(render: RenderOptions = {}): ResolvedRender {
	const r = { ...DEFAULT_RENDER, ...render };
	if (r.queueMs < 0 || r.minMs < 0 || r.maxMs < r.minMs)
		throw new RangeError('render: need queueMs >= 0 and 0 <= minMs <= maxMs');
	if (r.failureShare < 0 || r.failureShare > 1)
		throw new RangeError('render.failureShare must be within 0..1');
	return r;
}

function checkListingLag(lag: ListingLag | undefined): ListingLag | undefined {
	if (lag && !(lag.minMs >= 0 && lag.maxMs >= lag.minMs && Number.isFinite(lag.maxMs)))
		throw new RangeError('listingLag: need 0 <= minMs <= maxMs (finite)');
	return lag;
}

function compareByCreation(
	a: { createdAt: number; seq: number },
	b: { createdAt: number; seq: number },
): number {
	return a.createdAt - b.createdAt || a.seq - b.seq;
}

/** Where `item` goes in a list sorted by (createdAt, seq). */
function insertionIndex<T extends { createdAt: number; seq: number }>(
	sorted: readonly T[],
	item: T,
): number {
	let lo = 0;
	let hi = sorted.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (compareByCreation(sorted[mid], item) <= 0) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

/** Number of items (sorted by createdAt) with createdAt <= t. */
function countAtOrBefore(sorted: ReadonlyArray<{ createdAt: number }>, t: number): number {
	let lo = 0;
	let hi = sorted.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (sorted[mid].createdAt <= t) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

/** A page of the first `visible` items of an ascending list, in the given order, optionally filtered. */
function pageOf<T>(
	sorted: readonly T[],
	visible: number,
	order: ListOrder,
	offset: number,
	limit: number,
	match?: (item: T) => boolean,
): Page<T> {
	const at = (i: number) => (order === 'newest-first' ? sorted[visible - 1 - i] : sorted[i]);
	if (!match) {
		const items: T[] = [];
		for (let i = offset; i < visible && items.length < limit; i++) items.push(at(i));
		return { items, total: visible };
	}
	const items: T[] = [];
	let total = 0;
	for (let i = 0; i < visible; i++) {
		const item = at(i);
		if (!match(item)) continue;
		if (total >= offset && items.length < limit) items.push(item);
		total++;
	}
	return { items, total };
}
