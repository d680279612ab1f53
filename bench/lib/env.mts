// Imported first by every benchmark: n8n-core keeps its instance settings (encryption key) under
// N8N_USER_FOLDER and the harness puts its binary store under VP_TEST_SCRATCH. Both go to one
// temp folder per process, removed at exit.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const scratch = mkdtempSync(join(tmpdir(), 'vp-bench-'));
process.env.VP_TEST_SCRATCH = scratch;
process.env.N8N_USER_FOLDER = join(scratch, 'n8n');
mkdirSync(process.env.N8N_USER_FOLDER);
process.env.N8N_LOG_LEVEL = process.env.N8N_LOG_LEVEL ?? 'warn';

process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.once(signal, () => process.exit(130));
}
