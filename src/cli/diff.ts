import { Option } from 'commander';
import { checkContracts, type SourceText } from '../contract/check-contracts.js';
import { discoverContracts, readContractSources } from '../contract/discover.js';
import { UsageError } from '../diagnostics/usage-error.js';
import { compareDiagnostics, hasErrors } from '../diagnostics/diagnostic.js';
import { diffContracts } from '../diff/diff-contracts.js';
import { versionsAgainstRevision } from '../diff/git-base.js';
import type { CliCommand } from './command.js';
import { exactNumbersOptions, formatOption, inputsOf, settingsOf, verboseOption, withOptions } from './options.js';
import { formatReport, type OutputFormat } from './report.js';

/** `jtc diff <old> <new>` or `jtc diff --base <rev> <inputs…>`. */
export const diffCommand: CliCommand = (program, context) => {
  const command = program
    .command('diff')
    .summary('compare two versions of a set of contracts; exit 1 when a change breaks callers or consumers')
    .description('Compare two versions of a set of contracts (jtc diff <old> <new>, or jtc diff --base <rev> <inputs...>) and classify every change for callers and for consumers of the output; exit 1 when one breaks.')
    .argument('[inputs...]', 'the old and the new version (two files or folders), or with --base the inputs to compare (default: "contracts" in jtc.config.json)');
  withOptions(command, [new Option('--base <rev>', 'the git revision holding the old version of the inputs'), formatOption(), ...exactNumbersOptions(), verboseOption()]).action((inputs: string[], flags: { base?: string; format: OutputFormat }) => {
    const settings = settingsOf(command);
    const options = { format: flags.format, exactNumbers: settings.exactNumbers };
    context.exitCode = flags.base === undefined ? runDiff(inputs, options, context.write) : runDiff(inputsOf('diff', inputs, settings), { ...options, base: flags.base }, context.write);
  });
};

export interface DiffCommandOptions {
  readonly format: OutputFormat;
  readonly exactNumbers: boolean;
  /** A git revision holding the old version of the named inputs. */
  readonly base?: string;
}

/**
 * `jtc diff <old> <new>` or `jtc diff --base <rev> <inputs…>`: every change between two versions of
 * a set of contracts, breaking ones as errors. Exit 1 when something breaks (for CI on pull
 * requests), 0 when every change is compatible, 2 for usage and I/O errors.
 */
export function runDiff(inputs: readonly string[], options: DiffCommandOptions, write: (text: string) => void): number {
  let before: SourceText[];
  let after: SourceText[];
  if (options.base !== undefined) {
    if (inputs.length === 0) throw new UsageError('diff --base <rev>: name the contract files or folders to compare');
    ({ before, after } = versionsAgainstRevision(options.base, inputs));
  } else {
    if (inputs.length !== 2) throw new UsageError('diff: name the old and the new version (two files or folders), or use --base <rev> <inputs…>');
    before = sources([inputs[0]!]);
    after = sources([inputs[1]!]);
  }
  if (before.length === 0 && after.length === 0) throw new UsageError(`diff: no contract under ${inputs.join(', ')}, in either version: nothing to compare`);
  const check = { exactNumbers: options.exactNumbers };
  const [old, now] = [checkContracts(before, check), checkContracts(after, check)];
  const problems = [...old.diagnostics, ...now.diagnostics].filter((d) => d.severity === 'error');
  if (problems.length > 0) {
    write(formatReport(options.format, problems, { contracts: before.length + after.length, errors: problems.length, warnings: 0 }, {}, ['diff: a version has contract errors; fix them to compare']));
    return 1;
  }
  const changes = diffContracts(old.contracts, now.contracts, options.exactNumbers).sort(compareDiagnostics);
  const breaking = changes.filter((d) => d.severity === 'error').length;
  const compatible = changes.length - breaking;
  const line = `${old.contracts.length} → ${now.contracts.length} contracts: ${breaking} breaking, ${compatible} compatible ${compatible === 1 ? 'change' : 'changes'}`;
  if (options.format === 'json') write(`${JSON.stringify({ changes, summary: { before: old.contracts.length, after: now.contracts.length, breaking, compatible } }, null, 2)}\n`);
  else write(`${[...changes.map((d) => formatReport('text', [d], { contracts: 0, errors: 0, warnings: 0 }).split('\n')[0]), line].join('\n')}\n`);
  return hasErrors(changes) ? 1 : 0;
}

function sources(inputs: readonly string[]): SourceText[] {
  return readContractSources(discoverContracts(inputs)).map((s) => ({ file: s.file, text: s.bytes }));
}
