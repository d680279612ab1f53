// n8n's SSRF protection in the engine tests, set as an administrator sets it with
// N8N_SSRF_PROTECTION_ENABLED=true and N8N_SSRF_ALLOWED_IP_RANGES (README "Security"). n8n-core
// reads the settings when it makes its first request of the test file: call this before.
import { Container } from '@n8n/di';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** A module as n8n-core's request layer resolves it (@n8n/backend-network and its @n8n/config). */
function networkRequire(): NodeJS.Require {
	const core = createRequire(
		createRequire(join(process.cwd(), 'package.json')).resolve('n8n-core'),
	);
	return createRequire(core.resolve('@n8n/backend-network'));
}

/**
 * Protection on, n8n's default blocked ranges plus `moreBlocked` (as `default,<ranges>` in
 * N8N_SSRF_BLOCKED_IP_RANGES), and only these ranges allowed (default 127.0.0.1/32).
 */
export function allowLoopbackOnly(
	allowedIpRanges = ['127.0.0.1/32'],
	moreBlocked: string[] = [],
): void {
	const { SsrfProtectionConfig } = networkRequire()('@n8n/config') as {
		SsrfProtectionConfig: new () => {
			enabled: boolean;
			allowedIpRanges: string[];
			blockedIpRanges: string[];
		};
	};
	const config = Container.get(SsrfProtectionConfig);
	config.enabled = true;
	config.allowedIpRanges = allowedIpRanges;
	config.blockedIpRanges = [...config.blockedIpRanges, ...moreBlocked];
}

/** The SSRF protection n8n-core checks every request with, as set up by allowLoopbackOnly. */
export function ssrfProtection(): { validateIp(ip: string): { ok: boolean } } {
	const { SsrfProtectionService } = networkRequire()('@n8n/backend-network') as {
		SsrfProtectionService: new () => { validateIp(ip: string): { ok: boolean } };
	};
	return Container.get(SsrfProtectionService);
}
