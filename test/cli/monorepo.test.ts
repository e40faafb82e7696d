import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `jtc build` as a cached task of a build system, as the README's Turborepo section shows it: the
 * real `turbo` binary on a two-package npm workspace, its cache folder standing in for a remote
 * cache that another machine restores from.
 */
describe('jtc build as a Turborepo task', () => {
  const jtc = resolve('bin/jtc.js');
  const turbo = resolve('node_modules/.bin/turbo');
  /** The README's `turbo.json`, used as it is written. */
  const readmeTurboJson = /```json\n(\{\n {2}"\$schema": "https:\/\/turborepo\.com[\s\S]*?)```/.exec(readFileSync('README.md', 'utf8'))?.[1] ?? '';

  it('restores a cache hit that passes jtc check -o, and misses when a contract changes', () => {
    expect(readmeTurboJson, 'the README shows a turbo.json').not.toBe('');
    const workspace = mkdtempSync(join(tmpdir(), 'jtc-turbo-'));
    const tools = join(workspace, 'packages', 'tools');
    mkdirSync(join(tools, 'contracts'), { recursive: true });
    mkdirSync(join(workspace, 'packages', 'app'), { recursive: true });
    const npmVersion = execFileSync('npm', ['--version'], { encoding: 'utf8' }).trim();
    writeFileSync(join(workspace, 'package.json'), JSON.stringify({ name: 'monorepo', private: true, packageManager: `npm@${npmVersion}`, workspaces: ['packages/*'] }));
    writeFileSync(join(tools, 'package.json'), JSON.stringify({ name: 'tools', version: '1.0.0', private: true, scripts: { contracts: `node ${JSON.stringify(jtc)} build contracts -o src/generated` } }));
    writeFileSync(join(workspace, 'packages', 'app', 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true, dependencies: { tools: '1.0.0' } }));
    writeFileSync(join(workspace, 'turbo.json'), readmeTurboJson);
    copyFileSync('fixtures/valid/math.add.contract.json', join(tools, 'contracts', 'math.add.contract.json'));
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund'], { cwd: workspace, stdio: 'ignore' });

    const run = (): string => {
      const result = spawnSync(turbo, ['run', 'contracts', '--cache-dir=.shared-cache'], { cwd: workspace, encoding: 'utf8', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', TURBO_NO_UPDATE_NOTIFIER: '1', CI: '1' } });
      expect({ status: result.status, stderr: result.status === 0 ? '' : result.stderr }).toEqual({ status: 0, stderr: '' });
      return result.stdout;
    };
    expect(run()).toMatch(/tools:contracts: cache miss, executing/);

    // Another machine: a fresh checkout with no generated output and no incremental cache.
    rmSync(join(tools, 'src'), { recursive: true });
    expect(run()).toMatch(/tools:contracts: cache hit, replaying logs/);
    expect(readdirSync(join(tools, 'src', 'generated')).sort()).toEqual(['index.ts', 'math.add.ts']);
    const check = spawnSync(process.execPath, [jtc, 'check', 'contracts', '-o', 'src/generated'], { cwd: tools, encoding: 'utf8' });
    expect({ status: check.status, stdout: check.stdout }).toEqual({ status: 0, stdout: expect.stringContaining('is up to date') });

    const contract = join(tools, 'contracts', 'math.add.contract.json');
    writeFileSync(contract, readFileSync(contract, 'utf8').replace('Adds two integer fields.', 'Adds two integers.'));
    expect(run()).toMatch(/tools:contracts: cache miss, executing/);
    expect(readFileSync(join(tools, 'src', 'generated', 'math.add.ts'), 'utf8')).toContain('Adds two integers.');
  }, 600_000);
});
