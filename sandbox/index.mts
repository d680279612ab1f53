// The Video Personalization Service sandbox: startSandbox() runs the API server (REST, GraphQL and
// the /__sandbox control API) and the CDN server in-process. See README.md.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { handleCdn } from './cdn.mts';
import { Clock } from './clock.mts';
import type { AppContext } from './context.mts';
import { FaultInjector } from './faults.mts';
import { buildVpsSchema } from './graphql.mts';
import { RequestLog } from './log.mts';
import { RateLimiter } from './rateLimit.mts';
import { loadFixtures } from './media.mts';
import { DATASETS, SEEDED_KEYS, seedStore, type DatasetSize } from './seed.mts';
import { handleApi } from './server.mts';
import { Store } from './store.mts';
import type {
	ListOrder,
	RandomFaults,
	RateLimitConfig,
	RateLimitCounters,
	RequestMatch,
	RequestRecord,
	SandboxOptions,
	ScriptedFault,
} from './types.mts';

export type * from './types.mts';
export type {
	AddVideosOptions,
	AssetRecord,
	KnownIds,
	OrganisationRecord,
	Store,
	TemplateRecord,
	UserRecord,
	VideoInfo,
	VideoOutcome,
	VideoRecord,
} from './store.mts';
export { SEEDED_KEYS } from './seed.mts';

export interface SandboxKeys {
	user: string;
	brandAdmin: string;
	orgAdmin: string;
	admin: string;
	otherBrandUser: string;
	noCredits: string;
	expired: string;
}

export interface Sandbox {
	/** http://<host>:<port>/v1 */
	baseUrl: string;
	/** <baseUrl>/graphql */
	graphqlUrl: string;
	/** http://<host>:<cdnPort> */
	cdnUrl: string;
	/** http://<host>:<port>/__sandbox */
	controlUrl: string;
	keys: SandboxKeys;
	clock: { now(): number; advance(ms: number): void };
	faults: { random(cfg: RandomFaults): void; script(rules: ScriptedFault[]): void; clear(): void };
	/** The rate limiter (README "Rate limiter"): off until set. */
	rateLimit: {
		set(config: RateLimitConfig): void;
		clear(): void;
		config(): ReturnType<RateLimiter['config']>;
		counters(): RateLimitCounters;
		resetCounters(): void;
		/** Tokens now in the bucket of an API key or Authorization header value (scope 'key'), or the global one; undefined when off. */
		level(authorization?: string): number | undefined;
	};
	setListOrder(order: ListOrder): void;
	/** Tests only: `hook` runs before each API request is handled (undefined removes it). */
	beforeRequest(hook: AppContext['beforeRequest']): void;
	requests: { log: RequestRecord[]; clear(): void; count(match?: RequestMatch): number };
	store: Store;
	/** Ids and names of the fixed seeded entities (same as store.known). */
	known: Store['known'];
	close(): Promise<void>;
}

function listen(server: Server, host: string, port: number): Promise<number> {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => {
			server.off('error', reject);
			resolve((server.address() as AddressInfo).port);
		});
	});
}

function closeServer(server: Server): Promise<void> {
	return new Promise((resolve) => {
		if (!server.listening) return resolve();
		server.close(() => resolve());
		server.closeAllConnections();
	});
}

function datasetSize(dataset: SandboxOptions['dataset']): DatasetSize {
	if (dataset === undefined || dataset === 'default') return DATASETS.default;
	if (dataset === 'large') return DATASETS.large;
	if (
		!(
			Number.isInteger(dataset.videos) &&
			dataset.videos >= 0 &&
			Number.isInteger(dataset.assets) &&
			dataset.assets >= 4
		)
	) {
		throw new RangeError(
			'dataset: videos must be an integer >= 0 and assets an integer >= 4 (four are fixed seeded assets)',
		);
	}
	return dataset;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const host = options.host ?? '127.0.0.1';
	const seed = options.seed ?? 1;
	const clock = new Clock(options.clock ?? 'manual', options.startTime);
	const store = new Store({
		seed,
		clock,
		render: options.render,
		listOrder: options.listOrder,
		listingLag: options.listingLag,
		graphql: options.graphql,
		uploadLimits: options.uploadLimits,
	});
	const fixtures = loadFixtures(options.mediaDir ?? join(process.cwd(), 'sandbox', 'media'));
	seedStore(store, datasetSize(options.dataset), fixtures);
	const extraKeyUsers: Record<string, string> = {
		ROLE_USER: store.known.users.user,
		ROLE_BRAND_ADMIN: store.known.users.brandAdmin,
		ROLE_ORG_ADMIN: store.known.users.orgAdmin,
		ROLE_ADMIN: store.known.users.admin,
	};
	for (const { key, role } of options.extraKeys ?? []) store.addKey(key, extraKeyUsers[role]);

	const ownDataDir = options.dataDir === undefined;
	const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'vps-sandbox-')));
	const uploadDir = join(dataDir, 'uploads');
	await mkdir(uploadDir, { recursive: true });

	const rateLimiter = new RateLimiter(clock);
	if (options.rateLimit) rateLimiter.set(options.rateLimit);
	const app: AppContext = {
		store,
		clock,
		faults: new FaultInjector(seed),
		rateLimiter,
		requests: new RequestLog(options.requestLogLimit ?? 200_000),
		fixtures,
		uploadDir,
		schema: buildVpsSchema(),
		cdnUrl: '',
		log: options.quiet ? () => undefined : (message) => console.error(`[sandbox] ${message}`),
	};
	const keys: SandboxKeys = { ...SEEDED_KEYS };
	const info = () => ({
		baseUrl: sandbox.baseUrl,
		graphqlUrl: sandbox.graphqlUrl,
		cdnUrl: sandbox.cdnUrl,
		controlUrl: sandbox.controlUrl,
		seed,
		clock: { mode: clock.mode, now: clock.now(), iso: new Date(clock.now()).toISOString() },
		listOrder: store.listOrder,
		listingLag: store.listingLag ?? null,
		render: store.render,
		graphql: store.graphql,
		uploadLimits: store.uploadLimits,
		rateLimit: rateLimiter.config(),
		keys,
		known: store.known,
	});

	const onError = (res: import('node:http').ServerResponse, e: unknown) => {
		app.log(`unhandled: ${(e as Error).stack ?? String(e)}`);
		if (!res.headersSent) {
			res.writeHead(500, { 'Content-Type': 'text/plain' });
			res.end('internal error');
		} else res.destroy();
	};
	const cdnServer = createServer(
		(req, res) => void handleCdn(app, req, res).catch((e: unknown) => onError(res, e)),
	);
	const apiServer = createServer(
		(req, res) => void handleApi(app, info, req, res).catch((e: unknown) => onError(res, e)),
	);

	const cdnPort = await listen(cdnServer, host, options.cdnPort ?? 0);
	let apiPort: number;
	try {
		apiPort = await listen(apiServer, host, options.port ?? 0);
	} catch (e) {
		await closeServer(cdnServer);
		throw e;
	}
	const urlHost = host.includes(':') ? `[${host}]` : host;
	app.cdnUrl = `http://${urlHost}:${cdnPort}`;
	const apiUrl = `http://${urlHost}:${apiPort}`;

	let closing: Promise<void> | undefined;
	const sandbox: Sandbox = {
		baseUrl: `${apiUrl}/v1`,
		graphqlUrl: `${apiUrl}/v1/graphql`,
		cdnUrl: app.cdnUrl,
		controlUrl: `${apiUrl}/__sandbox`,
		keys,
		clock: { now: () => clock.now(), advance: (ms) => clock.advance(ms) },
		faults: {
			random: (cfg) => app.faults.random(cfg),
			script: (rules) => app.faults.script(rules),
			clear: () => app.faults.clear(),
		},
		rateLimit: {
			set: (config) => rateLimiter.set(config),
			clear: () => rateLimiter.clear(),
			config: () => rateLimiter.config(),
			counters: () => rateLimiter.counters(),
			resetCounters: () => rateLimiter.resetCounters(),
			level: (authorization) => rateLimiter.level(authorization),
		},
		beforeRequest: (hook) => {
			app.beforeRequest = hook;
		},
		setListOrder: (order) => {
			store.listOrder = order;
		},
		requests: {
			log: app.requests.log,
			clear: () => app.requests.clear(),
			count: (match) => app.requests.count(match),
		},
		store,
		known: store.known,
		close: () =>
			(closing ??= (async () => {
				await Promise.all([closeServer(apiServer), closeServer(cdnServer)]);
				if (ownDataDir) await rm(dataDir, { recursive: true, force: true });
				else await rm(uploadDir, { recursive: true, force: true });
			})()),
	};
	return sandbox;
}
