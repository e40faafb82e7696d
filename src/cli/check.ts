import { checkContracts } from '../contract/check-contracts.js';
import { discoverContracts, readContractSources } from '../contract/discover.js';
import { exitCodeFor, formatReport, summarize, type OutputFormat } from './report.js';

export interface CheckCommandOptions {
  readonly format: OutputFormat;
  readonly strict: boolean;
  readonly exactNumbers: boolean;
}

export function runCheck(inputs: readonly string[], options: CheckCommandOptions, write: (text: string) => void): number {
  const sources = readContractSources(discoverContracts(inputs)).map((s) => ({ file: s.file, text: s.bytes }));
  const result = checkContracts(sources, { exactNumbers: options.exactNumbers });
  const summary = summarize(sources.length, result.diagnostics);
  write(formatReport(options.format, result.diagnostics, summary));
  return exitCodeFor(summary, options.strict);
}
