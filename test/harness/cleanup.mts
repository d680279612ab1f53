// Runs in every test file after the framework is set up (jest setupFilesAfterEnv).
import { rmSync } from 'node:fs';

import { forgetPacing } from './engine.mts';

// Every test starts without the API keys' gates (and their learnt paces) of earlier tests.
beforeEach(() => forgetPacing());

afterAll(() => {
	const scratch = process.env.VP_TEST_SCRATCH;
	if (scratch) rmSync(scratch, { recursive: true, force: true });
});
