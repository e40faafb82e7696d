import { randomBytes } from 'node:crypto';
import { readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withIoErrors } from '../diagnostics/usage-error.js';

/**
 * Temporary files of ours: `.jtc-<16 hex>.tmp` (lock records, modules and cache files before they
 * are linked or renamed into place), and the `.<file>.<pid>.tmp` names of earlier versions.
 */
const tempNamePattern = /^\.jtc-[0-9a-f]{16}\.tmp$|^\..+\.(?:d\.ts|ts|js)\.[0-9]+\.tmp$/;
/** A takeover slot: the one name under which a single build may replace a dead holder's lock record. */
const takeoverPattern = /^\.jtc-takeover-[0-9a-f]{32}\.lock$/;

/** An unpredictable name, so that nothing can be planted at it before it is created exclusively. */
export const randomTempName = (): string => `.jtc-${randomBytes(8).toString('hex')}.tmp`;

export const takeoverSlotName = (token: string): string => `.jtc-takeover-${token}.lock`;

/**
 * Writes a file whole or not at all, and never through what stood at its name: the text goes to a
 * temporary file created exclusively beside it, which is then renamed over the name (a symlink
 * there is replaced, not followed).
 */
export function replaceFile(folder: string, name: string, text: string): void {
  const temp = join(folder, randomTempName());
  try {
    writeFileSync(temp, text, { flag: 'wx' });
    renameSync(temp, join(folder, name));
  } finally {
    rmSync(temp, { force: true });
  }
}

/**
 * Temporary files and takeover slots a killed build left behind; only regular files (or links,
 * which are removed, not followed) with our names. Run by the lock's holder: a build still trying
 * for the lock finds its temporary file gone and tries again, and no takeover slot is in use while
 * the lock has a running holder.
 */
export function removeStaleTemps(folder: string): void {
  for (const entry of withIoErrors(folder, () => readdirSync(folder, { withFileTypes: true }))) {
    if ((entry.isFile() || entry.isSymbolicLink()) && (tempNamePattern.test(entry.name) || takeoverPattern.test(entry.name))) withIoErrors(join(folder, entry.name), () => rmSync(join(folder, entry.name), { force: true }));
  }
}
