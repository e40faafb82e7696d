import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server as HttpServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mathAdd } from '../../../../../examples/generated/index.js';
import { compileContract } from '../../../../../test/support/load-module.js';
import { CapabilityRuntime, ToolMetadata, ToolPolicy } from '../../../src/index.js';
import { mcpHttpHandler, mcpNodeListener, type McpHttpHandler } from '../../../src/mcp/http/http-server.js';
import { mcpLog } from '../../../src/mcp/server.js';

/**
 * mcpHttpHandler has two doors: `fetch` (a Web Request in, a Response out) and, on node:http,
 * `mcpNodeListener`, which serves it without making either (mcp/http/exchange.ts). The differential:
 * one conversation of raw requests, the good and the broken, sent through each door to a handler of
 * its own; every answer's status, headers and body must be the same (session ids aside).
 */
const moneyTransfer = compileContract(readFileSync(new URL('../../fixtures/money.transfer.contract.json', import.meta.url), 'utf8'), 'money.transfer.contract.json', { exactNumbers: true });
const echo = compileContract(
  JSON.stringify({
    name: 'text.echo',
    description: 'Echoes its text, logging on the way.',
    input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
    output: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  }),
);

const maxBodyBytes = 4096;

function handler(): McpHttpHandler {
  const runtime = new CapabilityRuntime();
  runtime.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, ((input: { left: number; right: number }) => ({ total: input.left + input.right })) as never);
  runtime.registerTypedJsonTool(
    ToolPolicy.json('text.echo'),
    echo as never,
    (async ({ text }: { text: string }, request: never) => {
      await mcpLog(request, 'info', `echo: ${text}`);
      return { text };
    }) as never,
  );
  runtime.registerValidatedJsonTool(ToolPolicy.json('money.transfer'), ToolMetadata.of('Transfers money.'), moneyTransfer as never, (request) => ({ account: (request.input as { account: unknown }).account, fee: 0 }));
  return mcpHttpHandler(runtime, {
    serverInfo: { name: 'doors', version: '1.0.0' },
    allowedHosts: ['mcp.test'],
    maxBodyBytes,
    authInfo: (request) => {
      if (request.headers.get('x-auth') === 'broken') throw new Error('the token store is down');
      return request.headers.get('authorization') === null ? undefined : { token: request.headers.get('authorization')!.replace(/^Bearer /, ''), clientId: 'c', scopes: [] };
    },
  });
}

interface Sent {
  readonly method: string;
  readonly host?: string;
  readonly headers: Record<string, string>;
  /** The body; an array is sent in chunks without a content-length. */
  readonly body?: string | readonly string[];
}
interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | undefined>;
  readonly body: string;
}

const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const modern = (method: string, name?: string) => ({ ...json, 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name === undefined ? {} : { 'mcp-name': name }) });
const meta = '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"info"}';
const session = '<session>';
const large = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(maxBodyBytes)}"}}`;

/** The conversation, in order: a 2025-11-25 session's requests carry `<session>`, the id its initialize was answered with. */
const conversation: readonly (readonly [string, Sent])[] = [
  ['GET is not served', { method: 'GET', headers: {} }],
  ['a body that is not JSON by its type', { method: 'POST', headers: { ...json, 'content-type': 'text/plain' }, body: '{}' }],
  ['a body that is not JSON', { method: 'POST', headers: json, body: '{"jsonrpc":' }],
  ['a batch', { method: 'POST', headers: json, body: '[{"jsonrpc":"2.0","id":1,"method":"ping"}]' }],
  ['not JSON-RPC', { method: 'POST', headers: json, body: '{"id":1,"method":"ping"}' }],
  ['a body over the limit, by its content-length', { method: 'POST', headers: json, body: large }],
  ['a body over the limit, in chunks of no declared length', { method: 'POST', headers: json, body: [large.slice(0, 3000), large.slice(3000)] }],
  ['a host that is not served', { method: 'POST', host: 'evil.test', headers: modern('tools/list'), body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{${meta}}}` }],
  ['2026-07-28 server/discover', { method: 'POST', headers: modern('server/discover'), body: `{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{${meta}}}` }],
  ['2026-07-28 tools/list', { method: 'POST', headers: modern('tools/list'), body: `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{${meta}}}` }],
  ['2026-07-28 tools/call', { method: 'POST', headers: modern('tools/call', 'math.add'), body: `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"math.add","arguments":{"left":2,"right":3},${meta}}}` }],
  ['2026-07-28 tools/call in chunks', { method: 'POST', headers: modern('tools/call', 'math.add'), body: ['{"jsonrpc":"2.0","id":"é-5","method":"tools/c', `all","params":{"name":"math.add","arguments":{"left":2,"right":3},${meta}}}`] }],
  ['2026-07-28 tools/call that logs: an event stream', { method: 'POST', headers: modern('tools/call', 'text.echo'), body: `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"text.echo","arguments":{"text":"ünïcode ✓"},${meta}}}` }],
  ['2026-07-28 tools/call of an exact tool: every digit', { method: 'POST', headers: modern('tools/call', 'money.transfer'), body: `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"money.transfer","arguments":{"account":18446744073709551615,"amount":0.30000000000000000001},${meta}}}` }],
  ['2026-07-28 without its Mcp-Method header', { method: 'POST', headers: { ...json, 'mcp-protocol-version': '2026-07-28' }, body: `{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{${meta}}}` }],
  ['2026-07-28 notification', { method: 'POST', headers: modern('notifications/cancelled'), body: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{${meta}}}` }],
  ['an authInfo that throws: the request cannot be served', { method: 'POST', headers: { ...modern('tools/call', 'math.add'), 'x-auth': 'broken' }, body: `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"math.add","arguments":{"left":2,"right":3},${meta}}}` }],
  ['2025-11-25 initialize', { method: 'POST', headers: json, body: '{"jsonrpc":"2.0","id":10,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}' }],
  ['2025-11-25 notifications/initialized', { method: 'POST', headers: { ...json, 'mcp-session-id': session }, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' }],
  ['2025-11-25 tools/call', { method: 'POST', headers: { ...json, 'mcp-session-id': session, authorization: 'Bearer t' }, body: '{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"math.add","arguments":{"left":20,"right":22}}}' }],
  ['2025-11-25 tools/call that logs', { method: 'POST', headers: { ...json, 'mcp-session-id': session }, body: '{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"text.echo","arguments":{"text":"a session"}}}' }],
  ['2025-11-25 without a session', { method: 'POST', headers: json, body: '{"jsonrpc":"2.0","id":13,"method":"ping"}' }],
  ['2025-11-25 DELETE ends the session', { method: 'DELETE', headers: { 'mcp-session-id': session } }],
  ['2025-11-25 DELETE again', { method: 'DELETE', headers: { 'mcp-session-id': session } }],
  ['2025-11-25 a request of the ended session', { method: 'POST', headers: { ...json, 'mcp-session-id': session }, body: '{"jsonrpc":"2.0","id":14,"method":"ping"}' }],
];

/** The headers a client reads; the session id as its placeholder. */
function compared(status: number, header: (name: string) => string | undefined, body: string, sessionId: string | undefined): Answer {
  const names = ['content-type', 'cache-control', 'allow', 'mcp-session-id'];
  const headers = Object.fromEntries(names.map((name) => [name, name === 'mcp-session-id' && header(name) !== undefined ? session : header(name)]));
  return { status, headers, body: sessionId === undefined ? body : body.replaceAll(sessionId, session) };
}

/** Each door's conversation: what `send` answers, with the session id put in and taken out. */
async function converse(send: (sent: Sent) => Promise<{ answer: Answer; sessionId: string | undefined }>): Promise<[string, Answer][]> {
  let sessionId: string | undefined;
  const answers: [string, Answer][] = [];
  for (const [what, sent] of conversation) {
    const headers = Object.fromEntries(Object.entries(sent.headers).map(([name, value]) => [name, value === session ? sessionId! : value]));
    const { answer, sessionId: begun } = await send({ ...sent, headers });
    sessionId ??= begun;
    answers.push([what, { ...answer, body: sessionId === undefined ? answer.body : answer.body.replaceAll(sessionId, session) }]);
  }
  return answers;
}

function throughFetch(door: McpHttpHandler) {
  return async ({ method, host = 'mcp.test', headers, body }: Sent) => {
    const chunks = typeof body === 'string' ? [body] : body;
    const stream =
      chunks === undefined
        ? undefined
        : new ReadableStream<Uint8Array>({
            start(controller) {
              for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
              controller.close();
            },
          });
    const declared = typeof body === 'string' ? { 'content-length': String(Buffer.byteLength(body)) } : {};
    const response = await door.fetch(new Request(`http://${host}/mcp`, { method, headers: { ...headers, ...declared }, body: stream, duplex: 'half' } as RequestInit));
    const text = await response.text();
    return { answer: compared(response.status, (name) => response.headers.get(name) ?? undefined, text, undefined), sessionId: response.headers.get('mcp-session-id') ?? undefined };
  };
}

/** A raw node:http request, so that the body's chunks and the Host are the test's own; also what node:http itself saw. */
function rawRequest(port: number, { method, host = 'mcp.test', headers, body }: Sent): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const declared = typeof body === 'string' ? { 'content-length': String(Buffer.byteLength(body)) } : {};
    const outgoing = httpRequest({ host: '127.0.0.1', port, path: '/mcp', method, headers: { ...headers, ...declared, host } }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode!, headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') }));
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    for (const chunk of typeof body === 'string' ? [body] : (body ?? [])) outgoing.write(chunk);
    outgoing.end();
  });
}

describe('mcpHttpHandler answers the same through fetch and through mcpNodeListener, which makes no Web Request or Response', () => {
  let server: HttpServer;
  let port: number;
  const nodeDoor = handler();
  const seenOnNode: { what: string; headers: Record<string, string | string[] | undefined> }[] = [];
  beforeAll(async () => {
    server = createServer(mcpNodeListener(nodeDoor));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => {
    nodeDoor.close();
    server.close();
  });

  it('every answer of the conversation, good and broken requests alike', async () => {
    const fetchDoor = handler();
    const byFetch = await converse(throughFetch(fetchDoor));
    fetchDoor.close();
    let index = 0;
    const byNode = await converse(async (sent) => {
      const raw = await rawRequest(port, sent);
      seenOnNode.push({ what: conversation[index++]![0], headers: raw.headers });
      const header = (name: string) => {
        const value = raw.headers[name];
        return Array.isArray(value) ? value.join(', ') : value;
      };
      return { answer: compared(raw.status, header, raw.body, undefined), sessionId: header('mcp-session-id') };
    });
    expect(byNode).toEqual(byFetch);
    // The conversation reaches what it means to: each kind of answer is in it.
    const statuses = new Map(byFetch.map(([what, answer]) => [what, answer.status]));
    expect(Object.fromEntries(statuses)).toMatchObject({
      'GET is not served': 405,
      'a body over the limit, by its content-length': 413,
      'a body over the limit, in chunks of no declared length': 413,
      'a host that is not served': 403,
      '2026-07-28 notification': 202,
      'an authInfo that throws: the request cannot be served': 500,
      '2025-11-25 DELETE ends the session': 200,
      '2025-11-25 DELETE again': 404,
    });
    const answerOf = (what: string) => byFetch.find(([named]) => named === what)![1];
    expect(answerOf('2026-07-28 tools/call that logs: an event stream').headers['content-type']).toBe('text/event-stream');
    expect(answerOf('2026-07-28 tools/call that logs: an event stream').body).toContain('echo: ünïcode ✓');
    expect(answerOf('2026-07-28 tools/call of an exact tool: every digit').body).toContain('{"account":18446744073709551615,"fee":0}');
    expect(answerOf('2026-07-28 tools/call in chunks').body).toContain('"id":"é-5"');
    expect(answerOf('an authInfo that throws: the request cannot be served').body).toContain('the token store is down');
  });

  it('on node:http a JSON answer has its length, and an event stream is written as it comes', () => {
    const seen = new Map(seenOnNode.map(({ what, headers }) => [what, headers]));
    expect(seen.get('2026-07-28 tools/call')).toMatchObject({ 'content-length': expect.stringMatching(/^\d+$/) });
    expect(seen.get('2026-07-28 tools/call')).not.toHaveProperty('transfer-encoding');
    expect(seen.get('2026-07-28 tools/call that logs: an event stream')).toMatchObject({ 'transfer-encoding': 'chunked' });
  });

  it('a body over the limit that is still arriving: its 413 reaches the client at once, and the connection closes after it', async () => {
    const answered = await new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
      const outgoing = httpRequest({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { ...json, host: 'mcp.test' } }, (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          resolve({ status: incoming.statusCode!, connection: incoming.headers.connection, body: Buffer.concat(chunks).toString('utf8') });
          outgoing.destroy();
        });
      });
      outgoing.on('error', reject);
      // More than the limit, and the request not ended: the rest never comes.
      outgoing.write(large.slice(0, maxBodyBytes + 100));
    });
    expect(answered).toMatchObject({ status: 413, connection: 'close' });
    expect(JSON.parse(answered.body)).toMatchObject({ error: { code: -32600, message: `the request body is larger than ${maxBodyBytes} bytes` } });
  });

  it('a client that closes the connection before its body ends leaves nothing behind, and the server goes on', async () => {
    await new Promise<void>((resolve) => {
      const outgoing = httpRequest({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { ...json, host: 'mcp.test', 'content-length': '1000' } });
      outgoing.on('error', () => resolve());
      outgoing.write('{"jsonrpc":"2.0",', () => setTimeout(() => outgoing.destroy(), 20));
      outgoing.on('close', () => resolve());
    });
    const after = await rawRequest(port, conversation.find(([what]) => what === '2026-07-28 tools/call')![1]);
    expect(after.status).toBe(200);
    expect(JSON.parse(after.body)).toMatchObject({ result: { structuredContent: { total: 5 } } });
  });
});

describe('mcpNodeListener serves any other Web handler through Web objects', () => {
  it('a handler of its own (an SDK, a wrapper): the Request it gets carries the body and the Response it gives is written; a throw is a 500', async () => {
    const seen: string[] = [];
    const foreign = {
      fetch: async (request: Request) => {
        const text = await request.text();
        if (text === 'throw') throw new Error('the wrapper broke');
        seen.push(`${request.method} ${new URL(request.url).pathname} ${request.headers.get('x-one')} ${text}`);
        return new Response(`echo ${text}`, { status: 201, headers: { 'x-two': 'two' } });
      },
    };
    const server = createServer(mcpNodeListener(foreign));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      const answered = await rawRequest(port, { method: 'POST', headers: { 'x-one': 'one' }, body: ['hel', 'lo'] });
      expect(answered).toMatchObject({ status: 201, body: 'echo hello', headers: { 'x-two': 'two' } });
      expect(seen).toEqual(['POST /mcp one hello']);
      const failed = await rawRequest(port, { method: 'POST', headers: {}, body: 'throw' });
      expect(failed.status).toBe(500);
      expect(JSON.parse(failed.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'the request could not be served: the wrapper broke' } });
    } finally {
      server.close();
    }
  });
});
