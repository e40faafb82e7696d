import type { CallResult, CapabilityRuntime, CatalogEntry, ToolRequest } from '../core/capability-runtime.js';
import { anthropicStrictProjection, openAiStrictProjection, restoreOptionalNulls, type Projection } from '../targets/projections.js';
import { describeNames } from '../core/errors.js';
import { failureText, outputText, parseArguments, shownInputSchema, valueOrExactText } from '../core/host-results.js';
import { toolNames, type NameStyle, type ToolNames } from '../targets/tool-names.js';

/**
 * Tool definitions for the model providers' own APIs, as plain data (no SDK is imported), and the
 * way back: a provider's tool call becomes a `callAsync` and its result that provider's tool-result
 * shape. The runtime validates every call against the contract, whatever the provider enforced.
 */

/** A tool whose schema a provider's strict mode cannot express, or whose name it cannot take. */
export class ProviderToolError extends Error {
  override readonly name = 'ProviderToolError';
}

type Schema = Record<string, unknown>;

/** `true`: every tool strict, refusing one that cannot be; `'when-possible'`: such a tool falls back to non-strict. */
export type StrictOption = boolean | 'when-possible';

/** One tool as a provider is shown it. */
export interface Prepared {
  readonly entry: CatalogEntry;
  readonly hostName: string;
  readonly schema: Schema;
  readonly strict: boolean;
}

/** The set's names and, per tool, the schema a provider is shown. */
function prepare(runtime: CapabilityRuntime, style: NameStyle, project: ((schema: Schema) => Projection) | undefined, strict: StrictOption, provider: string): { tools: Prepared[]; names: ToolNames } {
  const catalog = runtime.catalog();
  let names: ToolNames;
  try {
    names = toolNames(
      catalog.map((e) => e.name),
      style,
    );
  } catch (error) {
    throw new ProviderToolError(`${provider}: ${(error as Error).message}`);
  }
  const tools = catalog.map((entry): Prepared => {
    const shown = objectRoot(entry, provider);
    const hostName = names.toHost(entry.name);
    if (strict === false || project === undefined) return { entry, hostName, schema: shown, strict: false };
    const projection = project(shown);
    if (projection.ok) return { entry, hostName, schema: projection.schema, strict: true };
    if (strict === 'when-possible') return { entry, hostName, schema: shown, strict: false };
    throw new ProviderToolError(`${provider}: tool "${entry.name}" cannot be strict: ${projection.problem}${projection.pointer === '' ? '' : ` (at ${projection.pointer} of its input schema)`}; fix the contract, or pass strict: 'when-possible' to offer it without strict mode`);
  });
  return { tools, names };
}

/** Function tools take an object of arguments: a root without "type" is shown as an object, any other root is refused. */
function objectRoot(entry: CatalogEntry, provider: string): Schema {
  const schema = shownInputSchema(entry);
  if (schema['type'] === undefined) return { type: 'object', ...schema };
  if (schema['type'] !== 'object') throw new ProviderToolError(`${provider}: tool "${entry.name}" takes a ${String(schema['type'])} as input; function tools take an object of arguments`);
  return schema;
}

/**
 * Runs a model's call of `hostName` and hands back the result, or the failure as text. Under
 * OpenAI strict (`restoresNulls`) an optional property the model left out arrives as null; the
 * contract says absent, so such nulls are removed first.
 */
async function run(runtime: CapabilityRuntime, prepared: readonly Prepared[], names: ToolNames, call: ProviderToolCall, hostName: unknown, rawArguments: unknown, restoresNulls = false, signal?: AbortSignal): Promise<{ ok: boolean; text: string; output?: unknown }> {
  const name = typeof hostName === 'string' ? names.fromHost(hostName) : undefined;
  const tool = prepared.find((t) => t.entry.name === name);
  if (tool === undefined) {
    const named = typeof hostName === 'string' ? `no tool named ${JSON.stringify(hostName)}` : hostName === undefined ? 'the call names no tool' : `a tool name must be a string, got ${hostName === null ? 'null' : typeof hostName}`;
    return { ok: false, text: `unknown_tool: ${named}; available: ${describeNames(prepared.map((t) => t.hostName))}` };
  }
  const parsed = parseArguments(rawArguments, tool.entry.exactNumbers, runtime.envelopeLimits);
  if (!parsed.ok) return { ok: false, text: parsed.text };
  const input = tool.strict && restoresNulls ? restoreOptionalNulls(parsed.value, shownInputSchema(tool.entry)) : parsed.value;
  const result: CallResult = await runtime.callAsync(tool.entry.name, input, signal === undefined ? { context: new ProviderCallContext(call) } : { context: new ProviderCallContext(call), signal });
  return result.ok ? { ok: true, text: outputText(result.output), output: result.output } : { ok: false, text: failureText(result) };
}

/** The provider's own tool call a handler serves, as its adapter's `call` received it. */
export type ProviderToolCall =
  | { readonly provider: 'openai-chat'; readonly call: Parameters<OpenAiChatTools['call']>[0] }
  | { readonly provider: 'openai-responses'; readonly call: Parameters<OpenAiResponsesTools['call']>[0] }
  | { readonly provider: 'anthropic'; readonly call: Parameters<AnthropicTools['call']>[0] }
  | { readonly provider: 'gemini'; readonly call: Parameters<GeminiTools['call']>[0] }
  | { readonly provider: 'openai-agents'; readonly call: AgentsToolCall };

/** What the OpenAI Agents SDK hands a function tool of its call: the name and the model's argument text. */
export interface AgentsToolCall {
  readonly name: string;
  readonly arguments: string;
  readonly callId?: string;
}

class ProviderCallContext {
  constructor(readonly toolCall: ProviderToolCall) {}
}

/** The provider's tool call behind a handler's call (switch on `provider`); undefined for a call from anywhere else. */
export function providerToolCall(request: ToolRequest<unknown>): ProviderToolCall | undefined {
  return request.context instanceof ProviderCallContext ? request.context.toolCall : undefined;
}

// ---- OpenAI

export interface OpenAiToolsOptions {
  /** Strict function calling (structured outputs); default true. */
  readonly strict?: StrictOption;
}

export interface OpenAiFunctionDefinition {
  readonly name: string;
  readonly description: string;
  readonly parameters: Schema;
  readonly strict: boolean;
}

export interface OpenAiChatTools {
  /** For `tools` of a Chat Completions request. */
  readonly tools: { readonly type: 'function'; readonly function: OpenAiFunctionDefinition }[];
  /**
   * A `tool_calls` entry of the assistant message → the `role: "tool"` message that answers it. It
   * takes `openai`'s `ChatCompletionMessageToolCall` as it is: a custom tool call is answered as
   * not one of these function tools.
   */
  call(toolCall: OpenAiChatToolCall): Promise<{ role: 'tool'; tool_call_id: string; content: string }>;
}

/** A function tool call, or a custom one (`openai` 6 types the two as one union). */
export type OpenAiChatToolCall = { readonly id: string; readonly function: { readonly name: string; readonly arguments: string } } | { readonly id: string; readonly custom: { readonly name: string } };

export interface OpenAiResponsesTools {
  /** For `tools` of a Responses request. */
  readonly tools: ({ readonly type: 'function' } & OpenAiFunctionDefinition)[];
  /** A `function_call` output item → the `function_call_output` input item that answers it. */
  call(item: { readonly call_id: string; readonly name: string; readonly arguments: string }): Promise<{ type: 'function_call_output'; call_id: string; output: string }>;
}

/** A runtime's tools as OpenAI function tools, with their names: what adapters over OpenAI's SDKs share. */
export interface FunctionToolSet {
  readonly tools: readonly Prepared[];
  readonly names: ToolNames;
}

export function openAiFunctionTools(runtime: CapabilityRuntime, options: OpenAiToolsOptions, provider = 'OpenAI'): FunctionToolSet {
  return prepare(runtime, 'portable', openAiStrictProjection, options.strict ?? true, provider);
}

/** An Agents SDK call of one of those tools, from the model's argument text: the output as JSON text, or the failure. */
export function runAgentsToolCall(runtime: CapabilityRuntime, set: FunctionToolSet, call: AgentsToolCall, signal?: AbortSignal): Promise<{ ok: boolean; text: string; output?: unknown }> {
  return run(runtime, set.tools, set.names, { provider: 'openai-agents', call }, call.name, call.arguments, true, signal);
}

const definition = (tool: Prepared): OpenAiFunctionDefinition => ({ name: tool.hostName, description: tool.entry.description, parameters: tool.schema, strict: tool.strict });

export function openAiChatTools(runtime: CapabilityRuntime, options: OpenAiToolsOptions = {}): OpenAiChatTools {
  const { tools, names } = openAiFunctionTools(runtime, options);
  return {
    tools: tools.map((tool) => ({ type: 'function', function: definition(tool) })),
    async call(toolCall) {
      if (!('function' in toolCall)) return { role: 'tool', tool_call_id: toolCall.id, content: `unknown_tool: ${JSON.stringify(String(toolCall.custom?.name))} is a custom tool; these are function tools: ${tools.map((t) => t.hostName).join(', ') || 'none'}` };
      const { text } = await run(runtime, tools, names, { provider: 'openai-chat', call: toolCall }, toolCall.function.name, toolCall.function.arguments, true);
      return { role: 'tool', tool_call_id: toolCall.id, content: text };
    },
  };
}

export function openAiResponsesTools(runtime: CapabilityRuntime, options: OpenAiToolsOptions = {}): OpenAiResponsesTools {
  const { tools, names } = openAiFunctionTools(runtime, options);
  return {
    tools: tools.map((tool) => ({ type: 'function', ...definition(tool) })),
    async call(item) {
      const { text } = await run(runtime, tools, names, { provider: 'openai-responses', call: item }, item.name, item.arguments, true);
      return { type: 'function_call_output', call_id: item.call_id, output: text };
    },
  };
}

// ---- Anthropic

export interface AnthropicToolsOptions {
  /** Strict tool use; default false. */
  readonly strict?: StrictOption;
}

export interface AnthropicTools {
  /** For `tools` of a Messages request. */
  readonly tools: { readonly name: string; readonly description: string; readonly input_schema: Schema & { readonly type: 'object' }; readonly strict?: boolean }[];
  /** A `tool_use` content block → the `tool_result` block that answers it. */
  call(block: { readonly id: string; readonly name: string; readonly input: unknown }): Promise<{ type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean }>;
}

export function anthropicTools(runtime: CapabilityRuntime, options: AnthropicToolsOptions = {}): AnthropicTools {
  const strict = options.strict ?? false;
  const { tools, names } = prepare(runtime, 'portable', anthropicStrictProjection, strict, 'Anthropic');
  return {
    tools: tools.map((tool) => ({ name: tool.hostName, description: tool.entry.description, input_schema: tool.schema as Schema & { type: 'object' }, ...(strict === false ? {} : { strict: tool.strict }) })),
    async call(block) {
      const { ok, text } = await run(runtime, tools, names, { provider: 'anthropic', call: block }, block.name, block.input);
      return ok ? { type: 'tool_result', tool_use_id: block.id, content: text } : { type: 'tool_result', tool_use_id: block.id, content: text, is_error: true };
    },
  };
}

// ---- Gemini

export interface GeminiTools {
  /** For `config.tools` of a `generateContent` request: one tool holding every declaration. */
  readonly tools: { readonly functionDeclarations: { readonly name: string; readonly description: string; readonly parametersJsonSchema: Schema }[] }[];
  /** A `functionCall` part → the `functionResponse` part that answers it. */
  call(functionCall: { readonly id?: string; readonly name?: string; readonly args?: Record<string, unknown> }): Promise<{ functionResponse: { id?: string; name: string; response: Record<string, unknown> } }>;
}

/** Gemini takes contract names as they are (letters, digits, `_ . : -`, up to 128) and JSON Schema in `parametersJsonSchema`. */
export function geminiTools(runtime: CapabilityRuntime): GeminiTools {
  const { tools, names } = prepare(runtime, 'contract', undefined, false, 'Gemini');
  return {
    tools: [{ functionDeclarations: tools.map((tool) => ({ name: tool.hostName, description: tool.entry.description, parametersJsonSchema: tool.schema })) }],
    async call(functionCall) {
      const result = await run(runtime, tools, names, { provider: 'gemini', call: functionCall }, functionCall.name, functionCall.args ?? {});
      // Gemini holds numbers as doubles: an output with a number no double holds goes as its JSON text.
      const response = result.ok ? { output: valueOrExactText(result.output) } : { error: result.text };
      const name = functionCall.name ?? '';
      return { functionResponse: functionCall.id === undefined ? { name, response } : { id: functionCall.id, name, response } };
    },
  };
}
