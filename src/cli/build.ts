import { watch, type FSWatcher } from 'node:fs';
import { discoverContracts, readContractSources, UsageError } from '../contract/discover.js';
import type { EmitKind } from '../output/file-set.js';
import { compileInParallel } from '../parallel/compile-in-parallel.js';
import { assertOutputFolder, writeOutput } from '../output/write.js';
import { exitCodeFor, formatReport, summarize, type OutputFormat } from './report.js';

export interface BuildCommandOptions {
  readonly out: string;
  readonly emit: EmitKind;
  readonly format: OutputFormat;
  readonly strict: boolean;
  readonly exactNumbers: boolean;
  /** Threads to compile on; a thread takes at least 32 contracts. */
  readonly jobs: number;
}

/** One build: all contracts are checked, and the output is written only if none has an error. */
export async function runBuild(inputs: readonly string[], options: BuildCommandOptions, write: (text: string) => void): Promise<number> {
  const paths = discoverContracts(inputs);
  assertOutputFolder(options.out, paths);
  const sources = readContractSources(paths).map((s) => ({ file: s.file, text: s.bytes }));
  const result = await compileInParallel(sources, { emit: options.emit, exactNumbers: options.exactNumbers }, options.jobs);
  const summary = summarize(sources.length, result.diagnostics);
  const exitCode = exitCodeFor(summary, options.strict);
  if (exitCode !== 0) {
    write(formatReport(options.format, result.diagnostics, summary, { written: [], deleted: [] }, ['build failed: no file was written']));
    return exitCode;
  }
  const outcome = writeOutput(options.out, result.files);
  const threads = result.threads > 1 ? ` on ${result.threads} threads` : '';
  const line = `built ${result.files.length} files into ${options.out}${threads}: ${outcome.written.length} written, ${outcome.deleted.length} deleted, ${outcome.unchanged.length} unchanged`;
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
    const schedule = (_event: string, fileName: string | Buffer | null): void => {
      // Our own writes (an output folder inside a watched one) must not trigger another build.
      if (fileName !== null && /\.(ts|js|tmp)$/.test(String(fileName))) return;
      clearTimeout(timer);
      timer = setTimeout(() => rebuild().catch(reject), debounceMs);
    };
    // Watching starts before the first build, so a change made as soon as it reports is seen.
    const watchers: FSWatcher[] = inputs.map((input) => watch(input, { recursive: true }, schedule));
    const stop = (): void => {
      clearTimeout(timer);
      watchers.forEach((w) => w.close());
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
