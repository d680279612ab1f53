/** Types of mcpClient.mjs: the parts of the MCP SDK's answers the tests read. */
export interface McpTool {
	name: string;
	description?: string;
	inputSchema: {
		type: 'object';
		properties?: Record<string, { type?: string; description?: string }>;
		required?: string[];
	};
}

export interface McpToolResult {
	content: Array<{ type: string; text?: string }>;
	isError?: boolean;
}

export interface McpConnection {
	serverVersion: { name: string; version: string } | undefined;
	listTools(): Promise<McpTool[]>;
	callTool(name: string, args: Record<string, unknown>): Promise<McpToolResult>;
	close(): Promise<void>;
}

export function connectMcp(url: string, headers?: Record<string, string>): Promise<McpConnection>;
