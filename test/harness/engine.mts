/**
 * A small harness around n8n-core's real engine: the built package is loaded by
 * PackageDirectoryLoader, workflows run through WorkflowExecute, triggers poll through a
 * real PollContext, and credentials are resolved the way n8n's CredentialsHelper does.
 */
import { Container } from '@n8n/di';
import {
	BinaryDataConfig,
	BinaryDataService,
	Credentials,
	ExecuteContext,
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	PackageDirectoryLoader,
	PollContext,
	prepareBinaryData,
	RoutingNode,
	WorkflowExecute,
} from 'n8n-core';
import {
	createEmptyRunExecutionData,
	createRunExecutionData,
	ICredentialsHelper,
	NodeHelpers,
	Workflow,
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type IDataObject,
	type IExecuteData,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentialTestResult,
	type INodeExecutionData,
	type INodeListSearchResult,
	type ResourceMapperFields,
	type INodeParameters,
	type INodeType,
	type INodeTypes,
	type IRun,
	type IVersionedNodeType,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
	type WorkflowActivateMode,
} from 'n8n-workflow';
import { existsSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

export const PACKAGE_NAME = 'n8n-nodes-video-personalization';
export const NODE_TYPE = `${PACKAGE_NAME}.videoPersonalization`;
export const TRIGGER_TYPE = `${PACKAGE_NAME}.videoPersonalizationTrigger`;
export const CREDENTIAL_TYPE = 'videoPersonalizationApi';
const REPO_ROOT = process.cwd();

/** Everything n8n logged while the harness ran: tests check no secret ever shows up there. */
export const capturedLogs: string[] = [];

interface Loaded {
	loader: PackageDirectoryLoader;
	nodeTypes: INodeTypes;
}

let loaded: Promise<Loaded> | undefined;

// Node types from other packages (e.g. n8n's HTTP Request node, for the benchmarks), by full type name.
const extraNodeTypes = new Map<string, INodeType | IVersionedNodeType>();

/** Makes another package's node type runnable by runNode under its full type name. */
export function registerNodeType(type: string, nodeType: INodeType | IVersionedNodeType): void {
	extraNodeTypes.set(type, nodeType);
}

function captureLogger(): void {
	// The Logger class must be n8n-core's own copy for Container to hand the same instance to nodes.
	const rootRequire = createRequire(join(REPO_ROOT, 'package.json'));
	const coreRequire = createRequire(rootRequire.resolve('n8n-core'));
	const { Logger } = coreRequire('@n8n/backend-common') as {
		Logger: new (...args: never[]) => object;
	};
	const logger = Container.get(Logger as never) as object;
	// Its methods are read-only: shadow them on an object that inherits the rest.
	const capturing = Object.create(logger) as Record<string, unknown>;
	for (const level of ['error', 'warn', 'info', 'debug']) {
		Object.defineProperty(capturing, level, {
			value: (message: string, meta?: object) => {
				capturedLogs.push(`${level}: ${message} ${meta ? safeJson(meta) : ''}`);
			},
		});
	}
	Container.set(Logger as never, capturing as never);
}

function safeJson(value: unknown): string {
	try {
		return JSON.stringify(value);
	} catch {
		return String(value);
	}
}

async function initBinaryStore(): Promise<void> {
	const config = Container.get(BinaryDataConfig);
	config.mode = 'filesystem';
	// Inside the test file's scratch folder when there is one (removed after the file).
	const parent = process.env.VP_TEST_SCRATCH ?? tmpdir();
	config.localStoragePath = mkdtempSync(join(parent, 'binary-'));
	await Container.get(BinaryDataService).init();
}

async function load(): Promise<Loaded> {
	captureLogger();
	await initBinaryStore();
	const loader = new PackageDirectoryLoader(REPO_ROOT);
	await loader.loadAll();
	const nodeTypes: INodeTypes = {
		getByName(type: string): INodeType | IVersionedNodeType {
			const extra = extraNodeTypes.get(type);
			if (extra) return extra;
			return loader.getNode(type.replace(`${PACKAGE_NAME}.`, '')).type;
		},
		getByNameAndVersion(type: string, version?: number): INodeType {
			return NodeHelpers.getVersionedNodeType(this.getByName(type), version);
		},
		getKnownTypes(): IDataObject {
			return {};
		},
	};
	return { loader, nodeTypes };
}

/**
 * Forgets every API key's gate and what it learnt of the key's rate: they live in the built
 * package's module for the whole process, as in n8n (the cleanup runs this before every test).
 */
export function forgetPacing(): void {
	const gateModule = join(
		REPO_ROOT,
		'dist',
		'nodes',
		'VideoPersonalization',
		'transport',
		'gate.js',
	);
	if (!existsSync(gateModule)) return;
	(createRequire(gateModule)(gateModule) as { keyGates: Map<string, unknown> }).keyGates.clear();
}

export async function engine(): Promise<Loaded> {
	loaded ??= load();
	return await loaded;
}

export async function credentialType(): Promise<ICredentialType> {
	const { loader } = await engine();
	return loader.getCredential(CREDENTIAL_TYPE).type;
}

/** Resolves credentials like n8n: defaults applied, generic authenticate expressions evaluated. */
class HarnessCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly type: ICredentialType,
		private readonly data: ICredentialDataDecryptedObject,
	) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		_typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.type;
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		if (!authenticate || authenticate.type !== 'generic' || !workflow || !node)
			return requestOptions;
		const resolve = (value: string): string => {
			if (!value.startsWith('=')) return value;
			const resolved = workflow.expression.getSimpleParameterValue(
				node,
				value,
				'internal',
				{ $credentials: credentials },
				undefined,
				'',
			);
			return resolved ? String(resolved) : '';
		};
		for (const [outer, entries] of Object.entries(authenticate.properties)) {
			const target = ((requestOptions as unknown as Record<string, Record<string, string>>)[
				outer
			] ??= {});
			for (const [key, value] of Object.entries(entries as Record<string, string>)) {
				target[resolve(key)] = resolve(value);
			}
		}
		return requestOptions;
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}

	async getCredentials(): Promise<Credentials> {
		return new Credentials({ id: 'harness', name: 'Harness' }, CREDENTIAL_TYPE, '');
	}

	async getDecrypted(): Promise<ICredentialDataDecryptedObject> {
		const withDefaults = NodeHelpers.getNodeParameters(
			this.type.properties,
			this.data as INodeParameters,
			true,
			false,
			null,
			null,
		);
		return { ...(withDefaults as ICredentialDataDecryptedObject) };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(): ICredentialType['properties'] {
		return this.type.properties;
	}
}

/**
 * Stands in for what a full n8n passes to the engine beyond what the harness sets: any other
 * property is a function that does nothing (works under jest, tsx and plain Node alike).
 */
function stub<T extends object>(fields: Partial<T> = {}): T {
	const values: Record<PropertyKey, unknown> = { ...fields };
	return new Proxy(values, {
		get(target, property) {
			if (property in target) return target[property];
			if (property === 'then' || typeof property === 'symbol') return undefined;
			const noop = () => undefined;
			target[property] = noop;
			return noop;
		},
	}) as T;
}

function additionalData(
	helper: ICredentialsHelper,
	hooks?: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	const data = stub<IWorkflowExecuteAdditionalData>({
		credentialsHelper: helper,
		hooks,
		executionId: `exec-${Math.random().toString(36).slice(2)}`,
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678',
		currentNodeParameters: undefined,
		executionTimeoutTimestamp: undefined,
		userId: 'harness-user',
		variables: {},
		encryptedRunnerIdentity: undefined,
		ssrfBridge: undefined,
		evalLlmMockHandler: undefined,
		parentCallbackManager: undefined,
		executionContext: undefined,
	} as Partial<IWorkflowExecuteAdditionalData>);
	return data;
}

/** A node as a workflow holds it, with the harness credential attached. */
function harnessNode(id: string, name: string, type: string, parameters: IDataObject): INode {
	return {
		id,
		name,
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters: parameters as INodeParameters,
		credentials: { [CREDENTIAL_TYPE]: { id: 'harness', name: 'Harness' } },
	};
}

export interface RunOptions {
	parameters: IDataObject;
	credentials: ICredentialDataDecryptedObject;
	items?: INodeExecutionData[];
	continueOnFail?: boolean;
	nodeType?: string;
	/** More node settings (typeVersion, retryOnFail, maxTries, ...), applied last. */
	node?: Partial<INode>;
	/** Stops the execution when this settles, as n8n's Stop button does; runNode still waits for the node to return. */
	cancelWhen?: Promise<unknown>;
}

export interface RunResult {
	/** The node's output items (first output), when it ran. */
	items: INodeExecutionData[];
	/** The error the node ended with, when it failed. */
	error?: Error & { description?: string; context?: IDataObject; httpCode?: string | null };
	run: IRun;
}

let workflowCounter = 0;

/** Runs one node through WorkflowExecute with the given input items. */
export async function runNode(options: RunOptions): Promise<RunResult> {
	const { nodeTypes } = await engine();
	const type = await credentialType();
	const helper = new HarnessCredentialsHelper(type, options.credentials);
	const node: INode = {
		...harnessNode(
			'node-under-test',
			'Video Personalization',
			options.nodeType ?? NODE_TYPE,
			options.parameters,
		),
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		...options.node,
	};
	const workflow = new Workflow({
		id: `wf-${++workflowCounter}`,
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
	});
	const hooks = new ExecutionLifecycleHooks('manual', `exec-${workflowCounter}`, stub());
	let resolveRun: (run: IRun) => void = () => undefined;
	const finished = new Promise<IRun>((resolve) => (resolveRun = resolve));
	hooks.addHandler('workflowExecuteAfter', (run) => resolveRun(run));
	const data = additionalData(helper, hooks);
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{ node, data: { main: [options.items ?? [{ json: {} }]] }, source: null },
			],
		},
	});
	const execution = new WorkflowExecute(data, 'manual', runExecutionData);
	const running = execution.processRunExecutionData(workflow);
	void options.cancelWhen?.then(() => running.cancel());
	await running;
	const run = await finished;
	const task = run.data.resultData.runData[node.name]?.[0];
	return {
		items: task?.data?.main?.[0] ?? [],
		error: (task?.error ?? run.data.resultData.error) as RunResult['error'],
		run,
	};
}

/** Stores a file in n8n's binary store (filesystem mode) as an input item's binary property. */
export async function binaryItem(
	content: Buffer | Readable,
	fileName: string,
	mimeType: string,
	property = 'data',
	json: IDataObject = {},
): Promise<INodeExecutionData> {
	await engine(); // the binary store is in filesystem mode from here on
	const binary = await prepareBinaryData(content, 'harness-exec', 'harness-wf', fileName, mimeType);
	return { json, binary: { [property]: binary } };
}

/**
 * Runs the credential's test the way n8n's CredentialsTester does: the declarative request
 * through RoutingNode, then the credential's response-code rules.
 */
/** lodash's get for the paths credential rules use (`a.b[0].c`). */
function valueAtPath(value: unknown, path: string): unknown {
	return path
		.replace(/\[(\d+)\]/g, '.$1')
		.split('.')
		.reduce<unknown>(
			(current, key) =>
				current !== null && typeof current === 'object'
					? (current as Record<string, unknown>)[key]
					: undefined,
			value,
		);
}

export async function testCredential(
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	const type = await credentialType();
	const helper = new HarnessCredentialsHelper(type, data);
	const testRequest = type.test;
	if (!testRequest) throw new Error('the credential has no test');
	const nodeType: INodeType = {
		description: {
			displayName: 'Credential Test',
			name: 'n8n-nodes-base.noOp',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: {},
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: CREDENTIAL_TYPE, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					default: '',
					routing: { request: testRequest.request },
				},
			],
		},
	};
	const node = harnessNode('temp', 'Temp-Node', 'n8n-nodes-base.noOp', {});
	const nodeTypes: INodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const executeData: IExecuteData = { node, data: {}, source: null };
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData(helper),
		'internal' as WorkflowExecuteMode,
		createEmptyRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		executeData,
		[],
	);
	const decrypted = await helper.getDecrypted();
	const routingNode = new RoutingNode(context, nodeType, {
		id: 'harness',
		name: 'Harness',
		type: CREDENTIAL_TYPE,
		data: decrypted,
	});
	let response: Awaited<ReturnType<RoutingNode['runNode']>>;
	try {
		response = await routingNode.runNode();
	} catch (caught) {
		const error = caught as Error & {
			cause?: { response?: { status: number; statusText?: string }; code?: string };
		};
		const status = error.cause?.response?.status;
		if (status !== undefined) {
			for (const rule of testRequest.rules ?? []) {
				if (rule.type === 'responseCode' && rule.properties.value === status) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (status < 199 || status > 299) {
				return {
					status: 'Error',
					message: error.cause?.response?.statusText || `Received HTTP status code: ${status}`,
				};
			}
		} else if (error.cause?.code) {
			return { status: 'Error', message: error.cause.code };
		}
		return { status: 'Error', message: error.message };
	}
	// As n8n's CredentialsTester: a 2xx answer still fails on a responseSuccessBody rule.
	for (const rule of testRequest.rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		const json = response?.[0]?.[0]?.json;
		if (valueAtPath(json, rule.properties.key) === rule.properties.value)
			return { status: 'Error', message: rule.properties.message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}

export interface PollOptions {
	parameters: IDataObject;
	credentials: ICredentialDataDecryptedObject;
	/** The trigger's static data; round-trip it through JSON between polls to mimic a restart. */
	staticData: IDataObject;
	mode?: WorkflowExecuteMode;
	activation?: WorkflowActivateMode;
	/** What n8n's scheduler gives the poll (getPollBudgetMs); the trigger reads for half of it. */
	pollBudgetMs?: number;
}

/** One poll of the trigger through a real PollContext. Returns what it emitted (null: nothing). */
export async function pollTrigger(options: PollOptions): Promise<INodeExecutionData[][] | null> {
	const { nodeTypes } = await engine();
	const type = await credentialType();
	const helper = new HarnessCredentialsHelper(type, options.credentials);
	const node = harnessNode(
		'trigger-under-test',
		'Video Personalization Trigger',
		TRIGGER_TYPE,
		options.parameters,
	);
	const workflow = new Workflow({
		id: 'wf-trigger',
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes,
		staticData: { [`node:${node.name}`]: options.staticData },
	});
	const context = new PollContext(
		workflow,
		node,
		additionalData(helper),
		options.mode ?? 'trigger',
		options.activation ?? 'activate',
	);
	const budget = options.pollBudgetMs;
	if (budget !== undefined) Object.assign(context, { getPollBudgetMs: () => budget });
	const nodeType = nodeTypes.getByNameAndVersion(TRIGGER_TYPE, 1);
	if (!nodeType.poll) throw new Error('the trigger has no poll()');
	return await nodeType.poll.call(context);
}

/** A listSearch method of the action node, as the editor calls it through a LoadOptionsContext. */
export async function listSearch(
	method: string,
	credentials: ICredentialDataDecryptedObject,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const { nodeTypes } = await engine();
	const helper = new HarnessCredentialsHelper(await credentialType(), credentials);
	const node = harnessNode('node-in-editor', 'Video Personalization', NODE_TYPE, {});
	const workflow = new Workflow({
		id: 'wf-editor',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
	});
	const context = new LoadOptionsContext(workflow, node, additionalData(helper), 'parameters');
	const search = nodeTypes.getByNameAndVersion(NODE_TYPE, 1).methods?.listSearch?.[method];
	if (!search) throw new Error(`the node has no listSearch method "${method}"`);
	return await search.call(context, filter, paginationToken);
}

/** A node's resource mapper method called as the editor calls it, with the node's current parameters. */
export async function resourceMapping(
	method: string,
	credentials: ICredentialDataDecryptedObject,
	parameters: INodeParameters,
): Promise<ResourceMapperFields> {
	const { nodeTypes } = await engine();
	const helper = new HarnessCredentialsHelper(await credentialType(), credentials);
	const node = harnessNode('node-in-editor', 'Video Personalization', NODE_TYPE, parameters);
	const workflow = new Workflow({
		id: 'wf-editor',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
	});
	const data = additionalData(helper);
	data.currentNodeParameters = parameters;
	const context = new LoadOptionsContext(workflow, node, data, 'parameters.templateFields');
	const mapping = nodeTypes.getByNameAndVersion(NODE_TYPE, 1).methods?.resourceMapping?.[method];
	if (!mapping) throw new Error(`the node has no resourceMapping method "${method}"`);
	return await mapping.call(context);
}

/** Every string in a value, deeply, for checks such as "the key appears nowhere". */
export function allText(value: unknown): string {
	const seen = new WeakSet<object>();
	const parts: string[] = [];
	const visit = (current: unknown): void => {
		if (current === null || current === undefined) return;
		if (typeof current === 'string') {
			parts.push(current);
			return;
		}
		if (typeof current !== 'object') {
			parts.push(String(current));
			return;
		}
		if (seen.has(current)) return;
		seen.add(current);
		if (current instanceof Error) parts.push(current.message, String(current.stack ?? ''));
		for (const key of Object.getOwnPropertyNames(current)) {
			try {
				visit((current as Record<string, unknown>)[key]);
			} catch {
				// Getters that throw are skipped.
			}
		}
	};
	visit(value);
	return parts.join('\n');
}
