import { serveToolsOnMcpServerV1 } from '@json-tool-contracts/runtime/mcp/sdk-v1';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createRuntime } from './handlers.js';
import { telemetryObserver } from './telemetry.js';

// An MCP server over stdio: every tool of contracts/, each call checked against its contract.
// Try it with `npx @modelcontextprotocol/inspector node dist/server.js`. With
// OTEL_EXPORTER_OTLP_ENDPOINT set, every call is a span (see telemetry.ts).
const server = new Server({ name: '{{name}}', version: '0.1.0' }, { capabilities: { tools: {} } });
const observer = await telemetryObserver();
serveToolsOnMcpServerV1(server, createRuntime(observer === undefined ? {} : { observer }));
await server.connect(new StdioServerTransport());
