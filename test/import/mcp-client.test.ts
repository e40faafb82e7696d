import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listToolsOverHttp } from '../../src/import/mcp-client.js';
import { renderJson } from '../../src/import/render.js';

/**
 * A Streamable HTTP endpoint on 127.0.0.1, written from the MCP spec: initialize answered as JSON
 * with a session id, tools/list answered as an event stream (a progress notification first) with a
 * cursor, the second page as JSON; every later request must carry the session and the protocol version.
 */
const seen: { method: string; session: string | undefined; version: string | undefined; accept: string | undefined; auth: string | undefined }[] = [];
let server: Server;
let url: string;

const tool = (name: string, extra = '') => `{"name": "${name}", "description": "Tool ${name}.", "inputSchema": {"type": "object", "properties": {"n": {"type": "integer", "maximum": 1.50}}}${extra}}`;

function answer(request: IncomingMessage, response: ServerResponse, body: string): void {
  const message = JSON.parse(body) as { id?: number; method: string; params?: { cursor?: string } };
  seen.push({ method: message.method, session: request.headers['mcp-session-id'] as string | undefined, version: request.headers['mcp-protocol-version'] as string | undefined, accept: request.headers.accept, auth: request.headers.authorization });
  if (request.url === '/broken') {
    response.writeHead(500, { 'content-type': 'text/plain' }).end('the database is down');
    return;
  }
  if (message.id === undefined) {
    response.writeHead(202).end();
    return;
  }
  if (message.method === 'initialize') {
    response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'session-1' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'local', version: '1' } } }));
    return;
  }
  if (request.url === '/silent') return; // never answers tools/list
  if (message.params?.cursor === undefined) {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write(`event: message\ndata: {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progress": 1}}\n\n`);
    response.end(`event: message\ndata: {"jsonrpc": "2.0", "id": ${message.id}, "result": {"tools": [${tool('first')}], "nextCursor": "page-2"}}\n\n`);
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json' }).end(`{"jsonrpc": "2.0", "id": ${message.id}, "result": {"tools": [${tool('second', ', "outputSchema": {"type": "object"}')}]}}`);
}

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      if (request.method === 'DELETE') {
        seen.push({ method: 'DELETE', session: request.headers['mcp-session-id'] as string | undefined, version: undefined, accept: undefined, auth: undefined });
        response.writeHead(200).end();
        return;
      }
      answer(request, response, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('the MCP client over Streamable HTTP', () => {
  it('initializes, lists every page (JSON and event-stream answers), keeps numbers as written, and ends the session', async () => {
    seen.length = 0;
    const tools = await listToolsOverHttp(`${url}/mcp`, { timeoutMs: 60_000, headers: { authorization: 'Bearer t' } });
    expect(tools.map((t) => renderJson(t).includes('"maximum": 1.50'))).toEqual([true, true]);
    expect(tools.map((t) => (t.kind === 'object' ? t.members[0]!.value : undefined))).toMatchObject([{ value: 'first' }, { value: 'second' }]);
    expect(seen.map((s) => s.method)).toEqual(['initialize', 'notifications/initialized', 'tools/list', 'tools/list', 'DELETE']);
    expect(seen[0]).toMatchObject({ session: undefined, version: undefined, accept: 'application/json, text/event-stream', auth: 'Bearer t' });
    for (const later of seen.slice(1)) expect(later.session).toBe('session-1');
    expect(seen[2]!.version).toBe('2025-06-18');
  });

  it('reports an HTTP error with what the server said, and a server that does not answer within the timeout', async () => {
    await expect(listToolsOverHttp(`${url}/broken`, { timeoutMs: 60_000 })).rejects.toThrow(`server ${url}/broken: HTTP 500 Internal Server Error: the database is down`);
    await expect(listToolsOverHttp(`${url}/silent`, { timeoutMs: 1000 })).rejects.toThrow(`server ${url}/silent: no answer within 1 s`);
    await expect(listToolsOverHttp('http://127.0.0.1:1/mcp', { timeoutMs: 60_000 })).rejects.toThrow(/^server http:\/\/127.0.0.1:1\/mcp: could not be reached: /);
  });
});

describe('the MCP client against a stateless 2026-07-28 server (SDK v2 2.4)', () => {
  /**
   * SDK v2's own 2026-07-28 serving (createMcpHandler), over node:http on 127.0.0.1, in front of it
   * one rule of a server that speaks that revision only: initialize is refused (SDK v2 would answer
   * it through its 2025 shim). Every request that reaches the SDK is recorded.
   */
  let modern: Server;
  let modernUrl: string;
  const reached: { method: string; version: string | undefined; methodHeader: string | undefined; session: string | undefined; meta: unknown }[] = [];

  beforeAll(async () => {
    const handler = createMcpHandler(() => {
      const server = new McpServer({ name: 'modern', version: '1.0.0' }, { supportedProtocolVersions: ['2026-07-28'] } as never);
      server.registerTool('echo', { description: 'Says it back.', inputSchema: z.object({ text: z.string().max(40) }) }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
      return server;
    });
    modern = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const message = body === '' ? {} : (JSON.parse(body) as { id?: number; method?: string; params?: { _meta?: unknown } });
        if (message.method === 'initialize') {
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }));
          return;
        }
        reached.push({ method: String(message.method), version: request.headers['mcp-protocol-version'] as string | undefined, methodHeader: request.headers['mcp-method'] as string | undefined, session: request.headers['mcp-session-id'] as string | undefined, meta: message.params?._meta });
        const answer = await handler.fetch(new Request(`http://127.0.0.1${request.url}`, { method: request.method!, headers: request.headers as Record<string, string>, ...(request.method === 'POST' ? { body } : {}) }));
        response.writeHead(answer.status, Object.fromEntries(answer.headers)).end(Buffer.from(await answer.arrayBuffer()));
      });
    });
    await new Promise<void>((resolve) => modern.listen(0, '127.0.0.1', resolve));
    modernUrl = `http://127.0.0.1:${(modern.address() as AddressInfo).port}/mcp`;
  });

  afterAll(async () => {
    modern.closeAllConnections();
    await new Promise((resolve) => modern.close(resolve));
  });

  it('asks server/discover when initialize is refused, then lists statelessly: the revision in _meta and headers, no session', async () => {
    const tools = await listToolsOverHttp(modernUrl, { timeoutMs: 60_000 });
    expect(tools.map((t) => renderJson(t))).toEqual([expect.stringContaining('"name": "echo"')]);
    expect(reached.map((r) => r.method)).toEqual(['server/discover', 'tools/list']);
    for (const request of reached) {
      expect(request).toMatchObject({ version: '2026-07-28', methodHeader: request.method, session: undefined });
      expect(request.meta).toEqual({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'jtc', version: expect.any(String) } });
    }
  });
});
