import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CapabilityRuntime } from '../capability-runtime.js';
import { mcpToolHandlers, type McpToolHandlers, type McpToolHandlersOptions } from './mcp.js';

/**
 * The one call for the MCP SDK v1 low-level `Server` (`@modelcontextprotocol/sdk`, an optional
 * peer dependency: only this entry point imports it).
 */
export function serveToolsOnMcpServerV1(server: Server, runtime: CapabilityRuntime, options: McpToolHandlersOptions = {}): McpToolHandlers {
  // The server's own record of each session's logging/setLevel; private in its types, present at run time since 1.x.
  const levels = server as unknown as { isMessageIgnored?: (level: string, sessionId?: string) => boolean };
  const isLogIgnored = options.isLogIgnored ?? (typeof levels.isMessageIgnored === 'function' ? (level: string, sessionId?: string) => levels.isMessageIgnored!(level, sessionId) : undefined);
  const mcp = mcpToolHandlers(runtime, isLogIgnored === undefined ? options : { ...options, isLogIgnored });
  server.registerCapabilities({ tools: {} });
  server.setRequestHandler(ListToolsRequestSchema, () => mcp.listTools());
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => mcp.callTool(request.params, extra));
  return mcp;
}
