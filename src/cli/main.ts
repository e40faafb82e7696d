import { Command, CommanderError, Option } from 'commander';
import { UsageError } from '../contract/discover.js';
import { version } from '../version.js';
import { runCheck } from './check.js';
import type { OutputFormat } from './report.js';

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

  const formatOption = new Option('--format <format>', 'output format').choices(['text', 'json']).default('text');
  program
    .command('check')
    .description('Check contracts against the schema subset and report every problem with file:line:col.')
    .argument('<inputs...>', 'contract files or folders (searched recursively for *.contract.json)')
    .addOption(formatOption)
    .option('--strict', 'treat warnings as errors', false)
    .option('--exact-numbers', 'keep every digit of numeric bounds instead of rounding them to the nearest f64', false)
    .action((inputs: string[], options: { format: OutputFormat; strict: boolean; exactNumbers: boolean }) => {
      exitCode = runCheck(inputs, options, write);
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
