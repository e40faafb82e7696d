import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { mathAdd } from '../../../../examples/generated/index.js';
import { aiSdkCallOptions, aiSdkTool, toAiSdkTools } from '../../src/providers/ai-sdk.js';
import { CapabilityRuntime, JsonNumber, ToolMetadata, ToolPolicy, type CallRecord } from '../../src/index.js';
import { compileContract } from '../../../../test/support/load-module.js';

/**
 * `generateText` of AI SDK 6 with its own mock model: the model calls a tool once with the given
 * arguments, then answers in text. What the SDK sent the model and what it got back are checked.
 */
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

function modelCalling(toolName: string, input: unknown) {
  const seen: { tools?: unknown; prompt: unknown }[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      seen.push({ tools: options.tools, prompt: options.prompt });
      if (seen.length === 1) {
        return { content: [{ type: 'tool-call', toolCallId: 'c1', toolName, input: typeof input === 'string' ? input : JSON.stringify(input) }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
      }
      return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
    },
  });
  return { model, seen };
}

const openEcho = compileContract(
  JSON.stringify({
    name: 'notes.tag',
    description: 'Tags a note.',
    input: { type: 'object', properties: { id: { type: 'string' }, meta: { type: 'object', additionalProperties: true } }, required: ['id'], additionalProperties: true },
    output: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
  }),
);

function runtimeWith(output: (input: { left: number; right: number }) => unknown = ({ left, right }) => ({ total: left + right })) {
  const runtime = new CapabilityRuntime();
  runtime.registerValidatedJsonTool(ToolPolicy.json('math.add'), ToolMetadata.of('Adds two integers.'), mathAdd, (request) => output(request.input) as never);
  runtime.registerValidatedJsonTool(ToolPolicy.json('notes.tag'), ToolMetadata.of('Tags a note.'), openEcho as never, (request) => ({ id: (request.input as { id: string }).id }));
  return runtime;
}

async function run(runtime: CapabilityRuntime, toolName: string, input: unknown) {
  const { model, seen } = modelCalling(toolName, input);
  const result = await generateText({ model, tools: toAiSdkTools(runtime), prompt: 'go', stopWhen: stepCountIs(2) });
  return { parts: result.steps[0]!.content, seen };
}

describe('AI SDK 6: tools backed by the runtime', () => {
  it('a valid call returns the output as the tool result, under the portable name', async () => {
    const { parts } = await run(runtimeWith(), 'math_add', { left: 2, right: 3 });
    expect(parts.find((p) => p.type === 'tool-result')).toMatchObject({ toolName: 'math_add', output: { total: 5 } });
  });

  it("the handler sees the SDK's call options, and its abortSignal cancels the call", async () => {
    const records: CallRecord[] = [];
    const runtime = new CapabilityRuntime({ onRecord: (record) => records.push(record) });
    const abort = new AbortController();
    const seen: unknown[] = [];
    runtime.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, (_, request) => {
      seen.push(aiSdkCallOptions(request)?.toolCallId);
      request.signal.addEventListener('abort', () => seen.push(request.signal.reason));
      abort.abort('user left');
      return new Promise(() => undefined);
    });
    const { model } = modelCalling('math_add', { left: 1, right: 2 });
    await expect(generateText({ model, tools: toAiSdkTools(runtime), prompt: 'go', stopWhen: stepCountIs(2), abortSignal: abort.signal })).rejects.toThrow();
    expect(seen).toEqual(['c1', expect.objectContaining({ code: 'cancelled' })]);
    expect(records.map((r) => r.outcome)).toEqual(['cancelled']);
    expect(aiSdkCallOptions({ tool: 'x', callId: 'c', input: {}, signal: abort.signal, context: { toolCallId: 'forged' } })).toBeUndefined();
  });

  it('invalid arguments become a tool-error with our readable message', async () => {
    const { parts } = await run(runtimeWith(), 'math_add', { left: 2, right: '3' });
    const error = parts.find((p) => p.type === 'tool-error') as { error: Error } | undefined;
    expect(error?.error.message).toBe('invalid_input: input for "math.add" does not match its contract: /right: must be an integer, got string');
  });

  it('an output that breaks its contract becomes a tool-error, never a result', async () => {
    const { parts } = await run(
      runtimeWith(() => ({ total: 'five' })),
      'math_add',
      { left: 2, right: 3 },
    );
    expect(parts.some((p) => p.type === 'tool-result')).toBe(false);
    expect((parts.find((p) => p.type === 'tool-error') as { error: Error }).error.message).toBe('invalid_output: output of "math.add" does not match its contract: /total: must be an integer, got string');
  });

  it("shows the model the contract's schema as it is: an open object stays open", async () => {
    const { seen, parts } = await run(runtimeWith(), 'notes_tag', { id: 'n1', colour: 'red' });
    const shown = (seen[0]!.tools as { name: string; inputSchema: Record<string, unknown> }[]).find((t) => t.name === 'notes_tag')!;
    expect(shown.inputSchema).toEqual(openEcho.inputSchema);
    expect(shown.inputSchema['additionalProperties']).toBe(true);
    expect(parts.find((p) => p.type === 'tool-result')).toMatchObject({ output: { id: 'n1' } });
  });

  it.each(['toString', '__proto__', 'constructor', 'hasOwnProperty'])('a model calling %s gets a tool error and the next step, never a stop with the call unanswered', async (name) => {
    const { parts, seen } = await run(runtimeWith(), name, {});
    expect(parts.find((p) => p.type === 'tool-error')).toMatchObject({ toolName: name });
    expect(seen).toHaveLength(2);
  });

  it('gives the model every digit of an exact number the output holds: such an output goes as its JSON text', async () => {
    const exactEcho = compileContract(JSON.stringify({ name: 'ledger.echo', description: 'Echoes.', input: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] }, output: { type: 'object', properties: { id: { type: 'integer' }, share: { type: 'number' } } } }), 'ledger.echo.contract.json', {
      exactNumbers: true,
    });
    const runtime = new CapabilityRuntime();
    const outputs = [
      { id: 1234567890123456789n, share: new JsonNumber('1e400') },
      { id: 7, share: 0.5 },
    ];
    runtime.registerValidatedJsonTool(ToolPolicy.json('ledger.echo'), ToolMetadata.of('Echoes.'), exactEcho as never, () => outputs.shift() as never);
    const exact = await run(runtime, 'ledger_echo', { id: 1 });
    expect(exact.parts.find((p) => p.type === 'tool-result')).toMatchObject({ output: '{"id":1234567890123456789,"share":1e400}' });
    expect(JSON.stringify(exact.seen[1]!.prompt)).toContain(String.raw`{\"id\":1234567890123456789,\"share\":1e400}`);
    // An output whose numbers are all doubles stays a value.
    expect((await run(runtime, 'ledger_echo', { id: 1 })).parts.find((p) => p.type === 'tool-result')).toMatchObject({ output: { id: 7, share: 0.5 } });
  });

  it('is typed per contract with aiSdkTool, and keeps contract names when asked', () => {
    const runtime = runtimeWith();
    const typed = aiSdkTool(runtime, mathAdd);
    expect(typed.description).toBe('Adds two integers.');
    expect(Object.keys(toAiSdkTools(runtime, { names: 'contract' }))).toEqual(['math.add', 'notes.tag']);
    expect(() => aiSdkTool(new CapabilityRuntime(), mathAdd)).toThrow(/not registered/);
  });
});
