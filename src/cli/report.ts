import { diagnosticCodes } from '../diagnostics/codes.js';
import { escapeForTerminal, formatDiagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';

/** What `--format` takes: text for people, json for tools. */
export const outputFormats = ['text', 'json'] as const;
export type OutputFormat = (typeof outputFormats)[number];

export interface Summary {
  readonly contracts: number;
  readonly errors: number;
  readonly warnings: number;
}

export function summarize(contracts: number, diagnostics: readonly Diagnostic[]): Summary {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  return { contracts, errors, warnings: diagnostics.filter((d) => d.severity === 'warning').length };
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export function summaryLine(summary: Summary): string {
  return `${plural(summary.contracts, 'contract')}: ${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')}`;
}

/** Diagnostics, one per line, then extra lines (e.g. drift), then the one-line summary. */
export function formatReport(format: OutputFormat, diagnostics: readonly Diagnostic[], summary: Summary, extra: Record<string, unknown> = {}, extraLines: readonly string[] = []): string {
  if (format === 'json') {
    const withTitles = diagnostics.map((d) => ({ ...d, title: diagnosticCodes[d.code].title }));
    return `${JSON.stringify({ diagnostics: withTitles, ...extra, summary }, null, 2)}\n`;
  }
  return `${[...diagnostics.map(formatDiagnostic), ...extraLines.map(escapeForTerminal), summaryLine(summary)].join('\n')}\n`;
}

/** Exit codes: 0 clean (warnings allowed), 1 contract errors (warnings too with --strict), 2 usage or I/O. */
export function exitCodeFor(summary: Summary, strict: boolean): number {
  return summary.errors > 0 || (strict && summary.warnings > 0) ? 1 : 0;
}
