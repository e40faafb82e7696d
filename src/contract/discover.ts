import { readRegularFile } from '../diagnostics/read-file.js';
import { UsageError, withIoErrors } from '../diagnostics/usage-error.js';
import { maxSourceBytes } from '../source/parse.js';
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const contractSuffix = '.contract.json';

/** Folders a search below an input never enters: dependencies and dot-folders (`.git`, `.jtc-cache`). */
export function isSkippedFolder(name: string): boolean {
  return name === 'node_modules' || name.startsWith('.');
}

export interface ContractSource {
  /** The path as shown to the user: relative to the working directory when inside it. */
  readonly file: string;
  readonly bytes: Uint8Array;
}

/**
 * Finds `*.contract.json` under the given files and folders: folders recursively, skipping
 * `node_modules` and dot-folders, following each real directory once so link loops end.
 * The result is sorted, so the order of arguments never changes the output.
 */
export function discoverContracts(inputs: readonly string[], cwd = process.cwd()): string[] {
  if (inputs.length === 0) throw new UsageError('no input: name contract files or folders');
  const found = new Set<string>();
  const visited = new Set<string>();
  const walk = (dir: string): void => {
    const real = realpathSync(dir);
    if (visited.has(real)) return;
    visited.add(real);
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      const target = entry.isSymbolicLink() ? kindOf(path) : entry.isDirectory() ? 'folder' : entry.isFile() ? 'file' : 'other';
      if (target === 'folder') {
        if (!isSkippedFolder(entry.name)) walk(path);
      } else if ((target === 'file' || target === 'missing') && entry.name.endsWith(contractSuffix)) {
        // Regular files only: a FIFO or a device with a contract's name would block the read. A
        // dangling link is kept, so that reading it reports the missing file.
        found.add(path);
      }
    }
  };
  for (const input of inputs) {
    const stat = statOrThrow(input);
    if (stat.isDirectory()) withIoErrors(input, () => walk(input));
    else if (stat.isFile()) found.add(input);
    else throw new UsageError(`${input}: not a regular file or a folder`);
  }
  return [...found].map((path) => displayPath(path, cwd)).sort();
}

/**
 * Reads each file once, at most one byte past the size limit: a file over it costs no more memory
 * than one at it, and the parser reports it (JTC107) from the bytes read.
 */
export function readContractSources(paths: readonly string[]): ContractSource[] {
  return paths.map((file) => {
    const bytes = readRegularFile(file, { limit: maxSourceBytes + 1, role: 'a contract file', followLinks: true });
    if (bytes === undefined) throw new UsageError(`${file}: no such file or folder`);
    return { file, bytes };
  });
}

function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel.startsWith('..') || rel === '' ? path : rel;
}

function kindOf(path: string): 'folder' | 'file' | 'missing' | 'other' {
  try {
    const stat = statSync(path);
    return stat.isDirectory() ? 'folder' : stat.isFile() ? 'file' : 'other';
  } catch {
    return 'missing';
  }
}

function statOrThrow(path: string) {
  return withIoErrors(path, () => statSync(path));
}
