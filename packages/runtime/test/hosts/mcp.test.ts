import { fileURLToPath } from 'node:url';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport as MemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server as ServerV1 } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport as MemoryV2, Server as ServerV2 } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { mathAdd, notesSearch } from '../../../../examples/generated/index.js';
import { serveToolsOnMcpServer } from '../../src/hosts/mcp.js';
import { serveToolsOnMcpServerV1 } from '../../src/hosts/mcp-sdk-v1.js';
import { CapabilityRuntime, ToolMetadata, ToolPolicy, type CallRecord } from '../../src/index.js';

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
