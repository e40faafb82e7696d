import { Command, CommanderError, Option } from 'commander';
import { UsageError } from '../contract/discover.js';
import { version } from '../version.js';
import type { BuildCommandOptions } from './build.js';
import type { CheckCommandOptions } from './check.js';

type CheckOptions = CheckCommandOptions;
type BuildOptions = BuildCommandOptions & { readonly watch: boolean };

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

  const formatOption = (): Option => new Option('--format <format>', 'output format').choices(['text', 'json']).default('text');
  const emitOption = (): Option => new Option('--emit <kind>', 'ts: one .ts module per contract; js: ESM .js plus .d.ts').choices(['ts', 'js']).default('ts');
  const strictOption = ['--strict', 'treat warnings as errors'] as const;
  const exactOption = ['--exact-numbers', 'keep every digit of numeric bounds instead of rounding them to the nearest f64'] as const;
  const inputsArgument = ['<inputs...>', 'contract files or folders (searched recursively for *.contract.json)'] as const;

  program
    .command('check')
    .description('Check contracts against the schema subset and report every problem with file:line:col; with -o, also check that generated output is up to date.')
    .argument(...inputsArgument)
    .option('-o, --out <dir>', 'generated output folder to compare against (stale, missing, orphaned files fail)')
    .addOption(emitOption())
    .addOption(formatOption())
    .option(...strictOption, false)
    .option(...exactOption, false)
    .action(async (inputs: string[], options: CheckOptions) => {
      const { runCheck } = await import('./check.js');
      exitCode = await runCheck(inputs, options, write);
    });

  program
    .command('build')
    .description('Check contracts and write one validator module per contract plus an index; writes nothing if any contract has an error.')
    .argument(...inputsArgument)
    .requiredOption('-o, --out <dir>', 'output folder')
    .addOption(emitOption())
    .addOption(formatOption())
    .option(...strictOption, false)
    .option(...exactOption, false)
    .option('-w, --watch', 'rebuild on every change until interrupted', false)
    .action(async (inputs: string[], options: BuildOptions) => {
      // Loaded on demand: code generation needs the TypeScript printer, a plain check does not.
      const { runBuild, watchBuild } = await import('./build.js');
      exitCode = options.watch ? await watchBuild(inputs, options, write) : runBuild(inputs, options, write);
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
