import { serveToolsOnMcpServerV1 } from '@json-tool-contracts/runtime/mcp/sdk-v1';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createRuntime } from './handlers.js';

// An MCP server over stdio: every tool of contracts/, each call checked against its contract.
// Try it with `npx @modelcontextprotocol/inspector node dist/server.js`.
const server = new Server({ name: '{{name}}', version: '0.1.0' }, { capabilities: { tools: {} } });
serveToolsOnMcpServerV1(server, createRuntime());
await server.connect(new StdioServerTransport());
