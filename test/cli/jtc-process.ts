import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/** The built CLI (`npm test` builds it first), run exactly as a user runs it. */
export const bin = resolve('bin/jtc.js');

/** Runs `jtc` to its end in `cwd` (with the given environment, or the tests'): its exit code and everything it printed. */
export function jtc(args: readonly string[], cwd = process.cwd(), env: NodeJS.ProcessEnv = process.env): { code: number | null; stdout: string; stderr: string } {
  // A synchronous spawn cannot be interrupted by the test's timeout: it gets its own, as generous.
  const result = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', timeout: 480_000, env });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
