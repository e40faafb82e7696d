import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listToolsOverHttp } from '../../src/import/mcp-client.js';

/**
 * `jtc import --url` against a hostile HTTP peer on 127.0.0.1: error responses with endless or
 * dribbling bodies, event streams that never separate their events, bytes that are not UTF-8.
 * Each must end within a bounded time with a clear message, having read no more than it needs.
 */
let server: Server;
let url: string;
/** Bytes each path managed to write before the client went away. */
const written = new Map<string, number>();
const bounded = 60_000;

/** Writes `chunk` for as long as the client reads, counting the bytes. */
function endless(response: ServerResponse, path: string, chunk: string): void {
  const bytes = Buffer.from(chunk);
  written.set(path, 0);
  const pump = (): void => {
    while (!response.destroyed && response.write(bytes)) written.set(path, written.get(path)! + bytes.length);
    if (!response.destroyed) response.once('drain', pump);
  };
  response.on('close', () => response.removeListener('drain', pump));
  pump();
}

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const path = request.url ?? '';
      if (path === '/endless-401') {
        response.writeHead(401, { 'content-type': 'text/plain' });
        endless(response, path, `${'no token; '.repeat(6553)}\n`);
      } else if (path === '/dribbling-500') {
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.write('the database is down');
        const timer = setInterval(() => response.write('.'), 200);
        response.on('close', () => clearInterval(timer));
      } else if (path === '/undelimited-events') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        endless(response, path, `data: ${'x'.repeat(65_000)}\n`);
      } else if (path === '/slow-undelimited-events') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        const timer = setInterval(() => response.write(`data: ${'x'.repeat(1000)}\n`), 10);
        response.on('close', () => clearInterval(timer));
      } else if (path === '/not-utf8') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(Buffer.concat([Buffer.from('{"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "serverInfo": {"name": "'), Buffer.from([0xc3, 0x28]), Buffer.from('"}}}')]));
      } else {
        response.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** How long a listing took to fail, and with what. */
async function failure(path: string, timeoutMs: number): Promise<{ message: string; ms: number }> {
  const started = Date.now();
  const error = await listToolsOverHttp(`${url}${path}`, { timeoutMs }).then(
    () => new Error('it succeeded'),
    (thrown: Error) => thrown,
  );
  return { message: error.message, ms: Date.now() - started };
}

describe('jtc import --url: a hostile HTTP peer', () => {
  it('quotes the start of an endless error body and stops reading it, long before the timeout', async () => {
    const { message, ms } = await failure('/endless-401', 600_000);
    expect(message).toBe(`server ${url}/endless-401: HTTP 401 Unauthorized: ${'no token; '.repeat(20).trim()}`);
    expect(ms).toBeLessThan(bounded);
    // What was read, and what the sockets held: far from the gigabytes an endless body gives.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(written.get('/endless-401')!).toBeLessThan(16 * 1024 * 1024);
  });

  it('an error body that dribbles in is quoted as far as it came when the timeout passes', async () => {
    const { message, ms } = await failure('/dribbling-500', 1000);
    expect(message).toMatch(new RegExp(`^server ${url}/dribbling-500: HTTP 500 Internal Server Error: the database is down\\.*$`));
    expect(ms).toBeLessThan(bounded);
  });

  it('an event stream without blank lines between events is scanned once: it ends at the 64 MiB bound or the timeout, whichever comes first', async () => {
    const { message, ms } = await failure('/undelimited-events', 2000);
    expect([`server ${url}/undelimited-events: no answer within 2 s`, `server ${url}/undelimited-events: sent more than 67108864 bytes in one answer`]).toContain(message);
    expect(ms).toBeLessThan(bounded);
  });

  it('an event stream that trickles in without ever ending an event ends at the timeout', async () => {
    const { message, ms } = await failure('/slow-undelimited-events', 2000);
    expect(message).toBe(`server ${url}/slow-undelimited-events: no answer within 2 s`);
    expect(ms).toBeLessThan(bounded);
  });

  it('refuses an answer that is not UTF-8', async () => {
    const { message } = await failure('/not-utf8', 60_000);
    expect(message).toBe(`server ${url}/not-utf8: sent an answer that is not valid UTF-8; MCP messages are UTF-8`);
  });
});
