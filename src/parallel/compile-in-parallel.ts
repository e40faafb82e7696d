import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { assembleBuild, compileSource, type CompiledSource, type CompileOptions, type CompileResult } from '../compiler.js';
import type { SourceText } from '../contract/check-contracts.js';

/** Below this many contracts per thread, starting a worker (about 0.1 s) costs more than it saves. */
export const contractsPerThread = 32;

export interface WorkerInput {
  readonly sources: readonly SourceText[];
  readonly options: CompileOptions;
}

/**
 * `compileContracts` on up to `jobs` threads: this one and `jobs - 1` workers each compile every
 * `jobs`-th source, and the results are assembled here. The output is the same bytes as a
 * single-threaded build, since a module depends on its own contract alone.
 */
export async function compileInParallel(sources: readonly SourceText[], options: CompileOptions = {}, jobs = availableParallelism()): Promise<CompileResult & { readonly threads: number }> {
  const { compiled, threads } = await compileSourcesInParallel(sources, options, jobs);
  return { ...assembleBuild(compiled, options), threads };
}

/** Each source compiled on its own (`compileSource`), on up to `jobs` threads, in the order of `sources`. */
export async function compileSourcesInParallel(sources: readonly SourceText[], options: CompileOptions, jobs: number): Promise<{ readonly compiled: CompiledSource[]; readonly threads: number }> {
  const threads = Math.max(1, Math.min(jobs, Math.floor(sources.length / contractsPerThread)));
  const shares = Array.from({ length: threads }, (_, thread) => sources.filter((_, index) => index % threads === thread));
  const remote = shares.slice(1).map((share) => compileInWorker({ sources: share, options }));
  // This thread takes the first share while the workers start and take theirs.
  const local = shares[0]!.map((source) => compileSource(source, options));
  const byThread = [local, ...(await Promise.all(remote))];
  // Share t holds the sources t, t + threads, t + 2·threads, …: put each result back in its place.
  return { compiled: sources.map((_, index) => byThread[index % threads]![Math.floor(index / threads)]!), threads };
}

function compileInWorker(input: WorkerInput): Promise<CompiledSource[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./worker.js', import.meta.url), { workerData: input });
    worker.once('message', (compiled: CompiledSource[]) => resolve(compiled));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`a compile worker stopped with exit code ${code}`));
    });
  });
}
