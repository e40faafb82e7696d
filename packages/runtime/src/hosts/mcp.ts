import type { CapabilityRuntime, CatalogEntry } from '../capability-runtime.js';
import { failureText, outputText, plainJsonOutput, shownInputSchema, shownOutputSchema } from './results.js';

/**
 * Serves a runtime's tools over MCP with the runtime as the only validator: the MCP SDK's own
 * schema handling is bypassed, every call goes through `callAsync` (envelope, contract, budget,
 * records), and an output that breaks its contract never reaches the client. Imports nothing from
 * the MCP SDK, so it works with SDK v1 and v2 and any transport:
 *
 *   const mcp = mcpToolHandlers(runtime);
 *   server.setRequestHandler(ListToolsRequestSchema, () => mcp.listTools());
 *   server.setRequestHandler(CallToolRequestSchema, (request) => mcp.callTool(request.params));
 */

/** The MCP revision whose rules the results follow. */
export type McpProtocolVersion = '2025-11-25' | '2026-07-28';

export interface McpToolHandlersOptions {
  /**
   * `2025-11-25` (default): `outputSchema` and `structuredContent` only for tools whose output root
   * is an object, as that revision requires; other outputs travel as JSON text only.
   * `2026-07-28`: any output root has both.
   */
  readonly protocolVersion?: McpProtocolVersion;
}

export interface McpTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema?: Record<string, unknown>;
}

export interface McpTextContent {
  readonly type: 'text';
  readonly text: string;
}

export interface McpCallToolResult {
  [key: string]: unknown;
  readonly content: McpTextContent[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

export interface McpCallToolParams {
  readonly name?: unknown;
  readonly arguments?: unknown;
}

export interface McpToolHandlers {
  /** The `tools/list` result, from the runtime's catalog as it is now. */
  listTools(): { tools: McpTool[] };
  /** The `tools/call` result; never rejects: every failure is an `isError` result with readable text. */
  callTool(params: McpCallToolParams | undefined): Promise<McpCallToolResult>;
}

/** A tool MCP cannot carry: an MCP tool's arguments are an object, so its input schema must describe one. */
export class McpToolError extends Error {
  override readonly name = 'McpToolError';
}

export function mcpToolHandlers(runtime: CapabilityRuntime, options: McpToolHandlersOptions = {}): McpToolHandlers {
  const protocol = options.protocolVersion ?? '2025-11-25';
  const structured = (entry: CatalogEntry): boolean => protocol !== '2025-11-25' || shownOutputSchema(entry)['type'] === 'object';
  const listTools = (): { tools: McpTool[] } => ({ tools: runtime.catalog().map((entry) => mcpTool(entry, structured(entry))) });
  listTools();
  return {
    listTools,
    async callTool(params) {
      const name = params?.name;
      if (typeof name !== 'string') return errorResult('invalid_params: tools/call needs a tool name');
      const result = await runtime.callAsync(name, params?.arguments ?? {});
      if (!result.ok) return errorResult(failureText(result));
      const text = outputText(result.output);
      const entry = runtime.catalog().find((e) => e.name === name);
      if (entry === undefined || !structured(entry)) return { content: [{ type: 'text', text }] };
      return { content: [{ type: 'text', text }], structuredContent: plainJsonOutput(result.output) as Record<string, unknown> };
    },
  };
}

function mcpTool(entry: CatalogEntry, withOutputSchema: boolean): McpTool {
  const input = shownInputSchema(entry);
  // A root without "type" accepts any JSON value; MCP arguments are always an object.
  if (input['type'] !== undefined && input['type'] !== 'object') {
    throw new McpToolError(`tool "${entry.name}" takes a ${String(input['type'])} as input; an MCP tool's arguments are an object, so give the contract an object input`);
  }
  const inputSchema = input['type'] === undefined ? { type: 'object', ...input } : input;
  return withOutputSchema ? { name: entry.name, description: entry.description, inputSchema, outputSchema: shownOutputSchema(entry) } : { name: entry.name, description: entry.description, inputSchema };
}

function errorResult(text: string): McpCallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** What `serveToolsOnMcpServer` needs of an MCP SDK v2 low-level `Server`. */
export interface McpServerV2 {
  registerCapabilities(capabilities: { tools: Record<string, never> }): void;
  setRequestHandler(method: 'tools/list', handler: () => { tools: McpTool[] }): void;
  setRequestHandler(method: 'tools/call', handler: (request: { params: McpCallToolParams }) => Promise<McpCallToolResult>): void;
}

/**
 * The one call for the MCP SDK v2 low-level `Server` (`@modelcontextprotocol/server`), which
 * names methods by string. For SDK v1 use `json-tool-contracts/mcp/sdk-v1`.
 */
export function serveToolsOnMcpServer(server: McpServerV2, runtime: CapabilityRuntime, options: McpToolHandlersOptions = {}): McpToolHandlers {
  const mcp = mcpToolHandlers(runtime, options);
  server.registerCapabilities({ tools: {} });
  server.setRequestHandler('tools/list', () => mcp.listTools());
  server.setRequestHandler('tools/call', (request) => mcp.callTool(request.params));
  return mcp;
}
