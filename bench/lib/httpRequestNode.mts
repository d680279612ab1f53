// n8n's own HTTP Request node, from the real n8n installed in .n8n-e2e/ (n8n-nodes-base),
// registered in the harness's engine so it runs through the same WorkflowExecute as our node.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';

import type { IDataObject, INodeType, IVersionedNodeType } from 'n8n-workflow';

import { CREDENTIAL_TYPE, registerNodeType } from '../../test/harness/engine.mts';

export const HTTP_REQUEST_TYPE = 'n8n-nodes-base.httpRequest';
const E2E_DIR = join(process.cwd(), '.n8n-e2e');

export type HttpRequestNodeStatus =
	| { ok: true; version: number; packageDir: string; packageVersion: string }
	| { ok: false; reason: string };

/** node_modules/n8n-nodes-base under .n8n-e2e (as scripts/lib/n8n.mjs installs it: .n8n-e2e/n8n), complete installs only. */
export function findNodesBase(): string | undefined {
	if (!existsSync(E2E_DIR)) return undefined;
	const roots = [
		E2E_DIR,
		...readdirSync(E2E_DIR, { withFileTypes: true })
			.filter((entry) => entry.isDirectory())
			.map((entry) => join(E2E_DIR, entry.name)),
	];
	for (const root of roots) {
		// scripts/lib/n8n.mjs writes this marker when its install of n8n is complete.
		if (root.endsWith(`${sep}n8n`) && !existsSync(join(root, '.install-complete.json'))) continue;
		for (const candidate of [
			join(root, 'node_modules', 'n8n-nodes-base'),
			join(root, 'node_modules', 'n8n', 'node_modules', 'n8n-nodes-base'),
		]) {
			if (existsSync(join(candidate, 'dist', 'nodes', 'HttpRequest', 'HttpRequest.node.js')))
				return candidate;
		}
	}
	return undefined;
}

let loaded: Promise<HttpRequestNodeStatus> | undefined;

/** Loads and registers the HTTP Request node once; says why not when n8n is not installed. */
export async function httpRequestNode(): Promise<HttpRequestNodeStatus> {
	loaded ??= (async (): Promise<HttpRequestNodeStatus> => {
		const packageDir = findNodesBase();
		if (!packageDir)
			return {
				ok: false,
				reason: `n8n-nodes-base not found under ${E2E_DIR} (the real n8n is not installed yet)`,
			};
		const packageVersion = (
			JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string }
		).version;
		const load = createRequire(join(packageDir, 'package.json'));
		const module = load('./dist/nodes/HttpRequest/HttpRequest.node.js') as {
			HttpRequest: new () => INodeType | IVersionedNodeType;
		};
		const nodeType = new module.HttpRequest();
		registerNodeType(HTTP_REQUEST_TYPE, nodeType);
		const version =
			'nodeVersions' in nodeType
				? (nodeType.description.defaultVersion ?? nodeType.currentVersion)
				: 1;
		return { ok: true, version: Number(version), packageDir, packageVersion };
	})();
	return await loaded;
}

/** The credential part every HTTP Request node here uses: our credential type, predefined. */
const AUTH: IDataObject = {
	authentication: 'predefinedCredentialType',
	nodeCredentialType: CREDENTIAL_TYPE,
};

/**
 * A GET of a REST list with the HTTP Request node's pagination option, set up as a user would
 * for this API: `page` set to $pageCount + 1 on each request, `limit` fixed, done when the
 * answer's `pagination.next_page` is null.
 */
export function httpRequestPaginationParameters(url: string, pageSize: number): IDataObject {
	return {
		method: 'GET',
		url,
		...AUTH,
		sendQuery: true,
		specifyQuery: 'keypair',
		queryParameters: { parameters: [{ name: 'limit', value: String(pageSize) }] },
		options: {
			pagination: {
				pagination: {
					paginationMode: 'updateAParameterInEachRequest',
					parameters: {
						parameters: [{ type: 'qs', name: 'page', value: '={{ $pageCount + 1 }}' }],
					},
					paginationCompleteWhen: 'other',
					completeExpression: '={{ $response.body.pagination.next_page === null }}',
				},
			},
		},
	};
}

/** POST /videos with a JSON body built from the item, as a user would write it. */
export function httpRequestCreateVideoParameters(url: string, templateId: string): IDataObject {
	return {
		method: 'POST',
		url,
		...AUTH,
		sendBody: true,
		contentType: 'json',
		specifyBody: 'json',
		jsonBody: `={{ JSON.stringify({ title: "Video for " + $json.name, template_id: "${templateId}", customer_data: { first_name: $json.name }, aspect_ratio: "9:16" }) }}`,
		options: {},
	};
}
