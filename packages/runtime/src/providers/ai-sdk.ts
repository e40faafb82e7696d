import { jsonSchema, tool, type Tool, type ToolExecutionOptions, type ToolSet } from 'ai';
import type { CapabilityRuntime, CatalogEntry, ToolRequest } from '../core/capability-runtime.js';
import type { ToolContract } from '../core/contract.js';
import { failureText, shownInputSchema, valueOrExactText } from '../core/host-results.js';
import { toolNames, type NameStyle } from '../targets/tool-names.js';

/**
 * The `tools` record for `generateText`/`streamText` of the Vercel AI SDK 6 (`ai`, an optional peer
 * dependency: only this entry point imports it). The runtime is the only validator: the input schema
 * is handed over with `jsonSchema()` and no validator, so the SDK neither rewrites it (it closes every
 * object of a Standard Schema's JSON Schema) nor checks it; `execute` goes through `callAsync`, so
 * the output is enforced too, and a failure becomes a `tool-error` whose message is ours.
 */
export interface AiSdkToolsOptions {
  /** `portable` (default): `notes.search` is offered as `notes_search`, which every provider takes. */
  readonly names?: NameStyle;
}

/** A failed call as the AI SDK reports it to the model: `code: message`, the issues listed. */
export class ToolCallFailed extends Error {
  override readonly name = 'ToolCallFailed';
}

/**
 * The record has no prototype: the SDK looks a model's tool name up in it directly, and a name
 * such as `toString` or `__proto__` must find nothing (the model then gets a tool error), not
 * what Object.prototype holds.
 */
export function toAiSdkTools(runtime: CapabilityRuntime, options: AiSdkToolsOptions = {}): ToolSet {
  const catalog = runtime.catalog();
  const names = toolNames(
    catalog.map((entry) => entry.name),
    options.names ?? 'portable',
  );
  const tools = Object.create(null) as ToolSet;
  for (const entry of catalog) Object.defineProperty(tools, names.toHost(entry.name), { value: aiSdkToolOf(runtime, entry), enumerable: true, writable: true, configurable: true });
  return tools;
}

/** One registered tool, typed by its contract: input and output types come from the generated module. */
export function aiSdkTool<I, O, N extends string>(runtime: CapabilityRuntime, contract: ToolContract<I, O, N>): Tool<I, O> {
  const entry = runtime.catalog().find((e) => e.name === contract.name);
  if (entry === undefined) throw new RangeError(`tool "${contract.name}" is not registered on this runtime`);
  return aiSdkToolOf(runtime, entry) as unknown as Tool<I, O>;
}

function aiSdkToolOf(runtime: CapabilityRuntime, entry: CatalogEntry): Tool<unknown, unknown> {
  return tool<unknown, unknown>({
    description: entry.description,
    inputSchema: jsonSchema<unknown>(shownInputSchema(entry)),
    execute: async (input: unknown, options: ToolExecutionOptions) => {
      if (typeof options === 'object' && options !== null) fromAiSdk.add(options);
      const result = await runtime.callAsync(entry.name, input, { context: options, signal: options?.abortSignal });
      if (!result.ok) throw new ToolCallFailed(failureText(result));
      // The SDK sends a value to the model with JSON.stringify: an exact number no double holds goes as JSON text.
      return valueOrExactText(result.output);
    },
  });
}

/** The options objects `execute` was called with: what `aiSdkCallOptions` recognises. */
const fromAiSdk = new WeakSet<object>();

/**
 * The AI SDK's options for a call that came through `execute` (`toolCallId`, `messages`,
 * `abortSignal`, `experimental_context`); undefined for a call from anywhere else. The
 * `abortSignal` already cancels the call: the handler sees it as `request.signal`.
 */
export function aiSdkCallOptions(request: ToolRequest<unknown>): ToolExecutionOptions | undefined {
  const { context } = request;
  return typeof context === 'object' && context !== null && fromAiSdk.has(context) ? (context as ToolExecutionOptions) : undefined;
}
