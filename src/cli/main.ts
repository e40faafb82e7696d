import { availableParallelism } from 'node:os';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../diagnostics/usage-error.js';
import type { EmitKind } from '../output/file-set.js';
import { targetProfiles } from '../targets/profiles/index.js';
import { version } from '../version.js';
import { runBuild, watchBuild } from './build.js';
import { runCheck } from './check.js';
import { runDiff } from './diff.js';
import { initTemplates, runInit } from './init.js';
import { importUsage, parseImportArgs, runImport } from './import.js';
import type { OutputFormat } from './report.js';

/** What `check` and `build` share: the flags that decide what a build generates, and how it reports. */
const sharedOptions = {
  emit: { type: 'string', default: 'ts' },
  format: { type: 'string', default: 'text' },
  strict: { type: 'boolean', default: false },
  'exact-numbers': { type: 'boolean', default: false },
  jobs: { type: 'string', short: 'j' },
  out: { type: 'string', short: 'o' },
  target: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsConfig['options'];

const usage = () => `Usage: jtc <command> <files or folders…> [options]

Compile JSON tool contracts into standalone validators and typed interfaces.

Commands:
  check    Check contracts against the schema subset and report every problem with file:line:col;
           with -o, also check that generated output is up to date (stale, missing, orphaned files fail).
  build    Check contracts and write one validator module per contract plus an index;
           writes nothing if any contract has an error.
  diff     Compare two versions of a set of contracts (jtc diff <old> <new>, or jtc diff --base <git rev> <inputs…>)
           and classify every change for callers and for consumers of the output; exit 1 when one breaks.
  init     Start a project in a folder (default: the current one): a contract, its module, a typed handler map,
           an MCP server (--template mcp, the default) or an AI SDK loop (--template ai-sdk) and a test;
           refuses, writing nothing, if any of its files exists.
  import   Write contracts from tools that exist: a tools/list file, provider function definitions, or a
           live MCP server (--stdio "<command>", --url <endpoint>); exact rewrites only (jtc import --help).

Options:
  -o, --out <dir>     output folder (required by build; for check, the folder to compare against)
  --emit <kind>       ts: one .ts module per contract; js: ESM .js plus .d.ts (default: ts)
  --format <format>   text or json (default: text)
  --strict            treat warnings as errors
  --exact-numbers     keep every digit of numbers, in bounds and in values, instead of rounding to the nearest f64
  -j, --jobs <n>      threads to generate code on, each taking at least 32 contracts (default: the number of cores)
  --target <names>    add what these targets refuse (errors) or do not enforce (warnings), comma-separated:
                      ${[...targetProfiles.keys()].join(', ')}
  -w, --watch         build only: rebuild on every change until interrupted
  --no-cache          build only: compile every contract, and keep no cache in <dir>/.jtc-cache
  --base <rev>        diff only: the git revision holding the old version of the inputs
  --template <name>   init only: mcp or ai-sdk (default: mcp)
  -h, --help          show this help
  -v, --version       show the version

Inputs are searched recursively for *.contract.json. Exit codes: 0 clean, 1 contract errors (or drift,
or warnings with --strict), 2 usage or I/O errors.
`;

/** Runs the CLI and returns its exit code; never throws for a user's mistake. */
export async function main(argv: readonly string[]): Promise<number> {
  const write = (text: string): void => {
    process.stdout.write(text);
  };
  try {
    const [command, ...rest] = argv;
    if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
      write(usage());
      return command === undefined ? 2 : 0;
    }
    if (command === '-v' || command === '--version') {
      write(`${version}\n`);
      return 0;
    }
    if (command === 'diff') return diffCommand(rest, write);
    if (command === 'init') return initCommand(rest, write);
    if (command === 'import') return await importCommand(rest, write);
    if (command !== 'check' && command !== 'build') throw new UsageError(`unknown command "${command}"; the commands are check, build, diff, init and import (jtc --help)`);
    const options = command === 'build' ? { ...sharedOptions, watch: { type: 'boolean', short: 'w', default: false } as const, 'no-cache': { type: 'boolean', default: false } as const } : sharedOptions;
    const parsed = parseOptions(rest, options);
    const values = parsed.values as unknown as Record<string, string | boolean | undefined>;
    if (values['help'] === true) {
      write(usage());
      return 0;
    }
    const inputs = parsed.positionals;
    if (inputs.length === 0) throw new UsageError(`${command}: name contract files or folders (jtc --help)`);
    const shared = {
      emit: oneOf<EmitKind>('--emit', values['emit'] as string, ['ts', 'js']),
      format: oneOf<OutputFormat>('--format', values['format'] as string, ['text', 'json']),
      strict: values['strict'] === true,
      exactNumbers: values['exact-numbers'] === true,
      jobs: values['jobs'] === undefined ? availableParallelism() : positiveInteger('--jobs', values['jobs'] as string),
      targets: targetsOf((parsed.values as { target?: string[] }).target ?? []),
    };
    const out = values['out'] as string | undefined;
    if (command === 'check') return await runCheck(inputs, out === undefined ? shared : { ...shared, out }, write);
    if (out === undefined) throw new UsageError('build: name the output folder with -o <dir>');
    const build = { ...shared, out, cache: values['no-cache'] !== true };
    return values['watch'] === true ? await watchBuild(inputs, build, write) : await runBuild(inputs, build, write);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`jtc: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

async function importCommand(args: readonly string[], write: (text: string) => void): Promise<number> {
  const options = parseImportArgs(args);
  if (options === 'help') {
    write(importUsage);
    return 0;
  }
  return runImport(options, write);
}

function diffCommand(args: readonly string[], write: (text: string) => void): number {
  const parsed = parseOptions(args, {
    format: { type: 'string', default: 'text' },
    'exact-numbers': { type: 'boolean', default: false },
    base: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  const values = parsed.values as { format: string; 'exact-numbers': boolean; base?: string; help: boolean };
  if (values.help) {
    write(usage());
    return 0;
  }
  const base = values.base;
  const options = { format: oneOf<OutputFormat>('--format', values.format, ['text', 'json']), exactNumbers: values['exact-numbers'] };
  return runDiff(parsed.positionals, base === undefined ? options : { ...options, base }, write);
}

function initCommand(args: readonly string[], write: (text: string) => void): number {
  const parsed = parseOptions(args, { template: { type: 'string', default: 'mcp' }, help: { type: 'boolean', short: 'h', default: false } });
  if (parsed.values.help) {
    write(usage());
    return 0;
  }
  if (parsed.positionals.length > 1) throw new UsageError(`init: one folder at most, got ${parsed.positionals.length} (jtc init [dir] [--template ${initTemplates.join('|')}])`);
  return runInit(parsed.positionals[0] ?? '.', parsed.values.template, write);
}

function parseOptions<O extends NonNullable<ParseArgsConfig['options']>>(args: readonly string[], options: O) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message.replace(/\. To specify a positional argument starting with a '-'.*$/, '')} (jtc --help)`);
  }
}

function targetsOf(flags: readonly string[]): string[] {
  const names = flags
    .flatMap((flag) => flag.split(','))
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.find((name) => !targetProfiles.has(name));
  if (unknown !== undefined) throw new UsageError(`--target: unknown target "${unknown}"; the targets are ${[...targetProfiles.keys()].join(', ')}`);
  return [...new Set(names)];
}

function oneOf<T extends string>(flag: string, value: string, choices: readonly T[]): T {
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} takes ${choices.join(' or ')}, not "${value}"`);
}

function positiveInteger(flag: string, text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new UsageError(`${flag} takes a whole number of at least 1, not "${text}"`);
  return value;
}
