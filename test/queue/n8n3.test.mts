// queue-mode.env, docker-compose.yml and docker/n8n.Dockerfile serve n8n 2.x and 3.x alike. n8n
// 3.0 (n8n-io/n8n-docs, docs/changelog/v30-breaking-changes.md) removes settings 2.x reads: such a
// setting may stay only marked 2.x-only, with what replaces it on 3.x, by a comment on the line
// just above it: `# n8n 2.x only; on 3.x: <what replaces it>` (queue-mode.env's header).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { N8N_VERSION } from '../../scripts/lib/n8n.mjs';

const root = join(__dirname, '..', '..');
const FILES = ['queue-mode.env', 'docker-compose.yml', 'docker/n8n.Dockerfile'];

/** What n8n 3.0 removes, as it shows in a line that sets it, and what replaces it on 3.x. */
const REMOVED_IN_3 = [
	{
		what: 'OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS',
		pattern: /\bOFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS\b/,
		instead: 'nothing: manual runs always go to the workers in queue mode',
	},
	{
		what: 'N8N_DB_PING_TIMEOUT',
		pattern: /\bN8N_DB_PING_TIMEOUT\b/,
		instead: 'DB_PING_TIMEOUT_MS',
	},
	{
		what: 'N8N_MIGRATE_FS_STORAGE_PATH',
		pattern: /\bN8N_MIGRATE_FS_STORAGE_PATH\b/,
		instead: 'nothing: 3.0 renames ~/.n8n/binaryData to ~/.n8n/storage at its first start',
	},
	{
		what: 'the in-memory binary data mode',
		pattern: /\bN8N_DEFAULT_BINARY_DATA_MODE\b\s*[=:]\s*['"]?default\b/,
		instead: 'filesystem, s3, azure or database',
	},
	{
		what: 'the ~/.n8n/binaryData folder',
		pattern: /\.n8n\/binaryData\b/,
		instead: '~/.n8n/storage, or N8N_STORAGE_PATH',
	},
];
const MARK = /^\s*#\s*n8n 2\.x only; on 3\.x: \S/;
const isComment = (line: string) => /^\s*#/.test(line);

interface Use {
	line: number;
	what: string;
	marked: boolean;
}

/** Every line of a file that uses what n8n 3.0 removes, and whether it is marked 2.x-only. */
function usesOfRemoved(text: string): Use[] {
	const lines = text.split(/\r?\n/);
	return lines.flatMap((line, index) =>
		isComment(line)
			? []
			: REMOVED_IN_3.filter((removal) => removal.pattern.test(line)).map((removal) => ({
					line: index + 1,
					what: removal.what,
					marked: MARK.test(lines[index - 1] ?? ''),
				})),
	);
}

/** The unmarked uses, as a reader fixes them: where, what, and what replaces it on 3.x. */
function unmarked(fileName: string, text: string): string[] {
	return usesOfRemoved(text)
		.filter((use) => !use.marked)
		.map((use) => {
			const removal = REMOVED_IN_3.find((entry) => entry.what === use.what);
			return `${fileName}:${use.line}: ${use.what} is removed in n8n 3.0 (3.x: ${removal?.instead}); mark it "# n8n 2.x only; on 3.x: ..." on the line above`;
		});
}

describe('the check for settings n8n 3.0 removes', () => {
	it.each([
		['an env file', 'OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true'],
		['a compose environment map', "      N8N_DB_PING_TIMEOUT: '5000'"],
		['a compose environment list', '      - N8N_MIGRATE_FS_STORAGE_PATH=true'],
		['the in-memory binary data mode', 'N8N_DEFAULT_BINARY_DATA_MODE=default'],
		['a volume on the old binary data folder', '      - files:/home/node/.n8n/binaryData'],
		['a Dockerfile', 'ENV OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true'],
	])('fails on %s when it is not marked, and accepts it marked', (_case, setting) => {
		expect(unmarked('f', `# a note\n${setting}\n`)).toEqual([
			expect.stringMatching(/^f:2: .+ is removed in n8n 3\.0 \(3\.x: .+\)/),
		]);
		expect(unmarked('f', `# n8n 2.x only; on 3.x: what replaces it.\n${setting}\n`)).toEqual([]);
	});

	it('needs the mark on the line just above, saying what replaces it', () => {
		const setting = 'OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true';
		expect(unmarked('f', `# n8n 2.x only; on 3.x:\n${setting}`)).toHaveLength(1);
		expect(unmarked('f', `# n8n 2.x only; on 3.x: nothing.\n\n${setting}`)).toHaveLength(1);
	});

	it('leaves alone what 3.0 keeps, and mentions in comments', () => {
		const text = [
			'# OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS is 2.x only',
			'N8N_DEFAULT_BINARY_DATA_MODE=filesystem',
			'N8N_STORAGE_PATH=/files',
			'DB_PING_TIMEOUT_MS=5000',
		].join('\n');
		expect(usesOfRemoved(text)).toEqual([]);
	});
});

describe('queue-mode.env, docker-compose.yml and docker/ on n8n 3.x', () => {
	const texts = Object.fromEntries(
		FILES.map((file) => [file, readFileSync(join(root, file), 'utf8')]),
	);

	it('use nothing n8n 3.0 removes unless it is marked 2.x-only with its 3.x replacement', () => {
		expect(FILES.flatMap((file) => unmarked(file, texts[file]))).toEqual([]);
	});

	it("mark queue-mode.env's OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS, which only 2.x reads", () => {
		expect(usesOfRemoved(texts['queue-mode.env'])).toEqual([
			expect.objectContaining({ what: 'OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS', marked: true }),
		]);
	});

	it('take the n8n image tag from N8N_VERSION, by default the version the tests run', () => {
		interface Build {
			build?: { dockerfile: string; args?: Record<string, string> };
			image?: string;
		}
		const compose = parse(texts['docker-compose.yml'], { merge: true }) as {
			services: Record<string, Build>;
		};
		const n8nServices = Object.values(compose.services).filter(
			(service) => service.build?.dockerfile === 'docker/n8n.Dockerfile',
		);
		expect(n8nServices).toHaveLength(3);
		const tag = `\${N8N_VERSION:-${N8N_VERSION}}`;
		for (const service of n8nServices) {
			expect(service.build?.args).toEqual({ N8N_VERSION: tag });
			expect(service.image).toBe(`n8n-video-personalization:${tag}`);
		}
		const dockerfile = texts['docker/n8n.Dockerfile'];
		expect(dockerfile).toMatch(
			new RegExp(`^ARG N8N_VERSION=${N8N_VERSION.replace(/\./g, '\\.')}$`, 'm'),
		);
		expect(dockerfile.indexOf('ARG N8N_VERSION')).toBeLessThan(dockerfile.indexOf('FROM '));
		expect(dockerfile).toMatch(/^FROM n8nio\/n8n:\$\{N8N_VERSION\}$/m);
	});
});
