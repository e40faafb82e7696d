import { Agent, ModelBehaviorError, Runner, Usage, type Model, type ModelRequest, type ModelResponse } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { mathAdd } from '../../../../examples/generated/index.js';
import { openAiAgentsTools } from '../../src/providers/openai-agents.js';
import { CapabilityRuntime, ToolMetadata, ToolPolicy } from '../../src/index.js';
import { compileContract } from '../../../../test/support/load-module.js';

/**
 * The OpenAI Agents SDK's own `Runner` with a scripted model (no network): the model calls one tool
 * with the argument text given, then ends; what the SDK offered the model and the tool output it
 * handed back to the model are checked.
 */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  constructor(
    private readonly toolName: string,
    private readonly argumentText: string,
  ) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    if (this.requests.length === 1) {
      return { usage: new Usage(), output: [{ type: 'function_call', callId: 'call-1', name: this.toolName, arguments: this.argumentText, status: 'completed' }] };
    }
    return { usage: new Usage(), output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done' }] }] };
  }

  // biome-ignore lint/correctness/useYield: the runner never streams here
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not streamed in these tests');
  }

  /** The tool output the runner handed back to the model on its second turn. */
  toolOutput(): unknown {
    const input = this.requests[1]?.input;
    const item = Array.isArray(input) ? input.find((entry) => (entry as { type?: string }).type === 'function_call_result') : undefined;
    const output = (item as { output?: unknown } | undefined)?.output;
    return typeof output === 'object' && output !== null && 'text' in output ? (output as { text: string }).text : output;
  }
}

const openTag = compileContract(
  JSON.stringify({
    name: 'notes.tag',
    description: 'Tags a note.',
    input: { type: 'object', properties: { id: { type: 'string' }, meta: { type: 'object' } }, required: ['id'] },
    output: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
  }),
);

const exactId = compileContract(
  JSON.stringify({
    name: 'records.get',
    description: 'Reads a record by a 64-bit id.',
    input: { type: 'object', properties: { id: { type: 'integer', minimum: 1 }, weight: { type: 'number', maximum: 0.3 } }, required: ['id'], additionalProperties: false },
    output: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
  }),
  'records.get.contract.json',
  { exactNumbers: true },
);

function runtimeWith(total: (left: number, right: number) => unknown = (left, right) => left + right) {
  const runtime = new CapabilityRuntime();
  runtime.registerValidatedJsonTool(ToolPolicy.json('math.add'), ToolMetadata.of('Adds two integers.'), mathAdd, (request) => ({ total: total(request.input.left, request.input.right) }) as never);
  runtime.registerValidatedJsonTool(ToolPolicy.json('notes.tag'), ToolMetadata.of('Tags a note.'), openTag as never, (request) => ({ id: (request.input as { id: string }).id }));
  runtime.registerValidatedJsonTool(ToolPolicy.json('records.get'), ToolMetadata.of('Reads a record.'), exactId as never, (request) => ({ id: String((request.input as { id: unknown }).id) }));
  return runtime;
}

async function runAgent(runtime: CapabilityRuntime, toolName: string, argumentText: string, config: ConstructorParameters<typeof Runner>[0] = {}) {
  const model = new ScriptedModel(toolName, argumentText);
  const agent = new Agent({ name: 'calculator', instructions: 'Use the tools.', model, tools: openAiAgentsTools(runtime) });
  const result = await new Runner({ tracingDisabled: true, ...config }).run(agent, 'go');
  return { model, result };
}

describe('@openai/agents: tools backed by the runtime', () => {
  it('offers every tool under its portable name, strict only where strict mode can express it', async () => {
    const { model } = await runAgent(runtimeWith(), 'math_add', '{"left":2,"right":3}');
    const offered = model.requests[0]!.tools.map((t) => ({ name: t.name, strict: (t as { strict?: boolean }).strict }));
    expect(offered).toEqual([
      { name: 'math_add', strict: true },
      { name: 'notes_tag', strict: false },
      { name: 'records_get', strict: true },
    ]);
  });

  it('a valid call hands the model the validated output', async () => {
    const { model, result } = await runAgent(runtimeWith(), 'math_add', '{"left":2,"right":3}');
    expect(model.toolOutput()).toBe('{"total":5}');
    expect(result.finalOutput).toBe('done');
  });

  it('invalid arguments reach the model as our readable message, not a generic one', async () => {
    const { model } = await runAgent(runtimeWith(), 'math_add', '{"left":2,"right":"3"}');
    expect(model.toolOutput()).toBe('invalid_input: input for "math.add" does not match its contract: /right: must be an integer, got string');
  });

  it('an output that breaks its contract never reaches the model', async () => {
    const { model } = await runAgent(
      runtimeWith(() => 'five'),
      'math_add',
      '{"left":2,"right":3}',
    );
    expect(model.toolOutput()).toMatch(/^invalid_output: output of "math\.add" does not match its contract: \/total: must be an integer/);
    expect(String(model.toolOutput())).not.toContain('five');
  });

  it('an open object is offered without strict and accepts what its contract accepts', async () => {
    const { model } = await runAgent(runtimeWith(), 'notes_tag', '{"id":"n1","meta":{"any":1}}');
    expect(model.toolOutput()).toBe('{"id":"n1"}');
  });

  it('a tool the agent lacks is refused by the SDK before the adapter sees it: ModelBehaviorError, or its own text to the model when asked', async () => {
    const runtime = runtimeWith();
    await expect(runAgent(runtime, 'math_sub', '{}')).rejects.toThrow(new ModelBehaviorError('Tool math_sub not found in agent calculator.'));
    const { model } = await runAgent(runtime, 'math_sub', '{}', { toolNotFoundBehavior: 'return_error_to_model' });
    expect(model.toolOutput()).toMatch(/math_sub/);
    expect(String(model.toolOutput())).not.toMatch(/unknown_tool/);
    expect(runtime.records()).toEqual([]);
  });

  it("exact-mode numbers are read from the model's own text, every digit kept", async () => {
    const { model } = await runAgent(runtimeWith(), 'records_get', '{"id":1234567890123456789,"weight":0.30000000000000000001}');
    expect(model.toolOutput()).toBe('invalid_input: input for "records.get" does not match its contract: /weight: must be <= 0.3, is 0.30000000000000000001');
    const valid = await runAgent(runtimeWith(), 'records_get', '{"id":1234567890123456789}');
    expect(valid.model.toolOutput()).toBe('{"id":"1234567890123456789"}');
  });
});
