import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { SourceText } from '../contract/check-contracts.js';
import { toolNameProblem } from '../contract/names.js';
import { diagnosticCodes, type DiagnosticCode } from '../diagnostics/codes.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { entryAt, misplaced, readRegularFile } from '../diagnostics/read-file.js';
import { isHelperName } from '../codegen/helpers.js';
import { type CompiledSource, type EmitKind, modulePaths, type SupportKind } from './file-set.js';
import { removeStaleTemps, replaceFile } from './temp-files.js';

/**
 * What an incremental build keeps between builds, in `<out>/.jtc-cache/` (with a `.gitignore` of
 * its own, so committed output never carries it). Per contract, keyed by its path, its bytes, the
 * generator version and the flags that change its module: its diagnostics, what the set checks need,
 * the helpers its module imports (with shared support: the support module is assembled from them), and the size, modification time and inode of each module file as the build left it. A contract
 * whose key and files match is not compiled again and its files are not read; anything else is.
 * The checks across the set and the index run on every build. A cache that cannot be read, is
 * foreign or was written by another version is ignored, never trusted; so is an entry edited by
 * hand (each is sealed with a hash of its key and text) or one that claims what its source cannot
 * have produced (see `claimsHold`).
 */
export interface CachedSource {
  readonly diagnostics: readonly Diagnostic[];
  readonly contract?: CompiledSource['contract'];
  readonly supportHelpers?: CompiledSource['supportHelpers'];
  readonly files: readonly CachedFile[];
}

interface CachedFile {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
}

interface CacheFile {
  readonly format: typeof cacheFormat;
  readonly generator: string;
  /** Per key, the entry's JSON text and its seal. */
  readonly entries: Record<string, { readonly seal: string; readonly entry: string }>;
}

const cacheFormat = 'json-tool-contracts build cache 2';
const folderName = '.jtc-cache';
const entriesName = 'entries.json';
/** Far above any real cache (a few hundred bytes per contract): a larger file is ignored unread. */
const maxCacheBytes = 64 * 1024 * 1024;

export class BuildCache {
  private readonly entries: Map<string, string>;
  /** This build's entries, as JSON text, for `save`. */
  private readonly next = new Map<string, string>();

  private constructor(
    private readonly outDir: string,
    private readonly generator: string,
    private readonly emit: EmitKind,
    private readonly support: SupportKind,
    entries: ReadonlyMap<string, string>,
    /** The entries file as it was read, to tell whether another build has written since. */
    private readonly opened: string | undefined,
  ) {
    this.entries = new Map(entries);
  }

  /**
   * The cache of an output folder for one kind of build (`generator`: the version and the output
   * flags). Anything but a real folder at `.jtc-cache`, or a regular file at its entries, is a
   * UsageError: the cache is never read or written through a link or from a FIFO or device.
   */
  static open(outDir: string, generator: string, emit: EmitKind, support: SupportKind = 'inline'): BuildCache {
    const folder = join(outDir, folderName);
    const kind = entryAt(folder);
    if (kind !== undefined && kind !== 'folder') throw misplaced(folder, kind, 'the build cache folder');
    const opened = identityOf(outDir);
    return new BuildCache(outDir, generator, emit, support, kind === undefined ? new Map() : readEntries(folder, generator), opened);
  }

  /**
   * Whether no other build has written the folder since this cache was opened: every build that
   * writes replaces the entries file or, without a cache, removes it. Asked under the output lock,
   * so hits found before it was taken still describe the files on disk.
   */
  isAsOpened(): boolean {
    return identityOf(this.outDir) === this.opened;
  }

  keyOf(source: SourceText, options: string): string {
    const hash = createHash('sha256').update(source.file).update('\0').update(options).update('\0');
    hash.update(typeof source.text === 'string' ? source.text : Buffer.from(source.text.buffer, source.text.byteOffset, source.text.byteLength));
    return hash.digest('hex');
  }

  /** The entry of a source (`file`: its path) when its claims hold and every module file it produced is still the one the build left. */
  hit(key: string, file: string): CachedSource | undefined {
    const text = this.entries.get(key);
    if (text === undefined) return undefined;
    const entry = parseEntry(text);
    if (!claimsHold(entry, file, this.emit, this.support)) return undefined;
    for (const cached of entry.files) {
      const stat = fileStat(join(this.outDir, cached.path));
      if (stat === undefined || stat.size !== cached.size || stat.mtimeMs !== cached.mtimeMs || stat.ino !== cached.ino) return undefined;
    }
    this.next.set(key, text);
    return entry;
  }

  /** Records a compiled source once its files are on disk. */
  record(key: string, compiled: CompiledSource): void {
    const files: CachedFile[] = [];
    for (const file of compiled.files) {
      const stat = fileStat(join(this.outDir, file.path));
      if (stat === undefined) return;
      files.push({ path: file.path, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino });
    }
    const helpers = compiled.supportHelpers === undefined ? {} : { supportHelpers: compiled.supportHelpers };
    const entry: CachedSource = compiled.contract === undefined ? { diagnostics: compiled.diagnostics, files } : { diagnostics: compiled.diagnostics, contract: compiled.contract, ...helpers, files };
    this.next.set(key, JSON.stringify(entry));
  }

  /**
   * Writes the entries of this build (and only those: a removed contract's entry goes). Each file
   * is written to a temporary file and renamed into place, inside the real cache folder only.
   */
  save(): void {
    const folder = join(this.outDir, folderName);
    const entries = Object.fromEntries([...this.next].map(([key, entry]) => [key, { seal: sealOf(key, entry), entry }]));
    const file: CacheFile = { format: cacheFormat, generator: this.generator, entries };
    try {
      if (entryAt(folder) === undefined) mkdirSync(folder);
      // Something planted at the folder's name since the build began: the cache is not written through it.
      if (entryAt(folder) !== 'folder') return;
      removeStaleTemps(folder);
      replaceFile(folder, '.gitignore', '*\n');
      replaceFile(folder, entriesName, JSON.stringify(file));
    } catch {
      // A cache that cannot be written only makes the next build a full one.
    }
  }
}

function sealOf(key: string, entry: string): string {
  return createHash('sha256').update(key).update('\0').update(entry).digest('hex');
}

/** The size, modification time and inode of a regular file (never of what a link points to). */
function fileStat(path: string): { readonly size: number; readonly mtimeMs: number; readonly ino: number } | undefined {
  try {
    const stat = lstatSync(path, { throwIfNoEntry: false });
    return stat?.isFile() === true ? stat : undefined;
  } catch {
    return undefined;
  }
}

function identityOf(outDir: string): string | undefined {
  try {
    const stat = lstatSync(join(outDir, folderName, entriesName), { throwIfNoEntry: false });
    return stat === undefined ? undefined : `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch (error) {
    // The cache folder replaced by something else since: not as it was.
    return (error as NodeJS.ErrnoException).code ?? 'unreadable';
  }
}

/** Removes an output folder's cache (`--no-cache` builds leave none behind to mistrust); a link there is removed, not followed. */
export function removeBuildCache(outDir: string): void {
  rmSync(join(outDir, folderName), { recursive: true, force: true });
}

/** The sealed entries' texts, by key; a file that is not a cache of this kind gives none. */
function readEntries(folder: string, generator: string): Map<string, string> {
  const bytes = readRegularFile(join(folder, entriesName), { limit: maxCacheBytes + 1, role: 'the build cache', followLinks: false });
  const entries = new Map<string, string>();
  if (bytes === undefined || bytes.length > maxCacheBytes) return entries;
  let file: unknown;
  try {
    file = JSON.parse(bytes.toString('utf8'));
  } catch {
    return entries;
  }
  if (!isRecord(file) || file['format'] !== cacheFormat || file['generator'] !== generator || !isRecord(file['entries'])) return entries;
  for (const [key, sealed] of Object.entries(file['entries'])) {
    if (isRecord(sealed) && typeof sealed['entry'] === 'string' && sealed['seal'] === sealOf(key, sealed['entry'])) entries.set(key, sealed['entry']);
  }
  return entries;
}

function parseEntry(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Whether an entry claims only what its source could have produced: every diagnostic is about
 * that source, with a known code at that code's severity; a contract, named by a valid tool name,
 * comes exactly when no diagnostic is an error; and the files are exactly that contract's module
 * files; with shared support, a contract's entry names the helpers its module imports (known
 * helpers, each once), and none else does. So even an entry forged with a valid seal can only make
 * the build skip work or carry a helper no module needs: it cannot delete a needed module, drop an
 * erroneous contract without its error, or make the build throw.
 */
function claimsHold(value: unknown, file: string, emit: EmitKind, support: SupportKind): value is CachedSource {
  if (!isRecord(value) || !Array.isArray(value['diagnostics']) || !Array.isArray(value['files'])) return false;
  const diagnostics: unknown[] = value['diagnostics'];
  if (!diagnostics.every((d) => isDiagnosticOf(d, file))) return false;
  const failed = diagnostics.some((d) => (d as Diagnostic).severity === 'error');
  const contract = value['contract'];
  if (failed ? contract !== undefined : !isContractOf(contract, file)) return false;
  const helpers = value['supportHelpers'];
  if (support === 'shared' && !failed ? !isHelperList(helpers) : helpers !== undefined) return false;
  const expected = failed ? [] : modulePaths((contract as { name: string }).name, emit);
  const files: unknown[] = value['files'];
  return files.length === expected.length && files.every((f, i) => isRecord(f) && f['path'] === expected[i] && isNumber(f['size']) && isNumber(f['mtimeMs']) && isNumber(f['ino']));
}

function isDiagnosticOf(value: unknown, file: string): boolean {
  if (!isRecord(value)) return false;
  const code = value['code'];
  if (typeof code !== 'string' || !Object.hasOwn(diagnosticCodes, code) || value['severity'] !== diagnosticCodes[code as DiagnosticCode].severity) return false;
  const hint = value['hint'];
  return value['file'] === file && isCount(value['line'], 1) && isCount(value['column'], 1) && typeof value['pointer'] === 'string' && typeof value['message'] === 'string' && (hint === undefined || typeof hint === 'string');
}

function isContractOf(value: unknown, file: string): boolean {
  if (!isRecord(value) || value['file'] !== file || !isCount(value['optionalParameters'], 0)) return false;
  const name = value['name'];
  const position = value['namePosition'];
  return typeof name === 'string' && toolNameProblem(name) === undefined && isRecord(position) && isCount(position['line'], 1) && isCount(position['column'], 1) && isCount(position['offset'], 0);
}

function isHelperList(value: unknown): boolean {
  return Array.isArray(value) && value.every((name) => typeof name === 'string' && isHelperName(name)) && new Set(value).size === value.length;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isCount(value: unknown, least: number): boolean {
  return Number.isSafeInteger(value) && (value as number) >= least;
}
