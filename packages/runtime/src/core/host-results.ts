import type { CallResult, CatalogEntry } from './capability-runtime.js';
import { readJsonText, type EnvelopeLimits } from './envelope.js';
import { shortened } from './errors.js';
import { isJsonNumber, roundTripsThroughF64, standingFor, stringifyJson } from './json.js';

/**
 * How every host adapter words a call's result for a model: an output as JSON text (exact-mode
 * numbers keep every digit), a failure as `code: message`, which already lists the issues.
 */
export function outputText(output: unknown): string {
  // JSON.stringify writes the same text natively where there is no bigint or JsonNumber (about 10 % of a served call's CPU otherwise).
  return holdsExactNumber(output) ? stringifyJson(output) : JSON.stringify(output);
}

/** Whether a bigint or a JsonNumber occurs in the runtime's validated copy (plain objects and arrays of data properties). */
function holdsExactNumber(output: unknown): boolean {
  const stack: unknown[] = [output];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'bigint' || isJsonNumber(value)) return true;
    if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) if (typeof item === 'object' || typeof item === 'bigint') stack.push(item);
  }
  return false;
}

/**
 * An output as a host that serialises with JSON.stringify carries it: every number a double.
 * `exact`: every number already was one whose JSON text is its own digits (always so outside
 * exact mode); otherwise bigints and JsonNumbers were rounded to the nearest double (2^60 is a
 * double, but JSON.stringify writes it 1152921504606847000, another number to whoever reads the
 * digits: an exact-mode server, a model), and `fits` is false when one lies beyond the double
 * range, where there is none (JSON.stringify would write null).
 */
export function outputAsDoubles(output: unknown): { readonly value: unknown; readonly exact: boolean; readonly fits: boolean } {
  // Where a bigint or a JsonNumber occurs the value is rebuilt, even where each is a double exactly.
  if (!holdsExactNumber(output)) return { value: output, exact: true, fits: true };
  let exact = true;
  let fits = true;
  const stack: unknown[] = [output];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'bigint') {
      const double = Number(value);
      fits &&= Number.isFinite(double);
      exact &&= roundTripsThroughF64(String(value));
    } else if (isJsonNumber(value)) {
      fits &&= Number.isFinite(Number(value.decimal));
      exact &&= roundTripsThroughF64(value.decimal);
    } else if (typeof value === 'object' && value !== null) {
      // The runtime's validated copy: plain objects and arrays of data properties.
      for (const item of Object.values(value)) stack.push(item);
    }
  }
  // The doubles stand for the exact output where the runtime writes the JSON text itself (mcpHttpHandler's structuredContent).
  return { value: standingFor(JSON.parse(stringifyJson(output)) as unknown, output), exact, fits };
}

/**
 * An output for a host whose values reach a model (Gemini, the AI SDK): the value when its
 * numbers are all doubles exactly, else its JSON text, which keeps every digit where a number
 * would be rounded (or, beyond the double range, become null).
 */
export function valueOrExactText(output: unknown): unknown {
  const { value, exact } = outputAsDoubles(output);
  return exact ? value : outputText(output);
}

/** The longest failure text an adapter hands a model: the code, and the runtime's message as bounded. */
const maxFailureTextLength = 4_200;

/** The runtime's messages already list the contract's issues (`/right: must be an integer, got string`). */
export function failureText(result: Extract<CallResult, { ok: false }>): string {
  return shortened(`${result.error.code}: ${result.error.message}`, maxFailureTextLength);
}

/** The schema a model is shown: a prompt-only schema where the tool has one, else the contract's. */
export function shownInputSchema(entry: CatalogEntry): Record<string, unknown> {
  return entry.promptInputSchema ?? entry.inputSchema;
}

export function shownOutputSchema(entry: CatalogEntry): Record<string, unknown> {
  return entry.promptOutputSchema ?? entry.outputSchema;
}

/**
 * Arguments a model sent as text: JSON read as the contract reads numbers (an exact-mode contract
 * keeps every digit, as `callJson` does), or a result that says it is not JSON. Arguments a host
 * already parsed are passed on as they are.
 */
export function parseArguments(text: unknown, exactNumbers: boolean, limits: EnvelopeLimits): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly text: string } {
  if (typeof text !== 'string') return { ok: true, value: text };
  try {
    return { ok: true, value: readJsonText(text, exactNumbers, limits) };
  } catch (error) {
    return { ok: false, text: shortened(`invalid_json: the tool arguments are not valid JSON: ${(error as Error).message}`, maxFailureTextLength) };
  }
}
