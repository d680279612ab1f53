// A thin wrapper over the official MCP TypeScript SDK client (@modelcontextprotocol/sdk, a
// devDependency), in plain JavaScript with its types in mcpClient.d.mts, so that the typed tests
// depend only on the few calls they make.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** Connects to an MCP server over Streamable HTTP (what n8n's MCP Server Trigger v2 serves). */
export async function connectMcp(url, headers = {}) {
	const client = new Client({ name: 'n8n-nodes-video-personalization-e2e', version: '1.0.0' });
	const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
	await client.connect(transport);
	return {
		serverVersion: client.getServerVersion(),
		listTools: async () => (await client.listTools()).tools,
		callTool: async (name, args) => await client.callTool({ name, arguments: args }),
		close: async () => await client.close(),
	};
}
