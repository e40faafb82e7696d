import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { acceptedContent, createMcpHandler, inputRequired, McpServer as McpServerV2, Server as ServerV2 } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mathAdd } from '../../../../examples/generated/index.js';
import { compileContract } from '../../../../test/support/load-module.js';
import { mcpCreateMessage, mcpLog, mcpToolHandlers, serveToolsOnMcpServer, type McpToolHandlersOptions } from '../../src/mcp/server.js';
import { mcpToolClient } from '../../src/mcp/client/client.js';
import { CapabilityRuntime, ToolPolicy, type ToolContract } from '../../src/index.js';

/**
 * The revision each request was negotiated at decides its results: 2026-07-28 requests name it
 * in their `_meta` envelope (SDK v2 lifts it into `ctx.mcpReq.envelope`). Checked by hand and
 * against SDK v2's own 2026-07-28 serving (`createMcpHandler`, its client pinned to that revision),
 * whose wire codec encodes and decodes every result of that revision.
 */
const listIds = compileContract(JSON.stringify({ name: 'notes.ids', description: 'Lists ids.', input: { type: 'object' }, output: { type: 'array', items: { type: 'string' } } }));
const modern = { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } };

function served(): CapabilityRuntime {
  const runtime = new CapabilityRuntime();
  runtime.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, ((input: { left: number; right: number }) => ({ total: input.left + input.right })) as never);
  runtime.registerTypedJsonTool(ToolPolicy.json('notes.ids'), listIds as never, (() => ['n1', 'n2']) as never);
  return runtime;
}

describe('MCP results follow the revision the request was negotiated at, by hand', () => {
  const mcp = mcpToolHandlers(served(), { toolsListCache: { ttlMs: 60_000, cacheScope: 'public' } });

  it('a 2026-07-28 request gets its wire fields and structuredContent for any output root', async () => {
    const listed = mcp.listTools(modern);
    expect(listed).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'public' });
    expect(listed.tools.find((tool) => tool.name === 'notes.ids')).toHaveProperty('outputSchema', { type: 'array', items: { type: 'string' } });
    expect(await mcp.callTool({ name: 'notes.ids', arguments: {}, ...modern })).toEqual({ resultType: 'complete', content: [{ type: 'text', text: '["n1","n2"]' }], structuredContent: ['n1', 'n2'] });
    expect(await mcp.callTool({ name: 'math.sub', ...modern })).toMatchObject({ resultType: 'complete', isError: true });
  });

  it('a request without the envelope, or naming an older revision, is 2025-11-25', async () => {
    for (const params of [undefined, {}, { _meta: { 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } }, { _meta: { 'io.modelcontextprotocol/protocolVersion': 7 } }]) {
      const listed = mcp.listTools(params);
      expect(Object.keys(listed)).toEqual(['tools']);
      expect(listed.tools.find((tool) => tool.name === 'notes.ids')).not.toHaveProperty('outputSchema');
      expect(await mcp.callTool({ name: 'notes.ids', arguments: {}, ...params })).toEqual({ content: [{ type: 'text', text: '["n1","n2"]' }] });
    }
  });

  it('parameters that throw when read name no revision', async () => {
    const hostile = {
      get _meta(): never {
        throw new Error('no');
      },
    };
    expect(Object.keys(mcp.listTools(hostile))).toEqual(['tools']);
    expect(await mcp.callTool(hostile as never)).toMatchObject({ isError: true, content: [{ text: 'invalid_params: tools/call needs a tool name' }] });
  });

  it('a later revision than 2026-07-28 follows its rules; protocolVersion overrides what requests say', async () => {
    expect(mcp.listTools({ _meta: { 'io.modelcontextprotocol/protocolVersion': '2027-03-01' } })).toMatchObject({ resultType: 'complete', ttlMs: 60_000 });
    const fixed = mcpToolHandlers(served(), { protocolVersion: '2025-11-25' });
    expect(Object.keys(fixed.listTools(modern))).toEqual(['tools']);
    expect(await fixed.callTool({ name: 'math.add', arguments: { left: 1, right: 2 }, ...modern })).not.toHaveProperty('resultType');
  });

  it('sampling from a 2026-07-28 call ends the round input_required instead of sending a request', async () => {
    const runtime = new CapabilityRuntime();
    runtime.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, (async (_: unknown, request: never) => {
      await mcpCreateMessage(request, { messages: [], maxTokens: 1 });
      return { total: 0 };
    }) as never);
    const sent: unknown[] = [];
    const extra = { mcpReq: { id: 1, envelope: { ...modern._meta, 'io.modelcontextprotocol/clientCapabilities': { sampling: {} } }, notify: async () => {}, send: async (request: unknown) => sent.push(request), requestState: () => undefined } };
    const result = await mcpToolHandlers(runtime, { requestState: { key: 'a key of at least thirty-two bytes, for the tests' } }).callTool({ name: 'math.add', arguments: { left: 1, right: 2 } }, extra);
    expect(result).toMatchObject({ resultType: 'input_required', inputRequests: { 'sampling-1': { method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } } } });
    expect(sent).toEqual([]);
  });
});

/** SDK v2 serving 2026-07-28 per request, its client reaching it through `fetch` (no socket): every body on the wire. */
async function connectV2(pin: boolean, options: McpToolHandlersOptions) {
  const runtime = served();
  const handler = createMcpHandler(() => {
    const server = new ServerV2({ name: 'tools', version: '1.0.0' }, { capabilities: {}, supportedProtocolVersions: ['2026-07-28', '2025-11-25'] });
    serveToolsOnMcpServer(server, runtime, options);
    return server;
  });
  const wire: Record<string, unknown>[] = [];
  const fetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const response = await handler.fetch(new Request(url, init));
    const body = await response.clone().text();
    // A JSON body, or the data lines of an event stream.
    for (const text of response.headers.get('content-type')?.includes('event-stream') ? [...body.matchAll(/^data: (.*)$/gm)].map((m) => m[1]!) : body === '' ? [] : [body]) wire.push(JSON.parse(text) as Record<string, unknown>);
    return response;
  };
  const client = new ClientV2({ name: 'test', version: '1.0.0' }, pin ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:9/mcp'), { fetch }));
  const resultOf = (id: unknown) => wire.find((message) => message['id'] === id)?.['result'] as Record<string, unknown>;
  return { client, wire, resultOf, runtime };
}

describe('MCP 2026-07-28 negotiated with SDK v2', () => {
  it("tools/list carries our cache hint, calls say resultType complete, the client's own 2026-07-28 codec reads them", async () => {
    const { client, wire } = await connectV2(true, { toolsListCache: { ttlMs: 60_000, cacheScope: 'public' } });
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => [tool.name, tool.outputSchema?.['type']])).toEqual([
      ['math.add', 'object'],
      ['notes.ids', 'array'],
    ]);
    expect(await client.callTool({ name: 'notes.ids', arguments: {} })).toMatchObject({ structuredContent: ['n1', 'n2'] });
    expect(await client.callTool({ name: 'math.add', arguments: { left: 2, right: 3 } })).toMatchObject({ structuredContent: { total: 5 } });
    const results = wire.filter((message) => 'result' in message).map((message) => message['result'] as Record<string, unknown>);
    const [list, ids, add] = results.slice(-3);
    expect(list).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'public' });
    expect(ids).toMatchObject({ resultType: 'complete', structuredContent: ['n1', 'n2'] });
    expect(add).toMatchObject({ resultType: 'complete', structuredContent: { total: 5 } });
  });

  it('what the SDK sends is what mcpToolHandlers answers by hand for the same request, but the server info', async () => {
    const { client, wire } = await connectV2(true, { toolsListCache: { ttlMs: 1000 } });
    await client.listTools();
    const sent = wire.filter((message) => 'result' in message).at(-1)!['result'] as Record<string, unknown>;
    const { _meta, ...rest } = sent;
    expect(_meta).toEqual({ 'io.modelcontextprotocol/serverInfo': { name: 'tools', version: '1.0.0' } });
    expect(rest).toEqual(mcpToolHandlers(served(), { toolsListCache: { ttlMs: 1000 } }).listTools(modern));
  });

  it('a 2025-11-25 client of the same server gets that revision: no wire fields, no array as structuredContent', async () => {
    const { client, wire } = await connectV2(false, { toolsListCache: { ttlMs: 60_000 } });
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    const listed = await client.listTools();
    expect(listed.tools.find((tool) => tool.name === 'notes.ids')?.outputSchema).toBeUndefined();
    expect(await client.callTool({ name: 'notes.ids', arguments: {} })).not.toHaveProperty('structuredContent');
    for (const message of wire.filter((m) => 'result' in m)) expect(Object.keys(message['result'] as object)).not.toContain('ttlMs');
  });
});

describe('tools/list is in a deterministic order: by name, whatever the order of registration', () => {
  const named = (name: string) => compileContract(JSON.stringify({ name, description: name, input: { type: 'object' }, output: { type: 'object' } }));

  it('the runtime alone, and beside an McpServer whose own tools are sorted in', async () => {
    const runtime = new CapabilityRuntime();
    for (const name of ['zeta', 'alpha', 'Beta', 'mu']) runtime.registerTypedJsonTool(ToolPolicy.json(name), named(name) as never, (() => ({})) as never);
    expect(
      mcpToolHandlers(runtime)
        .listTools(modern)
        .tools.map((tool) => tool.name),
    ).toEqual(['Beta', 'alpha', 'mu', 'zeta']);
    const handler = createMcpHandler(() => {
      const fresh = new McpServerV2({ name: 'both', version: '1.0.0' });
      fresh.registerTool('nu', { description: 'theirs' }, () => ({ content: [] }));
      fresh.registerTool('delta', { description: 'theirs' }, () => ({ content: [] }));
      serveToolsOnMcpServer(fresh, runtime);
      return fresh;
    });
    const client = new ClientV2({ name: 'test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:9/mcp'), { fetch: async (url, init) => handler.fetch(new Request(url, init)) }));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['Beta', 'alpha', 'delta', 'mu', 'nu', 'zeta']);
  });
});

describe('mcpLog on SDK v2 follows the revision of the request', () => {
  it('2026-07-28: sent only at the level the request names; without one, to unsentLog (stderr by default)', async () => {
    const unsent: unknown[] = [];
    const runtime = new CapabilityRuntime();
    runtime.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, (async (input: { left: number; right: number }, request: never) => {
      await mcpLog(request, 'debug', 'adding');
      await mcpLog(request, 'warning', 'added');
      return { total: input.left + input.right };
    }) as never);
    const handler = createMcpHandler(() => {
      const server = new ServerV2({ name: 'tools', version: '1.0.0' }, { capabilities: { logging: {} } });
      serveToolsOnMcpServer(server, runtime, { unsentLog: (level, data) => void unsent.push([level, data]) });
      return server;
    });
    const call = async (meta: Record<string, unknown>) => {
      const response = await handler.fetch(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'math.add' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'math.add', arguments: { left: 1, right: 2 }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, ...meta } } }),
        }),
      );
      const text = await response.text();
      return (response.headers.get('content-type')?.includes('event-stream') ? [...text.matchAll(/^data: (.*)$/gm)].map((m) => m[1]!) : [text]).map((line) => JSON.parse(line) as Record<string, unknown>);
    };
    const quiet = await call({});
    expect(quiet.filter((message) => message['method'] === 'notifications/message')).toEqual([]);
    expect(unsent).toEqual([
      ['debug', 'adding'],
      ['warning', 'added'],
    ]);
    unsent.length = 0;
    const leveled = await call({ 'io.modelcontextprotocol/logLevel': 'info' });
    expect(leveled.filter((message) => message['method'] === 'notifications/message').map((message) => (message['params'] as { data: unknown }).data)).toEqual(['added']);
    expect(unsent).toEqual([]);
  });

  it('an unsentLog that throws loses the message, never the call', async () => {
    const runtime = new CapabilityRuntime();
    runtime.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, (async (input: { left: number; right: number }, request: never) => {
      await mcpLog(request, 'warning', 'adding');
      return { total: input.left + input.right };
    }) as never);
    const unsentLog = () => {
      throw new Error('the log collector is down');
    };
    const request = { name: 'math.add', arguments: { left: 1, right: 2 }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } };
    const answer = await mcpToolHandlers(runtime, { unsentLog }).callTool(request);
    expect(answer).toMatchObject({ structuredContent: { total: 3 } });
  });
});

/**
 * The typed client over SDK v2's Client pinned to 2026-07-28: the listing is kept for the `ttlMs`
 * the server sends, and a tool that asks for input (`input_required`) is answered by the SDK
 * Client's own handlers (its multi-round-trip driver), the final result held to the contract.
 */
describe('mcpToolClient at 2026-07-28 over SDK v2', () => {
  it('lists again at every call when the listing says ttlMs 0, and keeps a listing that says 60 s', async () => {
    for (const [ttlMs, listings] of [
      [0, 3],
      [60_000, 1],
    ] as const) {
      const { client, wire } = await connectV2(true, { toolsListCache: { ttlMs } });
      const tools = mcpToolClient(client, { mathAdd });
      for (let i = 0; i < 3; i++) expect(await tools.call('math.add', { left: i, right: 1 })).toMatchObject({ ok: true, output: { total: i + 1 } });
      expect(wire.filter((message) => (message['result'] as { tools?: unknown } | undefined)?.tools !== undefined)).toHaveLength(listings);
    }
  });

  it("a tool's input_required round is answered by the Client's own handler, and the result checked by the contract", async () => {
    const deploy = compileContract(JSON.stringify({ name: 'deploy', description: 'Deploys.', input: { type: 'object', properties: { env: { type: 'string' } }, required: ['env'] }, output: {} })) as unknown as ToolContract<{ env: string }, Record<string, unknown>, 'deploy'>;
    const handler = createMcpHandler(() => {
      const server = new McpServerV2({ name: 'deployer', version: '1.0.0' }, { supportedProtocolVersions: ['2026-07-28', '2025-11-25'] } as never);
      server.registerTool('deploy', { description: 'Deploys.', inputSchema: z.object({ env: z.string() }) }, async ({ env }, ctx) => {
        const confirmed = acceptedContent(ctx.mcpReq.inputResponses, 'confirm');
        if (confirmed?.['confirm'] !== true) return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: `Deploy to ${env}?`, requestedSchema: z.object({ confirm: z.boolean() }) }) } });
        return { content: [{ type: 'text', text: `deployed to ${env}` }] };
      });
      return server;
    });
    const asked: unknown[] = [];
    const client = new ClientV2({ name: 'test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    client.setRequestHandler('elicitation/create', (request) => (asked.push(request.params), { action: 'accept', content: { confirm: true } }));
    await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:9/mcp'), { fetch: async (url, init) => handler.fetch(new Request(url, init)) }));
    const tools = mcpToolClient(client, { deploy });
    expect(await tools.call('deploy', { env: 'staging' })).toMatchObject({ ok: true, output: undefined, content: [{ type: 'text', text: 'deployed to staging' }] });
    expect(asked).toMatchObject([{ message: 'Deploy to staging?' }]);
    // @ts-expect-error: env must be a string; refused before anything is asked
    expect(await tools.call('deploy', { env: 1 })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(asked).toHaveLength(1);
  });
});
