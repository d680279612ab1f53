// The pure parts of scripts/lib/queue.mjs, and the promise that docker-compose.yml runs n8n with
// the settings `npm run test:queue` tests (queue-mode.env). No PostgreSQL or Redis needed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { freePort } from '../../scripts/lib/n8n.mjs';
import {
	ServiceUnavailableError,
	checkServices,
	executionsStarted,
	parseEnvFile,
	parseJsonLog,
	readQueueEnv,
	serviceAddresses,
	testDatabaseCreatedAt,
	testDatabaseName,
	withSharedEnv,
} from '../../scripts/lib/queue.mjs';

const root = join(__dirname, '..', '..');

describe('parseEnvFile', () => {
	it('reads KEY=VALUE lines, skipping comments and blank lines', () => {
		expect(parseEnvFile('# a comment\n\nA=1\nB=two words\r\nC=\n  D=x=y  \n')).toEqual({
			A: '1',
			B: 'two words',
			C: '',
			D: 'x=y',
		});
	});

	it.each([
		['A="1"', /queue.env:1: A has quotes/],
		["A='1'", /A has quotes/],
		['A=1 # note', /A has quotes, an inline comment/],
		['A=${B}', /a \$ reference/],
		['A= 1', /surrounding spaces/],
		['export A=1', /queue.env:1: expected KEY=VALUE/],
		['just text', /expected KEY=VALUE, found "just text"/],
	])('refuses %s, which Docker Compose would read differently', (line, message) => {
		expect(() => parseEnvFile(line, 'queue.env')).toThrow(message);
	});

	it('refuses a key set twice, with the line', () => {
		expect(() => parseEnvFile('A=1\n# x\nA=2', 'queue.env')).toThrow('queue.env:3: A is set twice');
	});
});

describe('queue-mode.env', () => {
	const shared = readQueueEnv(root);

	it('puts every process in queue mode on PostgreSQL, manual runs on the workers, workers with health checks', () => {
		expect(shared).toMatchObject({
			EXECUTIONS_MODE: 'queue',
			DB_TYPE: 'postgresdb',
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
		});
		expect(Number(shared.N8N_GRACEFUL_SHUTDOWN_TIMEOUT)).toBeGreaterThan(30);
	});

	it("leaves binary data in n8n's queue-mode default and holds nothing particular to one deployment", () => {
		const particular =
			/^(N8N_BINARY_DATA_MODE|N8N_DEFAULT_BINARY_DATA_MODE|N8N_ENCRYPTION_KEY|N8N_USER_FOLDER|N8N_PORT|.*_HOST|.*_PASSWORD|.*_DATABASE|.*_URL)$/;
		expect(Object.keys(shared).filter((key) => particular.test(key))).toEqual([]);
	});
});

describe('withSharedEnv', () => {
	const shared = { EXECUTIONS_MODE: 'queue', DB_TYPE: 'postgresdb' };

	it("adds the process's own settings to the shared ones", () => {
		expect(withSharedEnv(shared, { DB_POSTGRESDB_HOST: 'db', DB_TYPE: 'postgresdb' })).toEqual({
			...shared,
			DB_POSTGRESDB_HOST: 'db',
		});
	});

	it('refuses to change a shared setting', () => {
		expect(() => withSharedEnv(shared, { EXECUTIONS_MODE: 'regular' })).toThrow(
			'EXECUTIONS_MODE comes from queue-mode.env (queue); a process may not change it (regular)',
		);
	});
});

describe('serviceAddresses', () => {
	it('defaults to PostgreSQL on 127.0.0.1:5432 as postgres and Redis on 127.0.0.1:6379', () => {
		expect(serviceAddresses({})).toEqual({
			postgres: { host: '127.0.0.1', port: 5432, user: 'postgres', password: '' },
			redis: { host: '127.0.0.1', port: 6379, password: '' },
		});
	});

	it('takes the addresses from PG* and REDIS_* variables', () => {
		expect(
			serviceAddresses({
				PGHOST: 'db',
				PGPORT: '6543',
				PGUSER: 'n8n',
				PGPASSWORD: 's',
				REDIS_HOST: 'cache',
				REDIS_PORT: '7000',
				REDIS_PASSWORD: 'r',
			}),
		).toEqual({
			postgres: { host: 'db', port: 6543, user: 'n8n', password: 's' },
			redis: { host: 'cache', port: 7000, password: 'r' },
		});
	});

	it('refuses a port that is not one', () => {
		expect(() => serviceAddresses({ REDIS_PORT: '6379x' })).toThrow(
			'REDIS_PORT must be a TCP port, not "6379x"',
		);
	});
});

describe('checkServices', () => {
	it('names each service that does not answer, where it looked and what to set', async () => {
		const [pgPort, redisPort] = [await freePort(), await freePort()];
		const addresses = serviceAddresses({ PGPORT: String(pgPort), REDIS_PORT: String(redisPort) });
		const failure = await checkServices(addresses).catch((error: unknown) => error);
		expect(failure).toBeInstanceOf(ServiceUnavailableError);
		expect((failure as ServiceUnavailableError).services).toEqual(['PostgreSQL', 'Redis']);
		const message = (failure as Error).message;
		expect(message).toContain(
			`PostgreSQL is not reachable at 127.0.0.1:${pgPort} as user "postgres" (connect ECONNREFUSED 127.0.0.1:${pgPort})`,
		);
		expect(message).toContain('set PGHOST, PGPORT, PGUSER and PGPASSWORD');
		expect(message).toContain(
			`Redis is not reachable at 127.0.0.1:${redisPort} (connect ECONNREFUSED 127.0.0.1:${redisPort})`,
		);
		expect(message).toContain('set REDIS_HOST, REDIS_PORT (and REDIS_PASSWORD)');
	});
});

describe('test database names', () => {
	it('carry their creation time, so that a later run can sweep ones left behind', () => {
		const name = testDatabaseName(new Date('2026-11-23T17:05:09.500Z'));
		expect(name).toMatch(/^n8n_queue_test_20261123170509_[0-9a-f]{6}$/);
		expect(testDatabaseCreatedAt(name)).toBe(Date.parse('2026-11-23T17:05:09Z'));
		expect(testDatabaseCreatedAt('n8n')).toBeUndefined();
		expect(testDatabaseCreatedAt('n8n_queue_test_2026_x')).toBeUndefined();
	});
});

describe('reading where executions ran from n8n logs', () => {
	const log = [
		'===== n8n worker 2026-11-23T17:38:53.541Z =====',
		JSON.stringify({
			level: 'info',
			message: 'Worker started execution 12 (job 15)',
			metadata: { executionId: '12' },
		}),
		'{not json',
		JSON.stringify({ level: 'info', message: 'Worker finished execution 12 (job 15)' }),
		JSON.stringify({ level: 'info', message: 'Worker started execution 3 (job 16)' }),
		JSON.stringify({ level: 'info', message: 'Worker started execution 123' }),
		JSON.stringify({ level: 'info', note: 'no message' }),
		'',
	].join('\n');

	it('keeps the JSON log lines and the ids of the executions started, in order', () => {
		const entries = parseJsonLog(log);
		expect(entries.map((entry) => entry.message)).toEqual([
			'Worker started execution 12 (job 15)',
			'Worker finished execution 12 (job 15)',
			'Worker started execution 3 (job 16)',
			'Worker started execution 123',
		]);
		expect(executionsStarted(entries)).toEqual(['12', '3']);
	});
});

describe('docker-compose.yml', () => {
	interface Service {
		image?: string;
		build?: { context: string; dockerfile: string };
		command?: string;
		env_file?: string | string[];
		environment?: Record<string, string>;
		stop_grace_period?: string;
	}
	const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), {
		merge: true,
	}) as { services: Record<string, Service> };
	const shared = readQueueEnv(root);
	const n8nServices = Object.entries(compose.services).filter(
		([, service]) => service.build?.dockerfile === 'docker/n8n.Dockerfile',
	);

	it('runs one main and two workers, each from the image that carries the package', () => {
		expect(n8nServices.map(([name, service]) => [name, service.command])).toEqual([
			['n8n-main', 'start'],
			['n8n-worker-1', 'worker'],
			['n8n-worker-2', 'worker'],
		]);
		const dockerfile = readFileSync(join(root, 'docker', 'n8n.Dockerfile'), 'utf8');
		expect(dockerfile).toMatch(/^FROM n8nio\/n8n:\$\{N8N_VERSION\}$/m); // n8n3.test.mts: the tag
		expect(dockerfile).toContain('/n8n/nodes/node_modules/n8n-nodes-video-personalization/dist');
		expect(
			readFileSync(join(root, '.dockerignore'), 'utf8')
				.split('\n')
				.filter((line) => line && !line.startsWith('#')),
		).toEqual(['*', '!package.json', '!dist']);
	});

	it('gives every n8n service the settings of queue-mode.env and changes none of them', () => {
		for (const [name, service] of n8nServices) {
			expect([name, service.env_file]).toEqual([name, 'queue-mode.env']);
			const own = Object.keys(service.environment ?? {});
			expect([name, own.filter((key) => Object.hasOwn(shared, key))]).toEqual([name, []]);
			expect(own).toEqual(
				expect.arrayContaining([
					'DB_POSTGRESDB_HOST',
					'QUEUE_BULL_REDIS_HOST',
					'N8N_ENCRYPTION_KEY',
					'N8N_WEBHOOK_URL',
				]),
			);
		}
	});

	it('lets Docker wait at least as long as n8n does before it kills a container', () => {
		for (const [name, service] of n8nServices) {
			const seconds = Number(/^(\d+)s$/.exec(service.stop_grace_period ?? '')?.[1]);
			expect([name, seconds >= Number(shared.N8N_GRACEFUL_SHUTDOWN_TIMEOUT)]).toEqual([name, true]);
		}
	});
});
