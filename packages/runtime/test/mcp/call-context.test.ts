import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as MemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server as ServerV1 } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTransport as MemoryV2, McpServer as McpServerV2, Server as ServerV2 } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mathAdd } from '../../../../examples/generated/index.js';
import { mcpContext, mcpCreateMessage, mcpToolHandlers, mcpElicit, mcpLog, mcpProgress, serveToolsOnMcpServer, type McpAuthInfo } from '../../src/mcp/server.js';
import { serveToolsOnMcpServerV1 } from '../../src/mcp/sdk-v1/sdk-v1-server.js';
import { CapabilityRuntime, ToolPolicy, withContent, type CallRecord, type ToolRequest } from '../../src/index.js';

/**
 * Handlers that use their MCP request, served by our adapter to each SDK's own client in memory:
 * cancellation, progress, logging, sampling, elicitation, auth and content blocks.
 */
type AddRequest = ToolRequest<{ left: number; right: number }>;
type Handler = (input: { left: number; right: number }, request: AddRequest) => unknown;

const auth: McpAuthInfo = { token: 'secret', clientId: 'client-7', scopes: ['notes:read'] };

interface Events {
  readonly log: unknown[];
  readonly progress: unknown[];
}

interface Connected {
  call(args: { left: number; right: number }, options?: { signal?: AbortSignal; progress?: boolean }): Promise<Record<string, unknown>>;
  setLevel(level: 'debug' | 'info' | 'warning' | 'error'): Promise<void>;
  events: Events;
}

/** Both SDKs' client: answers sampling with the prompt reversed, elicitation with a name; records notifications. */
async function connectV1(runtime: CapabilityRuntime): Promise<Connected> {
  const [clientSide, serverSide] = MemoryV1.createLinkedPair();
  const send = clientSide.send.bind(clientSide);
  clientSide.send = (message, options) => send(message, { ...options, authInfo: auth as never });
  const server = new ServerV1({ name: 'tools', version: '1.0.0' }, { capabilities: { logging: {} } });
  serveToolsOnMcpServerV1(server, runtime);
  await server.connect(serverSide);
  const client = new ClientV1({ name: 'test', version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: { form: {} } } });
  const events: Events = { log: [], progress: [] };
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void events.log.push(n.params.data));
  client.setRequestHandler(CreateMessageRequestSchema, (request) => ({ role: 'assistant', model: 'echo', content: { type: 'text', text: [...(request.params.messages[0]!.content as { text: string }).text].reverse().join('') } }));
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Ada' } }));
  await client.connect(clientSide);
  return {
    events,
    call: (args, options = {}) => client.callTool({ name: 'math.add', arguments: args }, undefined, { ...(options.signal && { signal: options.signal }), ...(options.progress && { onprogress: (p) => void events.progress.push(p) }) }) as Promise<Record<string, unknown>>,
    setLevel: async (level) => void (await client.setLoggingLevel(level)),
  };
}

async function connectV2(runtime: CapabilityRuntime): Promise<Connected> {
  const [clientSide, serverSide] = MemoryV2.createLinkedPair();
  const send = clientSide.send.bind(clientSide);
  clientSide.send = (message, options) => send(message, { ...options, authInfo: auth as never });
  const server = new ServerV2({ name: 'tools', version: '1.0.0' }, { capabilities: { logging: {} } });
  serveToolsOnMcpServer(server, runtime);
  await server.connect(serverSide);
  const client = new ClientV2({ name: 'test', version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: { form: {} } } });
  const events: Events = { log: [], progress: [] };
  client.setNotificationHandler('notifications/message', (n) => void events.log.push(n.params.data));
  client.setRequestHandler('sampling/createMessage', (request) => ({ role: 'assistant', model: 'echo', content: { type: 'text', text: [...(request.params.messages[0]!.content as { text: string }).text].reverse().join('') } }));
  client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'Ada' } }));
  await client.connect(clientSide);
  return {
    events,
    call: (args, options = {}) => client.callTool({ name: 'math.add', arguments: args }, { ...(options.signal && { signal: options.signal }), ...(options.progress && { onprogress: (p) => void events.progress.push(p) }) }) as Promise<Record<string, unknown>>,
    setLevel: async (level) => void (await client.setLoggingLevel(level)),
  };
}

function served(handler: Handler, records: CallRecord[] = []) {
  const runtime = new CapabilityRuntime({ onRecord: (record) => records.push(record) });
  runtime.registerTypedJsonTool(ToolPolicy.json('math.add').withCallBudget(3), mathAdd, handler as never);
  return runtime;
}

const textOf = (result: Record<string, unknown>): string => (result['content'] as { text: string }[])[0]!.text;

describe.each([
  ['SDK v1', connectV1],
  ['SDK v2', connectV2],
] as const)('MCP %s: a handler and its request', (_, connect) => {
  it("sees the request: its id, the session and the caller's authInfo", async () => {
    const seen: unknown[] = [];
    const client = await connect(
      served((input, request) => {
        const context = mcpContext(request);
        seen.push({ authInfo: context?.authInfo, hasRequestId: context?.requestId !== undefined, extra: typeof context?.extra });
        return { total: input.left + input.right };
      }),
    );
    expect(await client.call({ left: 1, right: 2 })).toMatchObject({ structuredContent: { total: 3 } });
    expect(seen).toEqual([{ authInfo: auth, hasRequestId: true, extra: 'object' }]);
  });

  it("the client's cancellation aborts the handler's signal; the call is recorded as cancelled and keeps its reservation", async () => {
    const records: CallRecord[] = [];
    let aborted!: (reason: unknown) => void;
    const abortSeen = new Promise((resolve) => (aborted = resolve));
    const runtime = served(
      (_, request) =>
        new Promise(() => {
          request.signal.addEventListener('abort', () => aborted(request.signal.reason));
        }),
      records,
    );
    const client = await connect(runtime);
    const controller = new AbortController();
    const call = client.call({ left: 1, right: 1 }, { signal: controller.signal });
    for (let i = 0; i < 2000 && runtime.records().length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort('user pressed stop');
    await expect(call).rejects.toThrow();
    expect(await abortSeen).toMatchObject({ code: 'cancelled' });
    expect(records.map((r) => [r.outcome, r.errorCode])).toEqual([['cancelled', 'cancelled']]);
    expect(runtime.remainingCalls('math.add')).toBe(2);
  });

  it('progress and log notifications arrive in order; the log honours the level the client set', async () => {
    const client = await connect(
      served(async (input, request) => {
        for (let step = 1; step <= 3; step++) {
          await mcpLog(request, step === 2 ? 'debug' : 'info', `step ${step}`);
          await mcpProgress(request, step, { total: 3, message: `step ${step}` });
        }
        return { total: input.left + input.right };
      }),
    );
    await client.setLevel('info');
    expect(await client.call({ left: 1, right: 1 }, { progress: true })).toMatchObject({ structuredContent: { total: 2 } });
    expect(client.events.log).toEqual(['step 1', 'step 3']);
    expect(client.events.progress).toEqual([1, 2, 3].map((progress) => ({ progress, total: 3, message: `step ${progress}` })));
  });

  it('asks the client for sampling and elicitation and uses the answers', async () => {
    const client = await connect(
      served(async (input, request) => {
        const message = await mcpCreateMessage(request, { messages: [{ role: 'user', content: { type: 'text', text: 'abc' } }], maxTokens: 10 });
        const answer = await mcpElicit(request, { message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } }, validator: z.object({ name: z.string() }) });
        const sampled = message.status === 'accepted' && (message.value.content as { text: string }).text;
        return { total: sampled === 'cba' && answer.status === 'accepted' && answer.value.name === 'Ada' ? input.left : -1 };
      }),
    );
    expect(await client.call({ left: 7, right: 0 })).toMatchObject({ structuredContent: { total: 7 } });
  });

  it('sends image and mixed content after the text copy, with structuredContent; a broken output sends none of it', async () => {
    const image = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } as const;
    const resource = { type: 'resource', resource: { uri: 'file:///sum.txt', mimeType: 'text/plain', text: 'the sum' } } as const;
    const link = { type: 'resource_link', uri: 'file:///sum.txt', name: 'sum.txt' } as const;
    const client = await connect(served((input) => (input.left < 0 ? withContent({ total: 'broken' } as never, [image]) : withContent({ total: input.left + input.right }, [image, resource, link]))));
    const result = await client.call({ left: 1, right: 2 });
    expect(result).toMatchObject({ structuredContent: { total: 3 }, content: [{ type: 'text', text: '{"total":3}' }, image, resource, link] });
    const broken = await client.call({ left: -1, right: 2 });
    expect([broken['isError'], (broken['content'] as unknown[]).length]).toEqual([true, 1]);
    expect(textOf(broken)).toMatch(/^invalid_output: output of "math.add" does not match its contract/);
  });
});

describe('MCP 2026-07-28 wire fields, by hand', () => {
  it('every result says resultType complete; tools/list says how long it may be cached', async () => {
    const runtime = served((input) => ({ total: input.left + input.right }));
    const mcp = mcpToolHandlers(runtime, { protocolVersion: '2026-07-28', toolsListCache: { ttlMs: 60_000, cacheScope: 'public' } });
    expect(mcp.listTools()).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'public', tools: [{ name: 'math.add' }] });
    expect(mcpToolHandlers(runtime, { protocolVersion: '2026-07-28' }).listTools()).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    expect(await mcp.callTool({ name: 'math.add', arguments: { left: 1, right: 1 } })).toMatchObject({ resultType: 'complete', structuredContent: { total: 2 } });
    expect(await mcp.callTool({ name: 'math.sub' })).toMatchObject({ resultType: 'complete', isError: true });
    const older = mcpToolHandlers(runtime);
    expect(Object.keys(older.listTools())).toEqual(['tools']);
    expect(await older.callTool({ name: 'math.add', arguments: { left: 1, right: 1 } })).not.toHaveProperty('resultType');
  });

  it('refuses a cache hint no client could read', () => {
    const runtime = served(() => ({ total: 0 }));
    expect(() => mcpToolHandlers(runtime, { protocolVersion: '2026-07-28', toolsListCache: { ttlMs: -1 } })).toThrow('toolsListCache.ttlMs must be a whole number of milliseconds of at least 0, got -1');
    expect(() => mcpToolHandlers(runtime, { protocolVersion: '2026-07-28', toolsListCache: { cacheScope: 'shared' as never } })).toThrow(RangeError);
  });
});

describe('the helpers outside MCP', () => {
  it('mcpToolHandlers by hand without the SDK argument: the call runs with no MCP context', async () => {
    const runtime = served((input, request) => ({ total: mcpContext(request) === undefined ? input.left : -1 }));
    expect(await mcpToolHandlers(runtime).callTool({ name: 'math.add', arguments: { left: 4, right: 0 } })).toMatchObject({ structuredContent: { total: 4 } });
  });

  it('progress and log do nothing, sampling says why it cannot be asked', async () => {
    const runtime = served(async (input, request) => {
      await mcpLog(request, 'info', 'nobody hears this');
      expect(await mcpProgress(request, 1)).toBe(false);
      expect(await mcpCreateMessage(request, { messages: [], maxTokens: 1 })).toEqual({ status: 'unavailable', message: 'sampling/createMessage needs an MCP client, and call call-1 to "math.add" did not come through MCP' });
      return { total: input.left };
    });
    expect(await runtime.callAsync('math.add', { left: 1, right: 1 })).toMatchObject({ ok: true, output: { total: 1 } });
  });

  it('refuses content that is not content blocks as invalid_output', async () => {
    const runtime = served((input) => withContent({ total: input.left }, [{ type: 'image', data: 'AA==' }] as never));
    expect(await runtime.callAsync('math.add', { left: 1, right: 1 })).toMatchObject({ ok: false, error: { code: 'invalid_output', message: 'content of "math.add" is not content blocks: content block 0 (image) needs a string "mimeType"' } });
  });
});

/** Both SDKs' McpServer and client, as far as these tests use them (their overloads do not unite). */
interface LooseMcpServer {
  readonly server: unknown;
  registerTool(name: string, config: Record<string, unknown>, handler: (args: { folder: string }) => unknown): void;
  registerPrompt(name: string, config: Record<string, unknown>, handler: () => unknown): void;
  connect(transport: unknown): Promise<void>;
}
interface LooseClient {
  connect(transport: unknown): Promise<void>;
  listTools(): Promise<{ tools: { name: string }[] }>;
  listPrompts(): Promise<{ prompts: { name: string }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
}

const sdks = {
  'SDK v1': { McpServer: McpServerV1, Client: ClientV1, pair: () => MemoryV1.createLinkedPair(), serve: serveToolsOnMcpServerV1 },
  'SDK v2': { McpServer: McpServerV2, Client: ClientV2, pair: () => MemoryV2.createLinkedPair(), serve: serveToolsOnMcpServer },
} as const;

describe.each(['SDK v1', 'SDK v2'] as const)('MCP %s: beside an McpServer', (sdk) => {
  const { pair } = sdks[sdk];
  const serve = sdks[sdk].serve as (target: unknown, runtime: CapabilityRuntime) => unknown;
  function mcpServer(): LooseMcpServer {
    const server = new sdks[sdk].McpServer({ name: 'both', version: '1.0.0' }) as unknown as LooseMcpServer;
    server.registerTool('notes.count', { description: 'Counts notes.', inputSchema: { folder: z.string() } }, ({ folder }) => ({ content: [{ type: 'text', text: `3 notes in ${folder}` }] }));
    server.registerPrompt('greet', { description: 'Greets.' }, () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }] }));
    return server;
  }

  it("serves our tools and the McpServer's tools and prompts side by side", async () => {
    const server = mcpServer();
    serve(
      server,
      served((input) => ({ total: input.left + input.right })),
    );
    server.registerTool('notes.later', { description: 'Registered after ours.' }, () => ({ content: [{ type: 'text', text: 'later' }] }));
    const [clientSide, serverSide] = pair();
    await server.connect(serverSide);
    const client = new sdks[sdk].Client({ name: 'test', version: '1.0.0' }) as unknown as LooseClient;
    await client.connect(clientSide);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['math.add', 'notes.count', 'notes.later']);
    expect(await client.callTool({ name: 'math.add', arguments: { left: 2, right: 2 } })).toMatchObject({ structuredContent: { total: 4 } });
    expect(await client.callTool({ name: 'notes.count', arguments: { folder: 'inbox' } })).toMatchObject({ content: [{ text: '3 notes in inbox' }] });
    expect(await client.callTool({ name: 'notes.later', arguments: {} })).toMatchObject({ content: [{ text: 'later' }] });
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['greet']);
  });

  it("refuses the McpServer's low-level server, whose tools would vanish, and a name both sides have", () => {
    const runtime = served(() => ({ total: 0 }));
    expect(() => serve(mcpServer().server, runtime)).toThrow(/already answers tools\/list .* pass the McpServer itself/);
    const clashing = mcpServer();
    clashing.registerTool('math.add', { description: 'Theirs.' }, () => ({ content: [] }));
    expect(() => serve(clashing, runtime)).toThrow('the runtime and the McpServer both have a tool named "math.add": only one of them can answer; rename or remove one');
  });

  it('refuses a second runtime on the same McpServer or its low-level server, and keeps serving the first', async () => {
    const server = mcpServer();
    serve(
      server,
      served((input) => ({ total: input.left + input.right })),
    );
    const second = served(() => ({ total: -1 }));
    const twice = /^this server already serves a runtime's tools, and a second runtime on it would list every tool twice/;
    expect(() => serve(server, second)).toThrow(twice);
    expect(() => serve(server.server, second)).toThrow(twice);
    const [clientSide, serverSide] = pair();
    await server.connect(serverSide);
    const client = new sdks[sdk].Client({ name: 'test', version: '1.0.0' }) as unknown as LooseClient;
    await client.connect(clientSide);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['math.add', 'notes.count']);
    expect(await client.callTool({ name: 'math.add', arguments: { left: 2, right: 2 } })).toMatchObject({ structuredContent: { total: 4 } });
  });

  it("answers a tool neither side has as the runtime does, naming both sides' tools", async () => {
    const server = mcpServer();
    const records: CallRecord[] = [];
    const runtime = served((input) => ({ total: input.left + input.right }), records);
    serve(server, runtime);
    const [clientSide, serverSide] = pair();
    await server.connect(serverSide);
    const client = new sdks[sdk].Client({ name: 'test', version: '1.0.0' }) as unknown as LooseClient;
    await client.connect(clientSide);
    expect(await client.callTool({ name: 'math.sub', arguments: {} })).toEqual({ isError: true, content: [{ type: 'text', text: 'unknown_tool: no tool named "math.sub"; available: math.add, notes.count' }], _meta: { 'json-tool-contracts/error': { code: 'unknown_tool' } } });
    // No tool of the runtime was called, so it records nothing.
    expect(records).toEqual([]);
  });
});
