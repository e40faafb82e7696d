import { Option } from 'commander';
import { existsSync, statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, relative, resolve, sep } from 'node:path';
import { discoverContracts, readContractSources } from '../contract/discover.js';
import { UsageError } from '../diagnostics/usage-error.js';
import type { EmitKind, SupportKind } from '../output/file-set.js';
import { type CompiledSource, assembleBuild } from '../compiler.js';
import { BuildCache, removeBuildCache } from '../output/build-cache.js';
import { compileSourcesInParallel, contractsPerThread } from '../parallel/compile-in-parallel.js';
import { version } from '../version.js';
import { supportFingerprint } from '../codegen/helpers.js';
import { assertOutputFolder, writeOutput } from '../output/write.js';
import type { CliCommand } from './command.js';
import { checkAndBuildOptions, inputsOf, settingsOf, withOptions } from './options.js';
import { exitCodeFor, formatReport, summarize, type OutputFormat } from './report.js';

/** `jtc build <inputs…> -o <dir>`: one module per contract plus an index, or nothing when a contract has an error. */
export const buildCommand: CliCommand = (program, context) => {
  const command = program
    .command('build')
    .summary('check contracts and write one validator module per contract plus an index')
    .description('Check contracts and write one validator module per contract plus an index; writes nothing if any contract has an error.')
    .argument('[inputs...]', 'contract files, or folders searched recursively for *.contract.json (default: "contracts" in jtc.config.json)');
  withOptions(command, [...checkAndBuildOptions('the output folder (required, unless "out" in jtc.config.json names it)'), new Option('-w, --watch', 'rebuild on every change until interrupted'), new Option('--no-cache', 'compile every contract, and keep no cache in <dir>/.jtc-cache')]).action(
    async (inputs: string[], flags: { format: OutputFormat; jobs: number; watch?: true; cache: boolean }) => {
      const settings = settingsOf(command);
      const { out } = settings;
      if (out === undefined) throw new UsageError('build: name the output folder with -o <dir>, or "out" in jtc.config.json');
      const options = { ...settings, out, format: flags.format, jobs: flags.jobs, cache: flags.cache };
      context.exitCode = await (flags.watch === true ? watchBuild : runBuild)(inputsOf('build', inputs, settings), options, context.write);
    },
  );
};

export interface BuildCommandOptions {
  readonly out: string;
  readonly emit: EmitKind;
  /** Where the support code goes (`--support`; default inline). */
  readonly support?: SupportKind;
  readonly format: OutputFormat;
  readonly strict: boolean;
  readonly exactNumbers: boolean;
  /** Threads to compile on; a thread takes at least 32 contracts. */
  readonly jobs: number;
  /** Target profiles whose findings are added (`--target`). */
  readonly targets: readonly string[];
  /** Reuse what the last build into this folder compiled (default true; `--no-cache`). */
  readonly cache?: boolean;
}

/**
 * One build: all contracts are checked, and the output is written only if none has an error. With
 * the cache (the default), a contract whose bytes, path and flags are unchanged and whose module
 * files are as the last build left them is neither compiled nor read again.
 */
export async function runBuild(inputs: readonly string[], options: BuildCommandOptions, write: (text: string) => void): Promise<number> {
  const paths = discoverContracts(inputs);
  assertOutputFolder(options.out, paths);
  const sources = readContractSources(paths).map((s) => ({ file: s.file, text: s.bytes }));
  const support = options.support ?? 'inline';
  const compileOptions = { emit: options.emit, support, exactNumbers: options.exactNumbers, targets: options.targets };
  // Targets change only diagnostics, which the cache keeps per contract: they are part of the key.
  const flags = JSON.stringify([options.emit, options.exactNumbers, options.targets, support]);
  const cache = options.cache === false ? undefined : BuildCache.open(options.out, `${version} ${supportFingerprint()} ${flags}`, options.emit, support);
  if (cache === undefined) removeBuildCache(options.out);
  const keys = sources.map((source) => cache?.keyOf(source, flags));
  const cached = keys.map((key, i) => (key === undefined ? undefined : cache?.hit(key, sources[i]!.file)));
  const misses = sources.filter((_, i) => cached[i] === undefined);
  const fresh = (await compileSourcesInParallel(misses, compileOptions, options.jobs)).compiled;
  let next = 0;
  const compiled: CompiledSource[] = cached.map((entry) => (entry === undefined ? fresh[next++]! : { diagnostics: entry.diagnostics, ...(entry.contract === undefined ? {} : { contract: entry.contract }), ...(entry.supportHelpers === undefined ? {} : { supportHelpers: entry.supportHelpers }), files: [] }));
  const result = { ...assembleBuild(compiled, compileOptions), threads: Math.max(1, Math.min(options.jobs, Math.floor(misses.length / contractsPerThread))) };
  const summary = summarize(sources.length, result.diagnostics);
  const exitCode = exitCodeFor(summary, options.strict);
  if (exitCode !== 0) {
    write(formatReport(options.format, result.diagnostics, summary, { written: [], deleted: [] }, ['build failed: no file was written']));
    return exitCode;
  }
  const unchanged = cached.flatMap((entry) => entry?.files.map((f) => f.path) ?? []);
  const outcome = writeOutput(options.out, result.files, {
    unchanged,
    beforeWrite: () => {
      // The files taken as up to date were checked before the lock: another build may have written them since.
      if (unchanged.length > 0 && cache?.isAsOpened() === false) throw new UsageError(`${options.out}: another jtc build wrote here while this one ran; nothing was written, run the build again`);
    },
    afterWrite: () => {
      if (cache === undefined) return;
      compiled.forEach((source, i) => {
        if (cached[i] === undefined) cache.record(keys[i]!, source);
      });
      cache.save();
    },
  });
  const threads = result.threads > 1 ? ` on ${result.threads} threads` : '';
  const line = `built ${result.files.length + unchanged.length} files into ${options.out}${threads}: ${outcome.written.length} written, ${outcome.deleted.length} deleted, ${outcome.unchanged.length} unchanged`;
  write(formatReport(options.format, result.diagnostics, summary, { written: outcome.written, deleted: outcome.deleted }, [line]));
  return 0;
}

const debounceMs = 100;

/**
 * Rebuilds whenever a contract changes. A failed rebuild prints its diagnostics and leaves the
 * last good output in place. Resolves with 0 on SIGINT or SIGTERM.
 */
export function watchBuild(inputs: readonly string[], options: BuildCommandOptions, write: (text: string) => void, signal?: AbortSignal): Promise<number> {
  let building = false;
  let changedWhileBuilding = false;
  // One build at a time: a change during a build asks for one more build after it.
  const rebuild = async (): Promise<void> => {
    if (building) {
      changedWhileBuilding = true;
      return;
    }
    building = true;
    try {
      const code = await runBuild(inputs, options, write);
      write(code === 0 ? `[${new Date().toISOString()}] rebuilt; watching for changes\n` : `[${new Date().toISOString()}] build failed; kept the last good output\n`);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      write(`jtc: ${error.message}\n`);
    } finally {
      building = false;
    }
    if (changedWhileBuilding) {
      changedWhileBuilding = false;
      await rebuild();
    }
  };
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const schedule = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => rebuild().catch(reject), debounceMs);
    };
    // Watching starts before the first build, so a change made as soon as it reports is seen.
    const watchers = inputs.map((input) => new InputWatcher(input, schedule));
    // Saves by rename, deletions and re-creations replace what a watcher holds: re-arm on a change of
    // kind or identity. The interval also keeps the process alive when every watcher has closed.
    const rearm = setInterval(() => {
      for (const watcher of watchers) watcher.rearmIfReplaced();
    }, rearmMs);
    const stop = (): void => {
      clearTimeout(timer);
      clearInterval(rearm);
      for (const watcher of watchers) watcher.close();
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      write('stopped watching\n');
      resolve(0);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    signal?.addEventListener('abort', stop);
    rebuild().catch(reject);
  });
}

const rearmMs = 500;

/** Our own writes (an output folder inside a watched one) must not trigger another build. */
const ownOutput = /\.(m?ts|m?js|tmp|lock)$|(^|[\\/])\.jtc-cache([\\/]|$)/;

/**
 * Watches one input as it is now: a folder recursively, a file through its folder (an editor that
 * saves by writing a temporary file and renaming it over the contract replaces the file's inode,
 * which a watcher on the file itself would lose), a missing path through its nearest existing
 * folder. Errors (a watched folder deleted) never escape: the watcher re-arms.
 */
class InputWatcher {
  private watcher: FSWatcher | undefined;
  private identity = '';
  /** The watched folder or file went away: an inode may be reused at once, so identity alone cannot tell. */
  private lost = false;

  constructor(
    private readonly input: string,
    private readonly changed: () => void,
  ) {
    this.arm();
  }

  rearmIfReplaced(): void {
    if (!this.lost && this.watcher !== undefined && identityOf(this.input) === this.identity) return;
    this.arm();
    this.changed();
  }

  close(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }

  private arm(): void {
    this.close();
    this.lost = false;
    this.identity = identityOf(this.input);
    const kind = this.identity.split(':')[0];
    const folder = kind === 'folder' ? this.input : kind === 'file' ? dirname(this.input) : nearestFolder(this.input);
    // The one entry of the watched folder that matters: the file itself, or the next folder on the way to a missing input.
    const entry = kind === 'file' ? basename(this.input) : kind === 'missing' ? relative(folder, resolve(this.input)).split(sep)[0] : undefined;
    const onEvent = (_event: string, fileName: string | Buffer | null): void => {
      const name = fileName === null ? null : String(fileName);
      if (entry !== undefined && name !== null && name !== entry) return;
      if (kind === 'folder' && name !== null && ownOutput.test(name)) return;
      if (!existsSync(this.input)) this.lost = true;
      this.changed();
    };
    try {
      this.watcher = watch(folder, kind === 'folder' ? { recursive: true } : {}, onEvent);
      this.watcher.on('error', () => {
        this.lost = true;
        this.close();
      });
    } catch {
      // Nothing to watch right now (a folder being deleted); the next re-arm tries again.
      this.watcher = undefined;
    }
  }
}

/** Kind and inode of a path: any save by rename, deletion or re-creation changes it. */
function identityOf(path: string): string {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (stat === undefined) return `missing:${nearestFolder(path)}`;
  return `${stat.isDirectory() ? 'folder' : 'file'}:${stat.dev}:${stat.ino}`;
}

function nearestFolder(path: string): string {
  let folder = resolve(path);
  while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
  return folder;
}
