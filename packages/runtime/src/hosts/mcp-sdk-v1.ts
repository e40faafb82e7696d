import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CapabilityRuntime } from '../capability-runtime.js';
import { mcpToolHandlers, type McpToolHandlers, type McpToolHandlersOptions } from './mcp.js';

/**
 * The one call for the MCP SDK v1 low-level `Server` (`@modelcontextprotocol/sdk`, an optional
 * peer dependency: only this entry point imports it).
 */
export function serveToolsOnMcpServerV1(server: Server, runtime: CapabilityRuntime, options: McpToolHandlersOptions = {}): McpToolHandlers {
  const mcp = mcpToolHandlers(runtime, options);
  server.registerCapabilities({ tools: {} });
  server.setRequestHandler(ListToolsRequestSchema, () => mcp.listTools());
  server.setRequestHandler(CallToolRequestSchema, (request) => mcp.callTool(request.params));
  return mcp;
}
