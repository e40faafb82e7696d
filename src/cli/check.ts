import { checkContracts } from '../contract/check-contracts.js';
import { discoverContracts, readContractSources } from '../contract/discover.js';
import { hasErrors } from '../diagnostics/diagnostic.js';
import { generateFiles, type EmitKind } from '../output/file-set.js';
import { compareOutput } from '../output/write.js';
import { exitCodeFor, formatReport, summarize, type OutputFormat } from './report.js';

export interface CheckCommandOptions {
  readonly format: OutputFormat;
  readonly strict: boolean;
  readonly exactNumbers: boolean;
  /** With an output folder, also report generated files that are stale, missing or orphaned. */
  readonly out?: string;
  readonly emit: EmitKind;
}

export function runCheck(inputs: readonly string[], options: CheckCommandOptions, write: (text: string) => void): number {
  const sources = readContractSources(discoverContracts(inputs)).map((s) => ({ file: s.file, text: s.bytes }));
  const result = checkContracts(sources, { exactNumbers: options.exactNumbers });
  const summary = summarize(sources.length, result.diagnostics);
  let exitCode = exitCodeFor(summary, options.strict);
  if (options.out === undefined || hasErrors(result.diagnostics)) {
    write(formatReport(options.format, result.diagnostics, summary));
    return exitCode;
  }
  const drift = compareOutput(options.out, generateFiles(result.contracts, options.emit));
  const driftLines = [
    ...drift.stale.map((f) => `${options.out}/${f}: stale (differs from what the contracts generate)`),
    ...drift.missing.map((f) => `${options.out}/${f}: missing`),
    ...drift.orphaned.map((f) => `${options.out}/${f}: orphaned (generated, but no contract produces it)`),
  ];
  if (driftLines.length > 0) {
    driftLines.push(`generated output is out of date: run jtc build ${inputs.join(' ')} -o ${options.out}`);
    exitCode = 1;
  } else {
    driftLines.push(`generated output in ${options.out} is up to date`);
  }
  write(formatReport(options.format, result.diagnostics, summary, { drift }, driftLines));
  return exitCode;
}
