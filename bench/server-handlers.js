// The Web handlers (`{ fetch(request) }`) of bench/server.js's servers, built from a tool set that
// script wrote (bench/results/server/tools-N): its child processes serve them over node:http, and
// bench/server-instructions.js calls them in process.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CapabilityRuntime, ToolMetadata, ToolPolicy } from '@json-tool-contracts/runtime';
import { mcpHttpHandler } from '@json-tool-contracts/runtime/mcp/http';
import { serveToolsOnMcpServer } from '@json-tool-contracts/runtime/mcp';
import { createMcpHandler, fromJsonSchema, isLegacyRequest, McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { z } from 'zod';

const serverInfo = { name: 'bench', version: '1.0.0' };
const result = (output) => ({ content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output });

/** The handler of one variant (bench/server.js's `allVariants`) over the tool set in `dir`. */
export async function serverHandler(variant, dir) {
  const tools = JSON.parse(readFileSync(join(dir, 'tools.json'), 'utf8'));
  if (variant === 'sdk+none') {
    return sdkHandler(() => {
      const server = new McpServer(serverInfo);
      for (const tool of tools) server.registerTool(tool.name, { description: tool.description }, () => result(tool.answer));
      return server;
    });
  }
  if (variant === 'ours' || variant === 'sdk+ours') {
    const { contracts } = await import(pathToFileURL(join(dir, 'gen', 'index.mjs')).href);
    const runtime = new CapabilityRuntime();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const contract of Object.values(contracts)) {
      const { answer } = byName.get(contract.name);
      runtime.registerValidatedJsonTool(ToolPolicy.json(contract.name), ToolMetadata.of(contract.description), contract, () => answer);
    }
    if (variant === 'ours') return mcpHttpHandler(runtime, { serverInfo });
    return sdkHandler(() => {
      const server = new McpServer(serverInfo);
      serveToolsOnMcpServer(server, runtime);
      return server;
    });
  }
  // The schemas are converted once at start, the servers built per request register them: the cheapest a user can make it.
  const schemas = tools.map((tool) => (variant === 'sdk+zod' ? { ...tool, inputSchema: z.fromJSONSchema(tool.input), outputSchema: z.fromJSONSchema(tool.output) } : { ...tool, inputSchema: fromJsonSchema(tool.input), outputSchema: fromJsonSchema(tool.output) }));
  return sdkHandler(() => {
    const server = new McpServer(serverInfo);
    for (const tool of schemas) server.registerTool(tool.name, { description: tool.description, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema }, () => result(tool.answer));
    return server;
  });
}

/** SDK v2 as docs/mcp-revisions.md wires it: 2026-07-28 per request (createMcpHandler), 2025-11-25 in sessions. */
function sdkHandler(factory) {
  const modern = createMcpHandler(factory, { legacy: 'reject' });
  const sessions = new Map();
  const legacy = async (request) => {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const known = sessions.get(sessionId);
      return known === undefined ? new Response(null, { status: 404 }) : known.handleRequest(request);
    }
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, enableJsonResponse: true, onsessioninitialized: (id) => sessions.set(id, transport) });
    await factory().connect(transport);
    return transport.handleRequest(request);
  };
  return { fetch: async (request) => ((await isLegacyRequest(request)) ? legacy(request) : modern.fetch(request)) };
}
