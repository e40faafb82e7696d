import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { npmEnvironment } from './support/packed-packages.js';

/**
 * The install scripts of the dependencies, decided in package.json's `allowScripts` (npm 11.16+
 * lists the undecided ones after every install; npm 12 runs none that is not allowed), so that a
 * fresh clone's `npm ci` prints nothing a newcomer must judge. CONTRIBUTING.md says why each is
 * denied.
 */
const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { allowScripts?: Record<string, boolean> };
const lockfile = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { version?: string; hasInstallScript?: boolean }> };
/** The packages of the lockfile that have an install script, by name and version. */
const withScripts = Object.entries(lockfile.packages)
  .filter(([, entry]) => entry.hasInstallScript === true)
  .map(([path, entry]) => ({ name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length), version: entry.version! }));

describe('install scripts', () => {
  const work = mkdtempSync(join(tmpdir(), 'jtc-install-scripts-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('allowScripts decides every package of the lockfile that has one, and names no other', () => {
    const decided = Object.keys(manifest.allowScripts ?? {});
    const undecided = withScripts.filter(({ name, version }) => !decided.includes(name) && !decided.includes(`${name}@${version}`));
    expect(undecided, 'add each to allowScripts in package.json (true after reviewing its script, else false), and say why in CONTRIBUTING.md').toEqual([]);
    const stale = decided.filter((key) => !withScripts.some(({ name, version }) => key === name || key === `${name}@${version}`));
    expect(stale, 'entries of allowScripts for packages the lockfile no longer holds with an install script').toEqual([]);
  });

  it('esbuild, its postinstall denied, still works: the binary comes from its platform package', () => {
    expect(manifest.allowScripts?.['esbuild']).toBe(false);
    const { version } = withScripts.find(({ name }) => name === 'esbuild')!;
    writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'esbuild-without-scripts', private: true }));
    // --ignore-scripts: as npm 12 installs a denied package. npm ci has the tarballs in the cache.
    execFileSync('npm', ['install', '--prefer-offline', '--ignore-scripts', `esbuild@${version}`], { cwd: work, env: npmEnvironment, stdio: ['ignore', 'pipe', 'pipe'] });
    // Its postinstall would have put the native binary in place of this script.
    expect(readFileSync(join(work, 'node_modules', 'esbuild', 'bin', 'esbuild'), 'utf8').startsWith('#!/usr/bin/env node')).toBe(true);
    const transformed = execFileSync(process.execPath, ['--input-type=module', '-e', "import { transformSync } from 'esbuild'; process.stdout.write(transformSync('const n: number = 1', { loader: 'ts' }).code)"], { cwd: work, encoding: 'utf8' });
    expect(transformed).toBe('const n = 1;\n');
    expect(execFileSync(process.execPath, [join(work, 'node_modules', 'esbuild', 'bin', 'esbuild'), '--version'], { cwd: work, encoding: 'utf8' }).trim()).toBe(version);
  });
});
