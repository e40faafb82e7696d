import type Anthropic from '@anthropic-ai/sdk';
import type { FunctionCall, FunctionDeclaration, Part, Tool as GeminiTool } from '@google/genai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readFileSync } from 'node:fs';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { mathAdd, notesSearch } from '../../../../examples/generated/index.js';
import { discoverContracts } from '../../../../src/contract/discover.js';
import { anthropicStrictProjection, openAiStrictProjection, restoreOptionalNulls } from '../../src/targets/projections.js';
import { anthropicTools, geminiTools, openAiChatTools, openAiResponsesTools, providerToolCall, ProviderToolError, type ProviderToolCall } from '../../src/providers/provider-tools.js';
import { portableName, toolNames } from '../../src/targets/tool-names.js';
import { CapabilityRuntime, JsonNumber, ToolMetadata, ToolPolicy } from '../../src/index.js';
import { compileContracts } from '../../../../src/compiler.js';
import { compileContract } from '../../../../test/support/load-module.js';

type Json = Record<string, unknown>;

function runtime(): CapabilityRuntime {
  const rt = new CapabilityRuntime();
  rt.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, ({ left, right }) => ({ total: left + right }));
  rt.registerTypedJsonTool(ToolPolicy.json('notes.search'), notesSearch, ({ query }) => ({ hits: [{ id: query, score: 1 }] }));
  return rt;
}

describe("a handler sees the provider's own tool call", () => {
  it('for each adapter, and nothing for a direct call', async () => {
    const seen: (ProviderToolCall | undefined)[] = [];
    const rt = new CapabilityRuntime();
    rt.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, ({ left, right }, request) => {
      seen.push(providerToolCall(request));
      return { total: left + right };
    });
    const args = { left: 1, right: 2 };
    const chatCall = { id: 'c1', function: { name: 'math_add', arguments: JSON.stringify(args) } };
    const responsesCall = { call_id: 'c2', name: 'math_add', arguments: JSON.stringify(args) };
    const anthropicCall = { id: 'c3', name: 'math_add', input: args };
    const geminiCall = { id: 'c4', name: 'math.add', args };
    await openAiChatTools(rt).call(chatCall);
    await openAiResponsesTools(rt).call(responsesCall);
    await anthropicTools(rt).call(anthropicCall);
    await geminiTools(rt).call(geminiCall);
    rt.call('math.add', args, { context: { provider: 'gemini', call: geminiCall } });
    expect(seen).toEqual([{ provider: 'openai-chat', call: chatCall }, { provider: 'openai-responses', call: responsesCall }, { provider: 'anthropic', call: anthropicCall }, { provider: 'gemini', call: geminiCall }, undefined]);
  });
});

describe("definitions fit each SDK's request types (checked by tsc) and carry the contract", () => {
  it('OpenAI Chat Completions and Responses', async () => {
    // notes.search has an optional property that may be null: it cannot be strict, so it is offered without.
    const chat = openAiChatTools(runtime(), { strict: 'when-possible' });
    const chatTools: OpenAI.Chat.ChatCompletionTool[] = chat.tools;
    expect(chatTools.map((t) => (t as OpenAI.Chat.ChatCompletionFunctionTool).function.name)).toEqual(['math_add', 'notes_search']);
    const toolCall: OpenAI.Chat.ChatCompletionMessageFunctionToolCall = { id: 'c1', type: 'function', function: { name: 'math_add', arguments: '{"left":2,"right":3}' } };
    const answer: OpenAI.Chat.ChatCompletionToolMessageParam = await chat.call(toolCall);
    expect(answer).toEqual({ role: 'tool', tool_call_id: 'c1', content: '{"total":5}' });
    const responses = openAiResponsesTools(runtime(), { strict: 'when-possible' });
    expect(responses.tools.map((t) => t.strict)).toEqual([true, false]);
    const responseTools: OpenAI.Responses.FunctionTool[] = responses.tools;
    expect(responseTools[0]).toMatchObject({ type: 'function', name: 'math_add', strict: true, parameters: { additionalProperties: false, required: ['left', 'right'] } });
    const item: OpenAI.Responses.ResponseFunctionToolCall = { type: 'function_call', call_id: 'c2', name: 'math_add', arguments: '{"left":1,"right":"x"}' };
    const output: OpenAI.Responses.ResponseInputItem.FunctionCallOutput = await responses.call(item);
    expect(output).toEqual({ type: 'function_call_output', call_id: 'c2', output: 'invalid_input: input for "math.add" does not match its contract: /right: must be an integer, got string' });
  });

  it('an enum without "type" is offered strict, its members as they are, and --target openai-strict agrees', () => {
    const text = JSON.stringify({
      name: 'modes.set',
      description: 'Sets a mode.',
      input: { type: 'object', properties: { mode: { enum: ['fast', 1, null] } }, required: ['mode'], additionalProperties: false },
      output: { type: 'object' },
    });
    const rt = new CapabilityRuntime();
    rt.registerValidatedJsonTool(ToolPolicy.json('modes.set'), ToolMetadata.of('Sets a mode.'), compileContract(text) as never, () => ({}));
    expect(openAiChatTools(rt).tools[0]!.function).toMatchObject({ strict: true, parameters: { properties: { mode: { enum: ['fast', 1, null] } } } });
    const { diagnostics } = compileContracts([{ file: 'modes.set.contract.json', text }], { targets: ['openai-strict'] });
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it("OpenAI Chat: call takes the SDK's tool-call union as it is, and answers a custom tool call as not its own", async () => {
    const chat = openAiChatTools(runtime(), { strict: 'when-possible' });
    const calls: OpenAI.Chat.ChatCompletionMessageToolCall[] = [
      { id: 'c1', type: 'function', function: { name: 'math_add', arguments: '{"left":2,"right":3}' } },
      { id: 'c2', type: 'custom', custom: { name: 'grammar_tool', input: 'x' } },
    ];
    const answers: OpenAI.Chat.ChatCompletionToolMessageParam[] = await Promise.all(calls.map((toolCall) => chat.call(toolCall)));
    expect(answers).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: '{"total":5}' },
      { role: 'tool', tool_call_id: 'c2', content: 'unknown_tool: "grammar_tool" is a custom tool; these are function tools: math_add, notes_search' },
    ]);
  });

  it('Anthropic Messages', async () => {
    // notes.search holds an open object (filters), which Anthropic strict cannot express.
    const anthropic = anthropicTools(runtime(), { strict: 'when-possible' });
    const tools: Anthropic.Messages.Tool[] = anthropic.tools;
    expect(tools.map((t) => [t.name, t.strict])).toEqual([
      ['math_add', true],
      ['notes_search', false],
    ]);
    expect(tools[0]).toMatchObject({ input_schema: { type: 'object', additionalProperties: false, required: ['left', 'right'] } });
    const block: Anthropic.Messages.ToolUseBlock = { type: 'tool_use', id: 't1', name: 'notes_search', input: { query: 'milk' }, caller: { type: 'direct' } };
    const result: Anthropic.Messages.ToolResultBlockParam = await anthropic.call(block);
    expect(result).toEqual({ type: 'tool_result', tool_use_id: 't1', content: '{"hits":[{"id":"milk","score":1}]}' });
    expect(await anthropic.call({ id: 't2', name: 'notes.search', input: {} })).toMatchObject({ is_error: true, content: 'unknown_tool: no tool named "notes.search"; available: math_add, notes_search' });
  });

  it('Gemini functionDeclarations with parametersJsonSchema', async () => {
    const gemini = geminiTools(runtime());
    const tools: GeminiTool[] = gemini.tools;
    const declarations: FunctionDeclaration[] = tools[0]!.functionDeclarations!;
    expect(declarations.map((d) => d.name)).toEqual(['math.add', 'notes.search']);
    expect(declarations[0]!.parametersJsonSchema).toEqual(mathAdd.inputSchema);
    const call: FunctionCall = { id: 'f1', name: 'math.add', args: { left: 4, right: 5 } };
    const part: Part = await gemini.call(call);
    expect(part).toEqual({ functionResponse: { id: 'f1', name: 'math.add', response: { output: { total: 9 } } } });
    expect(await gemini.call({ name: 'math.add', args: { left: 4 } })).toMatchObject({ functionResponse: { response: { error: expect.stringMatching(/^invalid_input: /) as unknown } } });
  });
});

describe('exact-mode numbers through the providers', () => {
  const ledger = compileContract(
    JSON.stringify({
      name: 'ledger.entry',
      description: 'Books an entry.',
      input: { type: 'object', properties: { id: { type: 'integer' }, share: { type: 'number', maximum: 0.3 } }, required: ['id', 'share'], additionalProperties: false },
      output: { type: 'object', properties: { id: { type: 'integer' }, share: { type: 'number' } }, required: ['id', 'share'], additionalProperties: false },
    }),
    'ledger.entry.contract.json',
    { exactNumbers: true },
  );

  function ledgerRuntime(seen: unknown[]): CapabilityRuntime {
    const rt = new CapabilityRuntime();
    rt.registerValidatedJsonTool(ToolPolicy.json('ledger.entry'), ToolMetadata.of('Books.'), ledger as never, (request) => (seen.push(request.input), request.input as never));
    return rt;
  }

  it.each([
    [
      'Chat Completions',
      (rt: CapabilityRuntime, args: string) =>
        openAiChatTools(rt)
          .call({ id: 'c', function: { name: 'ledger_entry', arguments: args } })
          .then((m) => m.content),
    ],
    [
      'Responses',
      (rt: CapabilityRuntime, args: string) =>
        openAiResponsesTools(rt)
          .call({ call_id: 'c', name: 'ledger_entry', arguments: args })
          .then((m) => m.output),
    ],
    [
      'Anthropic, given the raw input text',
      (rt: CapabilityRuntime, args: string) =>
        anthropicTools(rt)
          .call({ id: 't', name: 'ledger_entry', input: args })
          .then((m) => m.content),
    ],
  ])('%s parses the arguments as the contract reads numbers: every digit reaches the handler and the bounds', async (_, call) => {
    const seen: unknown[] = [];
    const rt = ledgerRuntime(seen);
    expect(await call(rt, '{"id":1234567890123456789,"share":0.29999999999999999999}')).toBe('{"id":1234567890123456789,"share":0.29999999999999999999}');
    expect(seen).toEqual([{ id: 1234567890123456789n, share: new JsonNumber('0.29999999999999999999') }]);
    expect(await call(rt, '{"id":1,"share":0.30000000000000000001}')).toBe('invalid_input: input for "ledger.entry" does not match its contract: /share: must be <= 0.3, is 0.30000000000000000001');
    expect(seen).toHaveLength(1);
  });

  it.each([true, false])("reads arguments within the runtime's own envelope limits, as callJson does (exact numbers: %s): hostile text stops at the limit", async (exactNumbers) => {
    const anything = compileContract(JSON.stringify({ name: 'tree.store', description: 'Stores a tree.', input: { type: 'object' }, output: { type: 'object' } }), 'tree.store.contract.json', { exactNumbers });
    const rt = new CapabilityRuntime({ envelope: { maxDepth: 40, maxNodes: 1000 } });
    rt.registerValidatedJsonTool(ToolPolicy.json('tree.store'), ToolMetadata.of('Stores.'), anything as never, () => ({ stored: true }));
    const tools = openAiChatTools(rt, { strict: false });
    const call = (args: string) => tools.call({ id: 'c', function: { name: 'tree_store', arguments: args } }).then((m) => m.content);
    const deep = `${'{"a":'.repeat(45)}1${'}'.repeat(45)}`;
    const wide = `{"a":[${Array.from({ length: 2000 }, (_, i) => i).join(',')}]}`;
    for (const args of [deep, wide]) {
      const viaCallJson = rt.callJson('tree.store', args);
      expect(viaCallJson).toMatchObject({ ok: false, error: { code: 'invalid_json' } });
      expect(await call(args)).toBe(`invalid_json: the tool arguments are not valid JSON: ${/is not valid JSON: (.*)$/.exec((viaCallJson as { error: Error }).error.message)![1]}`);
    }
    expect(await call(`${'{"a":'.repeat(30)}1${'}'.repeat(30)}`)).toBe('{"stored":true}');
  });

  it('Gemini answers an output with a number no double holds as its JSON text, every digit kept; others as a value', async () => {
    const gemini = geminiTools(ledgerRuntime([]));
    expect(await gemini.call({ id: 'f', name: 'ledger.entry', args: { id: 1, share: 0.25 } })).toEqual({ functionResponse: { id: 'f', name: 'ledger.entry', response: { output: { id: 1, share: 0.25 } } } });
    expect(await geminiAnswering({ id: 1234567890123456789n, share: new JsonNumber('1e-400') })).toEqual({ functionResponse: { name: 'ledger.entry', response: { output: '{"id":1234567890123456789,"share":1e-400}' } } });
    // A bigint whose double JSON.stringify writes with its own digits (2^53) is sent as that number: the host could not serialise a bigint.
    expect(await geminiAnswering({ id: 2n ** 53n, share: 0.25 })).toEqual({ functionResponse: { name: 'ledger.entry', response: { output: { id: 2 ** 53, share: 0.25 } } } });
    // 2^60 is a double too, but JSON.stringify writes it 1152921504606847000: the model would read another id.
    expect(await geminiAnswering({ id: 2n ** 60n, share: 0.25 })).toEqual({ functionResponse: { name: 'ledger.entry', response: { output: '{"id":1152921504606846976,"share":0.25}' } } });
  });

  /** A tool answering with exact-mode values, as a handler may build them. */
  async function geminiAnswering(output: unknown) {
    const rt = new CapabilityRuntime();
    rt.registerValidatedJsonTool(ToolPolicy.json('ledger.entry'), ToolMetadata.of('Books.'), ledger as never, () => output as never);
    return geminiTools(rt).call({ name: 'ledger.entry', args: { id: 1, share: 0.25 } });
  }

  it('Gemini names the problem of a call without a name instead of a tool called "undefined"', async () => {
    expect(await geminiTools(runtime()).call({ args: {} })).toEqual({ functionResponse: { name: '', response: { error: 'unknown_tool: the call names no tool; available: math.add, notes.search' } } });
  });
});

describe('OpenAI strict: optional → required and nullable for the model, null → absent for the contract', () => {
  const corpus = discoverContracts(['fixtures/corpus']).map((file) => ({
    contract: JSON.parse(readFileSync(file, 'utf8')) as { name: string; input: Json },
    samples: (JSON.parse(readFileSync(file.replace('.contract.json', '.samples.json'), 'utf8')) as { input: { valid: unknown[] } }).input.valid,
  }));
  const ajv = new Ajv2020({ strict: false });

  /** What a strict model sends: every optional property it leaves out, as null. */
  function asStrictModelSends(value: unknown, schema: Json): unknown {
    if (Array.isArray(value)) return schema['items'] === undefined ? value : value.map((v) => asStrictModelSends(v, schema['items'] as Json));
    if (typeof value !== 'object' || value === null || schema['type'] !== 'object') return value;
    const properties = (schema['properties'] ?? {}) as Record<string, Json>;
    const result: Json = {};
    for (const [key, child] of Object.entries(properties)) {
      const member = (value as Json)[key];
      Object.defineProperty(result, key, { value: Object.hasOwn(value, key) ? asStrictModelSends(member, child) : null, enumerable: true, writable: true, configurable: true });
    }
    return result;
  }

  it.each(corpus.map((c) => [c.contract.name, c] as const))('%s', (_, { contract, samples }) => {
    const projection = openAiStrictProjection(contract.input);
    if (!projection.ok) {
      // Written down: these corpus inputs hold an open object somewhere, which strict mode cannot express.
      expect(projection.problem).toMatch(/needs every object closed/);
      expect(['brave.web_search', 'browser.resize', 'fetch.fetch', 'git.log', 'github.actions_list', 'github.get_pull_request', 'github.list_issues', 'github.search_repositories', 'jira.create_issue', 'k8s.apply_deployment']).toContain(contract.name);
      return;
    }
    const validProjected = ajv.compile(projection.schema);
    const loaded = compileContract(JSON.stringify({ ...contract, output: {} }));
    for (const sample of samples) {
      const sent = asStrictModelSends(sample, contract.input);
      expect(validProjected(sent)).toBe(true);
      const restored = restoreOptionalNulls(sent, contract.input);
      expect(restored).toEqual(sample);
      expect(loaded.input.is(restored)).toBe(true);
    }
  });

  it('refuses an open object unless asked to fall back, naming the tool and the place', () => {
    const open = compileContract(JSON.stringify({ name: 'notes.tag', description: 'D.', input: { type: 'object', properties: { meta: { type: 'object' } }, additionalProperties: false }, output: {} }));
    const rt = new CapabilityRuntime();
    rt.registerValidatedJsonTool(ToolPolicy.json('notes.tag'), ToolMetadata.of('Tags.'), open as never, () => ({}));
    expect(() => openAiChatTools(rt)).toThrow(ProviderToolError);
    expect(() => openAiChatTools(rt)).toThrow(/tool "notes.tag" cannot be strict: .*at \/properties\/meta of its input schema/);
    expect(openAiChatTools(rt, { strict: 'when-possible' }).tools[0]!.function.strict).toBe(false);
    expect(openAiChatTools(rt, { strict: false }).tools[0]!.function.parameters).toEqual(open.inputSchema);
  });

  it('restores nulls end to end through call()', async () => {
    const optional = compileContract(JSON.stringify({ name: 'notes.find', description: 'D.', input: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } }, required: ['query'], additionalProperties: false }, output: {} }));
    const rt = new CapabilityRuntime();
    const seen: unknown[] = [];
    rt.registerValidatedJsonTool(ToolPolicy.json('notes.find'), ToolMetadata.of('Finds.'), optional as never, (request) => (seen.push(request.input), {}));
    const openai = openAiChatTools(rt);
    expect(openai.tools[0]!.function.parameters).toMatchObject({ required: ['query', 'limit'], properties: { limit: { type: ['integer', 'null'] } } });
    await openai.call({ id: 'c', function: { name: 'notes_find', arguments: '{"query":"x","limit":null}' } });
    expect(seen).toEqual([{ query: 'x' }]);
  });
});

describe('portable names', () => {
  it('map every corpus contract reversibly to ^[a-zA-Z0-9_-]{1,64}$', () => {
    const names = discoverContracts(['fixtures/corpus', 'fixtures/valid']).map((file) => (JSON.parse(readFileSync(file, 'utf8')) as { name: string }).name);
    const mapping = toolNames(names, 'portable');
    for (const name of names) {
      expect(mapping.toHost(name)).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(mapping.toHost(name)).toBe(portableName(name));
      expect(mapping.fromHost(mapping.toHost(name))).toBe(name);
    }
  });

  it('refuse a name over 64 characters and two names that would meet, naming the tools', () => {
    expect(() => toolNames([`a.${'b'.repeat(63)}`], 'portable')).toThrow(/tool "a\.b+" cannot be offered under a portable name: it becomes "a_b+", 65 characters; the limit is 64/);
    expect(() => toolNames(['a.b_c', 'a_b.c'], 'portable')).toThrow('tools "a.b_c" and "a_b.c" would both be offered as "a_b_c"; rename one of them');
    expect(toolNames(['a.b_c', 'a_b.c'], 'contract').toHost('a.b_c')).toBe('a.b_c');
  });
});

describe('Anthropic strict projection', () => {
  it('keeps what Anthropic enforces and moves the rest into the description, as its SDK does', () => {
    const schema = { type: 'object', properties: { name: { type: 'string', description: 'Who.', maxLength: 64 }, tags: { type: 'array', items: { type: 'string' }, minItems: 2 }, any: { type: 'array', minItems: 1 } }, required: ['name'], additionalProperties: false };
    expect(anthropicStrictProjection(schema)).toEqual({
      ok: true,
      schema: {
        type: 'object',
        properties: { name: { type: 'string', description: 'Who.\n\n{maxLength: 64}' }, tags: { type: 'array', items: { type: 'string' }, description: '{minItems: 2}' }, any: { type: 'array', minItems: 1 } },
        required: ['name'],
        additionalProperties: false,
      },
    });
  });

  it('refuses enum members that are not primitive', () => {
    expect(anthropicStrictProjection({ type: 'object', properties: { p: { enum: [{ a: 1 }] } }, additionalProperties: false })).toMatchObject({ ok: false, pointer: '/properties/p/enum' });
  });
});
