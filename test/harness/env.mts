// Runs before every test file (jest setupFiles): n8n-core writes its instance settings and
// encryption key under N8N_USER_FOLDER, so each test process gets a throwaway folder.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

if (!process.env.N8N_USER_FOLDER?.includes('vp-n8n-test-')) {
	process.env.N8N_USER_FOLDER = mkdtempSync(join(tmpdir(), 'vp-n8n-test-'));
}
process.env.N8N_LOG_LEVEL = process.env.N8N_LOG_LEVEL ?? 'warn';
