import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { supportKinds } from '../emit/support-module.js';
import { type ConfigSearch, defaultProjectOptions, emitKinds, formatConfigProblem, type ProjectOptions, readProjectConfigFile, searchProjectConfig } from '../config/project-config.js';
import { escapeForTerminal } from '../diagnostics/diagnostic.js';
import { UsageError } from '../diagnostics/usage-error.js';
import { targetProfiles } from '../targets/profiles/index.js';
import { type OutputFormat, outputFormats } from './report.js';

/**
 * The options that more than one command takes, each declared once with its choices and default.
 * Each call makes a new Option, as every command owns its own. Where `jtc.config.json` has a field
 * for an option, a flag given on the command line wins over the file, and the file over the default.
 */

const outOption = (description: string): Option => new Option('-o, --out <dir>', description);

const emitOption = (): Option =>
  new Option(
    '--emit <kind>',
    `what to write: ${Object.entries(emitKinds)
      .map(([kind, meaning]) => `${kind}, ${meaning}`)
      .join('; ')}`,
  )
    .choices(Object.keys(emitKinds))
    .default(defaultProjectOptions.emit);

const supportOption = (): Option =>
  new Option(
    '--support <kind>',
    `where the support code goes: ${Object.entries(supportKinds)
      .map(([kind, meaning]) => `${kind}, ${meaning}`)
      .join('; ')}`,
  )
    .choices(Object.keys(supportKinds))
    .default(defaultProjectOptions.support);

export const formatOption = (): Option => new Option('--format <format>', 'how to print the report').choices(outputFormats).default('text' satisfies OutputFormat);

/** `--name` and `--no-name`: the second overrides `"field": true` in jtc.config.json. */
const switchOptions = (name: string, description: string, negation: string): Option[] => [new Option(`--${name}`, description), new Option(`--no-${name}`, `${negation} (over jtc.config.json)`)];

const strictOptions = (): Option[] => switchOptions('strict', 'treat warnings as errors (exit 1)', 'let warnings pass');

export const exactNumbersOptions = (): Option[] => switchOptions('exact-numbers', 'keep every digit of numbers, in bounds and in values, instead of rounding to the nearest f64', 'round numbers to the nearest f64');

const jobsOption = (): Option => new Option('-j, --jobs <n>', 'threads to generate code on, each taking at least 32 contracts').argParser(positiveInteger).default(availableParallelism(), 'the number of cores');

const targetOption = (): Option => new Option('--target <names>', `add what these targets refuse (errors) or do not enforce (warnings); comma-separated or repeated: ${[...targetProfiles.keys()].join(', ')}`).argParser(addTargets);

/** `--verbose`: which jtc.config.json applies, on standard error (standard output stays the report). */
export const verboseOption = (): Option => new Option('--verbose', 'say on standard error which jtc.config.json applies, or where the search for one stopped');

/** What `check` and `build` both take, `-o` described for the command. */
export const checkAndBuildOptions = (outDescription: string): Option[] => [outOption(outDescription), emitOption(), supportOption(), formatOption(), ...strictOptions(), ...exactNumbersOptions(), jobsOption(), targetOption(), verboseOption()];

/** Adds options to a command, in order. */
export function withOptions(command: Command, options: readonly (Option | Option[])[]): Command {
  for (const option of options.flat()) command.addOption(option);
  return command;
}

/** What a command runs with: its flags over the project configuration over the defaults; paths as the user would type them. */
export type Settings = ProjectOptions;

/**
 * The settings of a command about to run, from the `jtc.config.json` that applies to the working
 * folder (a problem in it is a usage error listing every problem) under the flags given.
 */
export function settingsOf(command: Command): Settings {
  const cwd = process.cwd();
  const shown = (path: string): string => relative(cwd, path) || '.';
  const search = searchProjectConfig(cwd);
  if (command.getOptionValue('verbose') === true) process.stderr.write(`jtc: ${escapeForTerminal(describeSearch(search, shown))}\n`);
  const config = search.file === undefined ? undefined : readProjectConfigFile(search.file);
  if (config !== undefined && config.problems.length > 0) throw new ConfigurationError(config.problems.map((problem) => formatConfigProblem(problem, shown(problem.file))));
  const project: ProjectOptions = config?.options ?? defaultProjectOptions;
  const given = <T>(flag: string, otherwise: T): T => (command.getOptionValueSource(flag) === 'cli' ? (command.getOptionValue(flag) as T) : otherwise);
  const out = given('out', project.out === undefined ? undefined : shown(project.out));
  const settings = { emit: given('emit', project.emit), support: given('support', project.support), exactNumbers: given('exactNumbers', project.exactNumbers), strict: given('strict', project.strict), targets: given('target', project.targets) };
  const withOut = out === undefined ? settings : { ...settings, out };
  return project.contracts === undefined ? withOut : { ...withOut, contracts: project.contracts.map(shown) };
}

/** Which configuration applies, or where the search stopped without one, for `--verbose`. */
function describeSearch(search: ConfigSearch, shown: (path: string) => string): string {
  if (search.file !== undefined) return `configuration: ${shown(search.file)}`;
  const stop = {
    'package.json': `stopped at ${shown(search.stoppedAt)}, a project's root (it holds package.json)`,
    '.git': `stopped at ${shown(search.stoppedAt)}, a repository's root (it holds .git)`,
    'home folder': `stopped below ${search.stoppedAt}, the home folder`,
    'file system root': `reached ${search.stoppedAt}, the root of the file system`,
  }[search.boundary];
  return `configuration: none (the search for jtc.config.json ${stop}); the built-in defaults apply`;
}

/** Every problem of a configuration file, one line each (`main` prefixes each with `jtc:`), each escaped for the terminal. */
class ConfigurationError extends UsageError {
  constructor(lines: readonly string[]) {
    super('');
    this.message = lines.map(escapeForTerminal).join('\n');
  }
}

/** The inputs named after the command, or else the configuration's `contracts`. */
export function inputsOf(command: string, inputs: readonly string[], settings: Settings): readonly string[] {
  if (inputs.length > 0) return inputs;
  if (settings.contracts !== undefined) return settings.contracts;
  throw new UsageError(`${command}: name contract files or folders, or list them in jtc.config.json "contracts" (jtc help ${command})`);
}

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
