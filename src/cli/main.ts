import { availableParallelism } from 'node:os';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { UsageError } from '../contract/discover.js';
import { version } from '../version.js';
import { runBuild, watchBuild, type BuildCommandOptions } from './build.js';
import { runCheck, type CheckCommandOptions } from './check.js';

/** Runs the CLI and returns its exit code; never throws for a user's mistake. */
export async function main(argv: readonly string[]): Promise<number> {
  let exitCode = 0;
  const write = (text: string): void => {
    process.stdout.write(text);
  };
  const program = new Command()
    .name('jtc')
    .description('Compile JSON tool contracts into standalone validators and typed interfaces.')
    .version(version, '-v, --version')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) })
    .showHelpAfterError();

  /** What `check` and `build` share: the inputs, and the flags that decide what a build generates. */
  const contractCommand = (name: string, description: string): Command =>
    program
      .command(name)
      .description(description)
      .argument('<inputs...>', 'contract files or folders (searched recursively for *.contract.json)')
      .addOption(new Option('--emit <kind>', 'ts: one .ts module per contract; js: ESM .js plus .d.ts').choices(['ts', 'js']).default('ts'))
      .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
      .option('--strict', 'treat warnings as errors', false)
      .option('--exact-numbers', 'keep every digit of numbers, in bounds and in values, instead of rounding to the nearest f64', false)
      .addOption(new Option('-j, --jobs <n>', 'threads to generate code on (each takes at least 32 contracts)').argParser(positiveInteger).default(availableParallelism(), 'the number of cores'));

  contractCommand('check', 'Check contracts against the schema subset and report every problem with file:line:col; with -o, also check that generated output is up to date.')
    .option('-o, --out <dir>', 'generated output folder to compare against (stale, missing, orphaned files fail)')
    .action(async (inputs: string[], options: CheckCommandOptions) => {
      exitCode = await runCheck(inputs, options, write);
    });

  contractCommand('build', 'Check contracts and write one validator module per contract plus an index; writes nothing if any contract has an error.')
    .requiredOption('-o, --out <dir>', 'output folder')
    .option('-w, --watch', 'rebuild on every change until interrupted', false)
    .action(async (inputs: string[], options: BuildCommandOptions & { readonly watch: boolean }) => {
      exitCode = options.watch ? await watchBuild(inputs, options, write) : await runBuild(inputs, options, write);
    });

  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof UsageError) {
      process.stderr.write(`jtc: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

function positiveInteger(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return value;
}
