// Runs before every test file (jest setupFiles). One scratch folder per test file holds what
// n8n-core writes (instance settings and encryption key under N8N_USER_FOLDER, the binary
// store); test/harness/cleanup.mts removes it when the file is done.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const scratch = mkdtempSync(join(tmpdir(), 'vp-test-'));
process.env.VP_TEST_SCRATCH = scratch;
process.env.N8N_USER_FOLDER = join(scratch, 'n8n');
mkdirSync(process.env.N8N_USER_FOLDER);
process.env.N8N_LOG_LEVEL = process.env.N8N_LOG_LEVEL ?? 'warn';
