import type { ValidationIssue } from './contract.js';

/** Why a call did not produce an output. Stable strings: hosts and models match on them. */
export type ToolErrorCode = 'denied' | 'unknown_tool' | 'invalid_json' | 'invalid_envelope' | 'invalid_input' | 'budget_exhausted' | 'handler_failed' | 'invalid_output' | 'cancelled' | 'unknown_call' | 'asynchronous_handler';

export class ToolError extends Error {
  override readonly name = 'ToolError';

  constructor(
    readonly code: ToolErrorCode,
    message: string,
    /** The contract's validation issues, for invalid input or output. */
    readonly issues: readonly ValidationIssue[] = [],
  ) {
    super(message);
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

/** One line per issue, so that a model reading the message can fix its call. */
export function describeIssues(issues: readonly ValidationIssue[]): string {
  const shown = issues.slice(0, 10).map((issue) => `${issue.instancePath === '' ? '(root)' : issue.instancePath}: ${issue.message}`);
  if (issues.length > shown.length) shown.push(`… and ${issues.length - shown.length} more`);
  return shown.join('; ');
}
