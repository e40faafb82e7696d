import { checkContracts } from '../contract/check-contracts.js';
import { discoverContracts, readContractSources } from '../contract/discover.js';
import { hasErrors } from '../diagnostics/diagnostic.js';
import type { EmitKind, SupportKind } from '../output/file-set.js';
import { compareOutput } from '../output/write.js';
import { compileInParallel } from '../parallel/compile-in-parallel.js';
import type { CliCommand } from './command.js';
import { checkAndBuildOptions, inputsOf, settingsOf, withOptions } from './options.js';
import { exitCodeFor, formatReport, summarize, type OutputFormat } from './report.js';

/** `jtc check <inputs…> [-o <dir>]`: every diagnostic of every contract, and with -o the output's drift. */
export const checkCommand: CliCommand = (program, context) => {
  const command = program
    .command('check')
    .summary('check contracts against the schema subset; with -o, check that generated output is up to date')
    .description('Check contracts against the schema subset and report every problem with file:line:col; with -o, also check that generated output is up to date (stale, missing, orphaned files fail).')
    .argument('[inputs...]', 'contract files, or folders searched recursively for *.contract.json (default: "contracts" in jtc.config.json)');
  withOptions(command, checkAndBuildOptions('the output folder to compare with what the contracts generate')).action(async (inputs: string[], flags: { format: OutputFormat; jobs: number }) => {
    const { out, ...settings } = settingsOf(command);
    // The configured output folder is the configured contracts' output: checking named files compares it only with -o.
    const compared = inputs.length === 0 || command.getOptionValueSource('out') === 'cli' ? out : undefined;
    const options = { ...settings, format: flags.format, jobs: flags.jobs };
    context.exitCode = await runCheck(inputsOf('check', inputs, settings), compared === undefined ? options : { ...options, out: compared }, context.write);
  });
};

export interface CheckCommandOptions {
  readonly format: OutputFormat;
  readonly strict: boolean;
  readonly exactNumbers: boolean;
  /** With an output folder, also report generated files that are stale, missing or orphaned. */
  readonly out?: string;
  readonly emit: EmitKind;
  /** Where the support code goes, with `out`: the layout the output is compared with. */
  readonly support?: SupportKind;
  /** Threads to generate on, with `out`; a thread takes at least 32 contracts. */
  readonly jobs: number;
  /** Target profiles whose findings are added (`--target`). */
  readonly targets: readonly string[];
}

export async function runCheck(inputs: readonly string[], options: CheckCommandOptions, write: (text: string) => void): Promise<number> {
  const sources = readContractSources(discoverContracts(inputs)).map((s) => ({ file: s.file, text: s.bytes }));
  // Without an output folder nothing is generated; with one, generation is a build's, on as many threads.
  const { diagnostics, files } =
    options.out === undefined
      ? { diagnostics: checkContracts(sources, { exactNumbers: options.exactNumbers, targets: options.targets }).diagnostics, files: [] }
      : await compileInParallel(sources, { exactNumbers: options.exactNumbers, emit: options.emit, support: options.support ?? 'inline', targets: options.targets }, options.jobs);
  const summary = summarize(sources.length, diagnostics);
  let exitCode = exitCodeFor(summary, options.strict);
  if (options.out === undefined || hasErrors(diagnostics)) {
    write(formatReport(options.format, diagnostics, summary));
    return exitCode;
  }
  const drift = compareOutput(options.out, files);
  const driftLines = [...drift.stale.map((f) => `${options.out}/${f}: stale (differs from what the contracts generate)`), ...drift.missing.map((f) => `${options.out}/${f}: missing`), ...drift.orphaned.map((f) => `${options.out}/${f}: orphaned (generated, but no contract produces it)`)];
  if (driftLines.length > 0) {
    driftLines.push(`generated output is out of date: run jtc build ${inputs.join(' ')} -o ${options.out}`);
    exitCode = 1;
  } else {
    driftLines.push(`generated output in ${options.out} is up to date`);
  }
  write(formatReport(options.format, diagnostics, summary, { drift }, driftLines));
  return exitCode;
}
