import type { Diagnostic as LspDiagnostic, Range } from 'vscode-languageserver/node';
import type { ConfigProblem } from '../config/project-config.js';
import type { DiagnosticCode } from '../diagnostics/codes.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { tokenEnd } from '../source/edits.js';
import type { LineMap } from '../source/parse.js';

/** The page of codes, in the installed package (this file is `dist/lsp/diagnostics.js`). */
export const diagnosticsLink = new URL('../../docs/diagnostics.md', import.meta.url).href;

/** What travels with a published diagnostic, for its quick fix. */
export interface DiagnosticData {
  readonly pointer: string;
  readonly hint?: string;
}

/** Whether a published diagnostic is one of ours, and so carries our code and data. */
export function isOwnDiagnostic(diagnostic: LspDiagnostic): diagnostic is LspDiagnostic & { code: DiagnosticCode; data: DiagnosticData } {
  return diagnostic.source === 'jtc' && typeof diagnostic.code === 'string' && typeof (diagnostic.data as DiagnosticData | undefined)?.pointer === 'string';
}

const severities = { error: 1, warning: 2, info: 3 } as const;

/**
 * A diagnostic as the editor shows it: at the position `jtc check` prints, over the token there (a
 * key, a value, a comment, a comma; a value written over several lines, on its first line), with
 * the CLI's message, the code linked to its README entry, and (with `--strict`) warnings as errors.
 */
export function toLspDiagnostic(diagnostic: Diagnostic, text: string, lines: LineMap, strict: boolean): LspDiagnostic {
  const data: DiagnosticData = diagnostic.hint === undefined ? { pointer: diagnostic.pointer } : { pointer: diagnostic.pointer, hint: diagnostic.hint };
  return {
    ...located(diagnostic, text, lines),
    severity: strict && diagnostic.severity === 'warning' ? severities.error : severities[diagnostic.severity],
    code: diagnostic.code,
    codeDescription: { href: diagnosticsLink },
    data,
  };
}

/** A problem of `jtc.config.json` as the editor shows it: an error, where and as `jtc check` prints it (there is no code). */
export function configProblemToLsp(problem: ConfigProblem, text: string, lines: LineMap): LspDiagnostic {
  return { ...located(problem, text, lines), severity: severities.error };
}

function located(problem: ConfigProblem, text: string, lines: LineMap): Pick<LspDiagnostic, 'range' | 'source' | 'message'> {
  const start = lines.offset(problem.line, problem.column);
  const end = Math.max(start, Math.min(tokenEnd(text, start), firstLineEnd(text, start)));
  const where = problem.pointer === '' ? '' : ` at ${problem.pointer}`;
  const hint = problem.hint === undefined ? '' : ` (${problem.hint})`;
  return { range: rangeOf(lines, start, end), source: 'jtc', message: `${problem.message}${where}${hint}` };
}

function firstLineEnd(text: string, start: number): number {
  const newline = text.slice(start).search(/\r?\n/);
  return newline < 0 ? text.length : start + newline;
}

export function rangeOf(lines: LineMap, start: number, end: number): Range {
  const [from, to] = [lines.position(start), lines.position(end)];
  return { start: { line: from.line - 1, character: from.column - 1 }, end: { line: to.line - 1, character: to.column - 1 } };
}
