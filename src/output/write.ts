import { existsSync, linkSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { contractSuffix } from '../contract/discover.js';
import { type EntryKind, kindOf, misplaced, readRegularFile } from '../diagnostics/read-file.js';
import { UsageError, withIoErrors } from '../diagnostics/usage-error.js';
import { generatedMarker } from '../emit/marker.js';
import type { GeneratedFile } from './file-set.js';
import { lockOutput } from './lock.js';
import { randomTempName, removeStaleTemps } from './temp-files.js';

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

const markerBytes = Buffer.from(generatedMarker);

/** Whether a regular file starts with our header; only the header's bytes are read. */
function isGenerated(path: string): boolean {
  try {
    return readRegularFile(path, { limit: markerBytes.length, role: 'a generated file', followLinks: true })?.equals(markerBytes) === true;
  } catch {
    return false;
  }
}

/** Whether the file holds exactly `text`: at most one byte more than the text is read. */
function holdsText(path: string, text: string): boolean {
  const expected = Buffer.from(text);
  return readRegularFile(path, { limit: expected.length + 1, role: 'a generated file', followLinks: true })?.equals(expected) === true;
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

export function compareOutput(outDir: string, files: readonly GeneratedFile[], unchanged: readonly string[] = []): Drift {
  const wanted = new Set([...files.map((f) => f.path), ...unchanged]);
  const stale: string[] = [];
  const missing: string[] = [];
  for (const file of files) {
    const path = join(outDir, file.path);
    const kind = entryKind(path);
    if (kind === 'none') missing.push(file.path);
    else if (kind !== 'file') throw misplaced(path, kind, 'a generated file');
    else if (!holdsText(path, file.text)) stale.push(file.path);
  }
  const orphaned = existingFiles(outDir).filter((name) => !wanted.has(name) && isGenerated(join(outDir, name)));
  return { stale, missing, orphaned };
}

/** What stands at a path (through a symlink); a dangling link counts as nothing, since the rename replaces it. */
function entryKind(path: string): EntryKind | 'none' {
  const stat = withIoErrors(path, () => statSync(path, { throwIfNoEntry: false }));
  return stat === undefined ? 'none' : kindOf(stat);
}

/**
 * Writes the complete file set or nothing: every file goes to a temporary name first (created
 * exclusively, with an unpredictable name, so a planted file or symlink is never written through),
 * and only when all are written are they renamed into place; stale generated files are deleted
 * last. A file without our header is never overwritten or deleted. The folder is locked while
 * this runs: a second build into it stops with a message instead of mixing its files in.
 */
export function writeOutput(outDir: string, files: readonly GeneratedFile[], options: WriteOptions = {}): WriteResult {
  withIoErrors(outDir, () => mkdirSync(outDir, { recursive: true }));
  const release = lockOutput(outDir);
  try {
    options.beforeWrite?.();
    removeStaleTemps(outDir);
    const result = writeLocked(outDir, files, options.tempName ?? randomTempName, options.unchanged ?? []);
    options.afterWrite?.();
    return result;
  } finally {
    release();
  }
}

export interface WriteOptions {
  readonly tempName?: () => string;
  /** Files an incremental build knows to be up to date: neither read nor deleted. */
  readonly unchanged?: readonly string[];
  /** Runs under the lock before anything is written; throwing stops the write with nothing changed. */
  readonly beforeWrite?: () => void;
  /** Runs under the lock once every file is in place (the build cache is saved here). */
  readonly afterWrite?: () => void;
}

/** A file to write through a temporary one: `text` goes to `temp`, then `temp` is renamed over `target`. */
export interface StagedFile {
  readonly target: string;
  readonly temp: string;
  readonly text: string;
}

/**
 * Every file or none: each text to its temporary file first, created exclusively (a failure removes
 * them all and leaves every target as it was), then each renamed into place, so a target is always
 * its old or its new complete text. With `overwrite: false` no target may exist: each is linked
 * into place, which fails on a name taken meanwhile, and a failure removes the ones placed, so the
 * targets are all there or none is.
 */
export function writeAllOrNothing(files: readonly StagedFile[], options: { readonly overwrite?: boolean } = {}): void {
  try {
    for (const file of files) withIoErrors(file.temp, () => writeFileSync(file.temp, file.text, { flag: 'wx' }));
  } catch (error) {
    for (const file of files) rmSync(file.temp, { force: true });
    throw error;
  }
  if (options.overwrite === false) placeNew(files);
  else for (const file of files) withIoErrors(file.target, () => renameSync(file.temp, file.target));
}

/** Links each temporary file at its target, none of which may exist; all placed, or none (the temporary files are removed either way). */
function placeNew(files: readonly StagedFile[]): void {
  const placed: string[] = [];
  try {
    for (const file of files) {
      withIoErrors(file.target, () => linkSync(file.temp, file.target));
      placed.push(file.target);
    }
  } catch (error) {
    for (const target of placed) rmSync(target, { force: true });
    throw error;
  } finally {
    for (const file of files) rmSync(file.temp, { force: true });
  }
}

/** `unchanged`: files an incremental build knows to be up to date; they are neither read nor deleted. */
function writeLocked(outDir: string, files: readonly GeneratedFile[], tempName: () => string, unchanged: readonly string[]): WriteResult {
  const drift = compareOutput(outDir, files, unchanged);
  const changed = new Set([...drift.stale, ...drift.missing]);
  for (const path of drift.stale) {
    if (!isGenerated(join(outDir, path))) throw new UsageError(`${join(outDir, path)}: not a generated file (no "${generatedMarker}" header); refusing to overwrite it`);
  }
  const pending = files.filter((f) => changed.has(f.path)).map((f) => ({ ...f, target: join(outDir, f.path), temp: join(outDir, tempName()) }));
  writeAllOrNothing(pending);
  for (const path of drift.orphaned) withIoErrors(path, () => rmSync(join(outDir, path)));
  return {
    written: pending.map((f) => f.path),
    deleted: drift.orphaned,
    unchanged: [...files.filter((f) => !changed.has(f.path)).map((f) => f.path), ...unchanged].sort(),
  };
}
