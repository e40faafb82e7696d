import { diagnosticCodes, type DiagnosticCode } from './codes.js';

/** A place in a source file: 1-based line and column (UTF-16 units, as editors count), 0-based offset. */
export interface Position {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly severity: 'error' | 'warning' | 'info';
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** JSON Pointer into the contract file ('' is the root). */
  readonly pointer: string;
  readonly message: string;
  /** What to do about it. */
  readonly hint?: string;
}

export interface DiagnosticInput {
  readonly code: DiagnosticCode;
  readonly position: Position;
  readonly pointer: string;
  readonly message: string;
  readonly hint?: string;
}

export function makeDiagnostic(file: string, input: DiagnosticInput): Diagnostic {
  const base = {
    code: input.code,
    severity: diagnosticCodes[input.code].severity,
    file,
    line: input.position.line,
    column: input.position.column,
    pointer: input.pointer,
    message: input.message,
  };
  return input.hint === undefined ? base : { ...base, hint: input.hint };
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** Stable order for printing: by file, then position, then code. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.line - b.line || a.column - b.column || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
}

/**
 * `file:line:col - error JTC104: message at /pointer (hint)`, the shape tsc and editors
 * understand, on one line a terminal shows as it is (see `escapeForTerminal`).
 */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.pointer === '' ? '' : ` at ${d.pointer}`;
  const hint = d.hint === undefined ? '' : ` (${d.hint})`;
  return escapeForTerminal(`${d.file}:${d.line}:${d.column} - ${d.severity} ${d.code}: ${d.message}${where}${hint}`);
}

/**
 * Characters a terminal acts on or that hide text: C0 controls (escape sequences retitle or clear
 * the terminal, a newline splits a report line), DEL, C1 controls (0x9b starts a sequence on some
 * terminals), the bidirectional controls that reorder what is shown and the line separators.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what it is for
const terminalUnsafe = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/**
 * Text from contracts and file names as a person reads it: every character of `terminalUnsafe`
 * written as a `\u` escape. Human-facing output goes through it; JSON output stays exact JSON.
 */
export function escapeForTerminal(text: string): string {
  return text.replace(terminalUnsafe, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Escapes one reference token of a JSON Pointer (RFC 6901). */
export function escapePointerToken(token: string): string {
  return token.includes('~') || token.includes('/') ? token.replace(/~/g, '~0').replace(/\//g, '~1') : token;
}

export function appendPointer(pointer: string, token: string | number): string {
  return `${pointer}/${typeof token === 'number' ? token : escapePointerToken(token)}`;
}
