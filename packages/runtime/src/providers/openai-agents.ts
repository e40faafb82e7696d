import { tool, type FunctionTool } from '@openai/agents';
import type { CapabilityRuntime } from '../core/capability-runtime.js';
import { openAiFunctionTools, runAgentsToolCall, type OpenAiToolsOptions } from './provider-tools.js';

/**
 * Tools for an `Agent` of the OpenAI Agents SDK (`@openai/agents`, an optional peer dependency:
 * only this entry point imports it): `new Agent({ …, tools: openAiAgentsTools(runtime) })`.
 *
 * The SDK's own paths do not fit a contract: its Standard Schema path renames tools, leaves open
 * objects open under strict mode and checks no output, and its default error function shows the
 * model a fixed message instead of what went wrong. Here each tool is shown under the portable
 * name (`notes.search` → `notes_search`), strict where OpenAI strict mode can express its schema
 * and offered without strict otherwise (`strict: 'when-possible'`, the default here), and every call
 * goes through `callAsync` from the model's own argument text (so exact-mode numbers keep every
 * digit): the output contract is enforced, and a failure reaches the model as our message.
 */
export function openAiAgentsTools(runtime: CapabilityRuntime, options: OpenAiToolsOptions = {}): FunctionTool[] {
  const set = openAiFunctionTools(runtime, { strict: options.strict ?? 'when-possible' }, 'OpenAI Agents');
  return set.tools.map((prepared) => {
    const execute = async (parsed: unknown, _context: unknown, details?: { readonly toolCall?: { readonly arguments?: string; readonly callId?: string }; readonly signal?: AbortSignal }): Promise<string> => {
      // The model's own text, so that exact-mode numbers keep every digit the SDK's JSON.parse would round.
      const argumentText = details?.toolCall?.arguments ?? JSON.stringify(parsed);
      const callId = details?.toolCall?.callId;
      const call = callId === undefined ? { name: prepared.hostName, arguments: argumentText } : { name: prepared.hostName, arguments: argumentText, callId };
      const outcome = await runAgentsToolCall(runtime, set, call, details?.signal);
      if (!outcome.ok) throw new AgentToolCallFailed(outcome.text);
      return outcome.text;
    };
    const errorFunction = (_context: unknown, error: unknown): string => (error instanceof AgentToolCallFailed ? error.message : `handler_failed: ${String(error)}`);
    // The SDK types a tool's options from a literal schema; ours is data, checked by the projection.
    const options = { name: prepared.hostName, description: prepared.entry.description, parameters: prepared.schema, strict: prepared.strict, execute, errorFunction } as unknown as Parameters<typeof tool>[0];
    return tool(options) as FunctionTool;
  });
}

/** A call the runtime refused or failed: its message (`code: message`, issues listed) is what the model reads. */
export class AgentToolCallFailed extends Error {
  override readonly name = 'AgentToolCallFailed';
}
