import type { Command } from 'commander';

/** What every command's action is given by `main`, and hands back. */
export interface CommandContext {
  /** Standard output; reports go here, usage errors are thrown as UsageError. */
  readonly write: (text: string) => void;
  /** Set by the command's action: 0 clean, 1 contract errors, drift or breaking changes. */
  exitCode: number;
}

/** A command registers itself (name, arguments, options, help, action) on the program. */
export type CliCommand = (program: Command, context: CommandContext) => void;
