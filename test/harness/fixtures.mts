import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/index.mts';

/** Starts a quiet sandbox for one test file and stops it afterwards. */
export function useSandbox(options: SandboxOptions = {}): () => Sandbox {
	let sandbox: Sandbox | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox({ quiet: true, ...options });
	});
	afterAll(async () => {
		await sandbox?.close();
	});
	return () => {
		if (!sandbox) throw new Error('the sandbox is not started yet');
		return sandbox;
	};
}

/** Credential data pointing at a sandbox with one of its keys. */
export function credentialsFor(
	sandbox: Sandbox,
	apiKey: string = sandbox.keys.user,
): ICredentialDataDecryptedObject {
	return { apiKey, baseUrl: sandbox.baseUrl };
}
