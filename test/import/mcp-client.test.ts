import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
