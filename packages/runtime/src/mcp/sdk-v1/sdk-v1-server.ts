import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CapabilityRuntime } from '../../core/capability-runtime.js';
import { mcpToolHandlers, toolRequestHandlers, type McpToolHandlers, type McpToolHandlersOptions } from '../server.js';

/**
 * The one call for MCP SDK v1 (`@modelcontextprotocol/sdk`, an optional peer dependency: only this
 * entry point imports it): on its low-level `Server`, or beside the tools, prompts and resources
 * of an `McpServer` (pass the `McpServer` itself, not its `.server`, which is refused).
 */
export function serveToolsOnMcpServerV1(target: Server | McpServer, runtime: CapabilityRuntime, options: McpToolHandlersOptions = {}): McpToolHandlers {
  const server = 'registerTool' in target ? target.server : target;
  // The server's own record of each session's logging/setLevel; private in its types, present at run time since 1.x.
  const levels = server as unknown as { isMessageIgnored?: (level: string, sessionId?: string) => boolean };
  const isLogIgnored = options.isLogIgnored ?? (typeof levels.isMessageIgnored === 'function' ? (level: string, sessionId?: string) => levels.isMessageIgnored!(level, sessionId) : undefined);
  const mcp = mcpToolHandlers(runtime, isLogIgnored === undefined ? options : { ...options, isLogIgnored });
  const { list, call } = toolRequestHandlers<Server>(target, mcp);
  server.registerCapabilities({ tools: {} });
  server.setRequestHandler(ListToolsRequestSchema, list as never);
  server.setRequestHandler(CallToolRequestSchema, call as never);
  return mcp;
}
