import type { ValidationIssue } from './contract.js';

/** Why a call did not produce an output. Stable strings: hosts and models match on them. */
export type ToolErrorCode = 'denied' | 'unknown_tool' | 'invalid_json' | 'invalid_envelope' | 'invalid_input' | 'budget_exhausted' | 'handler_failed' | 'invalid_output' | 'cancelled' | 'unknown_call' | 'asynchronous_handler' | 'suspended' | 'store_unavailable' | 'asynchronous_store' | 'lease_expired';

/** Every ToolErrorCode, for telling one apart from any other string at run time. */
export const toolErrorCodes: ReadonlySet<string> = new Set<ToolErrorCode>([
  'denied',
  'unknown_tool',
  'invalid_json',
  'invalid_envelope',
  'invalid_input',
  'budget_exhausted',
  'handler_failed',
  'invalid_output',
  'cancelled',
  'unknown_call',
  'asynchronous_handler',
  'suspended',
  'store_unavailable',
  'asynchronous_store',
  'lease_expired',
]);

/**
 * The longest message a ToolError carries, in UTF-16 code units: every adapter hands the message to
 * a model, and a call of a kilobyte must not cost hundreds (the issues stay complete in `issues`).
 */
export const maxToolErrorMessageLength = 4_000;

export class ToolError extends Error {
  override readonly name = 'ToolError';

  constructor(
    readonly code: ToolErrorCode,
    message: string,
    /** The contract's validation issues, for invalid input or output. */
    readonly issues: readonly ValidationIssue[] = [],
  ) {
    super(shortened(message, maxToolErrorMessageLength));
  }

  /** `JSON.stringify` of a failed result keeps what went wrong: an Error's `message` is not enumerable. */
  toJSON(): { name: string; code: ToolErrorCode; message: string; issues: readonly ValidationIssue[] } {
    return { name: this.name, code: this.code, message: this.message, issues: this.issues };
  }

  /** A handler's refusal: the caller may act on the message. */
  static denied(message: string): ToolError {
    return new ToolError('denied', message);
  }
}

/** A mistake in how tools are registered: thrown at once, since no call could work. */
export class RegistrationError extends Error {
  override readonly name = 'RegistrationError';
}

export function budgetExhausted(tool: string): ToolError {
  return new ToolError('budget_exhausted', `"${tool}" has used its whole call budget`);
}

/** Input that breaks its contract, worded alike wherever it is found (the runtime serving a tool, a client calling one). */
export function inputMismatch(tool: string, issues: readonly ValidationIssue[]): ToolError {
  return new ToolError('invalid_input', `input for "${tool}" does not match its contract: ${describeIssues(issues)}`, issues);
}

/** Output that breaks its contract, worded alike wherever it is found. */
export function outputMismatch(tool: string, issues: readonly ValidationIssue[]): ToolError {
  return new ToolError('invalid_output', `output of "${tool}" does not match its contract: ${describeIssues(issues)}`, issues);
}

const maxIssuesShown = 10;
const maxIssueLength = 240;

/**
 * One line per issue, so that a model reading the message can fix its call: at most 10 lines of at
 * most 240 characters each (a contract's list of allowed names can be long, a pointer deep).
 */
export function describeIssues(issues: readonly ValidationIssue[]): string {
  const shown = issues.slice(0, maxIssuesShown).map((issue) => shortened(`${issue.instancePath === '' ? '(root)' : issue.instancePath}: ${issue.message}`, maxIssueLength));
  if (issues.length > shown.length) shown.push(`… and ${issues.length - shown.length} more`);
  return shown.join('; ');
}

const maxNamesShown = 20;

/** The names of the tools there are, for an unknown-tool message: the first 20 (sorted), then how many in all. */
export function describeNames(names: readonly string[]): string {
  if (names.length === 0) return 'none';
  const shown = names.slice(0, maxNamesShown).map((name) => shortened(name, 80));
  return names.length > shown.length ? `${shown.join(', ')}, … (${names.length} in all)` : shown.join(', ');
}

/** Text cut to `max` code units, ending in "…" when cut, never between the halves of a surrogate pair. */
export function shortened(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}
