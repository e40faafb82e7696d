import { Command, CommanderError } from 'commander';
import { UsageError } from '../diagnostics/usage-error.js';
import { version } from '../version.js';
import type { CommandContext } from './command.js';
import * as commands from './commands.js';

/** Runs the CLI and returns its exit code; never throws for a user's mistake. */
export async function main(argv: readonly string[]): Promise<number> {
  const context: CommandContext = {
    write: (text) => {
      process.stdout.write(text);
    },
    exitCode: 0,
  };
  const program = new Command('jtc')
    .description('Compile JSON tool contracts into standalone validators and typed interfaces.')
    .version(version, '-v, --version', 'show the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand('help [command]', 'show help for a command')
    // Commander's errors are thrown, not printed, so that each becomes one `jtc:` line with exit 2.
    .exitOverride()
    .configureOutput({ outputError: () => undefined })
    .showSuggestionAfterError()
    .addHelpText('after', '\nInputs are searched recursively for *.contract.json. What the command line leaves out comes from the\nnearest jtc.config.json (docs/configuration.md). Exit codes: 0 clean, 1 contract errors (or drift, or\nwarnings with --strict, or a breaking change for diff), 2 usage or I/O errors.');
  for (const command of Object.values(commands)) command(program, context);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return context.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return commanderExit(error);
    if (error instanceof UsageError) {
      reportUsageError(error.message);
      return 2;
    }
    throw error;
  }
}

/** Help and version end with exit 0; help shown because no command was named, and every parse error, with 2. */
function commanderExit(error: CommanderError): number {
  if (error.exitCode === 0) return 0;
  // The help itself, already written to standard error, is the message.
  if (error.code !== 'commander.help') reportUsageError(error.message.replace(/^error: /, ''));
  return 2;
}

/** One `jtc:` line per line of the message (commander puts its suggestion on a line of its own). */
function reportUsageError(message: string): void {
  process.stderr.write(`jtc: ${message.replace(/\n(?=\(Did you mean)/, ' ').replaceAll('\n', '\njtc: ')}\n`);
}
