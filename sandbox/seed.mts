// Seeded data: fixed, documented entities (README "Seeded data") plus generated ones that depend
// only on the seed and the dataset size.
import type { Fixtures } from './media.mts';
import { mixSeed, Rng } from './rng.mts';
import type {
	AssetRecord,
	KnownIds,
	NamedRecord,
	Store,
	TemplateFieldRecord,
	UserRecord,
	VideoRecord,
} from './store.mts';
import type { AspectRatio, AssetType, Role, TemplateType } from './types.mts';

export interface DatasetSize {
	/** Videos of the primary brand. */
	videos: number;
	/** Assets of the primary brand. */
	assets: number;
}

export const DATASETS: Record<'default' | 'large', DatasetSize> = {
	default: { videos: 250, assets: 120 },
	large: { videos: 100_000, assets: 10_000 },
};

/** Fixed keys (the same for every seed), one per seeded role user. */
export const SEEDED_KEYS = {
	user: 'vpk_test_user_3b9f2c71d84e4a06',
	brandAdmin: 'vpk_test_brandadmin_8e41c07a5d2b9f13',
	orgAdmin: 'vpk_test_orgadmin_c5d7e9a1f3b24680',
	admin: 'vpk_test_admin_1f2e3d4c5b6a7980',
	otherBrandUser: 'vpk_test_otherbrand_6a5b4c3d2e1f0798',
	noCredits: 'vpk_test_nocredits_0f9e8d7c6b5a4321',
	expired: 'vpk_test_expired_9a8b7c6d5e4f3210',
} as const;

export type SeededKeyName = keyof typeof SEEDED_KEYS;

const DAY = 86_400_000;
const MINUTE = 60_000;

const KNOWN: KnownIds = {
	primaryOrganisationId: 'org_acme',
	primaryOrganisationName: 'Acme Corporation',
	primaryBrandId: 'brd_acme_coffee',
	primaryBrandName: 'Acme Coffee',
	emptyBrandId: 'brd_acme_outlet',
	siblingBrandId: 'brd_acme_tea',
	otherOrganisationId: 'org_globex',
	otherOrganisationName: 'Globex Media',
	otherBrandId: 'brd_globex_studios',
	stockTemplateId: 'tpl_stock_welcome',
	stockTemplateName: 'Welcome Onboarding',
	brandTemplateId: 'tpl_brand_acme_welcome',
	brandTemplateName: 'Acme Coffee Welcome',
	siblingBrandTemplateId: 'tpl_brand_acme_tea',
	otherBrandTemplateId: 'tpl_brand_globex_promo',
	platformSceneTemplateId: 'tpl_scene_city_intro',
	sceneTemplateId: 'tpl_scene_acme_storefront',
	endcardTemplateId: 'tpl_endcard_acme_logo',
	usedAssetId: 'ast_acme_logo',
	unusedAssetId: 'ast_spring_banner',
	videoAssetId: 'ast_intro_clip',
	audioAssetId: 'ast_brand_jingle',
	otherBrandAssetId: 'ast_globex_logo',
	users: {
		user: 'usr_ada_lovelace',
		brandAdmin: 'usr_grace_hopper',
		orgAdmin: 'usr_katherine_johnson',
		admin: 'usr_alan_turing',
		otherBrandUser: 'usr_hedy_lamarr',
		noCredits: 'usr_margaret_hamilton',
		expired: 'usr_charles_babbage',
		disabled: 'usr_barbara_liskov',
	},
};

const FIRST = [
	'Olivia',
	'Liam',
	'Emma',
	'Noah',
	'Amelia',
	'Oliver',
	'Sophia',
	'Elijah',
	'Mia',
	'Lucas',
	'Harper',
	'Mateo',
	'Evelyn',
	'Levi',
	'Aria',
	'Kai',
	'Chloe',
	'Ezra',
	'Nora',
	'Leo',
	'Zoe',
	'Omar',
	'Priya',
	'Hiro',
	'Ines',
	'Tomas',
	'Yara',
	'Femi',
];
const LAST = [
	'Smith',
	'Garcia',
	'Nguyen',
	'Patel',
	'Kim',
	'Müller',
	'Rossi',
	'Silva',
	'Okafor',
	'Johansson',
	'Tanaka',
	'Dubois',
	'Kowalski',
	'Haddad',
	'Brown',
	'Wilson',
	'Moreau',
	'Novak',
	'Costa',
	'Ito',
	'Mensah',
	'Larsen',
];
const ORG_WORDS = [
	'Umbrella',
	'Stark',
	'Wayne',
	'Tyrell',
	'Cyberdyne',
	'Soylent',
	'Hooli',
	'Vandelay',
	'Wonka',
	'Oscorp',
	'Aperture',
	'Pied Piper',
	'Monarch',
	'Dunder',
	'Gringotts',
	'Nakatomi',
];
const ORG_SUFFIX = [
	'Industries',
	'Group',
	'Holdings',
	'Labs',
	'Retail',
	'Logistics',
	'Foods',
	'Travel',
];
const BRAND_WORDS = ['Direct', 'Express', 'Home', 'Kids', 'Pro', 'Outdoor', 'Studio', 'Fresh'];
const TEMPLATE_A = [
	'Spring',
	'Summer',
	'Autumn',
	'Winter',
	'Flash',
	'VIP',
	'Weekend',
	'Anniversary',
	'Birthday',
	'Referral',
	'Upgrade',
	'Survey',
];
const TEMPLATE_B = [
	'Sale Teaser',
	'Offer',
	'Invitation',
	'Reminder',
	'Greeting',
	'Announcement',
	'Follow-up',
	'Highlights',
	'Recap',
	'Shout-out',
];
const SCENE_NAMES = [
	'Scene: Beach Sunset',
	'Scene: Office Lobby',
	'Scene: Mountain Road',
	'Scene: Night Market',
	'Scene: Studio Backdrop',
];
const ENDCARD_NAMES = [
	'Endcard: Subscribe',
	'Endcard: Contact Us',
	'Endcard: Visit Store',
	'Endcard: Social Links',
];
const ASSET_NAMES: Record<AssetType, string[]> = {
	image: [
		'Product Shot',
		'Team Photo',
		'Store Front',
		'Hero Banner',
		'Logo Variant',
		'Background Texture',
		'Menu Card',
		'Event Poster',
	],
	video: ['B-Roll', 'Product Demo', 'Testimonial', 'Intro Sting', 'Outro Sting', 'Drone Shot'],
	audio: ['Background Music', 'Voiceover', 'Sound Effect', 'Jingle Variant'],
};
const ASSET_TAGS: Record<AssetType, string[]> = {
	image: [
		'product',
		'lifestyle',
		'logo',
		'banner',
		'summer',
		'winter',
		'social',
		'team',
		'promo',
		'background',
	],
	video: ['broll', 'demo', 'testimonial', 'intro', 'outro', 'promo', 'social'],
	audio: ['music', 'voiceover', 'sfx', 'jingle', 'calm', 'upbeat'],
};
const CATEGORIES: NamedRecord[] = [
	{ id: 'cat_onboarding', name: 'Onboarding' },
	{ id: 'cat_sales', name: 'Sales' },
	{ id: 'cat_marketing', name: 'Marketing' },
	{ id: 'cat_holiday', name: 'Holiday' },
	{ id: 'cat_customer_success', name: 'Customer Success' },
	{ id: 'cat_events', name: 'Events' },
];
const TAGS: NamedRecord[] = [
	'welcome',
	'new-customer',
	'promo',
	'seasonal',
	'thank-you',
	'renewal',
	'event',
	'product',
	'brand',
	'cta',
].map((name) => ({
	id: `tag_${name.replace(/-/g, '_')}`,
	name,
}));
const TEAMS: NamedRecord[] = [
	{ id: 'team_marketing', name: 'Marketing' },
	{ id: 'team_sales', name: 'Sales' },
	{ id: 'team_customer_success', name: 'Customer Success' },
	{ id: 'team_product', name: 'Product' },
];
const CAMPAIGNS: NamedRecord[] = [
	{ id: 'cmp_spring_launch', name: 'Spring Launch 2026' },
	{ id: 'cmp_loyalty', name: 'Loyalty Rewards' },
	{ id: 'cmp_winback', name: 'Win-back Q1' },
	{ id: 'cmp_webinar', name: 'Webinar Follow-up' },
];

/** Fills an empty store. */
export function seedStore(store: Store, dataset: DatasetSize, fixtures: Fixtures): void {
	const rng = new Rng(mixSeed(store.seed, 0x5eed));
	const origin = store.clock.now();
	store.known = KNOWN;
	for (const t of TEAMS) store.teams.set(t.id, t);
	for (const c of CAMPAIGNS) store.campaigns.set(c.id, c);

	// ---- organisations and brands
	const org = (
		id: string,
		name: string,
		credits: number,
		monthlyCredits: number,
		userLimits: number,
	) =>
		store.addOrganisation({
			id,
			name,
			created: origin - rng.int(400, 1500) * DAY,
			updated: origin - rng.int(1, 60) * DAY,
			monthlyCredits,
			credits,
			userLimits,
			brandIds: [],
		});
	org(KNOWN.primaryOrganisationId, KNOWN.primaryOrganisationName, 5_500, 6_000, 50);
	store.addBrand({
		id: KNOWN.primaryBrandId,
		name: KNOWN.primaryBrandName,
		organisationId: KNOWN.primaryOrganisationId,
		credits: 5_000,
	});
	store.addBrand({
		id: KNOWN.siblingBrandId,
		name: 'Acme Tea',
		organisationId: KNOWN.primaryOrganisationId,
		credits: 500,
	});
	store.addBrand({
		id: KNOWN.emptyBrandId,
		name: 'Acme Outlet',
		organisationId: KNOWN.primaryOrganisationId,
		credits: 0,
	});
	org(KNOWN.otherOrganisationId, KNOWN.otherOrganisationName, 1_000, 1_000, 20);
	store.addBrand({
		id: KNOWN.otherBrandId,
		name: 'Globex Studios',
		organisationId: KNOWN.otherOrganisationId,
		credits: 1_000,
	});
	org('org_initech', 'Initech', 300, 500, 10);
	store.addBrand({
		id: 'brd_initech_labs',
		name: 'Initech Labs',
		organisationId: 'org_initech',
		credits: 300,
	});
	const orgNames = rng.sample(ORG_WORDS, 9);
	orgNames.forEach((word, i) => {
		const id = `org_${(mixSeed(store.seed, 0x0f9, i) >>> 0).toString(16).padStart(8, '0')}`;
		const monthly = rng.int(1, 20) * 100;
		org(id, `${word} ${rng.pick(ORG_SUFFIX)}`, rng.int(0, monthly), monthly, rng.int(5, 100));
		const brandCount = rng.int(1, 2);
		rng.sample(BRAND_WORDS, brandCount).forEach((suffix, j) => {
			const orgRecord = store.organisations.get(id);
			store.addBrand({
				id: `brd_${id.slice(4)}_${j + 1}`,
				name: `${word} ${suffix}`,
				organisationId: id,
				credits: Math.floor((orgRecord?.credits ?? 0) / brandCount),
			});
		});
	});

	// ---- users
	const user = (
		id: string,
		first: string,
		last: string,
		domain: string,
		phone: string,
		brandId: string,
		roles: Role[],
		extra: Partial<UserRecord> = {},
	) =>
		store.addUser({
			id,
			firstName: first,
			lastName: last,
			email: `${first}.${last}@${domain}`.toLowerCase(),
			phone,
			brandId,
			roles,
			teamId: 'team_marketing',
			verified: true,
			currentStep: 5,
			enabled: true,
			campaignIds: ['cmp_spring_launch'],
			...extra,
		});
	const U = KNOWN.users;
	user(
		U.user,
		'Ada',
		'Lovelace',
		'acme.example',
		'+14155550101',
		KNOWN.primaryBrandId,
		['ROLE_USER'],
		{ campaignIds: ['cmp_spring_launch', 'cmp_loyalty'] },
	);
	user(U.brandAdmin, 'Grace', 'Hopper', 'acme.example', '+14155550102', KNOWN.primaryBrandId, [
		'ROLE_USER',
		'ROLE_BRAND_ADMIN',
	]);
	user(
		U.orgAdmin,
		'Katherine',
		'Johnson',
		'acme.example',
		'+14155550103',
		KNOWN.primaryBrandId,
		['ROLE_USER', 'ROLE_ORG_ADMIN'],
		{ teamId: 'team_product' },
	);
	user(
		U.admin,
		'Alan',
		'Turing',
		'vps.example',
		'+14155550104',
		KNOWN.primaryBrandId,
		['ROLE_USER', 'ROLE_ADMIN'],
		{ teamId: null, campaignIds: [] },
	);
	user(
		U.otherBrandUser,
		'Hedy',
		'Lamarr',
		'globex.example',
		'+14155550105',
		KNOWN.otherBrandId,
		['ROLE_USER'],
		{ teamId: 'team_sales', campaignIds: ['cmp_webinar'] },
	);
	user(
		U.noCredits,
		'Margaret',
		'Hamilton',
		'acme.example',
		'+14155550106',
		KNOWN.emptyBrandId,
		['ROLE_USER'],
		{ teamId: 'team_sales' },
	);
	user(
		U.expired,
		'Charles',
		'Babbage',
		'acme.example',
		'+14155550107',
		KNOWN.primaryBrandId,
		['ROLE_USER'],
		{ campaignIds: [] },
	);
	user(
		U.disabled,
		'Barbara',
		'Liskov',
		'acme.example',
		'+14155550108',
		KNOWN.primaryBrandId,
		['ROLE_USER'],
		{
			verified: false,
			enabled: false,
			currentStep: 2,
			teamId: null,
			campaignIds: [],
		},
	);
	user(
		'usr_dennis_ritchie',
		'Dennis',
		'Ritchie',
		'acme.example',
		'+14155550109',
		KNOWN.siblingBrandId,
		['ROLE_USER', 'ROLE_BRAND_ADMIN'],
		{ teamId: 'team_product' },
	);
	user(
		'usr_linus_globex',
		'Linus',
		'Torvalds',
		'globex.example',
		'+14155550110',
		KNOWN.otherBrandId,
		['ROLE_USER', 'ROLE_ORG_ADMIN'],
		{ teamId: null },
	);
	let n = 0;
	for (const brand of store.brands.values()) {
		const count =
			brand.id === KNOWN.primaryBrandId ? 14 : brand.id === KNOWN.emptyBrandId ? 1 : rng.int(2, 4);
		const domain = `${store.organisations.get(brand.organisationId)?.name.split(' ')[0].toLowerCase()}.example`;
		for (let i = 0; i < count; i++) {
			n++;
			const first = rng.pick(FIRST);
			const last = rng.pick(LAST);
			const roles: Role[] = rng.chance(0.15) ? ['ROLE_USER', 'ROLE_BRAND_ADMIN'] : ['ROLE_USER'];
			const verified = rng.chance(0.85);
			store.addUser({
				id: `usr_${(mixSeed(store.seed, 0x05e, n) >>> 0).toString(16).padStart(8, '0')}`,
				firstName: first,
				lastName: last,
				email: `${first}.${last}${n}@${domain}`.toLowerCase().replace('ü', 'u'),
				phone: `+1415556${String(1000 + n).padStart(4, '0')}`,
				brandId: brand.id,
				roles,
				teamId: rng.chance(0.8) ? rng.pick(TEAMS).id : null,
				verified,
				currentStep: verified ? 5 : rng.int(1, 4),
				enabled: rng.chance(0.92),
				campaignIds: rng.sample(CAMPAIGNS, rng.int(0, 2)).map((c) => c.id),
			});
		}
	}
	for (const [name, key] of Object.entries(SEEDED_KEYS) as Array<[SeededKeyName, string]>) {
		store.addKey(key, U[name], name === 'expired' ? origin - 7 * DAY : null);
	}

	// ---- assets (before templates and videos, which reference them)
	const asset = (
		brandId: string,
		type: AssetType,
		name: string,
		tags: string[],
		createdAt: number,
		id?: string,
	): AssetRecord => {
		const f = fixtures[type];
		return store.addAsset({
			id,
			brandId,
			name,
			type,
			contentType: f.format.mime,
			ext: f.format.ext,
			size: f.size,
			width: f.meta.width,
			height: f.meta.height,
			duration: f.meta.duration,
			tags,
			createdAt,
			updatedAt: createdAt,
			filePath: f.path,
			uploaded: false,
			lastUsed: null,
			usedInVideos: 0,
		});
	};
	asset(
		KNOWN.primaryBrandId,
		'image',
		'Acme Logo',
		['logo', 'brand'],
		origin - 300 * DAY,
		KNOWN.usedAssetId,
	);
	asset(
		KNOWN.primaryBrandId,
		'image',
		'Spring Banner',
		['banner', 'spring'],
		origin - 20 * DAY,
		KNOWN.unusedAssetId,
	);
	asset(
		KNOWN.primaryBrandId,
		'video',
		'Intro Clip',
		['intro', 'clip'],
		origin - 200 * DAY,
		KNOWN.videoAssetId,
	);
	asset(
		KNOWN.primaryBrandId,
		'audio',
		'Brand Jingle',
		['music', 'jingle'],
		origin - 150 * DAY,
		KNOWN.audioAssetId,
	);
	asset(
		KNOWN.otherBrandId,
		'image',
		'Globex Logo',
		['logo', 'brand'],
		origin - 250 * DAY,
		KNOWN.otherBrandAssetId,
	);
	const generatedAssets = new Map<string, AssetRecord[]>();
	const assetCounts = new Map<string, number>();
	for (const brand of store.brands.values()) {
		const count =
			brand.id === KNOWN.primaryBrandId
				? Math.max(0, dataset.assets - 4)
				: brand.id === KNOWN.otherBrandId
					? 9
					: brand.id === KNOWN.emptyBrandId
						? 0
						: rng.int(0, 3);
		assetCounts.set(brand.id, count);
	}
	for (const [brandId, count] of assetCounts) {
		const list: AssetRecord[] = [];
		const span = Math.max(200, Math.ceil(count / 20)) * DAY;
		for (let i = 0; i < count; i++) {
			const u = rng.float();
			const type: AssetType = u < 0.6 ? 'image' : u < 0.85 ? 'video' : 'audio';
			const tags = rng.sample(ASSET_TAGS[type], rng.int(0, 3));
			list.push(
				asset(
					brandId,
					type,
					`${rng.pick(ASSET_NAMES[type])} ${i + 1}`,
					tags,
					origin - 60_000 - Math.floor(rng.float() * span),
				),
			);
		}
		generatedAssets.set(brandId, list);
	}

	// ---- templates
	const fields = (
		type: TemplateType,
		withMedia: boolean,
		firstNameRequired: boolean,
	): TemplateFieldRecord[] => {
		const f = (
			name: string,
			label: string,
			t: TemplateFieldRecord['type'],
			extra: Partial<TemplateFieldRecord> = {},
		): TemplateFieldRecord => ({
			id: `fld_${name}`,
			name,
			label,
			type: t,
			required: false,
			defaultValue: null,
			maxLength: null,
			mediaType: null,
			...extra,
		});
		const out = [
			f('title', 'Title', 'text', {
				required: true,
				maxLength: 60,
				defaultValue: 'Hello {{first_name}}!',
			}),
		];
		// One stock template (Renewal Reminder) has a field an item must give: required, no default.
		if (firstNameRequired)
			out.push(f('first_name', 'First name', 'text', { required: true, maxLength: 40 }));
		if (type !== 'endcard')
			out.push(
				f('subtitle', 'Subtitle', 'text', { maxLength: 80 }),
				f('body', 'Body text', 'text', { maxLength: 280 }),
			);
		if (withMedia)
			out.push(
				f('logo', 'Logo', 'media', { mediaType: 'image' }),
				f('background_clip', 'Background clip', 'media', { mediaType: 'video' }),
			);
		out.push(
			f('primary_color', 'Primary color', 'color', { defaultValue: '#1A73E8' }),
			f('font', 'Font', 'font', { defaultValue: 'Inter' }),
		);
		return out;
	};
	const template = (
		id: string,
		name: string,
		templateType: TemplateType,
		brandId: string | null,
		aspectRatio: AspectRatio,
		duration: number,
		categoryIds: string[],
		tagNames: string[],
		assetIds: string[] = [],
		description?: string,
	) =>
		store.addTemplate({
			id,
			name,
			description:
				description ?? `${name}: a ${templateType} template (${aspectRatio}, ${duration} s).`,
			templateType,
			aspectRatio,
			duration,
			categories: CATEGORIES.filter((c) => categoryIds.includes(c.id)),
			tags: TAGS.filter((t) => tagNames.includes(t.name)),
			fields: fields(
				templateType,
				templateType !== 'endcard' || assetIds.length > 0,
				id === 'tpl_stock_renewal',
			),
			brandId,
			assetIds,
		});
	template(
		KNOWN.stockTemplateId,
		KNOWN.stockTemplateName,
		'stock',
		null,
		'9:16',
		30,
		['cat_onboarding'],
		['welcome', 'new-customer'],
		[],
		'Greets a new customer by name and walks through the first steps.',
	);
	template(
		'tpl_stock_product_launch',
		'Product Launch',
		'stock',
		null,
		'16:9',
		45,
		['cat_marketing', 'cat_sales'],
		['product', 'promo'],
	);
	template(
		'tpl_stock_holiday',
		'Holiday Greetings',
		'stock',
		null,
		'1:1',
		20,
		['cat_holiday'],
		['seasonal'],
	);
	template(
		'tpl_stock_thank_you',
		'Thank You Message',
		'stock',
		null,
		'9:16',
		15,
		['cat_customer_success'],
		['thank-you'],
	);
	template(
		'tpl_stock_renewal',
		'Renewal Reminder',
		'stock',
		null,
		'16:9',
		25,
		['cat_sales'],
		['renewal', 'cta'],
	);
	template(
		'tpl_stock_event_invite',
		'Event Invitation',
		'stock',
		null,
		'1:1',
		30,
		['cat_events'],
		['event', 'cta'],
	);
	template(
		KNOWN.brandTemplateId,
		KNOWN.brandTemplateName,
		'brand',
		KNOWN.primaryBrandId,
		'9:16',
		30,
		['cat_onboarding'],
		['welcome', 'brand'],
		[KNOWN.usedAssetId, KNOWN.videoAssetId],
	);
	template(
		'tpl_brand_acme_loyalty',
		'Acme Coffee Loyalty Reward',
		'brand',
		KNOWN.primaryBrandId,
		'1:1',
		20,
		['cat_customer_success'],
		['thank-you', 'brand'],
		[KNOWN.usedAssetId],
	);
	template(
		KNOWN.siblingBrandTemplateId,
		'Acme Tea Seasonal Blend',
		'brand',
		KNOWN.siblingBrandId,
		'16:9',
		35,
		['cat_marketing'],
		['seasonal', 'product'],
	);
	template(
		KNOWN.otherBrandTemplateId,
		'Globex Studio Promo',
		'brand',
		KNOWN.otherBrandId,
		'16:9',
		40,
		['cat_marketing'],
		['promo'],
		[KNOWN.otherBrandAssetId],
	);
	template(
		KNOWN.platformSceneTemplateId,
		'Scene: City Skyline Intro',
		'scene',
		null,
		'16:9',
		8,
		['cat_marketing'],
		[],
	);
	template(
		KNOWN.sceneTemplateId,
		'Acme Storefront Scene',
		'scene',
		KNOWN.primaryBrandId,
		'9:16',
		6,
		['cat_marketing'],
		['brand'],
		[KNOWN.videoAssetId],
	);
	template(
		'tpl_endcard_platform_cta',
		'Endcard: Call to Action',
		'endcard',
		null,
		'9:16',
		5,
		['cat_sales'],
		['cta'],
	);
	template(
		KNOWN.endcardTemplateId,
		'Acme Logo Endcard',
		'endcard',
		KNOWN.primaryBrandId,
		'9:16',
		4,
		['cat_marketing'],
		['brand', 'cta'],
		[KNOWN.usedAssetId],
	);
	const brandIds = [...store.brands.keys()];
	const names = new Set([...store.templates.values()].map((t) => t.name));
	for (let i = 0; i < 22; i++) {
		const u = rng.float();
		const type: TemplateType =
			u < 0.4 ? 'stock' : u < 0.75 ? 'brand' : u < 0.88 ? 'scene' : 'endcard';
		let name =
			type === 'scene'
				? rng.pick(SCENE_NAMES)
				: type === 'endcard'
					? rng.pick(ENDCARD_NAMES)
					: `${rng.pick(TEMPLATE_A)} ${rng.pick(TEMPLATE_B)}`;
		while (names.has(name)) name = `${name} ${rng.int(2, 9)}`;
		names.add(name);
		const brandId =
			type === 'stock'
				? null
				: type === 'brand' || rng.chance(0.5)
					? rng.chance(0.5)
						? KNOWN.primaryBrandId
						: rng.pick(brandIds)
					: null;
		template(
			`tpl_${(mixSeed(store.seed, 0x7e3, i) >>> 0).toString(16).padStart(8, '0')}`,
			name,
			type,
			brandId,
			rng.pick(['9:16', '16:9', '1:1'] as const),
			type === 'scene' || type === 'endcard' ? rng.int(3, 10) : rng.int(10, 60),
			rng.sample(CATEGORIES, rng.int(1, 2)).map((c) => c.id),
			rng.sample(TAGS, rng.int(0, 3)).map((t) => t.name),
		);
	}

	// ---- videos
	for (const brand of store.brands.values()) {
		const count =
			brand.id === KNOWN.primaryBrandId
				? dataset.videos
				: brand.id === KNOWN.otherBrandId
					? 30
					: brand.id === KNOWN.siblingBrandId
						? 10
						: brand.id === KNOWN.emptyBrandId
							? 0
							: rng.int(0, 5);
		seedVideos(store, rng, brand.id, count, generatedAssets.get(brand.id) ?? [], origin);
	}
}

/** A brand's seeded videos over the past (a year for big accounts): most finished, a few still
 * processing or in draft with finish times after the clock's start. */
function seedVideos(
	store: Store,
	rng: Rng,
	brandId: string,
	count: number,
	assets: AssetRecord[],
	origin: number,
): void {
	const templates = [...store.templates.values()].filter(
		(t) => t.templateType === 'stock' || t.brandId === brandId,
	);
	const processing = count === 0 ? 0 : Math.min(40, Math.max(1, Math.round(count * 0.06)));
	const drafts = count === 0 ? 0 : Math.min(25, Math.max(1, Math.round(count * 0.04)));
	const span = (count > 1000 ? 365 : 60) * DAY;
	const { minMs, maxMs } = store.render;
	const plans: Array<Omit<VideoRecord, 'id' | 'seq'>> = [];
	for (let i = 0; i < count; i++) {
		const t = rng.pick(templates);
		let createdAt: number;
		let processingAt: number;
		let finishAt: number;
		if (i < processing) {
			createdAt = origin - rng.int(1, 20) * MINUTE;
			processingAt = createdAt + rng.int(2_000, 30_000);
			finishAt = origin + rng.int(10_000, 15 * MINUTE);
		} else if (i < processing + drafts) {
			createdAt = origin - rng.int(0, 300_000);
			processingAt = origin + rng.int(5_000, 5 * MINUTE);
			finishAt = processingAt + rng.int(minMs, Math.max(minMs, maxMs));
		} else {
			createdAt = origin - 30 * MINUTE - Math.floor(rng.float() * span);
			processingAt = createdAt + rng.int(1_000, 60_000);
			finishAt = processingAt + rng.int(30_000, 10 * MINUTE);
		}
		const assetIds: string[] = [];
		if (brandId === store.known.primaryBrandId) {
			if (i % 10 === 0) assetIds.push(store.known.usedAssetId);
			if (i % 25 === 0) assetIds.push(store.known.audioAssetId);
		}
		if (assets.length > 0 && rng.chance(0.15)) {
			const a = rng.pick(assets);
			if (!assetIds.includes(a.id)) assetIds.push(a.id);
		}
		plans.push({
			brandId,
			title: `${t.name} for ${rng.pick(FIRST)} ${rng.pick(LAST)}`,
			templateId: t.id,
			createdAt,
			processingAt,
			finishAt,
			outcome: rng.chance(i < processing + drafts ? 0.1 : 0.12) ? 'failed' : 'published',
			duration: t.duration,
			aspectRatio: t.aspectRatio,
			projectId: rng.chance(0.3) ? `prj_${rng.int(1, 12)}` : null,
			customerData: null,
			aiMessaging: null,
			assetIds: assetIds.length ? assetIds : NO_ASSETS,
		});
	}
	plans.sort((a, b) => a.createdAt - b.createdAt);
	store.insertVideos(
		plans.map((p) => {
			const seq = store.nextVideoSeq();
			return { ...p, id: store.newId('vid', seq), seq };
		}),
	);
}

const NO_ASSETS: string[] = [];
