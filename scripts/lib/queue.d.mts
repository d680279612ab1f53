// Types of queue.mjs, for the queue-mode tests (.mts).
import type { ChildProcess } from 'node:child_process';
import type { Log, Paths, Runtime } from './n8n.mjs';

export const QUEUE_ENV_FILE: string;
export const TEST_DATABASE_PREFIX: string;

export type EnvMap = Record<string, string>;

export function parseEnvFile(text: string, fileName?: string): EnvMap;
export function readQueueEnv(root: string): EnvMap;
export function withSharedEnv(shared: EnvMap, own: Record<string, string>): EnvMap;

export interface PostgresAddress {
	host: string;
	port: number;
	user: string;
	password: string;
}
export interface RedisAddress {
	host: string;
	port: number;
	password: string;
}
export interface ServiceAddresses {
	postgres: PostgresAddress;
	redis: RedisAddress;
}
export function serviceAddresses(env?: NodeJS.ProcessEnv): ServiceAddresses;

export class ServiceUnavailableError extends Error {
	constructor(services: string[], message: string);
	/** 'PostgreSQL', 'Redis' or both. */
	readonly services: string[];
}
export function checkServices(
	addresses: ServiceAddresses,
): Promise<{ postgresVersion: string; redisVersion: string }>;

export function testDatabaseName(now?: Date): string;
export function testDatabaseCreatedAt(name: string): number | undefined;
export function createDatabase(postgres: PostgresAddress, name: string): Promise<void>;
export function databaseExists(postgres: PostgresAddress, name: string): Promise<boolean>;
export function dropDatabase(postgres: PostgresAddress, name: string): Promise<void>;
export function sweepTestDatabases(
	postgres: PostgresAddress,
	olderThanMs?: number,
	now?: number,
): Promise<string[]>;
export function deleteRedisKeys(redis: RedisAddress, prefixes: string[]): Promise<number>;

export interface LogEntry {
	level?: string;
	message: string;
	metadata?: Record<string, unknown>;
}
export function parseJsonLog(text: string): LogEntry[];
export function executionsStarted(entries: LogEntry[]): string[];

export interface ClusterProcess {
	name: string;
	role: 'main' | 'worker';
	userFolder: string;
	logFile: string;
	env: NodeJS.ProcessEnv;
	child: ChildProcess | undefined;
	healthPort: number | undefined;
}

export interface QueueClusterOptions {
	paths: Paths;
	runtime: Runtime;
	/** Folder for the user folders (<dir>/<name>) and logs (<dir>/<name>.log). */
	dir: string;
	addresses: ServiceAddresses;
	database: string;
	/** Bull's keys go under `<redisPrefix>-bull`, n8n's own under `<redisPrefix>-n8n`. */
	redisPrefix: string;
	encryptionKey: string;
	workers?: number;
	logLevel?: string;
	/** The main's port (default: a free one). */
	mainPort?: number;
	/** More settings for every process (must not change those of queue-mode.env). */
	extraEnv?: Record<string, string>;
	log?: Log;
}

export class QueueCluster {
	constructor(options: QueueClusterOptions);
	readonly shared: EnvMap;
	readonly processes: Map<string, ClusterProcess>;
	mainUrl: string;
	readonly workerNames: string[];
	readonly redisPrefixes: string[];
	deploymentEnv(): EnvMap;
	prepare(): Promise<void>;
	process(name: string): ClusterProcess;
	isRunning(name: string): boolean;
	/** Starts one process; resolves with its start time in seconds once it is ready. */
	startProcess(name: string, options?: { timeoutMs?: number }): Promise<number>;
	start(): Promise<void>;
	/** SIGTERM, then SIGKILL after graceMs; resolves with the seconds it took. */
	stop(name: string, graceMs?: number): Promise<number>;
	kill(name: string): Promise<void>;
	stopAll(graceMs?: number): Promise<void>;
	logEntries(name: string): LogEntry[];
	executionsByWorker(): Map<string, string[]>;
	tail(name: string, lines?: number): string;
	static until<T>(
		predicate: () => T | undefined | false | null | Promise<T | undefined | false | null>,
		options: { timeoutMs: number; everyMs?: number; what: string },
	): Promise<T>;
}
