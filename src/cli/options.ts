import { availableParallelism } from 'node:os';
import { InvalidArgumentError, Option } from 'commander';
import type { EmitKind } from '../output/file-set.js';
import { targetProfiles } from '../targets/profiles/index.js';
import { type OutputFormat, outputFormats } from './report.js';

/** The values of the options below as commander hands them to an action. */
export interface SharedFlags {
  readonly emit: EmitKind;
  readonly format: OutputFormat;
  readonly strict?: true;
  readonly exactNumbers?: true;
  readonly jobs: number;
  readonly target?: readonly string[];
  readonly out?: string;
}

/** What `check` and `build` run with, from the flags they share. */
export function sharedOptionsOf(flags: SharedFlags) {
  return { emit: flags.emit, format: flags.format, strict: flags.strict === true, exactNumbers: flags.exactNumbers === true, jobs: flags.jobs, targets: flags.target ?? [] };
}

/**
 * The options that more than one command takes, each declared once with its choices and default.
 * Each call makes a new Option, as every command owns its own.
 */

const emitKinds: Record<EmitKind, string> = { ts: 'one .ts module per contract', js: 'ESM .js plus .d.ts' };

export const emitOption = (): Option =>
  new Option(
    '--emit <kind>',
    `what to write: ${Object.entries(emitKinds)
      .map(([kind, meaning]) => `${kind}, ${meaning}`)
      .join('; ')}`,
  )
    .choices(Object.keys(emitKinds))
    .default('ts' satisfies EmitKind);

export const formatOption = (): Option => new Option('--format <format>', 'how to print the report').choices(outputFormats).default('text');

export const strictOption = (): Option => new Option('--strict', 'treat warnings as errors (exit 1)');

export const exactNumbersOption = (): Option => new Option('--exact-numbers', 'keep every digit of numbers, in bounds and in values, instead of rounding to the nearest f64');

export const jobsOption = (): Option => new Option('-j, --jobs <n>', 'threads to generate code on, each taking at least 32 contracts').argParser(positiveInteger).default(availableParallelism(), 'the number of cores');

export const targetOption = (): Option => new Option('--target <names>', `add what these targets refuse (errors) or do not enforce (warnings); comma-separated or repeated: ${[...targetProfiles.keys()].join(', ')}`).argParser(addTargets);

function positiveInteger(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new InvalidArgumentError('It takes a whole number of at least 1.');
  return value;
}

function addTargets(text: string, previous: readonly string[] | undefined): string[] {
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.find((name) => !targetProfiles.has(name));
  if (unknown !== undefined) throw new InvalidArgumentError(`Unknown target "${unknown}"; the targets are ${[...targetProfiles.keys()].join(', ')}.`);
  return [...new Set([...(previous ?? []), ...names])];
}
