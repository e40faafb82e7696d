import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { UsageError, contractSuffix, withIoErrors } from '../contract/discover.js';
import { generatedMarker } from '../emit/marker.js';
import type { GeneratedFile } from './file-set.js';

export interface Drift {
  /** Generated files whose committed text differs. */
  readonly stale: readonly string[];
  readonly missing: readonly string[];
  /** Files with our header that no contract produces any more. */
  readonly orphaned: readonly string[];
}

export interface WriteResult {
  readonly written: readonly string[];
  readonly deleted: readonly string[];
  readonly unchanged: readonly string[];
}

function isGenerated(path: string): boolean {
  try {
    return readFileSync(path, 'utf8').startsWith(generatedMarker);
  } catch {
    return false;
  }
}

function existingFiles(outDir: string): string[] {
  if (!existsSync(outDir)) return [];
  return withIoErrors(outDir, () => readdirSync(outDir, { withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
    .sort();
}

/** The output folder must never hold contract sources: a build there could delete what it compiles. */
export function assertOutputFolder(outDir: string, contractFiles: readonly string[]): void {
  const out = resolve(outDir);
  const inside = contractFiles.find((file) => !relative(out, resolve(file)).startsWith('..'));
  const local = existingFiles(outDir).find((name) => name.endsWith(contractSuffix));
  const offending = inside ?? (local === undefined ? undefined : join(outDir, local));
  if (offending !== undefined) throw new UsageError(`${outDir}: the output folder holds the contract source ${offending}; choose another folder with -o`);
}

export function compareOutput(outDir: string, files: readonly GeneratedFile[]): Drift {
  const wanted = new Set(files.map((f) => f.path));
  const stale: string[] = [];
  const missing: string[] = [];
  for (const file of files) {
    const path = join(outDir, file.path);
    if (!existsSync(path)) missing.push(file.path);
    else if (readFileSync(path, 'utf8') !== file.text) stale.push(file.path);
  }
  const orphaned = existingFiles(outDir).filter((name) => !wanted.has(name) && isGenerated(join(outDir, name)));
  return { stale, missing, orphaned };
}

/**
 * Writes the complete file set or nothing: every file goes to a temporary name first, and only
 * when all are written are they renamed into place; stale generated files are deleted last.
 * A file without our header is never overwritten or deleted.
 */
export function writeOutput(outDir: string, files: readonly GeneratedFile[]): WriteResult {
  withIoErrors(outDir, () => mkdirSync(outDir, { recursive: true }));
  const drift = compareOutput(outDir, files);
  const changed = new Set([...drift.stale, ...drift.missing]);
  for (const path of drift.stale) {
    if (!isGenerated(join(outDir, path))) throw new UsageError(`${join(outDir, path)}: not a generated file (no "${generatedMarker}" header); refusing to overwrite it`);
  }
  const pending = files.filter((f) => changed.has(f.path)).map((f) => ({ ...f, target: join(outDir, f.path), temp: join(outDir, `.${f.path}.${process.pid}.tmp`) }));
  try {
    for (const file of pending) withIoErrors(file.temp, () => writeFileSync(file.temp, file.text));
  } catch (error) {
    for (const file of pending) rmSync(file.temp, { force: true });
    throw error;
  }
  for (const file of pending) withIoErrors(file.target, () => renameSync(file.temp, file.target));
  for (const path of drift.orphaned) withIoErrors(path, () => rmSync(join(outDir, path)));
  return {
    written: pending.map((f) => f.path),
    deleted: drift.orphaned,
    unchanged: files.filter((f) => !changed.has(f.path)).map((f) => f.path),
  };
}
