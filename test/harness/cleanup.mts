// Runs in every test file after the framework is set up (jest setupFilesAfterEnv).
import { rmSync } from 'node:fs';

afterAll(() => {
	const scratch = process.env.VP_TEST_SCRATCH;
	if (scratch) rmSync(scratch, { recursive: true, force: true });
});
