import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of this run's packed tarballs (test/support/packed-packages.ts). */
    packFolder: string;
  }
}

/**
 * Vitest's global setup: one empty folder per run for the packed tarballs, removed when the run
 * ends. Nothing is packed here, so a run that needs no tarball costs nothing; the first test file
 * that asks packs into it, and the others reuse its tarballs.
 */
export default function setup(project: TestProject): () => void {
  const folder = mkdtempSync(join(tmpdir(), 'jtc-packed-'));
  project.provide('packFolder', folder);
  return () => rmSync(folder, { recursive: true, force: true });
}
