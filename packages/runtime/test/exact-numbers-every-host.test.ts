import { readFileSync } from 'node:fs';
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport as MemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server as ServerV1 } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport as MemoryV2, Server as ServerV2 } from '@modelcontextprotocol/server';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { compileContract, type LoadedContract } from '../../../test/support/load-module.js';
import { toAiSdkTools } from '../src/providers/ai-sdk.js';
import { mcpElicit, mcpToolHandlers, serveToolsOnMcpServer } from '../src/mcp/server.js';
import { mcpToolClient, mcpToolClientV1 } from '../src/mcp/client/client.js';
import { mcpHttpHandler } from '../src/mcp/http/http-server.js';
import { serveToolsOnMcpServerV1 } from '../src/mcp/sdk-v1/sdk-v1-server.js';
import { openAiAgentsTools } from '../src/providers/openai-agents.js';
import { anthropicTools, geminiTools, openAiChatTools, openAiResponsesTools } from '../src/providers/provider-tools.js';
import { CapabilityRuntime, JsonNumber, parseJson, stringifyJson, ToolMetadata, ToolPolicy } from '../src/index.js';
import { nextDouble } from './support/next-double.js';
import { precisionTable } from './support/precision-table.js';

/**
 * Exact-mode numbers across every host (issue 42), on the fixture `money.transfer`: its bounds are
 * numbers no double holds (an account id up to 2^64 - 1, an amount up to 0.30000000000000000001,
 * an output fee up to 0.10000000000000000001). Every host gets valid JSON Schema 2020-12, never
 * looser than the contract; mcpHttpHandler, which reads and writes the JSON text itself, judges
 * and answers the digits the client sent, exactly as `callJson` does; where an SDK or a provider
 * hands over parsed objects, the numbers arrive as doubles, and these tests pin what that means.
 */
const moneyTransfer = compileContract(readFileSync(new URL('./fixtures/money.transfer.contract.json', import.meta.url), 'utf8'), 'money.transfer.contract.json', { exactNumbers: true });

type Input = { account: unknown; amount: unknown };

/** The tool: it answers the account it was given (or the next of `accounts`) and the next fee (0 when none is set). */
function transfers(outputs: { account?: unknown; fee?: unknown }[] = []) {
  const seen: Input[] = [];
  const runtime = new CapabilityRuntime();
  runtime.registerValidatedJsonTool(ToolPolicy.json('money.transfer'), ToolMetadata.of('Transfers money.'), moneyTransfer as never, (request) => {
    const input = request.input as Input;
    seen.push(input);
    const next = outputs.shift() ?? {};
    return { account: next.account ?? input.account, fee: next.fee ?? 0 };
  });
  return { runtime, seen };
}

const ajv = new Ajv2020({ strict: false });
const revisions = ['2025-11-25', '2026-07-28'] as const;
type Revision = (typeof revisions)[number];
const modernMeta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

// ---- mcpHttpHandler by hand: the body text as the test writes it, so the digits are the test's own

const endpoint = 'http://127.0.0.1/mcp';

interface Conversation {
  readonly revision: Revision;
  /** Sends a request with this params text; resolves with the response's text. */
  request(method: string, paramsText: string, name?: string): Promise<string>;
}

async function conversation(handler: { fetch(request: Request): Promise<Response> }, revision: Revision): Promise<Conversation> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  let id = 0;
  const send = async (method: string, paramsText: string, extra: Record<string, string>) => {
    const response = await handler.fetch(new Request(endpoint, { method: 'POST', headers: { ...headers, ...extra }, body: `{"jsonrpc":"2.0","id":${++id},"method":${JSON.stringify(method)},"params":${paramsText}}` }));
    return { text: await response.text(), session: response.headers.get('mcp-session-id') };
  };
  if (revision === '2025-11-25') {
    const { session } = await send('initialize', JSON.stringify({ protocolVersion: revision, capabilities: {}, clientInfo: { name: 'by-hand', version: '1' } }), {});
    headers['mcp-session-id'] = session!;
    return { revision, request: async (method, paramsText) => (await send(method, paramsText, {})).text };
  }
  return {
    revision,
    request: async (method, paramsText, name) => (await send(method, paramsText, { 'mcp-protocol-version': revision, 'mcp-method': method, ...(name === undefined ? {} : { 'mcp-name': name }) })).text,
  };
}

/** A tools/call with the arguments' text as it is (and, at 2026-07-28, the envelope in `_meta`). */
function callText(talk: Conversation, name: string, argumentsText: string, more = ''): Promise<string> {
  const meta = talk.revision === '2026-07-28' ? `,"_meta":${JSON.stringify(modernMeta)}` : '';
  return talk.request('tools/call', `{"name":${JSON.stringify(name)},"arguments":${argumentsText}${more}${meta}}`, name);
}

function listText(talk: Conversation): Promise<string> {
  return talk.request('tools/list', talk.revision === '2026-07-28' ? `{"_meta":${JSON.stringify(modernMeta)}}` : '{}');
}

/** A response's result, every number read exactly. */
const resultOf = (text: string) => (parseJson(text, { exactNumbers: true }) as { result: Record<string, unknown> }).result;
const firstText = (result: Record<string, unknown>) => (result['content'] as { text: string }[])[0]!.text;

// ---- the schemas every host is handed

type Shown = Record<string, unknown>;

/** The tool as the AI SDK's provider is sent it: the model sees the definitions, and calls nothing. */
async function aiSdkSchema(runtime: CapabilityRuntime): Promise<Shown> {
  const seenByModel: unknown[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      seenByModel.push(...(options.tools ?? []));
      return { content: [{ type: 'text', text: 'no call' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
    },
  });
  await generateText({ model, tools: toAiSdkTools(runtime), prompt: 'go', stopWhen: stepCountIs(1) });
  return (seenByModel[0] as { inputSchema: Shown }).inputSchema;
}

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const atRevision = { '2025-11-25': undefined, '2026-07-28': { _meta: modernMeta } } as const;

/** Every schema a host receives for the tool as JS values, named by the host, with the role it plays there. */
const shownSchemas: readonly (readonly [string, 'input' | 'output', (runtime: CapabilityRuntime) => Shown | Promise<Shown>])[] = [
  ['catalog()', 'input', (runtime) => runtime.catalog()[0]!.inputSchema],
  ['catalog()', 'output', (runtime) => runtime.catalog()[0]!.outputSchema],
  ['the Standard JSON Schema trait', 'input', () => moneyTransfer.input['~standard'].jsonSchema.input({ target: 'draft-2020-12' })],
  ['the Standard JSON Schema trait', 'output', () => moneyTransfer.output['~standard'].jsonSchema.output({ target: 'draft-2020-12' })],
  ...revisions.flatMap((revision) => [
    [`tools/list of an SDK server at ${revision}`, 'input', (runtime: CapabilityRuntime) => mcpToolHandlers(runtime).listTools(atRevision[revision]).tools[0]!.inputSchema] as const,
    [`tools/list of an SDK server at ${revision}`, 'output', (runtime: CapabilityRuntime) => mcpToolHandlers(runtime).listTools(atRevision[revision]).tools[0]!.outputSchema!] as const,
  ]),
  ['the AI SDK, as its provider is sent it', 'input', aiSdkSchema],
  ...[true, false].flatMap((strict) => [
    [`OpenAI Chat (strict: ${strict})`, 'input', (runtime: CapabilityRuntime) => openAiChatTools(runtime, { strict }).tools[0]!.function.parameters] as const,
    [`OpenAI Responses (strict: ${strict})`, 'input', (runtime: CapabilityRuntime) => openAiResponsesTools(runtime, { strict }).tools[0]!.parameters] as const,
    [`Anthropic (strict: ${strict})`, 'input', (runtime: CapabilityRuntime) => anthropicTools(runtime, { strict }).tools[0]!.input_schema] as const,
  ]),
  ['Gemini', 'input', (runtime) => geminiTools(runtime).tools[0]!.functionDeclarations[0]!.parametersJsonSchema],
  ['the OpenAI Agents SDK', 'input', (runtime) => (openAiAgentsTools(runtime)[0] as unknown as { parameters: Shown }).parameters],
];

describe('every host is handed valid JSON Schema 2020-12, never looser than the contract', () => {
  it.each(shownSchemas.map(([host, role, schemaOf]) => [`${host}, ${role}`, role, schemaOf] as const))('%s', async (_, role, schemaOf) => {
    const schema = await schemaOf(transfers().runtime);
    expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true);
    expect(JSON.stringify(schema)).not.toContain('decimal');
    const accepts = ajv.compile(schema);
    if (role === 'input') {
      // Doubles at and around every bound the host is shown (Anthropic strict moves its bounds into the description):
      // each that passes the schema passes the contract, and the last double inside a bound passes both.
      const valid = { account: 1, amount: 0.25 };
      const properties = schema['properties'] as Record<'account' | 'amount', { minimum?: number; maximum?: number }>;
      const bounds = (['account', 'amount'] as const).flatMap((field) => (['minimum', 'maximum'] as const).flatMap((keyword) => (properties[field][keyword] === undefined ? [] : [[field, keyword, properties[field][keyword]] as const])));
      for (const [field, keyword, bound] of bounds) {
        for (const value of [nextDouble(bound, -1), bound, nextDouble(bound, 1)]) {
          const args = { ...valid, [field]: value };
          if (accepts(args)) expect({ [field]: value, contract: moneyTransfer.input.is(args) }).toEqual({ [field]: value, contract: true });
        }
        expect({ [`${field} ${keyword}`]: bound, accepted: accepts({ ...valid, [field]: bound }) }).toEqual({ [`${field} ${keyword}`]: bound, accepted: true });
      }
      if (bounds.length === 0) expect(schema['properties']).toMatchObject({ account: { description: '{minimum: 0, maximum: 18446744073709550000}' }, amount: { description: '{minimum: 0, maximum: 0.3}' } });
    } else {
      // Every output the contract lets through, as the client reads it (parsed to doubles), passes; one past the fee's bound does not.
      for (const output of [
        { account: 18446744073709551615n, fee: new JsonNumber('0.10000000000000000001') },
        { account: 0, fee: 0 },
      ]) {
        expect(moneyTransfer.output.is(output)).toBe(true);
        expect(accepts(JSON.parse(stringifyJson(output)))).toBe(true);
      }
      expect(accepts({ account: 0, fee: nextDouble(0.1, 1) })).toBe(false);
    }
  });

  it('shows the account bound as the double below 2^64 to a host that fills it in, and as 2^64 to one that checks outputs', () => {
    const [entry] = transfers().runtime.catalog();
    expect(entry!.inputSchema['properties']).toEqual({ account: { type: 'integer', minimum: 0, maximum: 2 ** 64 - 2048 }, amount: { type: 'number', minimum: 0, maximum: 0.3 } });
    expect(entry!.outputSchema['properties']).toEqual({ account: { type: 'integer', minimum: 0, maximum: 2 ** 64 }, fee: { type: 'number', minimum: 0, maximum: 0.1 } });
  });

  it("mcpHttpHandler's own JSON text keeps every digit of each bound, at both revisions: the contract's schemas, valid as JSON.parse reads them", async () => {
    const handler = mcpHttpHandler(transfers().runtime, { serverInfo: { name: 'bank', version: '1' } });
    for (const revision of revisions) {
      const text = await listText(await conversation(handler, revision));
      const [read] = (JSON.parse(text) as { result: { tools: { inputSchema: object; outputSchema: object }[] } }).result.tools;
      expect([ajv.validateSchema(read!.inputSchema), ajv.validateSchema(read!.outputSchema)]).toEqual([true, true]);
      const [tool] = (resultOf(text)['tools'] as { inputSchema: unknown; outputSchema: unknown }[])!;
      expect(stringifyJson(tool!.inputSchema)).toBe(stringifyJson(moneyTransfer.inputSchema));
      expect(stringifyJson(tool!.outputSchema)).toBe(stringifyJson(moneyTransfer.outputSchema));
      expect(text).toContain('"maximum":18446744073709551615');
      expect(text).toContain('"maximum":0.10000000000000000001');
    }
    handler.close();
  });
});

// ---- real SDK clients

interface SdkClient {
  listTools(): Promise<{ tools: { name: string; outputSchema?: unknown }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** SDK 1.32's and 2.4's own clients: in memory against that SDK's server with our adapter, and through fetch against mcpHttpHandler. */
const clients: readonly (readonly [string, (runtime: CapabilityRuntime) => Promise<{ client: SdkClient; client2: unknown }>])[] = [
  [
    'SDK 1.32 client, SDK 1.32 server',
    async (runtime) => {
      const [clientSide, serverSide] = MemoryV1.createLinkedPair();
      const server = new ServerV1({ name: 'bank', version: '1' }, { capabilities: {} });
      serveToolsOnMcpServerV1(server, runtime);
      await server.connect(serverSide);
      const client = new ClientV1({ name: 'test', version: '1' });
      await client.connect(clientSide);
      return { client: client as unknown as SdkClient, client2: client };
    },
  ],
  [
    'SDK 2.4 client, SDK 2.4 server',
    async (runtime) => {
      const [clientSide, serverSide] = MemoryV2.createLinkedPair();
      const server = new ServerV2({ name: 'bank', version: '1' }, { capabilities: {} });
      serveToolsOnMcpServer(server, runtime);
      await server.connect(serverSide);
      const client = new ClientV2({ name: 'test', version: '1' });
      await client.connect(clientSide);
      return { client: client as unknown as SdkClient, client2: client };
    },
  ],
  [
    'SDK 1.32 client, mcpHttpHandler',
    async (runtime) => {
      const handler = mcpHttpHandler(runtime, { serverInfo: { name: 'bank', version: '1' } });
      const client = new ClientV1({ name: 'test', version: '1' });
      await client.connect(new HttpV1(new URL(endpoint), { fetch: (url, init) => handler.fetch(new Request(url, init)) }));
      return { client: client as unknown as SdkClient, client2: client };
    },
  ],
  ...revisions.map(
    (revision) =>
      [
        `SDK 2.4 client at ${revision}, mcpHttpHandler`,
        async (runtime: CapabilityRuntime) => {
          const handler = mcpHttpHandler(runtime, { serverInfo: { name: 'bank', version: '1' } });
          const client = new ClientV2({ name: 'test', version: '1' }, revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: revision } } } : {});
          await client.connect(new StreamableHTTPClientTransport(new URL(endpoint), { fetch: (url, init) => handler.fetch(new Request(url, init)) }));
          return { client: client as unknown as SdkClient, client2: client };
        },
      ] as const,
  ),
];

describe.each(clients)('%s', (label, connect) => {
  it('lists the exact tool and calls it: an output at its bounds passes the client, its text keeps every digit', async () => {
    const { runtime } = transfers([{ account: 18446744073709551615n, fee: new JsonNumber('0.10000000000000000001') }]);
    const { client } = await connect(runtime);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['money.transfer']);
    const result = await client.callTool({ name: 'money.transfer', arguments: { account: 12345, amount: 0.25 } });
    expect(result).toMatchObject({ structuredContent: { account: 2 ** 64, fee: 0.1 }, content: [{ type: 'text', text: '{"account":18446744073709551615,"fee":0.10000000000000000001}' }] });
    expect(result['isError']).toBeUndefined();
    await client.close();
  });

  it('the SDK client writes the arguments with JSON.stringify, so they arrive as doubles: 2^64 - 1 as 18446744073709552000, 0.30000000000000000002 as 0.3', async () => {
    const { runtime, seen } = transfers();
    const { client } = await connect(runtime);
    const refused = await client.callTool({ name: 'money.transfer', arguments: { account: Number('18446744073709551615'), amount: 0.25 } });
    expect([refused['isError'], firstText(refused)]).toEqual([true, 'invalid_input: input for "money.transfer" does not match its contract: /account: must be <= 18446744073709551615, is 18446744073709552000']);
    expect(await client.callTool({ name: 'money.transfer', arguments: { account: 1, amount: Number('0.30000000000000000002') } })).toMatchObject({ structuredContent: { account: 1, fee: 0 } });
    expect(seen).toEqual([{ account: 1, amount: 0.3 }]);
    await client.close();
  });

  it("the typed client reads the output with every digit from the result's text; it refuses arguments a double cannot carry", async () => {
    const { runtime } = transfers([{ account: 18446744073709551615n, fee: new JsonNumber('0.10000000000000000001') }]);
    const { client2 } = await connect(runtime);
    const typed = label.startsWith('SDK 1.32') ? mcpToolClientV1(client2 as never, { moneyTransfer: moneyTransfer as never }) : mcpToolClient(client2 as never, { moneyTransfer: moneyTransfer as never });
    expect(await typed.call('money.transfer' as never, { account: 7, amount: 0.25 } as never)).toMatchObject({ ok: true, output: { account: 18446744073709551615n, fee: new JsonNumber('0.10000000000000000001') } });
    // 2^60 is a double, but the SDK would write it 1152921504606847000, which an exact-mode server reads as another number.
    for (const account of [18446744073709551615n, 2n ** 60n]) {
      expect(await typed.call('money.transfer' as never, { account, amount: 0.25 } as never)).toMatchObject({
        ok: false,
        error: { code: 'invalid_input', message: 'input for "money.transfer" holds a number that a JSON double cannot carry exactly, and an MCP server would receive it rounded' },
      });
    }
    await (client2 as SdkClient).close();
  });
});

// ---- the differential: callJson and mcpHttpHandler's tools/call on the same argument text

interface Case {
  readonly tool: string;
  readonly argumentsText: string;
}

interface CaseSet {
  readonly label: string;
  readonly contract: LoadedContract;
  readonly cases: readonly Case[];
}

/** An exact-mode tool whose input and output are the schema around one property, `value`: the handler answers what it was given. */
function echoOf(tool: string, schemaText: string): LoadedContract {
  const schema = `{"type":"object","properties":{"value":${schemaText}},"required":["value"],"additionalProperties":false}`;
  return compileContract(`{"name":${JSON.stringify(tool)},"description":"Echoes its value.","input":${schema},"output":${schema}}`, `${tool}.contract.json`, { exactNumbers: true });
}

/** The conformance set's supported groups (JSON-Schema-Test-Suite 2020-12), each test's data as its source text. */
const conformance: CaseSet[] = (JSON.parse(readFileSync(new URL('../../../test/conformance/suite-supported.json', import.meta.url), 'utf8')) as { file: string; description: string; schemaText: string; tests: { dataText: string }[] }[]).map((group, index) => {
  const tool = `conformance.g${index}`;
  return { label: `${group.file.replace('tests/draft2020-12/', '')}: ${group.description}`, contract: echoOf(tool, group.schemaText), cases: group.tests.map((test) => ({ tool, argumentsText: `{"value":${test.dataText}}` })) };
});

/** The precision table's rows, each bound with the values just below, at and just above it. */
const precision: CaseSet[] = precisionTable.map((row, index) => {
  const tool = `precision.r${index}`;
  return { label: `precision table: ${row.row}`, contract: echoOf(tool, `{"type":"number","${row.keyword}":${row.bound}}`), cases: row.values.map((value) => ({ tool, argumentsText: `{"value":${value}}` })) };
});

/** The issue's bounds: accounts and amounts around them; the fee is the amount, so the output's bound is judged too. */
const issueBounds: CaseSet = {
  label: 'money.transfer',
  contract: moneyTransfer,
  cases: ['0', '-1', '18446744073709551614', '18446744073709551615', '18446744073709551616', '18446744073709551615.0'].flatMap((account) =>
    ['0', '0.1', '0.10000000000000000001', '0.10000000000000000002', '0.30000000000000000001', '0.30000000000000000002', '1e-400'].map((amount) => ({ tool: 'money.transfer', argumentsText: `{"account": ${account}, "amount": ${amount}}` })),
  ),
};

const sets = [...conformance, ...precision, issueBounds];

function echoRuntime(): CapabilityRuntime {
  const runtime = new CapabilityRuntime();
  for (const { contract } of sets) {
    const answer = contract === moneyTransfer ? (input: Input) => ({ account: input.account, fee: input.amount }) : (input: unknown) => input;
    runtime.registerValidatedJsonTool(ToolPolicy.json(contract.name), ToolMetadata.of(contract.description), contract as never, (request) => answer(request.input as Input) as never);
  }
  return runtime;
}

/** Whether JSON text holds a number beyond the double range (JSON.parse reads it as ±Infinity). */
const beyondDoubles = (text: string): boolean => /Infinity/.test(JSON.stringify(JSON.parse(text, (_, value: unknown) => (value === Infinity || value === -Infinity ? 'Infinity' : value))));

describe.each(revisions)('callJson and tools/call through mcpHttpHandler agree on every value, at %s', (revision) => {
  const runtime = echoRuntime();
  const handler = mcpHttpHandler(runtime, { serverInfo: { name: 'differential', version: '1' } });
  const talk = conversation(handler, revision);

  it.each(sets.map((set) => [set.label, set] as const))('%s', async (_, set) => {
    for (const { tool, argumentsText } of set.cases) {
      const expected = runtime.callJson(tool, argumentsText);
      const text = await callText(await talk, tool, argumentsText);
      const result = resultOf(text);
      const answered = { arguments: argumentsText, isError: result['isError'], text: firstText(result) };
      if (!expected.ok) {
        expect(answered).toEqual({ arguments: argumentsText, isError: true, text: `${expected.error.code}: ${expected.error.message}` });
      } else if (beyondDoubles(expected.output)) {
        // No double holds the output, and an MCP client reads structuredContent as doubles: an error result says so, as on every MCP path.
        expect(answered).toEqual({ arguments: argumentsText, isError: true, text: expect.stringMatching(/^invalid_output: the output of .* holds a number beyond the range of a 64-bit float/) as unknown });
      } else {
        // The output's digits in the response's text: the text block and structuredContent alike.
        expect({ ...answered, structuredContent: stringifyJson(result['structuredContent']) }).toEqual({ arguments: argumentsText, isError: undefined, text: expected.output, structuredContent: expected.output });
        expect(text).toContain(`"structuredContent":${expected.output}`);
      }
    }
  });
});

describe('mcpHttpHandler reads the arguments of an exact-mode tool losslessly', () => {
  it.each(revisions)("hands the handler the client's digits, at %s", async (revision) => {
    const { runtime, seen } = transfers();
    const handler = mcpHttpHandler(runtime, { serverInfo: { name: 'bank', version: '1' } });
    const talk = await conversation(handler, revision);
    const accepted = resultOf(await callText(talk, 'money.transfer', '{"account": 18446744073709551615, "amount": 0.30000000000000000001}'));
    expect(firstText(accepted)).toBe('{"account":18446744073709551615,"fee":0}');
    expect(seen).toEqual([{ account: 18446744073709551615n, amount: new JsonNumber('0.30000000000000000001') }]);
    const refused = resultOf(await callText(talk, 'money.transfer', '{"account": 18446744073709551616, "amount": 0.30000000000000000002}'));
    expect(firstText(refused)).toBe('invalid_input: input for "money.transfer" does not match its contract: /account: must be <= 18446744073709551615, is 18446744073709551616; /amount: must be <= 0.30000000000000000001, is 0.30000000000000000002');
    handler.close();
  });

  it('reads only the arguments again: a body nesting deeper than the envelope allows is refused, not judged as doubles', async () => {
    const runtime = new CapabilityRuntime({ envelope: { maxDepth: 10 } });
    runtime.registerValidatedJsonTool(ToolPolicy.json('money.transfer'), ToolMetadata.of('Transfers money.'), moneyTransfer as never, () => ({ account: 1, fee: 0 }));
    const handler = mcpHttpHandler(runtime, { serverInfo: { name: 'bank', version: '1' } });
    const talk = await conversation(handler, '2026-07-28');
    const deep = `${'{"a":'.repeat(20)}1${'}'.repeat(20)}`;
    const meta = `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"deep":${deep}}`;
    const refused = JSON.parse(await talk.request('tools/call', `{"name":"money.transfer","arguments":{"account":1,"amount":0.25}${meta}}`, 'money.transfer')) as Record<string, unknown>;
    expect(refused).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32600, message: "the request body nests deeper than the 10 levels the tool's arguments may take" } });
    // Arguments that nest too deep are the envelope's to refuse, as for a tool of either mode.
    const tooDeep = resultOf(await callText(talk, 'money.transfer', `{"account":1,"amount":0.25,"x":${deep}}`));
    expect(firstText(tooDeep)).toMatch(/^invalid_envelope: input for "money.transfer" is not a plain JSON object or array: /);
    handler.close();
  });

  it("keeps the digits through a 2026-07-28 retry: the requestState is bound to the arguments as read, and the retry's are read alike", async () => {
    const runtime = new CapabilityRuntime();
    const seen: unknown[] = [];
    runtime.registerValidatedJsonTool(ToolPolicy.json('money.transfer'), ToolMetadata.of('Transfers money.'), moneyTransfer as never, async (request) => {
      const confirm = await mcpElicit(request, { key: 'confirm', message: 'Transfer?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] }, validator: moneyTransferConfirmation });
      seen.push(request.input);
      return { account: (request.input as Input).account, fee: confirm.status === 'accepted' ? new JsonNumber('0.10000000000000000001') : 0 };
    });
    const handler = mcpHttpHandler(runtime, { serverInfo: { name: 'bank', version: '1' }, requestState: { key: 'a key of at least thirty-two bytes' } });
    const talk = await conversation(handler, '2026-07-28');
    const args = '{"account": 18446744073709551615, "amount": 0.30000000000000000001}';
    const capabilities = { ...modernMeta, 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } };
    const ask = (more: string) => talk.request('tools/call', `{"name":"money.transfer","arguments":${args}${more},"_meta":${JSON.stringify(capabilities)}}`, 'money.transfer');
    const first = resultOf(await ask(''));
    expect(first).toMatchObject({ resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create' } } });
    const retry = resultOf(await ask(`,"inputResponses":{"confirm":{"action":"accept","content":{"ok":true}}},"requestState":${JSON.stringify(first['requestState'])}`));
    expect(firstText(retry)).toBe('{"account":18446744073709551615,"fee":0.10000000000000000001}');
    expect(seen).toEqual([{ account: 18446744073709551615n, amount: new JsonNumber('0.30000000000000000001') }]);
    handler.close();
  });
});

describe('mcpHttpHandler serves an exact-mode tool as an MCP task', () => {
  it('reads the arguments losslessly and answers tasks/get with the digits of the output', async () => {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    const seen: unknown[] = [];
    const runtime = new CapabilityRuntime();
    runtime.registerValidatedJsonTool(ToolPolicy.json('money.transfer'), ToolMetadata.of('Transfers money.'), moneyTransfer as never, async (request) => {
      seen.push(request.input);
      await opened;
      return { account: (request.input as Input).account, fee: new JsonNumber('0.10000000000000000001') };
    });
    const handler = mcpHttpHandler(runtime, { serverInfo: { name: 'bank', version: '1' }, requestState: { key: 'a key of at least thirty-two bytes' }, tasks: { tools: { 'money.transfer': 'required' } } });
    const talk = await conversation(handler, '2026-07-28');
    const meta = JSON.stringify({ ...modernMeta, 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } });
    const created = resultOf(await talk.request('tools/call', `{"name":"money.transfer","arguments":{"account":18446744073709551615,"amount":0.30000000000000000001},"_meta":${meta}}`, 'money.transfer'));
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    open();
    let text = '';
    for (let status = 'working'; status === 'working'; status = resultOf(text)['status'] as string) {
      text = await talk.request('tasks/get', `{"taskId":${JSON.stringify(created['taskId'])},"_meta":${meta}}`, created['taskId'] as string);
    }
    expect(resultOf(text)).toMatchObject({ status: 'completed' });
    expect(text).toContain('"structuredContent":{"account":18446744073709551615,"fee":0.10000000000000000001}');
    expect(seen).toEqual([{ account: 18446744073709551615n, amount: new JsonNumber('0.30000000000000000001') }]);
    handler.close();
  });
});

/** What the elicitation answers: `{ ok }`. */
const moneyTransferConfirmation = {
  '~standard': {
    version: 1 as const,
    vendor: 'test',
    validate: (value: unknown) => (typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean' ? { value: value as { ok: boolean } } : { issues: [{ message: 'needs ok' }] }),
  },
};

// ---- providers and the AI SDK: text read exactly, parsed objects arrive as doubles

describe('providers and the AI SDK', () => {
  const atBounds = '{"account":18446744073709551615,"amount":0.30000000000000000001}';
  const pastBounds = '{"account":18446744073709551616,"amount":0.30000000000000000002}';

  it.each([
    [
      'OpenAI Chat',
      (runtime: CapabilityRuntime, args: string) =>
        openAiChatTools(runtime)
          .call({ id: 'c', function: { name: 'money_transfer', arguments: args } })
          .then((message) => message.content),
    ],
    [
      'OpenAI Responses',
      (runtime: CapabilityRuntime, args: string) =>
        openAiResponsesTools(runtime)
          .call({ call_id: 'c', name: 'money_transfer', arguments: args })
          .then((item) => item.output),
    ],
  ])("%s: the model's argument text is read losslessly, as callJson reads it", async (_, call) => {
    const { runtime, seen } = transfers();
    expect(await call(runtime, atBounds)).toBe('{"account":18446744073709551615,"fee":0}');
    expect(await call(runtime, pastBounds)).toBe('invalid_input: input for "money.transfer" does not match its contract: /account: must be <= 18446744073709551615, is 18446744073709551616; /amount: must be <= 0.30000000000000000001, is 0.30000000000000000002');
    expect(seen).toEqual([{ account: 18446744073709551615n, amount: new JsonNumber('0.30000000000000000001') }]);
  });

  it.each([
    [
      'Anthropic (its SDK parsed tool_use.input)',
      (runtime: CapabilityRuntime, args: unknown) =>
        anthropicTools(runtime)
          .call({ id: 't', name: 'money_transfer', input: args })
          .then((block) => block.content),
    ],
    [
      'Gemini (its SDK parsed functionCall.args)',
      (runtime: CapabilityRuntime, args: unknown) =>
        geminiTools(runtime)
          .call({ name: 'money.transfer', args: args as Record<string, unknown> })
          .then((part) => JSON.stringify(part.functionResponse.response)),
    ],
  ])('%s: the numbers arrived as doubles, and the contract judges those', async (_, call) => {
    const { runtime, seen } = transfers();
    // What JSON.parse made of the model's text: 2^64 (read as 18446744073709552000) and 0.3.
    const parsed = JSON.parse(pastBounds) as unknown;
    expect(await call(runtime, parsed)).toContain('/account: must be <= 18446744073709551615, is 18446744073709552000');
    expect(await call(runtime, { ...(parsed as object), account: 1 })).toContain('"fee":0');
    expect(seen).toEqual([{ account: 1, amount: 0.3 }]);
  });

  it("the AI SDK parses the model's tool input itself: the numbers arrive as doubles", async () => {
    const { runtime, seen } = transfers();
    const model = new MockLanguageModelV3({
      doGenerate: async (options) =>
        options.prompt.some((message) => message.role === 'tool')
          ? { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] }
          : { content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'money_transfer', input: '{"account":7,"amount":0.30000000000000000002}' }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] },
    });
    const result = await generateText({ model, tools: toAiSdkTools(runtime), prompt: 'go', stopWhen: stepCountIs(2) });
    expect(result.steps[0]!.content.find((part) => part.type === 'tool-result')).toMatchObject({ output: { account: 7, fee: 0 } });
    expect(seen).toEqual([{ account: 7, amount: 0.3 }]);
  });
});
