import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { withIoErrors, UsageError } from '../diagnostics/usage-error.js';
import { randomTempName } from '../output/temp-files.js';
import { writeAllOrNothing } from '../output/write.js';

export interface ContractFile {
  /** The file name in the output folder. */
  readonly path: string;
  readonly text: string;
}

/**
 * Writes imported contracts all or nothing: each to a temporary file created exclusively under an
 * unpredictable name, then every one renamed into place (`writeAllOrNothing`), so a failure part-way
 * (a full disk, a permission) leaves the folder as it was and each file the old or the new complete one. Files the
 * import does not produce are never touched; a contract whose text is already there is not rewritten.
 * (`output/write.ts` owns folders of generated modules, marked by their header, which a contract
 * file cannot carry; this is the same discipline for a folder of sources.)
 */
export function writeContracts(outDir: string, files: readonly ContractFile[]): { readonly written: readonly string[]; readonly unchanged: readonly string[] } {
  if (files.length === 0) return { written: [], unchanged: [] };
  withIoErrors(outDir, () => mkdirSync(outDir, { recursive: true }));
  const pending = files.filter((file) => {
    const target = join(outDir, file.path);
    const stat = withIoErrors(target, () => statSync(target, { throwIfNoEntry: false }));
    if (stat === undefined) return true;
    if (!stat.isFile()) throw new UsageError(`${target}: is not a regular file where a contract belongs; move or remove it`);
    return withIoErrors(target, () => readFileSync(target, 'utf8')) !== file.text;
  });
  writeAllOrNothing(pending.map((file) => ({ target: join(outDir, file.path), temp: join(outDir, randomTempName()), text: file.text })));
  const written = new Set(pending.map((file) => file.path));
  return { written: [...written], unchanged: files.filter((file) => !written.has(file.path)).map((file) => file.path) };
}
