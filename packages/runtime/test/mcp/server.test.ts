import { fileURLToPath } from 'node:url';
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport as MemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server as ServerV1 } from '@modelcontextprotocol/sdk/server/index.js';
import { createMcpHandler, InMemoryTransport as MemoryV2, McpServer as McpServerV2, Server as ServerV2 } from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';
import { mathAdd, notesSearch } from '../../../../examples/generated/index.js';
import { compileContract } from '../../../../test/support/load-module.js';
import { mcpToolHandlers, serveToolsOnMcpServer } from '../../src/mcp/server.js';
import { serveToolsOnMcpServerV1 } from '../../src/mcp/sdk-v1/sdk-v1-server.js';
import { CapabilityRuntime, JsonNumber, ToolMetadata, ToolPolicy, type CallRecord } from '../../src/index.js';

/**
 * The SDKs' own clients against a low-level server wired by our adapter, for both SDK majors. The
 * clients validate what they receive (tools/list shape, structuredContent against outputSchema).
 */
function toolRuntime(records: CallRecord[] = []) {
  const runtime = new CapabilityRuntime({ onRecord: (r) => records.push(r) });
  runtime.registerTypedJsonTool(ToolPolicy.json('math.add').withCallBudget(1), mathAdd, ({ left, right }) => ({ total: left + right }));
  runtime.registerValidatedProtocolJsonTool(ToolPolicy.json('notes.search'), ToolMetadata.of('Searches notes.'), notesSearch);
  return runtime;
}

interface McpClient {
  listTools(): Promise<{ tools: { name: string; inputSchema: unknown; outputSchema?: unknown }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<Record<string, unknown>>;
}

async function connectV1(runtime: CapabilityRuntime): Promise<McpClient> {
  const [clientSide, serverSide] = MemoryV1.createLinkedPair();
  const server = new ServerV1({ name: 'tools', version: '1.0.0' }, { capabilities: {} });
  serveToolsOnMcpServerV1(server, runtime);
  await server.connect(serverSide);
  const client = new ClientV1({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return client as unknown as McpClient;
}

async function connectV2(runtime: CapabilityRuntime): Promise<McpClient> {
  const [clientSide, serverSide] = MemoryV2.createLinkedPair();
  const server = new ServerV2({ name: 'tools', version: '1.0.0' }, { capabilities: {} });
  serveToolsOnMcpServer(server, runtime);
  await server.connect(serverSide);
  const client = new ClientV2({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return client as unknown as McpClient;
}

const textOf = (result: Record<string, unknown>): string => (result['content'] as { text: string }[])[0]!.text;

/** An exact-mode tool that answers with the number it is given, kept exactly. */
const exactEcho = compileContract(
  JSON.stringify({
    name: 'ledger.echo',
    description: 'Echoes an amount.',
    input: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'], additionalProperties: false },
    output: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'], additionalProperties: false },
  }),
  'ledger.echo.contract.json',
  { exactNumbers: true },
);

/** A tool whose prompt-only output schema says object while its contract returns an array. */
const listTool = compileContract(JSON.stringify({ name: 'notes.ids', description: 'Lists ids.', input: { type: 'object' }, output: { type: 'array', items: { type: 'string' } } }));

describe.each([
  ['SDK v1', connectV1],
  ['SDK v2', connectV2],
] as const)('MCP %s: the SDK client against our handlers', (_, connect) => {
  it('lists both schemas of every tool', async () => {
    const client = await connect(toolRuntime());
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['math.add', 'notes.search']);
    expect(tools[0]).toMatchObject({ inputSchema: mathAdd.inputSchema, outputSchema: mathAdd.outputSchema });
  });

  it('returns structuredContent the client accepts, with a text copy', async () => {
    const client = await connect(toolRuntime());
    const result = await client.callTool({ name: 'math.add', arguments: { left: 2, right: 3 } });
    expect(result).toMatchObject({ structuredContent: { total: 5 }, content: [{ type: 'text', text: '{"total":5}' }] });
    expect(result['isError']).toBeFalsy();
  });

  it('answers invalid arguments with isError and the issue; a denied call consumes no budget', async () => {
    const records: CallRecord[] = [];
    const runtime = toolRuntime(records);
    const client = await connect(runtime);
    const invalid = await client.callTool({ name: 'math.add', arguments: { left: 2, right: '3' } });
    expect(invalid['isError']).toBe(true);
    expect(textOf(invalid)).toBe('invalid_input: input for "math.add" does not match its contract: /right: must be an integer, got string');
    expect(runtime.remainingCalls('math.add')).toBe(1);
    expect((await client.callTool({ name: 'math.add', arguments: { left: 1, right: 1 } }))['structuredContent']).toEqual({ total: 2 });
    const second = await client.callTool({ name: 'math.add', arguments: { left: 1, right: 1 } });
    expect([second['isError'], textOf(second)]).toEqual([true, 'budget_exhausted: "math.add" has used its whole call budget']);
    expect(runtime.records().map((r) => [r.outcome, r.errorCode])).toEqual([
      ['denied', 'invalid_input'],
      ['completed', undefined],
      ['denied', 'budget_exhausted'],
    ]);
  });

  it('never lets an output that breaks its contract reach the client', async () => {
    const runtime = new CapabilityRuntime();
    runtime.registerValidatedJsonTool(ToolPolicy.json('math.add'), ToolMetadata.of('Adds.'), mathAdd, () => ({ total: 'five' }) as never);
    const client = await connect(runtime);
    const result = await client.callTool({ name: 'math.add', arguments: { left: 2, right: 3 } });
    expect(result['isError']).toBe(true);
    expect(result['structuredContent']).toBeUndefined();
    expect(textOf(result)).toBe('invalid_output: output of "math.add" does not match its contract: /total: must be an integer, got string');
  });

  it('treats missing arguments as {} and names the tools that exist for an unknown one', async () => {
    const client = await connect(toolRuntime());
    const missing = await client.callTool({ name: 'math.add' });
    expect(textOf(missing)).toBe('invalid_input: input for "math.add" does not match its contract: (root): missing required property "left"; (root): missing required property "right"');
    const unknown = await client.callTool({ name: 'math.sub', arguments: {} });
    expect([unknown['isError'], textOf(unknown)]).toEqual([true, 'unknown_tool: no tool named "math.sub"; available: math.add, notes.search']);
  });

  it('carries exact numbers as the client can read them: every digit in the text, a double in structuredContent, an error beyond the double range', async () => {
    const runtime = new CapabilityRuntime();
    const outputs = [1234567890123456789n, new JsonNumber('0.30000000000000000001'), new JsonNumber('1e400')];
    runtime.registerValidatedJsonTool(ToolPolicy.json('ledger.echo'), ToolMetadata.of('Echoes.'), exactEcho as never, () => ({ amount: outputs.shift() }));
    const client = await connect(runtime);
    const big = await client.callTool({ name: 'ledger.echo', arguments: { amount: 1 } });
    expect([big['isError'], textOf(big), big['structuredContent']]).toEqual([undefined, '{"amount":1234567890123456789}', { amount: 1234567890123456800 }]);
    const fraction = await client.callTool({ name: 'ledger.echo', arguments: { amount: 1 } });
    expect([textOf(fraction), fraction['structuredContent']]).toEqual(['{"amount":0.30000000000000000001}', { amount: 0.3 }]);
    // No double holds 1e400 (JSON.stringify would write null, which the client refuses): an error result says so.
    const huge = await client.callTool({ name: 'ledger.echo', arguments: { amount: 1 } });
    expect([huge['isError'], huge['structuredContent'], textOf(huge)]).toEqual([true, undefined, expect.stringMatching(/^invalid_output: the output of "ledger.echo" holds a number beyond the range of a 64-bit float/)]);
  });

  it('never answers an array as structuredContent, whatever a prompt-only output schema says', async () => {
    const runtime = new CapabilityRuntime();
    runtime.registerValidatedJsonTool(ToolPolicy.json('notes.ids'), ToolMetadata.of('Lists ids.').withOutputSchema({ type: 'object', properties: { ids: { type: 'array' } } }), listTool as never, () => ['n1', 'n2']);
    const client = await connect(runtime);
    expect((await client.listTools()).tools[0]!.outputSchema).toBeUndefined();
    const result = await client.callTool({ name: 'notes.ids', arguments: {} });
    expect([result['isError'], result['structuredContent'], textOf(result)]).toEqual([undefined, undefined, '["n1","n2"]']);
  });

  it('lets a protocol tool complete from outside while the client waits', async () => {
    const runtime = toolRuntime();
    const client = await connect(runtime);
    const pending = client.callTool({ name: 'notes.search', arguments: { query: 'milk' } });
    for (let i = 0; i < 50 && !runtime.records().some((r) => r.tool === 'notes.search'); i++) await new Promise((r) => setTimeout(r, 5));
    const record = runtime.records().find((r) => r.tool === 'notes.search')!;
    expect(record.outcome).toBe('pending');
    runtime.complete(record.callId, { hits: [{ id: 'n1', score: 0.5 }] });
    expect((await pending)['structuredContent']).toEqual({ hits: [{ id: 'n1', score: 0.5 }] });
  });
});

describe('one runtime per low-level server', () => {
  it.each(['SDK v1', 'SDK v2'] as const)('%s: a second runtime is refused, with no word of an McpServer', (sdk) => {
    const server = sdk === 'SDK v1' ? new ServerV1({ name: 'tools', version: '1.0.0' }, { capabilities: {} }) : new ServerV2({ name: 'tools', version: '1.0.0' }, { capabilities: {} });
    const serve = (runtime: CapabilityRuntime) => (server instanceof ServerV1 ? serveToolsOnMcpServerV1(server, runtime) : serveToolsOnMcpServer(server, runtime));
    serve(toolRuntime());
    let refusal: unknown;
    try {
      serve(toolRuntime());
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toMatchObject({ name: 'McpToolError', message: expect.stringMatching(/^this server already serves a runtime's tools/) });
    expect((refusal as Error).message).not.toMatch(/McpServer/);
  });
});

describe('mcpToolHandlers without an SDK', () => {
  it('answers an error result, never a rejection, when reading the params throws', async () => {
    const mcp = mcpToolHandlers(toolRuntime());
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('no reading');
        },
      },
    );
    await expect(mcp.callTool(hostile)).resolves.toEqual({ isError: true, content: [{ type: 'text', text: 'invalid_params: the tools/call parameters cannot be read: no reading' }], _meta: { 'json-tool-contracts/error': { code: 'invalid_params' } } });
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    await expect(mcp.callTool(revoked.proxy)).resolves.toMatchObject({ isError: true });
  });

  it('builds the listing once per catalog change: a call copies no schema', async () => {
    const runtime = new CapabilityRuntime();
    runtime.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, ({ left, right }) => ({ total: left + right }));
    runtime.registerValidatedProtocolJsonTool(ToolPolicy.json('notes.search'), ToolMetadata.of('Searches notes.'), notesSearch);
    const mcp = mcpToolHandlers(runtime);
    const catalog = vi.spyOn(runtime, 'catalog');
    for (let i = 0; i < 5; i++) expect((await mcp.callTool({ name: 'math.add', arguments: { left: i, right: 1 } }))['structuredContent']).toEqual({ total: i + 1 });
    mcp.listTools();
    expect(catalog).not.toHaveBeenCalled();
    runtime.registerTypedJsonTool(ToolPolicy.json('ledger.echo'), exactEcho as never, (input) => input as never);
    expect(mcp.listTools().tools.map((t) => t.name)).toEqual(['ledger.echo', 'math.add', 'notes.search']);
    expect((await mcp.callTool({ name: 'ledger.echo', arguments: { amount: 2 } }))['structuredContent']).toEqual({ amount: 2 });
    expect(catalog).toHaveBeenCalledTimes(1);
    // What one listing hands out cannot change the next one.
    const listed = mcp.listTools().tools[1]!;
    expect(() => ((listed.inputSchema as Record<string, unknown>)['type'] = 'array')).toThrow(TypeError);
    expect(mcp.listTools().tools[1]!.inputSchema).toEqual(mathAdd.inputSchema);
  });

  it('per-request handlers of one runtime share its listing: built once per catalog change, whatever the number of servers', async () => {
    const runtime = toolRuntime();
    const catalog = vi.spyOn(runtime, 'catalog');
    const first = mcpToolHandlers(runtime);
    const second = mcpToolHandlers(runtime);
    // One listing per revision: 2025-11-25 at once, 2026-07-28 at its first request.
    const modern = { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } };
    expect(catalog).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 20; i++) {
      const perRequest = mcpToolHandlers(runtime);
      expect(perRequest.listTools(modern).tools.map((tool) => tool.name)).toEqual(['math.add', 'notes.search']);
      expect(perRequest.hasTool('math.add') && !perRequest.hasTool('math.sub')).toBe(true);
    }
    expect(catalog).toHaveBeenCalledTimes(2);
    expect(first.listTools().tools[0]!.inputSchema).toBe(second.listTools().tools[0]!.inputSchema);
    // A tool registered later is listed by every handler, old and new, and callable through them.
    runtime.registerTypedJsonTool(ToolPolicy.json('ledger.echo'), exactEcho as never, (input) => input as never);
    expect(first.listTools().tools.map((tool) => tool.name)).toEqual(['ledger.echo', 'math.add', 'notes.search']);
    expect(second.hasTool('ledger.echo')).toBe(true);
    expect((await second.callTool({ name: 'ledger.echo', arguments: { amount: 2 } }))['structuredContent']).toEqual({ amount: 2 });
    expect(mcpToolHandlers(runtime).listTools(modern).tools).toHaveLength(3);
    expect(catalog).toHaveBeenCalledTimes(4);
  });

  it("SDK v2's createMcpHandler, an McpServer per request with a tool of its own beside ours: no request copies the catalog", async () => {
    const runtime = new CapabilityRuntime();
    runtime.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, ({ left, right }) => ({ total: left + right }));
    runtime.registerValidatedProtocolJsonTool(ToolPolicy.json('notes.search'), ToolMetadata.of('Searches notes.'), notesSearch);
    const catalog = vi.spyOn(runtime, 'catalog');
    let servers = 0;
    const handler = createMcpHandler(() => {
      servers++;
      const server = new McpServerV2({ name: 'both', version: '1.0.0' });
      server.registerTool('greet', { description: 'theirs' }, () => ({ content: [{ type: 'text', text: 'hello' }] }));
      serveToolsOnMcpServer(server, runtime);
      return server;
    });
    const client = new ClientV2({ name: 'test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:9/mcp'), { fetch: async (url, init) => handler.fetch(new Request(url, init)) }));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['greet', 'math.add', 'notes.search']);
    for (let i = 0; i < 5; i++) expect(await client.callTool({ name: 'math.add', arguments: { left: i, right: 1 } })).toMatchObject({ structuredContent: { total: i + 1 } });
    expect(await client.callTool({ name: 'greet', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'hello' }] });
    expect(servers).toBeGreaterThanOrEqual(7);
    // Built for the first request's two revisions; every later server found them built.
    expect(catalog.mock.calls.length).toBeLessThanOrEqual(2);
    await client.close();
  });

  it('a host that changes what it was listed cannot change what the next request lists', () => {
    const runtime = toolRuntime();
    const listed = mcpToolHandlers(runtime).listTools().tools[0]!;
    // Its own tool objects are its to change; the schemas inside are shared, so frozen.
    (listed as { name: string }).name = 'renamed';
    (listed as { inputSchema: unknown }).inputSchema = { type: 'object' };
    const shared = mcpToolHandlers(runtime).listTools().tools[0]!;
    expect(() => ((shared.inputSchema as Record<string, unknown>)['type'] = 'array')).toThrow(TypeError);
    expect(() => ((shared.inputSchema['properties'] as Record<string, Record<string, unknown>>)['left']!['type'] = 'string')).toThrow(TypeError);
    expect(() => (shared.inputSchema['required'] as string[]).push('extra')).toThrow(TypeError);
    expect(mcpToolHandlers(runtime).listTools().tools[0]).toEqual({ name: 'math.add', description: mathAdd.description, inputSchema: mathAdd.inputSchema, outputSchema: mathAdd.outputSchema });
  });

  it('two runtimes never share a listing', () => {
    const one = toolRuntime();
    const other = new CapabilityRuntime();
    other.registerValidatedProtocolJsonTool(ToolPolicy.json('notes.search'), ToolMetadata.of('Searches notes elsewhere.'), notesSearch);
    mcpToolHandlers(one);
    expect(
      mcpToolHandlers(other)
        .listTools()
        .tools.map((tool) => [tool.name, tool.description]),
    ).toEqual([['notes.search', 'Searches notes elsewhere.']]);
    expect(mcpToolHandlers(other).hasTool('math.add')).toBe(false);
  });
});

describe('MCP over stdio: a child process serving compiled contracts', () => {
  const script = fileURLToPath(new URL('./fixtures/mcp-stdio-server.mjs', import.meta.url));

  const clients = {
    v1: () => ({ client: new ClientV1({ name: 'test', version: '1.0.0' }), transport: new StdioV1({ command: process.execPath, args: [script, 'v1'], stderr: 'pipe' }) }),
    v2: () => ({ client: new ClientV2({ name: 'test', version: '1.0.0' }), transport: new StdioV2({ command: process.execPath, args: [script, 'v2'], stderr: 'pipe' }) }),
  };

  it.each(['v1', 'v2'] as const)('SDK %s client and server', async (version) => {
    const { client, transport } = clients[version]();
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['math.add']);
      expect(await client.callTool({ name: 'math.add', arguments: { left: 20, right: 22 } })).toMatchObject({ structuredContent: { total: 42 } });
      expect(await client.callTool({ name: 'math.add', arguments: { left: 'x', right: 1 } })).toMatchObject({ isError: true });
    } finally {
      await client.close();
    }
  });
});
