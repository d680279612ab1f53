// n8n's SSRF protection in the engine tests, set as an administrator sets it with
// N8N_SSRF_PROTECTION_ENABLED=true and N8N_SSRF_ALLOWED_IP_RANGES (README "Security"). n8n-core
// reads the settings when it makes its first request of the test file: call this before.
import { Container } from '@n8n/di';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** Protection on, n8n's default blocked ranges, and only these ranges allowed (default 127.0.0.1/32). */
export function allowLoopbackOnly(allowedIpRanges = ['127.0.0.1/32']): void {
	// The config class as n8n-core's request layer resolves it (@n8n/backend-network's @n8n/config).
	const core = createRequire(
		createRequire(join(process.cwd(), 'package.json')).resolve('n8n-core'),
	);
	const network = createRequire(core.resolve('@n8n/backend-network'));
	const { SsrfProtectionConfig } = network('@n8n/config') as {
		SsrfProtectionConfig: new () => { enabled: boolean; allowedIpRanges: string[] };
	};
	const config = Container.get(SsrfProtectionConfig);
	config.enabled = true;
	config.allowedIpRanges = allowedIpRanges;
}
