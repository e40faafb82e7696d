import type { CallResult, CatalogEntry } from '../capability-runtime.js';
import { stringifyJson } from '../json.js';

/**
 * How every host adapter words a call's result for a model: an output as JSON text (exact-mode
 * numbers keep every digit), a failure as `code: message`, which already lists the issues.
 */
export function outputText(output: unknown): string {
  return stringifyJson(output);
}

/**
 * An output as a plain JSON value for a host that serialises with JSON.stringify: exact-mode
 * bigints and JsonNumbers become numbers there (rounded to the nearest double); `outputText`
 * keeps every digit.
 */
export function plainJsonOutput(output: unknown): unknown {
  return JSON.parse(outputText(output)) as unknown;
}

/** The runtime's messages already list the contract's issues (`/right: must be an integer, got string`). */
export function failureText(result: Extract<CallResult, { ok: false }>): string {
  return `${result.error.code}: ${result.error.message}`;
}

/** The schema a model is shown: a prompt-only schema where the tool has one, else the contract's. */
export function shownInputSchema(entry: CatalogEntry): Record<string, unknown> {
  return entry.promptInputSchema ?? entry.inputSchema;
}

export function shownOutputSchema(entry: CatalogEntry): Record<string, unknown> {
  return entry.promptOutputSchema ?? entry.outputSchema;
}

/** Arguments a model sent as text: JSON, or a result that says it is not (as `callJson` words it). */
export function parseArguments(text: unknown): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly text: string } {
  if (typeof text !== 'string') return { ok: true, value: text };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, text: `invalid_json: the tool arguments are not valid JSON: ${(error as Error).message}` };
  }
}
