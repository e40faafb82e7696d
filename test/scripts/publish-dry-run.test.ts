import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * scripts/publish-dry-run.js (what .ci/run calls before a release can be cut) on a copy of both
 * packages as built: the real manifests pass, and each defect a release has shipped elsewhere is
 * refused with a message saying what to fix. A copy, so that breaking a manifest leaves this
 * checkout alone.
 */
describe('scripts/publish-dry-run.js', () => {
  const copy = mkdtempSync(join(tmpdir(), 'jtc-publish-'));
  const shipped = ['package.json', 'LICENSE', 'README.md', 'bin/jtc.js', 'dist', 'templates', 'schema', 'docs', 'scripts/publish-dry-run.js', 'packages/runtime/package.json', 'packages/runtime/LICENSE', 'packages/runtime/README.md', 'packages/runtime/dist', 'packages/runtime/src/support'];
  const runtimeManifest = join(copy, 'packages/runtime/package.json');
  const rootManifest = join(copy, 'package.json');
  type Manifest = Record<string, unknown> & { exports: Record<string, Record<string, string>>; files: string[]; dependencies: Record<string, string> };
  const originals = new Map<string, string>();

  const run = (...folders: string[]) => {
    const result = spawnSync(process.execPath, ['scripts/publish-dry-run.js', ...folders], { cwd: copy, encoding: 'utf8' });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  /** Runs the script with one manifest changed by `edit`, then puts the manifest back. */
  const runWith = (which: 'root' | 'runtime', edit: (json: Manifest) => void) => {
    const manifest = which === 'root' ? rootManifest : runtimeManifest;
    const json = JSON.parse(originals.get(manifest)!) as Manifest;
    edit(json);
    writeFileSync(manifest, JSON.stringify(json, null, 2));
    try {
      return run(which === 'root' ? '.' : 'packages/runtime');
    } finally {
      writeFileSync(manifest, originals.get(manifest)!);
    }
  };

  beforeAll(() => {
    for (const path of shipped) cpSync(path, join(copy, path), { recursive: true });
    for (const manifest of [rootManifest, runtimeManifest]) originals.set(manifest, readFileSync(manifest, 'utf8'));
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('finds both packages ready, with the metadata provenance needs', () => {
    const result = run();
    expect(result).toMatchObject({ status: 0, stderr: '' });
    expect(result.stdout).toMatch(/^json-tool-contracts@\d+\.\d+\.\d+ \(the repository root\): ready to publish, \d+ files/m);
    expect(result.stdout).toMatch(/^@json-tool-contracts\/runtime@\d+\.\d+\.\d+ \(packages\/runtime\): ready to publish/m);
    for (const manifest of [rootManifest, runtimeManifest]) {
      const { repository } = JSON.parse(originals.get(manifest)!) as { repository: unknown };
      expect(repository).toEqual({ type: 'git', url: 'git+https://github.com/json-tool-contracts/json-tool-contracts.git', ...(manifest === runtimeManifest ? { directory: 'packages/runtime' } : {}) });
    }
  });

  it('refuses a folder that is not one of its packages', () => {
    expect(run('packages/compiler')).toEqual({ status: 2, stdout: '', stderr: 'publish-dry-run: packages/compiler is not a package of this repository (., packages/runtime)\n' });
  });

  it.each<[string, 'root' | 'runtime', (json: Manifest) => void, string]>([
    ['the runtime without its repository directory', 'runtime', (json) => void delete (json['repository'] as Record<string, unknown>)['directory'], '"repository.directory" is undefined, but the package lives in "packages/runtime"'],
    ['a compiler without engines', 'root', (json) => delete json['engines'], '"engines.node" is missing'],
    ['an export whose file is not built', 'runtime', (json) => void (json.exports['./mcp']!['default'] = './dist/mcp/mcp-server.js'), 'exports ./mcp → default: ./dist/mcp/mcp-server.js is not packed'],
    ['an export without declarations', 'runtime', (json) => void delete json.exports['./ai']!['types'], 'exports ./ai: ./dist/providers/ai-sdk.js has no "types"'],
    ['declarations after the code they describe', 'runtime', (json) => void (json.exports['./providers'] = { default: './dist/providers/provider-tools.js', types: './dist/providers/provider-tools.d.ts' }), 'exports ./providers: "types" comes after "default"'],
    ['the build state packed', 'runtime', (json) => void (json.files = json.files.filter((entry) => !entry.startsWith('!'))), 'dist/.tsbuildinfo is packed'],
    ['a compiler depending on another runtime version', 'root', (json) => void (json.dependencies['@json-tool-contracts/runtime'] = '^0.1.0'), 'depends on @json-tool-contracts/runtime ^0.1.0, not on its version from this repository'],
    ['a scoped runtime that would publish as restricted', 'runtime', (json) => delete json['publishConfig'], 'publishConfig'],
  ])('refuses %s', (_, which, edit, message) => {
    const result = runWith(which, edit);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain(`${which === 'root' ? 'json-tool-contracts' : '@json-tool-contracts/runtime'}@`);
  });
});
