import { createServer, type Server as HttpServer } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { serve as serveOnHono } from '@hono/node-server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mathAdd } from '../../../../../examples/generated/index.js';
import { compileContract } from '../../../../../test/support/load-module.js';
import { mcpCreateMessage, mcpLog, mcpProgress, type McpLoggingLevel } from '../../../src/mcp/server.js';
import { mcpHttpHandler, mcpNodeListener, type McpHttpHandlerOptions } from '../../../src/mcp/http/http-server.js';
import { CapabilityRuntime, ToolPolicy } from '../../../src/index.js';

/**
 * `mcpHttpHandler`: the runtime's tools served by hand to both MCP revisions from one endpoint, a
 * Web `Request` -> `Response` handler. Real SDK v2 clients, one pinned to 2026-07-28 and one speaking
 * 2025-11-25, reach the same handler through `fetch` with no socket; every message is recorded.
 */
const textTool = (name: string, description: string) =>
  compileContract(
    JSON.stringify({
      name,
      description,
      input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
      output: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
    }),
  );
const echo = textTool('text.echo', 'Echoes its text, logging and reporting progress on the way.');
const ask = textTool('text.ask', "Asks the client's model.");

function served(): CapabilityRuntime {
  const runtime = new CapabilityRuntime();
  // Registered out of name order: tools/list answers by name whatever the order of registration.
  runtime.registerTypedJsonTool(
    ToolPolicy.json('text.echo'),
    echo as never,
    (async ({ text }: { text: string }, request: never) => {
      await mcpProgress(request, 1, { total: 2 });
      for (const level of ['debug', 'info', 'error'] as const) await mcpLog(request, level, `${level}: ${text}`);
      return { text };
    }) as never,
  );
  runtime.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, ((input: { left: number; right: number }) => ({ total: input.left + input.right })) as never);
  runtime.registerTypedJsonTool(
    ToolPolicy.json('text.ask'),
    ask as never,
    (async ({ text }: { text: string }, request: never) => {
      const answer = await mcpCreateMessage(request, { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 10 });
      return { text: `model said ${answer.status === 'accepted' ? (answer.value.content as { text: string }).text : answer.status}` };
    }) as never,
  );
  runtime.registerTypedJsonTool(
    ToolPolicy.json('text.wait'),
    textTool('text.wait', 'Waits until the call is cancelled.') as never,
    ((_: unknown, request: { signal: AbortSignal }) => {
      started();
      return new Promise((_resolve, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason as Error), { once: true }));
    }) as never,
  );
  return runtime;
}

let started: () => void = () => {};

interface Wire {
  readonly sent: Record<string, unknown>[];
  readonly received: Record<string, unknown>[];
  readonly headers: Headers[];
  /** Event streams still being read: a stream ends only after the client answered what it asked. */
  readonly reading: Promise<void>[];
}

function recordingFetch(handler: { fetch(request: Request): Promise<Response> }, wire: Wire) {
  return async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(url, init);
    const body = request.method === 'POST' ? await request.clone().text() : '';
    if (body !== '') wire.sent.push(JSON.parse(body) as Record<string, unknown>);
    wire.headers.push(request.headers);
    const response = await handler.fetch(request);
    const stream = response.headers.get('content-type')?.includes('event-stream') === true;
    const read = response
      .clone()
      .text()
      .then((text) => {
        const messages = stream ? [...text.matchAll(/^data: (.*)$/gm)].map((m) => m[1]!) : text === '' ? [] : [text];
        for (const message of messages) wire.received.push(JSON.parse(message) as Record<string, unknown>);
      });
    if (stream) wire.reading.push(read);
    else await read;
    return response;
  };
}

const unsent: [McpLoggingLevel, unknown][] = [];
const options: McpHttpHandlerOptions = { serverInfo: { name: 'by-hand', version: '1.0.0' }, toolsListCache: { ttlMs: 30_000, cacheScope: 'public' }, unsentLog: (level, data) => void unsent.push([level, data]) };

async function connect(handler: ReturnType<typeof mcpHttpHandler>, revision: '2026-07-28' | '2025-11-25', logLevel?: McpLoggingLevel) {
  const wire: Wire = { sent: [], received: [], headers: [], reading: [] };
  const client = new ClientV2({ name: 'test', version: '1.0.0' }, { capabilities: { sampling: {} }, ...(revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: revision } } } : {}) });
  const log: unknown[] = [];
  client.setNotificationHandler('notifications/message', (notification) => void log.push(notification.params.data));
  client.setRequestHandler('sampling/createMessage', (request) => ({ role: 'assistant', model: 'echo', content: { type: 'text', text: `"${(request.params.messages[0]!.content as { text: string }).text}"` } }));
  await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:9/mcp'), { fetch: recordingFetch(handler, wire) }));
  if (logLevel !== undefined) await client.setLoggingLevel(logLevel);
  return { client, wire, log };
}

describe('mcpHttpHandler serves 2026-07-28 and 2025-11-25 clients from one handler, through fetch', () => {
  const handler = mcpHttpHandler(served(), options);
  afterAll(() => handler.close());

  it('a 2026-07-28 client discovers, lists and calls with no initialize and no session', async () => {
    const { client, wire } = await connect(handler, '2026-07-28');
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual(['math.add', 'text.ask', 'text.echo', 'text.wait']);
    expect(await client.callTool({ name: 'math.add', arguments: { left: 2, right: 3 } })).toMatchObject({ structuredContent: { total: 5 } });
    expect(wire.sent.map((message) => message['method'])).toEqual(['server/discover', 'tools/list', 'tools/call']);
    expect(wire.headers.every((headers) => headers.get('mcp-session-id') === null)).toBe(true);
    const [discover, list, call] = wire.received.map((message) => message['result'] as Record<string, unknown>);
    expect(discover).toMatchObject({ resultType: 'complete', ttlMs: 30_000, cacheScope: 'public', supportedVersions: expect.arrayContaining(['2026-07-28', '2025-11-25']) as unknown, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'by-hand', version: '1.0.0' } } });
    expect(list).toMatchObject({ resultType: 'complete', ttlMs: 30_000, cacheScope: 'public' });
    expect(call).toMatchObject({ resultType: 'complete' });
    // The revision's headers on every request the client sent: Mcp-Method, and Mcp-Name for a call.
    expect(wire.headers.map((headers) => [headers.get('mcp-method'), headers.get('mcp-name'), headers.get('mcp-protocol-version')])).toEqual([
      ['server/discover', null, '2026-07-28'],
      ['tools/list', null, '2026-07-28'],
      ['tools/call', 'math.add', '2026-07-28'],
    ]);
    expect(handler.sessionCount).toBe(0);
  });

  it('a 2025-11-25 client of the same handler initializes a session and gets that revision', async () => {
    const { client, wire } = await connect(handler, '2025-11-25');
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(handler.sessionCount).toBe(1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['math.add', 'text.ask', 'text.echo', 'text.wait']);
    expect(await client.callTool({ name: 'math.add', arguments: { left: 2, right: 3 } })).toMatchObject({ structuredContent: { total: 5 } });
    await client.ping();
    expect(wire.sent.map((message) => message['method'])).toEqual(['initialize', 'notifications/initialized', 'tools/list', 'tools/call', 'ping']);
    for (const message of wire.received.filter((m) => 'result' in m)) expect(Object.keys(message['result'] as object)).not.toContain('resultType');
    await client.close();
  });

  it('log messages: a 2026-07-28 request hears them only at the level it names, and without one they go to stderr', async () => {
    unsent.length = 0;
    const { client, wire, log } = await connect(handler, '2026-07-28');
    expect(await client.callTool({ name: 'text.echo', arguments: { text: 'quiet' } })).toMatchObject({ structuredContent: { text: 'quiet' } });
    await Promise.all(wire.reading);
    expect(log).toEqual([]);
    expect(wire.received.some((message) => message['method'] === 'notifications/message')).toBe(false);
    expect(unsent).toEqual([
      ['debug', 'debug: quiet'],
      ['info', 'info: quiet'],
      ['error', 'error: quiet'],
    ]);
    unsent.length = 0;
    const leveled = await handler.fetch(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'text.echo' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'text.echo', arguments: { text: 'loud' }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/logLevel': 'info' } } }),
      }),
    );
    expect(leveled.headers.get('content-type')).toBe('text/event-stream');
    const frames = [...(await leveled.text()).matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);
    expect(frames.filter((frame) => frame['method'] === 'notifications/message').map((frame) => (frame['params'] as { data: unknown }).data)).toEqual(['info: loud', 'error: loud']);
    expect(frames.at(-1)).toMatchObject({ id: 7, result: { resultType: 'complete', structuredContent: { text: 'loud' } } });
    expect(unsent).toEqual([]);
  });

  it('log messages: a 2025-11-25 session hears them as notifications from the level it set', async () => {
    const { client, log } = await connect(handler, '2025-11-25', 'info');
    await client.callTool({ name: 'text.echo', arguments: { text: 'hi' } });
    expect(log).toEqual(['info: hi', 'error: hi']);
    await client.close();
  });

  it('a 2025-11-25 handler asks the client (sampling) on the call stream and gets its answer from the next POST', async () => {
    const { client, wire } = await connect(handler, '2025-11-25');
    expect(await client.callTool({ name: 'text.ask', arguments: { text: 'ping?' } })).toMatchObject({ structuredContent: { text: 'model said "ping?"' } });
    await Promise.all(wire.reading);
    const asked = wire.received.find((message) => message['method'] === 'sampling/createMessage');
    expect(asked).toMatchObject({ id: expect.any(String) as unknown, params: { maxTokens: 10 } });
    expect(wire.sent.find((message) => message['id'] === asked!['id'] && 'result' in message)).toBeDefined();
    await client.close();
  });

  it('a 2025-11-25 client that cancels a call (notifications/cancelled) aborts the handler, and DELETE ends its session', async () => {
    const runtime = served();
    const own = mcpHttpHandler(runtime, options);
    const { client } = await connect(own, '2025-11-25');
    const abort = new AbortController();
    const running = new Promise<void>((resolve) => void (started = resolve));
    const call = client.callTool({ name: 'text.wait', arguments: { text: 'x' } }, { signal: abort.signal });
    await running;
    abort.abort();
    await expect(call).rejects.toThrow();
    await expect.poll(() => runtime.records().at(-1)?.outcome).toBe('cancelled');
    expect(own.sessionCount).toBe(1);
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    expect(own.sessionCount).toBe(0);
  });

  it('the same handler asked for sampling by a 2026-07-28 call: no request on the stream, an input_required round the client answers, the same answer', async () => {
    const { client, wire } = await connect(handler, '2026-07-28');
    expect(await client.callTool({ name: 'text.ask', arguments: { text: 'ping?' } })).toMatchObject({ structuredContent: { text: 'model said "ping?"' } });
    await Promise.all(wire.reading);
    expect(wire.received.find((message) => message['method'] === 'sampling/createMessage')).toBeUndefined();
    expect(wire.received.some((message) => (message['result'] as { resultType?: string } | undefined)?.resultType === 'input_required')).toBe(true);
  });
});

/** A hand-built 2026-07-28 request; `change` alters its headers or body. */
function modernRequest(change: { headers?: Record<string, string | undefined>; method?: string; params?: Record<string, unknown>; meta?: Record<string, unknown> | undefined } = {}) {
  const method = change.method ?? 'tools/list';
  const meta = 'meta' in change ? change.meta : { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const headers: Record<string, string | undefined> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...change.headers };
  const body = { jsonrpc: '2.0', id: 41, method, params: { ...change.params, ...(meta === undefined ? {} : { _meta: meta }) } };
  return new Request('http://127.0.0.1/mcp', { method: 'POST', headers: Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined)), body: JSON.stringify(body) });
}

async function answer(response: Response): Promise<{ status: number; code: unknown; id: unknown; data: unknown }> {
  const body = (await response.json()) as { id: unknown; error?: { code: unknown; data?: unknown } };
  return { status: response.status, code: body.error?.code, id: body.id, data: body.error?.data };
}

describe('mcpHttpHandler answers a request that breaks 2026-07-28 with that revision error codes and HTTP statuses', () => {
  const handler = mcpHttpHandler(served(), { ...options, allowedHosts: ['127.0.0.1'] });

  it.each([
    ['no MCP-Protocol-Version header', { headers: { 'mcp-protocol-version': undefined } }, 400, -32020],
    ['a header that disagrees with _meta', { headers: { 'mcp-protocol-version': '2026-08-01' } }, 400, -32020],
    ['no Mcp-Method header', { headers: { 'mcp-method': undefined } }, 400, -32020],
    ['an Mcp-Method header naming another method', { headers: { 'mcp-method': 'tools/call' } }, 400, -32020],
    ['an Mcp-Name header naming another tool', { method: 'tools/call', params: { name: 'math.add', arguments: {} }, headers: { 'mcp-name': 'text.echo' } }, 400, -32020],
    ['no clientCapabilities in _meta', { meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } }, 400, -32602],
    ['a header naming 2026-07-28 and no _meta', { meta: undefined }, 400, -32602],
    ['initialize, which the revision removed', { method: 'initialize' }, 404, -32601],
    ['ping, which the revision removed', { method: 'ping' }, 404, -32601],
    ['logging/setLevel, which the revision removed', { method: 'logging/setLevel' }, 404, -32601],
    ['an unknown method', { method: 'prompts/list' }, 404, -32601],
  ] as const)('%s', async (_, change, status, code) => {
    expect(await answer(await handler.fetch(modernRequest(change as never)))).toMatchObject({ status, code, id: 41 });
  });

  it("an Mcp-Name mismatch quotes at most 160 characters of the body's name, however long it is", async () => {
    const response = await handler.fetch(modernRequest({ method: 'tools/call', params: { name: 'x'.repeat(1_000_000), arguments: {} }, headers: { 'mcp-name': 'text.echo' } } as never));
    expect(response.status).toBe(400);
    expect((await response.text()).length).toBeLessThan(600);
  });

  it('a revision it does not serve: -32022 with the revisions it does', async () => {
    const later = { 'io.modelcontextprotocol/protocolVersion': '2027-01-01', 'io.modelcontextprotocol/clientCapabilities': {} };
    expect(await answer(await handler.fetch(modernRequest({ meta: later, headers: { 'mcp-protocol-version': '2027-01-01' } })))).toEqual({ status: 400, code: -32022, id: 41, data: { supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'], requested: '2027-01-01' } });
  });

  it('a Mcp-Name header in base64 for a name that is not plain ASCII is read', async () => {
    const response = await handler.fetch(modernRequest({ method: 'tools/call', params: { name: 'math.add', arguments: { left: 1, right: 1 } }, headers: { 'mcp-name': `=?base64?${btoa('math.add')}?=` } }));
    expect(await response.json()).toMatchObject({ id: 41, result: { structuredContent: { total: 2 } } });
  });

  it.each([
    ['a host it does not serve', new Request('http://evil.example/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }), 403, -32600],
    ['a body that is not JSON', new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":' }), 400, -32700],
    ['a body that is not application/json', new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' }), 415, -32600],
    ['a batch', new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[]' }), 400, -32600],
    ['a 2025 request without a session', new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' }), 400, -32600],
    ['a session it does not know', new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'mcp-session-id': 'gone' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' }), 404, -32001],
  ])('%s', async (_, request, status, code) => {
    expect(await answer(await handler.fetch(request))).toMatchObject({ status, code });
  });

  it('a body over the limit is 413 before it is parsed', async () => {
    const small = mcpHttpHandler(served(), { ...options, maxBodyBytes: 64 });
    const response = await small.fetch(modernRequest({ params: { padding: 'x'.repeat(200) } }));
    expect(response.status).toBe(413);
  });
});

describe('mcpNodeListener serves the handler on plain node:http', () => {
  let server: HttpServer | undefined;
  afterAll(() => server?.close());

  it('an SDK v1 client (2025-11-25) and an SDK v2 client pinned to 2026-07-28 reach one server on 127.0.0.1', async () => {
    const handler = mcpHttpHandler(served(), options);
    server = createServer(mcpNodeListener(handler));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`);
    const v1 = new ClientV1({ name: 'v1', version: '1.0.0' });
    await v1.connect(new HttpV1(url));
    expect(await v1.callTool({ name: 'math.add', arguments: { left: 1, right: 2 } })).toMatchObject({ structuredContent: { total: 3 } });
    const v2 = new ClientV2({ name: 'v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await v2.connect(new StreamableHTTPClientTransport(url));
    expect(await v2.callTool({ name: 'math.add', arguments: { left: 4, right: 5 } })).toMatchObject({ structuredContent: { total: 9 } });
    await v1.close();
    await v2.close();
    handler.close();
  });
});

/** The first frame of an event stream has arrived when the handler's log message has. */
async function firstFrame(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const { value } = await reader.read();
  return new TextDecoder().decode(value);
}

/** A 2025-11-25 session begun by hand: its id. */
async function initialized(fetcher: (request: Request) => Promise<Response>, url: string): Promise<string> {
  const response = await fetcher(
    new Request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'by-hand', version: '1' } } }),
    }),
  );
  await response.body?.cancel();
  return response.headers.get('mcp-session-id')!;
}

/** A tools/call of a tool that logs before it ends, so that its answer becomes an event stream; at each revision. */
function streamedCallRequest(url: string, revision: '2025-11-25' | '2026-07-28', sessionId?: string): Request {
  const params = { name: 'text.linger', arguments: { text: 'x' } };
  if (revision === '2025-11-25') {
    return new Request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId! }, body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params }) });
  }
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/logLevel': 'info' };
  return new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'text.linger' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { ...params, _meta: meta } }),
  });
}

/** A runtime with one tool that logs, then stays until its call is cancelled and logs again on its way out. */
function lingering(): CapabilityRuntime {
  const runtime = new CapabilityRuntime();
  runtime.registerTypedJsonTool(
    ToolPolicy.json('text.linger'),
    textTool('text.linger', 'Logs, then waits for its cancellation.') as never,
    (async (_: unknown, request: { signal: AbortSignal }) => {
      await mcpLog(request as never, 'info', 'started');
      await new Promise((resolve) => request.signal.addEventListener('abort', resolve, { once: true }));
      await mcpLog(request as never, 'info', 'leaving');
      return { text: 'late' };
    }) as never,
  );
  return runtime;
}

describe('a client that leaves a call whose answer became an event stream (the host cancels the body)', () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => void unhandled.push(reason);
  beforeAll(() => void process.on('unhandledRejection', onUnhandled));
  afterAll(() => void process.off('unhandledRejection', onUnhandled));

  /** The call is cancelled, and once it has ended nothing was left rejected in the process. */
  async function leftCleanly(runtime: CapabilityRuntime): Promise<void> {
    await expect.poll(() => runtime.records().at(-1)?.outcome, { timeout: 10_000 }).toBe('cancelled');
    // The stream's end runs in the turn after the record: give the process a few turns to report a rejection.
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);
  }

  it.each(['2025-11-25', '2026-07-28'] as const)('in process, response.body.getReader().cancel() at %s: the call is cancelled and the process lives', async (revision) => {
    const runtime = lingering();
    const handler = mcpHttpHandler(runtime, options);
    const fetcher = (request: Request) => handler.fetch(request);
    const sessionId = revision === '2025-11-25' ? await initialized(fetcher, 'http://127.0.0.1/mcp') : undefined;
    const response = await handler.fetch(streamedCallRequest('http://127.0.0.1/mcp', revision, sessionId));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    expect(await firstFrame(reader)).toContain('started');
    await reader.cancel();
    await leftCleanly(runtime);
    handler.close();
  });

  const hosts = {
    "Hono's node server (@hono/node-server)": (handler: ReturnType<typeof mcpHttpHandler>) =>
      new Promise<HttpServer>((resolve) => {
        const started = serveOnHono({ fetch: handler.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started as HttpServer));
      }),
    'node:http through mcpNodeListener (no Web Response)': (handler: ReturnType<typeof mcpHttpHandler>) =>
      new Promise<HttpServer>((resolve) => {
        const started = createServer(mcpNodeListener(handler)).listen(0, '127.0.0.1', () => resolve(started));
      }),
  };
  it.each(Object.keys(hosts).flatMap((host) => (['2025-11-25', '2026-07-28'] as const).map((revision) => [host, revision] as const)))('on %s, a client that closes its connection at %s: the call is cancelled and the process lives', async (host, revision) => {
    const runtime = lingering();
    const handler = mcpHttpHandler(runtime, options);
    const server = await hosts[host as keyof typeof hosts](handler);
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
      const sessionId = revision === '2025-11-25' ? await initialized((request) => fetch(request), url) : undefined;
      const leave = new AbortController();
      const response = await fetch(streamedCallRequest(url, revision, sessionId), { signal: leave.signal });
      expect(response.headers.get('content-type')).toBe('text/event-stream');
      expect(await firstFrame(response.body!.getReader())).toContain('started');
      leave.abort();
      await leftCleanly(runtime);
    } finally {
      handler.close();
      server.close();
    }
  });
});

describe('2025-11-25 sessions end when idle and are capped', () => {
  afterEach(() => void vi.useRealTimers());
  const ping = (handler: ReturnType<typeof mcpHttpHandler>, sessionId: string) => handler.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'mcp-session-id': sessionId }, body: '{"jsonrpc":"2.0","id":3,"method":"ping"}' }));

  it('one initialize more than maxSessions is refused with HTTP 503 that says why, until a session ends', async () => {
    const handler = mcpHttpHandler(served(), { ...options, maxSessions: 2 });
    const fetcher = (request: Request) => handler.fetch(request);
    const [first] = [await initialized(fetcher, 'http://127.0.0.1/mcp'), await initialized(fetcher, 'http://127.0.0.1/mcp')];
    // A real client is refused with the server's words.
    const refused = new ClientV2({ name: 'third', version: '1.0.0' });
    await expect(refused.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:9/mcp'), { fetch: recordingFetch(handler, { sent: [], received: [], headers: [], reading: [] }) }))).rejects.toThrow(/maxSessions 2/);
    const response = await handler.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }) }));
    expect(await answer(response)).toMatchObject({ status: 503, code: -32000, id: 1 });
    expect(handler.sessionCount).toBe(2);
    // 2026-07-28 requests need no session: served as ever.
    expect((await handler.fetch(modernRequest())).status).toBe(200);
    await handler.fetch(new Request('http://127.0.0.1/mcp', { method: 'DELETE', headers: { 'mcp-session-id': first } }));
    expect(await initialized(fetcher, 'http://127.0.0.1/mcp')).toEqual(expect.any(String));
    expect(handler.sessionCount).toBe(2);
    handler.close();
  });

  it('a session with no request for sessionIdleMs ends, and its client is told to initialize again; one seen meanwhile stays', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.now();
    const handler = mcpHttpHandler(served(), { ...options, sessionIdleMs: 60_000 });
    const fetcher = (request: Request) => handler.fetch(request);
    const [active, idle] = [await initialized(fetcher, 'http://127.0.0.1/mcp'), await initialized(fetcher, 'http://127.0.0.1/mcp')];
    vi.setSystemTime(start + 30_000);
    expect((await ping(handler, active)).status).toBe(200);
    vi.setSystemTime(start + 70_000);
    expect(await answer(await ping(handler, idle))).toMatchObject({ status: 404, code: -32001 });
    expect(handler.sessionCount).toBe(1);
    expect((await ping(handler, active)).status).toBe(200);
    vi.setSystemTime(start + 140_000);
    expect(await answer(await ping(handler, active))).toMatchObject({ status: 404, code: -32001 });
    expect(handler.sessionCount).toBe(0);
    handler.close();
  });

  it('a session whose call is still running is not idle; its idle time counts from the end of the call', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.now();
    const runtime = served();
    const handler = mcpHttpHandler(runtime, { ...options, sessionIdleMs: 60_000 });
    const fetcher = (request: Request) => handler.fetch(request);
    const sessionId = await initialized(fetcher, 'http://127.0.0.1/mcp');
    const running = new Promise<void>((resolve) => void (started = resolve));
    const leave = new AbortController();
    const call = handler.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', signal: leave.signal, headers: { 'content-type': 'application/json', 'mcp-session-id': sessionId }, body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'text.wait', arguments: { text: 'x' } } }) }));
    await running;
    vi.setSystemTime(start + 500_000);
    // Any request sweeps: the session with its call running stays.
    expect((await handler.fetch(modernRequest())).status).toBe(200);
    expect(handler.sessionCount).toBe(1);
    vi.setSystemTime(start + 540_000);
    // The call ends with no request of the session (its connection closed).
    leave.abort();
    await call;
    await expect.poll(() => runtime.records().at(-1)?.outcome).toBe('cancelled');
    // 40 s after the call ended (and 80 s after the sweep that last saw it running): not idle long enough.
    vi.setSystemTime(start + 580_000);
    expect((await handler.fetch(modernRequest())).status).toBe(200);
    expect(handler.sessionCount).toBe(1);
    vi.setSystemTime(start + 610_000);
    expect((await handler.fetch(modernRequest())).status).toBe(200);
    expect(handler.sessionCount).toBe(0);
    handler.close();
  });

  it.each([
    ['sessionIdleMs', 0],
    ['maxSessions', 1.5],
    ['maxSessions', -1],
  ])('%s of %s is a RangeError at once', (name, value) => {
    expect(() => mcpHttpHandler(served(), { ...options, [name]: value })).toThrow(RangeError);
  });
});

describe('calls that go on as MCP tasks are bounded, and hold nothing of their HTTP request', () => {
  const taskMeta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } };
  const taskCall = (id: number, method = 'tools/call', params: Record<string, unknown> = { name: 'text.wait', arguments: { text: 'x' } }) =>
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, 'mcp-name': String(params['name'] ?? params['taskId']) },
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: taskMeta } }),
    });
  const tasked = (runtime: CapabilityRuntime) => mcpHttpHandler(runtime, { ...options, tasks: { tools: { 'text.wait': 'optional' } } });

  it('past maxDeferredCalls one more task is refused, saying so, until one ends', async () => {
    const runtime = new CapabilityRuntime({ maxDeferredCalls: 2 });
    runtime.registerTypedJsonTool(
      ToolPolicy.json('text.wait'),
      textTool('text.wait', 'Waits until cancelled.') as never,
      ((_: unknown, request: { signal: AbortSignal }) => new Promise((_resolve, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason as Error), { once: true }))) as never,
    );
    const handler = tasked(runtime);
    const results = [];
    for (const id of [1, 2, 3]) results.push(((await (await handler.fetch(taskCall(id))).json()) as { result: Record<string, unknown> }).result);
    expect(results.slice(0, 2).map((result) => result['resultType'])).toEqual(['task', 'task']);
    expect(results[2]).toMatchObject({ isError: true, content: [{ text: 'denied: this replica holds 2 open deferred calls, the most it keeps (maxDeferredCalls): try again once some have ended' }] });
    await handler.fetch(taskCall(4, 'tasks/cancel', { taskId: results[0]!['taskId'] }));
    await expect.poll(async () => ((await (await handler.fetch(taskCall(5))).json()) as { result: Record<string, unknown> }).result['resultType']).toBe('task');
  });

  it("once the tools/call is answered with a task, the task's handler keeps neither the request nor its response", async () => {
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const runtime = new CapabilityRuntime();
    runtime.registerTypedJsonTool(ToolPolicy.json('text.wait'), textTool('text.wait', 'Waits until cancelled.') as never, ((_: unknown, request: { signal: AbortSignal }) => new Promise((resolve) => request.signal.addEventListener('abort', resolve, { once: true }))) as never);
    const handler = tasked(runtime);
    const kept = await (async () => {
      const request = taskCall(1);
      const response = await handler.fetch(request);
      expect(((await response.json()) as { result: { resultType: string } }).result.resultType).toBe('task');
      return [new WeakRef(request), new WeakRef(response)];
    })();
    // WeakRefs hold their target until the current job ends: collect in a later one.
    await new Promise((resolve) => setTimeout(resolve, 0));
    collect();
    await new Promise((resolve) => setTimeout(resolve, 0));
    collect();
    expect(kept.map((ref) => ref.deref() === undefined)).toEqual([true, true]);
    expect((await runtime.readCall(runtime.records()[0]?.callId ?? 'call-1'))?.state).toBe('running');
  });
});
