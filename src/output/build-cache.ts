import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompiledSource } from './file-set.js';
import type { SourceText } from '../contract/check-contracts.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';

/**
 * What an incremental build keeps between builds, in `<out>/.jtc-cache/` (with a `.gitignore` of
 * its own, so committed output never carries it). Per contract, keyed by its path, its bytes, the
 * generator version and the flags that change its module: its diagnostics, what the set checks need,
 * and the size, modification time and inode of each module file as the build left it. A contract
 * whose key and files match is not compiled again and its files are not read; anything else is.
 * The checks across the set and the index run on every build. A cache that cannot be read, is
 * foreign or was written by another version is ignored, never trusted.
 */
export interface CachedSource {
  readonly diagnostics: readonly Diagnostic[];
  readonly contract?: CompiledSource['contract'];
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
  readonly entries: Record<string, CachedSource>;
}

const cacheFormat = 'json-tool-contracts build cache 1';
const folderName = '.jtc-cache';

export class BuildCache {
  private readonly entries: Map<string, CachedSource>;
  private readonly next = new Map<string, CachedSource>();

  private constructor(
    private readonly outDir: string,
    private readonly generator: string,
    entries: ReadonlyMap<string, CachedSource>,
    /** The entries file as it was read, to tell whether another build has written since. */
    private readonly opened: string | undefined,
  ) {
    this.entries = new Map(entries);
  }

  /** The cache of an output folder for one kind of build (`generator`: the version and the output flags). */
  static open(outDir: string, generator: string): BuildCache {
    const opened = identityOf(outDir);
    return new BuildCache(outDir, generator, readEntries(outDir, generator), opened);
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

  /** A source's entry when every module file it produced is still the one the build left. */
  hit(key: string): CachedSource | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    for (const file of entry.files) {
      const stat = statSync(join(this.outDir, file.path), { throwIfNoEntry: false });
      if (stat === undefined || stat.size !== file.size || stat.mtimeMs !== file.mtimeMs || stat.ino !== file.ino) return undefined;
    }
    this.next.set(key, entry);
    return entry;
  }

  /** Records a compiled source once its files are on disk. */
  record(key: string, compiled: CompiledSource): void {
    const files = compiled.files.map((file) => {
      const stat = statSync(join(this.outDir, file.path));
      return { path: file.path, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino };
    });
    this.next.set(key, compiled.contract === undefined ? { diagnostics: compiled.diagnostics, files } : { diagnostics: compiled.diagnostics, contract: compiled.contract, files });
  }

  /** Writes the entries of this build (and only those: a removed contract's entry goes), atomically. */
  save(): void {
    const folder = join(this.outDir, folderName);
    try {
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, '.gitignore'), '*\n');
      const file: CacheFile = { format: cacheFormat, generator: this.generator, entries: Object.fromEntries(this.next) };
      const temp = join(folder, `.entries-${randomBytes(8).toString('hex')}.tmp`);
      writeFileSync(temp, JSON.stringify(file), { flag: 'wx' });
      renameSync(temp, join(folder, 'entries.json'));
    } catch {
      // A cache that cannot be written only makes the next build a full one.
    }
  }
}

function identityOf(outDir: string): string | undefined {
  const stat = statSync(join(outDir, folderName, 'entries.json'), { throwIfNoEntry: false });
  return stat === undefined ? undefined : `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
}

/** Removes an output folder's cache (`--no-cache` builds leave none behind to mistrust). */
export function removeBuildCache(outDir: string): void {
  rmSync(join(outDir, folderName), { recursive: true, force: true });
}

function readEntries(outDir: string, generator: string): Map<string, CachedSource> {
  try {
    const file = JSON.parse(readFileSync(join(outDir, folderName, 'entries.json'), 'utf8')) as Partial<CacheFile>;
    if (file.format !== cacheFormat || file.generator !== generator || typeof file.entries !== 'object' || file.entries === null) return new Map();
    const entries = new Map<string, CachedSource>();
    for (const [key, entry] of Object.entries(file.entries)) if (isCachedSource(entry)) entries.set(key, entry);
    return entries;
  } catch {
    return new Map();
  }
}

/** A shape check, so that a hand-edited or truncated entry is dropped rather than trusted. */
function isCachedSource(value: unknown): value is CachedSource {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Partial<CachedSource>;
  return (
    Array.isArray(entry.diagnostics) &&
    Array.isArray(entry.files) &&
    entry.files.every((f) => typeof f === 'object' && f !== null && typeof f.path === 'string' && typeof f.size === 'number' && typeof f.mtimeMs === 'number' && typeof f.ino === 'number') &&
    (entry.contract === undefined || typeof entry.contract.name === 'string')
  );
}
