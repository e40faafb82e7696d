import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { contracts, type Contracts, type CreateEntitiesOutput, type EchoOutput, type GetSumInput, type ReadGraphOutput } from '../../../../../fixtures/import/generated/index.js';
import { compileContracts } from '../../../../../src/compiler.js';
import { CapabilityRuntime, ToolError, ToolPolicy, type ContentBlock, type ContractSet, type ToolContract } from '../../../src/index.js';
import { mathAdd, notesSearch } from '../../../../../examples/generated/index.js';
import { InMemoryTransport as MemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport as MemoryV2, McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import { compileContract } from '../../../../../test/support/load-module.js';
import { mcpElicit, mcpLog, mcpToolHandlers, serveToolsOnMcpServer } from '../../../src/mcp/server.js';
import { mcpHttpHandler } from '../../../src/mcp/http/http-server.js';
import { serveToolsOnMcpServerV1 } from '../../../src/mcp/sdk-v1/sdk-v1-server.js';
import { mcpToolClient, mcpToolClientV1, type McpToolCallResult, type McpToolClient } from '../../../src/mcp/client/client.js';

/**
 * Typed calls to real MCP servers from npm (`@modelcontextprotocol/server-everything` and
 * `server-memory`, pinned dev dependencies) over stdio, through each SDK's own Client, held to
 * the contracts `jtc import` wrote for them (fixtures/import, built into fixtures/import/generated).
 */
const slow = 120_000;
const serverScript = (name: string): string => resolve(`node_modules/@modelcontextprotocol/${name}/dist/index.js`);

type Sdk = 'v1' | 'v2';

/** Every tools/call the SDK client was asked to send, with the options it was handed. */
interface Sent {
  readonly params: { name: string; arguments: Record<string, unknown> };
  readonly options: unknown;
}

interface Connected<Cs extends ContractSet> {
  readonly tools: McpToolClient<Cs, { signal?: AbortSignal; timeout?: number }>;
  readonly sent: Sent[];
  close(): Promise<void>;
}

async function connect<Cs extends ContractSet>(sdk: Sdk, server: string, set: Cs, env: Record<string, string> = {}): Promise<Connected<Cs>> {
  const params = { command: process.execPath, args: [serverScript(server)], env, stderr: 'ignore' as const };
  const sent: Sent[] = [];
  if (sdk === 'v1') {
    const client = new ClientV1({ name: 'typed-client-test', version: '1.0.0' });
    await client.connect(new StdioV1(params));
    // The SDK's own client, watched: what reaches callTool is what would be sent.
    const watched = { callTool: (p: Sent['params'], schema: undefined, options?: object) => (sent.push({ params: p, options }), client.callTool(p, schema, options)), listTools: client.listTools.bind(client) };
    return { tools: mcpToolClientV1(watched, set), sent, close: () => client.close() };
  }
  const client = new ClientV2({ name: 'typed-client-test', version: '1.0.0' });
  await client.connect(new StdioV2(params));
  const watched = { callTool: (p: Sent['params'], options?: object) => (sent.push({ params: p, options }), client.callTool(p, options)), listTools: client.listTools.bind(client) };
  return { tools: mcpToolClient(watched, set), sent, close: () => client.close() };
}

/** Contracts edited away from what the server does, compiled into a scratch folder and loaded. */
async function editedContracts(edits: readonly { readonly from: string; readonly path: readonly string[]; readonly value: unknown }[]): Promise<ContractSet> {
  const sources = edits.map(({ from, path, value }) => {
    const contract = JSON.parse(readFileSync(`fixtures/import/${from}`, 'utf8')) as Record<string, unknown>;
    const parent = path.slice(0, -1).reduce((object, key) => object[key] as Record<string, unknown>, contract);
    parent[path.at(-1)!] = value;
    return { file: `${String(contract['name'])}.contract.json`, text: JSON.stringify(contract) };
  });
  const { files, diagnostics } = compileContracts(sources, { emit: 'js' });
  expect(diagnostics).toEqual([]);
  const dir = mkdtempSync(join(tmpdir(), 'jtc-mcp-client-'));
  scratch.push(dir);
  for (const file of files) writeFileSync(join(dir, file.path), file.text);
  return ((await import(pathToFileURL(join(dir, 'index.mjs')).href)) as { contracts: ContractSet }).contracts;
}

/** The contracts built into fixtures/import/generated: the typed side of these tests. */
const builtContracts = ['server-memory/contracts/create_entities', 'server-memory/contracts/read_graph', 'server-memory/contracts/search_nodes', 'server-everything/contracts/echo', 'server-everything/contracts/get-env', 'server-everything/contracts/get-structured-content', 'server-everything/contracts/get-sum'];

it('fixtures/import/generated is what jtc build writes for those contracts, byte for byte', () => {
  const { files, diagnostics } = compileContracts(builtContracts.map((path) => ({ file: `fixtures/import/${path}.contract.json`, text: readFileSync(`fixtures/import/${path}.contract.json`, 'utf8') })));
  expect(diagnostics).toEqual([]);
  expect(readdirSync('fixtures/import/generated').sort()).toEqual(files.map((file) => file.path).sort());
  for (const file of files) expect(readFileSync(join('fixtures/import/generated', file.path), 'utf8')).toBe(file.text);
});

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe.each(['v1', 'v2'] as const)('typed calls over MCP SDK %s Client, over stdio', (sdk) => {
  describe('server-memory', () => {
    let memory: Connected<Contracts>;
    const memoryDir = mkdtempSync(join(tmpdir(), 'jtc-memory-'));

    beforeAll(async () => {
      memory = await connect(sdk, 'server-memory', contracts, { MEMORY_FILE_PATH: join(memoryDir, 'memory.jsonl') });
    }, slow);
    afterAll(async () => {
      await memory?.close();
      rmSync(memoryDir, { recursive: true, force: true });
    });

    it(
      'a valid call is typed by its contract, sent, and its structuredContent validated',
      async () => {
        const entity = { name: 'Ada', entityType: 'person', observations: ['wrote the first program'] };
        const created = await memory.tools.call('create_entities', { entities: [entity] }, { timeout: slow });
        expectTypeOf(created).toEqualTypeOf<McpToolCallResult<CreateEntitiesOutput>>();
        expect(created).toMatchObject({ ok: true, output: { entities: [entity] } });

        const graph = await memory.tools.call('read_graph', {}, { timeout: slow });
        if (!graph.ok) throw graph.error;
        expectTypeOf(graph.output).toEqualTypeOf<ReadGraphOutput>();
        expect(graph.output).toEqual({ entities: [entity], relations: [] });
        expect(graph.received.structuredContent).toEqual(graph.output);
        expect(memory.sent.map((s) => s.params)).toEqual([
          { name: 'create_entities', arguments: { entities: [entity] } },
          { name: 'read_graph', arguments: {} },
        ]);
      },
      slow,
    );

    it(
      'a contract name with dots reaches the tool the server lists under its portable name',
      async () => {
        const dotted = await editedContracts([{ from: 'server-memory/contracts/read_graph.contract.json', path: ['name'], value: 'read.graph' }]);
        const client = await connect(sdk, 'server-memory', dotted, { MEMORY_FILE_PATH: join(memoryDir, 'dotted.jsonl') });
        try {
          expect(await client.tools.call('read.graph', {})).toMatchObject({ ok: true, output: { entities: [], relations: [] } });
          expect(client.sent.map((s) => s.params.name)).toEqual(['read_graph']);
        } finally {
          await client.close();
        }
      },
      slow,
    );
  });

  describe('server-everything', () => {
    let everything: Connected<Contracts>;

    beforeAll(async () => {
      everything = await connect(sdk, 'server-everything', contracts);
    }, slow);
    afterAll(async () => {
      await everything?.close();
    });

    it(
      'invalid arguments are refused with the issues the server side gives, and nothing is sent',
      async () => {
        const sentBefore = everything.sent.length;
        // @ts-expect-error: b must be a number, the contract says so
        const wrong = await everything.tools.call('get-sum', { a: 1, b: '2' });
        expect(wrong.ok).toBe(false);
        const { error } = wrong as Extract<typeof wrong, { ok: false }>;
        expect(error).toBeInstanceOf(ToolError);
        expect(error.code).toBe('invalid_input');
        expect(error.message).toBe('input for "get-sum" does not match its contract: /b: must be number, got string');
        expect(error.issues).toMatchObject([{ instancePath: '/b', keyword: 'type' }]);
        // Word for word what the runtime says when it serves the tool.
        const served = new CapabilityRuntime();
        served.registerTypedJsonTool(ToolPolicy.json('get-sum'), contracts.getSum, () => ({}));
        expect(served.call('get-sum', { a: 1, b: '2' })).toMatchObject({ ok: false, error: { code: error.code, message: error.message, issues: error.issues } });
        // @ts-expect-error: a is required
        expect((await everything.tools.call('get-sum', { b: 2 })).ok).toBe(false);
        // @ts-expect-error: no contract of the set has this name
        expect(await everything.tools.call('get-product', {})).toMatchObject({ ok: false, error: { code: 'unknown_tool' } });
        expect((await everything.tools.call('get-sum', [] as unknown as GetSumInput)) as unknown).toMatchObject({ ok: false, error: { code: 'invalid_envelope' } });
        expect(everything.sent.length).toBe(sentBefore);
      },
      slow,
    );

    it(
      'a tool whose contract leaves its output unconstrained answers its content blocks, and its JSON as the output when its text is JSON',
      async () => {
        const env = await everything.tools.call('get-env', {}, { timeout: slow });
        if (!env.ok) throw env.error;
        expect(env.output).toMatchObject({ PATH: expect.any(String) });
        expect(env.content).toEqual([{ type: 'text', text: expect.stringMatching(/^\{/) }]);

        // Text tools: the text is the answer, typed as content blocks; there is no JSON output.
        const echo = await everything.tools.call('echo', { message: 'hello' }, { timeout: slow });
        expectTypeOf(echo).toEqualTypeOf<McpToolCallResult<EchoOutput>>();
        if (!echo.ok) throw echo.error;
        expectTypeOf(echo.content).toEqualTypeOf<readonly ContentBlock[]>();
        expectTypeOf(echo.output).toEqualTypeOf<EchoOutput | undefined>();
        expect(echo).toEqual({ ok: true, output: undefined, content: [{ type: 'text', text: 'Echo: hello' }], received: { content: [{ type: 'text', text: 'Echo: hello' }] } });
        const sum = await everything.tools.call('get-sum', { a: 1, b: 2 }, { timeout: slow });
        expect(sum).toMatchObject({ ok: true, output: undefined, content: [{ type: 'text', text: 'The sum of 1 and 2 is 3.' }] });

        // The arguments are still checked before anything is sent.
        const sentBefore = everything.sent.length;
        // @ts-expect-error: message must be a string
        expect(await everything.tools.call('echo', { message: 5 })).toMatchObject({ ok: false, error: { code: 'invalid_input', issues: [{ instancePath: '/message', keyword: 'type' }] } });
        expect(everything.sent.length).toBe(sentBefore);
      },
      slow,
    );

    it(
      'an output that breaks its contract is reported with its issues; an isError result is a failure with its text',
      async () => {
        const edited = await editedContracts([
          // Stricter than the server: no temperature it reports is below -100.
          { from: 'server-everything/contracts/get-structured-content.contract.json', path: ['output', 'properties', 'temperature', 'maximum'], value: -100 },
          // Looser than the server: b optional, which the server refuses.
          { from: 'server-everything/contracts/get-sum.contract.json', path: ['input', 'required'], value: ['a'] },
        ]);
        const client = await connect(sdk, 'server-everything', edited);
        try {
          const weather = await client.tools.call('get-structured-content', { location: 'Chicago' }, { timeout: slow });
          expect(weather).toMatchObject({ ok: false, error: { code: 'invalid_output', issues: [{ instancePath: '/temperature', keyword: 'maximum' }] }, received: { structuredContent: { temperature: expect.any(Number) } } });
          expect((weather as { error: ToolError }).error.message).toMatch(/^output of "get-structured-content" does not match its contract: \/temperature: /);

          const sum = await client.tools.call('get-sum', { a: 1 }, { timeout: slow });
          expect(sum).toMatchObject({ ok: false, error: { code: 'handler_failed' }, received: { isError: true } });
          expect((sum as { error: ToolError }).error.message).toMatch(/^"get-sum" answered with an error: .*b/s);
          expect(client.sent).toHaveLength(2);
        } finally {
          await client.close();
        }
      },
      slow,
    );

    it(
      "the SDK's request options pass through; a signal aborted before the call sends nothing",
      async () => {
        const options = { timeout: slow, signal: new AbortController().signal };
        expect(await everything.tools.call('get-sum', { a: 1, b: 2 }, options)).toMatchObject({ ok: true, content: [{ type: 'text' }] });
        expect(everything.sent.at(-1)).toEqual({ params: { name: 'get-sum', arguments: { a: 1, b: 2 } }, options });

        const sentBefore = everything.sent.length;
        expect(await everything.tools.call('get-sum', { a: 1, b: 2 }, { signal: AbortSignal.abort() })).toMatchObject({ ok: false, error: { code: 'cancelled' } });
        expect(everything.sent.length).toBe(sentBefore);
      },
      slow,
    );

    it(
      'a contract the server does not list is unknown_tool, and nothing is sent',
      async () => {
        const unlisted = await editedContracts([{ from: 'server-everything/contracts/echo.contract.json', path: ['name'], value: 'not.listed' }]);
        const client = await connect(sdk, 'server-everything', unlisted);
        try {
          const result = await client.tools.call('not.listed', { message: 'hello' });
          expect(result).toMatchObject({ ok: false, error: { code: 'unknown_tool' } });
          expect((result as { error: ToolError }).error.message).toMatch(/^the server lists no tool "not\.listed" \(nor "not_listed"\); it lists: echo, /);
          expect(client.sent).toEqual([]);
        } finally {
          await client.close();
        }
      },
      slow,
    );
  });
});

describe('mcpToolClient types', () => {
  it('takes each SDK its own request options', () => {
    const v2 = mcpToolClient(new ClientV2({ name: 't', version: '1' }), contracts);
    const v1 = mcpToolClientV1(new ClientV1({ name: 't', version: '1' }), contracts);
    expectTypeOf(v2.call).parameter(2).toEqualTypeOf<Parameters<ClientV2['callTool']>[1]>();
    expectTypeOf(v1.call).parameter(2).toEqualTypeOf<Parameters<ClientV1['callTool']>[2]>();
    // SDK v2's Client where v1's belongs would lose the options: refused by its type and at run time.
    // @ts-expect-error: an SDK v2 Client
    expect(() => mcpToolClientV1(new ClientV2({ name: 't', version: '1' }), contracts)).toThrow('mcpToolClientV1 takes an MCP SDK v1 Client, and this is an SDK v2 Client (@modelcontextprotocol/client): use mcpToolClient');
    // And the other way round: v1's Client takes the options as its result schema.
    // @ts-expect-error: an SDK v1 Client
    expect(() => mcpToolClient(new ClientV1({ name: 't', version: '1' }), contracts)).toThrow('mcpToolClient takes an MCP SDK v2 Client, and this is an SDK v1 Client (@modelcontextprotocol/sdk): use mcpToolClientV1');
    expectTypeOf(v2.call).parameter(0).toEqualTypeOf<'create_entities' | 'echo' | 'get-env' | 'get-structured-content' | 'get-sum' | 'read_graph' | 'search_nodes'>();
  });
});

describe('typed calls to tools the runtime serves, in process', () => {
  /** A v2-shaped client straight on the runtime's MCP handlers, listing its tools one per page. */
  function inProcess(runtime: CapabilityRuntime, failures: { listing?: number; calls?: number } = {}) {
    const mcp = mcpToolHandlers(runtime);
    const pages: (string | undefined)[] = [];
    const client = {
      async listTools(params?: { cursor: string }) {
        pages.push(params?.cursor);
        if ((failures.listing ?? 0) > 0 && failures.listing!--) throw new Error('connection reset');
        const tools = mcp.listTools().tools;
        const at = Number(params?.cursor ?? 0);
        return { tools: tools.slice(at, at + 1), ...(at + 1 < tools.length ? { nextCursor: String(at + 1) } : {}) };
      },
      async callTool(params: { name: string; arguments: Record<string, unknown> }) {
        if ((failures.calls ?? 0) > 0 && failures.calls!--) throw new Error('MCP error -32001: Request timed out');
        return mcp.callTool(params);
      },
    };
    return { tools: mcpToolClient(client, { mathAdd, notesSearch }), pages };
  }

  it('an isError result keeps the code the runtime gave it; every page of tools/list is read', async () => {
    const runtime = new CapabilityRuntime();
    runtime.registerTypedJsonTool(ToolPolicy.json('math.add').withCallBudget(1), mathAdd, ({ left, right }) => ({ total: left + right }));
    runtime.registerTypedJsonTool(ToolPolicy.json('notes.search'), notesSearch, () => {
      throw ToolError.denied('the notes are locked');
    });
    const { tools, pages } = inProcess(runtime);
    expect(await tools.call('math.add', { left: 2, right: 3 })).toMatchObject({ ok: true, output: { total: 5 } });
    expect(pages).toEqual([undefined, '1']);
    expect(await tools.call('math.add', { left: 2, right: 3 })).toMatchObject({ ok: false, error: { code: 'budget_exhausted', message: '"math.add" has used its whole call budget' }, received: { isError: true } });
    expect(await tools.call('notes.search', { query: 'eggs' })).toMatchObject({ ok: false, error: { code: 'denied', message: 'the notes are locked' } });
  });

  it('a failed listing or request is a handler_failed result, and the next call lists again', async () => {
    const runtime = new CapabilityRuntime();
    runtime.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, ({ left, right }) => ({ total: left + right }));
    const { tools, pages } = inProcess(runtime, { listing: 1, calls: 1 });
    expect(await tools.call('math.add', { left: 1, right: 1 })).toMatchObject({ ok: false, error: { code: 'handler_failed', message: `listing the server's tools for "math.add" failed: connection reset` } });
    expect(await tools.call('math.add', { left: 1, right: 1 })).toMatchObject({ ok: false, error: { code: 'handler_failed', message: 'the call to "math.add" failed: MCP error -32001: Request timed out' } });
    expect(await tools.call('math.add', { left: 1, right: 1 })).toMatchObject({ ok: true, output: { total: 2 } });
    expect(pages).toEqual([undefined, undefined]);
  });
});

/**
 * A server that is not the runtime's may word its errors as the runtime does (`cancelled: …`): only
 * a result the runtime marked as its own keeps its code. One SDK McpServer serves both, a tool of
 * its own and the runtime's tools beside it.
 */
describe.each(['v1', 'v2'] as const)('error codes over MCP SDK %s: trusted only from the runtime', (sdk) => {
  const purge = compileContract(JSON.stringify({ name: 'notes.purge', description: 'Purges notes.', input: { type: 'object' }, output: {} })) as unknown as ToolContract<Record<string, unknown>, unknown, 'notes.purge'>;
  const answers = ['cancelled: the server gave up', 'denied: nobody may purge', 'budget_exhausted: no more purges'];

  async function connected() {
    const runtime = new CapabilityRuntime();
    runtime.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, () => {
      throw ToolError.denied('math is closed today');
    });
    let answer = 0;
    const theirs = () => ({ isError: true, content: [{ type: 'text' as const, text: answers[answer++]! }] });
    if (sdk === 'v1') {
      const server = new McpServerV1({ name: 'foreign', version: '1.0.0' });
      server.registerTool('notes.purge', { description: 'Purges notes.' }, theirs);
      serveToolsOnMcpServerV1(server, runtime);
      const [clientSide, serverSide] = MemoryV1.createLinkedPair();
      await server.connect(serverSide);
      const client = new ClientV1({ name: 'test', version: '1.0.0' });
      await client.connect(clientSide);
      return mcpToolClientV1(client, { mathAdd, purge });
    }
    const server = new McpServerV2({ name: 'foreign', version: '1.0.0' });
    server.registerTool('notes.purge', { description: 'Purges notes.' }, theirs);
    serveToolsOnMcpServer(server, runtime);
    const [clientSide, serverSide] = MemoryV2.createLinkedPair();
    await server.connect(serverSide);
    const client = new ClientV2({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
    return mcpToolClient(client, { mathAdd, purge });
  }

  it("a code in another server's text is that server's failure; the runtime's own keeps its code", async () => {
    const tools = await connected();
    for (const answer of answers) {
      const result = await tools.call('notes.purge', {});
      expect(result).toMatchObject({ ok: false, error: { code: 'handler_failed', message: `"notes.purge" answered with an error: ${answer}` }, received: { isError: true } });
    }
    expect(await tools.call('math.add', { left: 1, right: 1 })).toMatchObject({ ok: false, error: { code: 'denied', message: 'math is closed today' } });
  });
});

describe("the listing kept for its ttlMs (MCP 2026-07-28's cache hint)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A 2026-07-28 listing of the runtime's handlers, with the hint given; how often it was asked for. */
  function hinted(toolsListCache: { ttlMs: number } | undefined) {
    const runtime = new CapabilityRuntime();
    runtime.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, ({ left, right }) => ({ total: left + right }));
    const mcp = mcpToolHandlers(runtime, toolsListCache === undefined ? { protocolVersion: '2025-11-25' } : { toolsListCache });
    const modern = { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } };
    let listings = 0;
    const client = {
      listTools: async () => (listings++, mcp.listTools(modern)),
      callTool: async (params: { name: string; arguments: Record<string, unknown> }) => mcp.callTool({ ...params, ...modern }),
    };
    return { tools: mcpToolClient(client, { mathAdd }), listings: () => listings };
  }

  it('lists again once ttlMs has passed, at every call for 0, and never for a listing without one', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const kept = hinted({ ttlMs: 1_000 });
    expect(await kept.tools.call('math.add', { left: 1, right: 1 })).toMatchObject({ ok: true, output: { total: 2 } });
    vi.advanceTimersByTime(999);
    await kept.tools.call('math.add', { left: 1, right: 1 });
    expect(kept.listings()).toBe(1);
    vi.advanceTimersByTime(1);
    await kept.tools.call('math.add', { left: 1, right: 1 });
    expect(kept.listings()).toBe(2);

    const stale = hinted({ ttlMs: 0 });
    for (let i = 0; i < 3; i++) await stale.tools.call('math.add', { left: 1, right: 1 });
    expect(stale.listings()).toBe(3);

    const unhinted = hinted(undefined);
    vi.advanceTimersByTime(86_400_000);
    for (let i = 0; i < 3; i++) await unhinted.tools.call('math.add', { left: 1, right: 1 });
    expect(unhinted.listings()).toBe(1);
  });
});

describe('results that carry no output', () => {
  /** A client whose server lists math.add with an output schema and answers every call with `answer`. */
  const answering = (answer: unknown) => mcpToolClient({ listTools: async () => ({ tools: [{ name: 'math.add', outputSchema: { type: 'object' } }] }), callTool: async () => answer }, { mathAdd });

  it('a tool listed with an output schema must answer structuredContent; an answer that is no result is refused', async () => {
    expect(await answering({ content: [{ type: 'text', text: '{"total":2}' }] }).call('math.add', { left: 1, right: 1 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_output', message: 'the server lists an output schema for "math.add", but its result carries no structuredContent' },
      received: { content: [{ type: 'text', text: '{"total":2}' }] },
    });
    expect(await answering(null).call('math.add', { left: 1, right: 1 })).toMatchObject({ ok: false, error: { code: 'invalid_output', message: 'the server answered the call to "math.add" with no tools/call result: null' } });
    expect(await answering({ content: [], structuredContent: { total: 2 } }).call('math.add', { left: 1, right: 1 })).toMatchObject({ ok: true, output: { total: 2 } });
  });

  /** The echo contract (output unconstrained) and math.add (a structured output), both listed without an output schema. */
  const listedBare = (answer: unknown) => mcpToolClient({ listTools: async () => ({ tools: [{ name: 'math.add' }, { name: 'echo' }] }), callTool: async () => answer }, { mathAdd, echo: contracts.echo });

  it('a contract with a structured output still needs JSON: text that is not JSON is invalid_output', async () => {
    expect(await listedBare({ content: [{ type: 'text', text: 'two' }] }).call('math.add', { left: 1, right: 1 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_output', message: expect.stringMatching(/^the result of "math\.add" carries no structuredContent, and its text is not JSON/) },
    });
    expect(await listedBare({ content: [{ type: 'text', text: '{"total":"two"}' }] }).call('math.add', { left: 1, right: 1 })).toMatchObject({ ok: false, error: { code: 'invalid_output', issues: [{ instancePath: '/total' }] } });
  });

  it('an unconstrained output carries any content blocks, checked; JSON that is no object or array is content too', async () => {
    const image = { type: 'image', data: 'AA==', mimeType: 'image/png' };
    expect(await listedBare({ content: [image, { type: 'text', text: 'a dot' }] }).call('echo', { message: 'x' })).toMatchObject({ ok: true, output: undefined, content: [image, { type: 'text', text: 'a dot' }] });
    expect(await listedBare({ content: [{ type: 'text', text: '42' }] }).call('echo', { message: 'x' })).toMatchObject({ ok: true, output: undefined, content: [{ type: 'text', text: '42' }] });
    expect(await listedBare({ content: [], structuredContent: { n: 1 } }).call('echo', { message: 'x' })).toMatchObject({ ok: true, output: { n: 1 }, content: [] });
    expect(await listedBare({}).call('echo', { message: 'x' })).toMatchObject({ ok: true, output: undefined, content: [] });
    expect(await listedBare({ content: [{ type: 'image', data: 'AA==' }] }).call('echo', { message: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_output', message: 'the content of "echo" is not MCP content blocks: content block 0 (image) needs a string "mimeType"' },
    });
    expect(await listedBare({ content: 'Echo: x' }).call('echo', { message: 'x' })).toMatchObject({ ok: false, error: { code: 'invalid_output' } });
  });
});

describe('what the caller and the server hand over, held as the runtime holds it', () => {
  const answering = (answer: unknown) => mcpToolClient({ listTools: async () => ({ tools: [{ name: 'math.add', outputSchema: { type: 'object' } }] }), callTool: async () => answer }, { mathAdd });

  it('an exact-mode output keeps every digit from the text a runtime server sends beside its doubles', async () => {
    const exact = compileContracts([{ file: 'ledger.big.contract.json', text: '{"name":"ledger.big","description":"A big id.","input":{"type":"object"},"output":{"type":"object","properties":{"n":{"type":"integer","minimum":9007199254740993}},"required":["n"],"additionalProperties":false}}' }], {
      exactNumbers: true,
      emit: 'js',
    });
    const dir = mkdtempSync(join(tmpdir(), 'jtc-mcp-client-exact-'));
    scratch.push(dir);
    for (const file of exact.files) writeFileSync(join(dir, file.path), file.text);
    const set = ((await import(pathToFileURL(join(dir, 'index.mjs')).href)) as { contracts: ContractSet }).contracts;
    const runtime = new CapabilityRuntime();
    runtime.registerAll(set as never, { ledgerBig: () => ({ n: 9007199254740993n }) } as never);
    const mcp = mcpToolHandlers(runtime);
    // Over the wire: JSON text both ways.
    const wire = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
    const tools = mcpToolClient({ listTools: async () => wire(mcp.listTools()), callTool: async (params: { name: string; arguments: Record<string, unknown> }) => wire(await mcp.callTool(params)) }, set);
    const result = await tools.call('ledger.big' as never, {} as never);
    expect(result).toMatchObject({ ok: true, output: { n: 9007199254740993n } });
  });

  it('never rejects for what the caller passes; a set that holds anything but contracts is refused at once', async () => {
    const options = {
      get signal(): AbortSignal {
        throw new Error('no signal here');
      },
    };
    expect(await answering({ content: [], structuredContent: { total: 2 } }).call('math.add', { left: 1, right: 1 }, options as never)).toMatchObject({ ok: false, error: { code: 'handler_failed', message: 'the call could not be made: no signal here' } });
    expect(() => mcpToolClient({ listTools: async () => ({ tools: [] }), callTool: async () => ({}) }, { mathAdd, contracts: { mathAdd } } as never)).toThrow('the contract set\'s "contracts" is not a generated contract');
  });

  it('holds a received output to the envelope: null is no output, and a getter is never run', async () => {
    expect(await answering({ content: [], structuredContent: null }).call('math.add', { left: 1, right: 1 })).toMatchObject({ ok: false, error: { code: 'invalid_output', message: expect.stringContaining('output of "math.add" is not a plain JSON object or array') } });
    let reads = 0;
    const sneaky = {
      get total(): number {
        reads++;
        return 2;
      },
    };
    expect(await answering({ content: [], structuredContent: sneaky }).call('math.add', { left: 1, right: 1 })).toMatchObject({ ok: false, error: { code: 'invalid_output' } });
    expect(reads).toBe(0);
  });
});

describe('the log level a 2026-07-28 call asks for (logLevel)', () => {
  const levels = ['debug', 'info', 'warning', 'error'] as const;

  /** SDK 2.4's Client pinned to 2026-07-28, on the runtime's mcpHttpHandler through fetch; math.add logs at four levels, and asks once for a negative left. */
  async function served(options: Parameters<typeof mcpToolClient>[2]) {
    const runtime = new CapabilityRuntime();
    runtime.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, async ({ left, right }, request) => {
      for (const level of levels) await mcpLog(request, level, `${level}: ${left}+${right}`);
      if (left < 0) await mcpElicit(request, { key: 'sure', message: 'Negative?', requestedSchema: { type: 'object', properties: {} }, validator: { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } } });
      return { total: left + right };
    });
    const unsent: string[] = [];
    const handler = mcpHttpHandler(runtime, { serverInfo: { name: 'math', version: '1.0.0' }, requestState: { key: 'a key of at least thirty-two bytes, for the tests' }, unsentLog: (level) => void unsent.push(level) });
    /** Each tools/call's `_meta` as sent, and the response bodies as they came (an event stream carries the messages). */
    const metas: unknown[] = [];
    const bodies: Promise<string>[] = [];
    const fetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
      const body = JSON.parse(String(init?.body ?? 'null')) as { method?: string; params?: { _meta?: unknown } } | null;
      const response = await handler.fetch(new Request(url, init));
      if (body?.method === 'tools/call') {
        metas.push(body.params?._meta);
        bodies.push(response.clone().text());
      }
      return response;
    };
    const client = new ClientV2({ name: 'test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const heard: unknown[] = [];
    client.setNotificationHandler('notifications/message', (notification) => void heard.push(notification.params.data));
    client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: {} }));
    await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch }));
    return { tools: mcpToolClient(client, { mathAdd }, options), heard, unsent, metas, bodies, close: () => client.close() };
  }

  it.each([
    ['the SDK driver', {}],
    ["the caller's input callbacks", { input: { elicitation: () => ({ action: 'accept' as const, content: {} }) } }],
  ])('through %s: every tools/call names the level, and the Client hears the messages at and above it', async (_, options) => {
    const { tools, heard, unsent, metas, close } = await served({ ...options, logLevel: 'warning' });
    expect(await tools.call('math.add', { left: -2, right: 3 })).toMatchObject({ ok: true, output: { total: 1 } });
    // Two rounds (the question, then the answer), each run from the top: each round's messages.
    expect(metas).toEqual([expect.objectContaining({ 'io.modelcontextprotocol/logLevel': 'warning' }), expect.objectContaining({ 'io.modelcontextprotocol/logLevel': 'warning' })]);
    await vi.waitFor(() => expect(heard).toEqual(['warning: -2+3', 'error: -2+3', 'warning: -2+3', 'error: -2+3']), { timeout: 60_000 });
    expect(unsent).toEqual([]);
    await close();
  });

  it('without a level the server sends none: its messages go to its unsentLog', async () => {
    const { tools, heard, unsent, metas, bodies, close } = await served({});
    expect(await tools.call('math.add', { left: 2, right: 3 })).toMatchObject({ ok: true, output: { total: 5 } });
    expect(metas).toEqual([expect.not.objectContaining({ 'io.modelcontextprotocol/logLevel': expect.anything() })]);
    expect((await Promise.all(bodies)).join('')).not.toContain('notifications/message');
    expect(heard).toEqual([]);
    expect(unsent).toEqual(levels);
    await close();
  });

  it('a level that is no MCP logging level is refused when the client is made', () => {
    const client = { listTools: async () => ({ tools: [] }), callTool: async () => ({}) };
    expect(() => mcpToolClient(client, { mathAdd }, { logLevel: 'verbose' as never })).toThrow('logLevel must be an MCP logging level (debug, info, notice, warning, error, critical, alert, emergency), got verbose');
  });
});
