// Types of n8n.mjs, for the end-to-end tests (.mts).
import type { ChildProcess } from 'node:child_process';

export const N8N_VERSION: string;
export const NODE_MAJOR: number;
export const PACKAGE_NAME: string;
export const CREDENTIAL_TYPE: string;
export const EXAMPLE_CREDENTIAL: { id: string; name: string };
export const OWNER: { email: string; password: string; firstName: string; lastName: string };

export interface Paths {
	root: string;
	base: string;
	node24Dir: string;
	node24Bin: string;
	node24Headers: string;
	n8nDir: string;
	n8nBin: string;
	marker: string;
	examples: string;
	dist: string;
}

export interface Runtime {
	/** Node 24 binary that runs n8n. */
	node: string;
	/** Its headers for native addons, when it comes from the npm registry. */
	nodedir: string | undefined;
	version: string;
	n8nBin: string;
}

export type Log = (message: string) => void;

export interface Progress {
	take(text: string): void;
	line(): string;
}
export function runWithProgress(
	log: Log,
	label: string,
	command: string,
	args: string[],
	options: {
		cwd: string;
		env: NodeJS.ProcessEnv;
		logFile: string;
		progress?: Progress;
		abortOn?: (text: string) => string | undefined;
		footprint?: () => unknown;
		stallMs?: number;
		maxMs?: number;
		everyMs?: number;
	},
): Promise<void>;
export function registryProgress(): Progress;
export function projectPaths(root: string): Paths;
export function findRoot(from?: string): string;
export function makeLogger(tag: string): Log;
export function ensureNode24(paths: Paths, log: Log): Promise<Omit<Runtime, 'n8nBin'>>;
export function ensureN8n(paths: Paths, log: Log): Promise<Runtime>;
export function ensureBuilt(paths: Paths, log: Log, force?: boolean): void;
export function installPackage(paths: Paths, userFolder: string): string;
export function freePort(): Promise<number>;
export function portInUse(port: number): Promise<boolean>;
export const NETWATCH_HOOK: string;
export interface NetwatchEntry {
	at: string;
	pid: number;
	process: string;
	/** dns.lookup, dns.resolve4, ..., connect or udp */
	kind: string;
	host: string;
	port?: number;
}
export function netwatchEnv(env?: NodeJS.ProcessEnv): Record<string, string>;
export function readNetwatch(file: string): NetwatchEntry[];
export function watchNetwork(file: string): Record<string, string>;
export function reportNetwork(log: Log, file: string): boolean;
export const SSRF_PROTECTION_ENV: Record<string, string>;
export function n8nEnv(
	runtime: Runtime,
	options: {
		userFolder: string;
		port: number;
		brokerPort: number;
		logLevel?: string;
		extra?: Record<string, string>;
	},
): NodeJS.ProcessEnv;
export function runN8nCli(
	runtime: Runtime,
	env: NodeJS.ProcessEnv,
	args: string[],
	options?: { timeoutMs?: number },
): Promise<{ code: number | null; stdout: string; stderr: string }>;
export function parseRawOutput(stdout: string): unknown;
export function stopProcess(child: ChildProcess | undefined, graceMs?: number): Promise<void>;

export interface SandboxInfo {
	baseUrl: string;
	graphqlUrl: string;
	cdnUrl: string;
	controlUrl: string;
	keys: Record<string, string>;
}
export function startSandboxProcess(
	paths: Paths,
	args: string[],
	options?: { logFile?: string },
): Promise<{ child: ChildProcess; info: SandboxInfo }>;
export function startN8nProcess(
	runtime: Runtime,
	env: NodeJS.ProcessEnv,
	logFile: string,
	args?: string[],
): ChildProcess;
export function sleep(ms: number): Promise<void>;
export function waitForN8n(
	baseUrl: string,
	child?: ChildProcess,
	options?: { timeoutMs?: number; logFile?: string },
): Promise<void>;
export function tail(file: string, lines?: number): string;

export interface WorkflowJson {
	id?: string;
	name: string;
	nodes: Array<{
		name: string;
		type: string;
		typeVersion: number;
		parameters: Record<string, unknown>;
		credentials?: Record<string, { id: string; name: string }>;
		id?: string;
		position?: [number, number];
		webhookId?: string;
		onError?: string;
		executeOnce?: boolean;
	}>;
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	pinData?: Record<string, unknown>;
}

export class N8nApi {
	constructor(baseUrl: string);
	baseUrl: string;
	cookie: string;
	browserId: string;
	request(method: string, path: string, body?: unknown): Promise<unknown>;
	needsOwnerSetup(): Promise<boolean>;
	ensureOwner(owner?: typeof OWNER): Promise<'created' | 'existing'>;
	listCredentials(): Promise<Array<{ id: string; name: string; type: string }>>;
	ensureSandboxCredential(
		name: string,
		data: Record<string, string>,
	): Promise<{ id: string; name: string; created: boolean }>;
	listWorkflows(): Promise<Array<{ id: string; name: string; active: boolean }>>;
	getWorkflow(
		id: string,
	): Promise<{ id: string; versionId: string; active: boolean; name: string }>;
	createWorkflow(workflow: Omit<WorkflowJson, 'id'>): Promise<{ id: string }>;
	activateWorkflow(id: string): Promise<{ id: string; active: boolean; activeVersionId?: string }>;
	deactivateWorkflow(id: string): Promise<unknown>;
	listExecutions(
		workflowId: string,
	): Promise<Array<{ id: string; status: string; mode: string; workflowId: string }>>;
	getExecution(id: string): Promise<{ id: string; status: string; mode: string; data: string }>;
}

export function readExamples(paths: Paths): Array<{ file: string; workflow: WorkflowJson }>;
export function withCredential(
	workflow: WorkflowJson,
	credential: { id: string; name: string },
): WorkflowJson;
export function importExamplesViaApi(
	api: N8nApi,
	paths: Paths,
	credential: { id: string; name: string },
): Promise<Array<{ file: string; name: string; id: string | undefined; imported: boolean }>>;
export function sha256(file: string): string;
