import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `jtc diff --base` against real git repositories: every way the old version of a contract could
 * be missed must be a finding (exit 1) or an error (exit 2), never "tool is new" with exit 0.
 */

const bin = resolve('bin/jtc.js');
const jtc = (cwd: string, ...args: string[]) => spawnSync(process.execPath, [bin, 'diff', ...args], { cwd, encoding: 'utf8' });

const contract = (name: string, maxLength?: number) => JSON.stringify({ name, description: 'D.', input: { type: 'object', properties: { q: { type: 'string', ...(maxLength === undefined ? {} : { maxLength }) } } }, output: { type: 'object' } }, null, 2);

/** A repository whose first commit holds `files`; the working tree can then be changed. */
function repository(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'jtc-base-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' }).toString();
  git('init', '-q');
  git('config', 'user.email', 'ci@example.invalid');
  git('config', 'user.name', 'CI');
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  for (const [path, text] of Object.entries(files)) write(path, text);
  git('add', '-A');
  git('commit', '-qm', 'contracts');
  return { dir, git, write };
}

/** The codes a diff reports, one per change, and its exit status. */
function codes(result: ReturnType<typeof jtc>): { status: number | null; codes: string[] } {
  return { status: result.status, codes: [...result.stdout.matchAll(/ (JTC4\d\d): /g)].map((m) => m[1]!) };
}

describe('jtc diff --base: the old version is found wherever git keeps it', () => {
  it.each(['café.contract.json', 'say "hi".contract.json', 'tab\there.contract.json', 'ütf8 — name.contract.json'])('under a name git quotes: %s', (file) => {
    const repo = repository({ [`contracts/${file}`]: contract('notes.search'), 'contracts/gone.contract.json': contract('notes.gone') });
    repo.write(`contracts/${file}`, contract('notes.search', 5));
    rmSync(join(repo.dir, 'contracts/gone.contract.json'));
    expect(codes(jtc(repo.dir, '--base', 'HEAD', 'contracts'))).toEqual({ status: 1, codes: ['JTC400', 'JTC401'] });
    expect(codes(jtc(repo.dir, '--base', 'HEAD', `contracts/${file}`))).toEqual({ status: 1, codes: ['JTC401'] });
  });

  it('under a dot-folder named as the input, and still skipping dot-folders below it', () => {
    const repo = repository({ '.tools/a.contract.json': contract('a.tool'), '.tools/.hidden/b.contract.json': contract('b.tool') });
    repo.write('.tools/a.contract.json', contract('a.tool', 5));
    repo.write('.tools/.hidden/b.contract.json', contract('b.tool', 5));
    expect(codes(jtc(repo.dir, '--base', 'HEAD', '.tools'))).toEqual({ status: 1, codes: ['JTC401'] });
  });

  it('given through .. from a subfolder, or as an absolute path', () => {
    const repo = repository({ 'contracts/a.contract.json': contract('a.tool'), 'docs/readme.md': '' });
    repo.write('contracts/a.contract.json', contract('a.tool', 5));
    const result = jtc(join(repo.dir, 'docs'), '--base', 'HEAD', '../contracts');
    expect(codes(result)).toEqual({ status: 1, codes: ['JTC401'] });
    expect(result.stdout).toContain('../contracts/a.contract.json:');
    expect(codes(jtc(join(repo.dir, 'docs'), '--base', 'HEAD', join(repo.dir, 'contracts')))).toEqual({ status: 1, codes: ['JTC401'] });
  });

  it('under a folder reached through a link, in the working tree and at the revision', () => {
    const repo = repository({ 'real/a.contract.json': contract('a.tool'), 'real/b.contract.json': contract('b.tool') });
    symlinkSync('real', join(repo.dir, 'contracts'));
    repo.git('add', 'contracts');
    repo.git('commit', '-qm', 'link');
    repo.write('real/a.contract.json', contract('a.tool', 5));
    expect(codes(jtc(repo.dir, '--base', 'HEAD', 'contracts'))).toEqual({ status: 1, codes: ['JTC401'] });
    expect(codes(jtc(repo.dir, '--base', 'HEAD', 'contracts/a.contract.json'))).toEqual({ status: 1, codes: ['JTC401'] });
  });

  it('compares a file moved or renamed since, by tool name, and an untracked file too', () => {
    const repo = repository({ 'old/place.contract.json': contract('a.tool'), 'contracts/b.contract.json': contract('b.tool') });
    repo.git('mv', 'old/place.contract.json', 'contracts/renamed.contract.json');
    repo.write('contracts/renamed.contract.json', contract('a.tool', 5));
    renameSync(join(repo.dir, 'contracts/b.contract.json'), join(repo.dir, 'contracts/untracked-b.contract.json'));
    repo.write('contracts/untracked-b.contract.json', contract('b.tool', 5));
    const result = jtc(repo.dir, '--base', 'HEAD', 'contracts');
    expect(codes(result)).toEqual({ status: 1, codes: ['JTC401', 'JTC401'] });
    expect(codes(jtc(repo.dir, '--base', 'HEAD', 'contracts/renamed.contract.json'))).toEqual({ status: 1, codes: ['JTC401'] });
  });

  it('a folder renamed since is compared by tool name; a new tool beside the moved ones is new', () => {
    const repo = repository({ 'contracts/a.contract.json': contract('a.tool') });
    repo.git('mv', 'contracts', 'tools');
    repo.write('tools/a.contract.json', contract('a.tool', 5));
    repo.write('tools/c.contract.json', contract('c.tool'));
    expect(codes(jtc(repo.dir, '--base', 'HEAD', 'tools'))).toEqual({ status: 1, codes: ['JTC401', 'JTC411'] });
  });

  it('reports the tools of a deleted folder as removed', () => {
    const repo = repository({ 'contracts/a.contract.json': contract('a.tool'), 'more/b.contract.json': contract('b.tool') });
    rmSync(join(repo.dir, 'contracts'), { recursive: true });
    const result = jtc(repo.dir, '--base', 'HEAD', 'contracts', 'more');
    expect(codes(result)).toEqual({ status: 1, codes: ['JTC400'] });
    expect(result.stdout).toContain('HEAD:contracts/a.contract.json:2:11 - error JTC400: tool "a.tool" was removed');
  });
});

describe('jtc diff --base: what cannot be matched is an error (exit 2), never "new"', () => {
  const repo = repository({ 'contracts/a.contract.json': contract('a.tool'), 'twice/one.contract.json': contract('b.tool'), 'twice/two/b.contract.json': contract('b.tool') });
  repo.write('contracts/a.contract.json', contract('a.tool', 5));

  it.each([
    ['a tree', 'HEAD:contracts', 'names a tree, not a commit'],
    ['a file', 'HEAD:contracts/a.contract.json', 'names a blob, not a commit'],
    ['an unknown revision', 'no-such-branch', 'no such revision'],
  ])('a revision that names %s', (_, revision, message) => {
    const result = jtc(repo.dir, '--base', revision, 'contracts');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
  });

  it.each(['--output=pwned', '-p', '--exec-path', ''])('a revision that git would read as an option: %j', (revision) => {
    const result = jtc(repo.dir, `--base=${revision}`, 'contracts');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--base takes a git revision');
    expect(existsSync(join(repo.dir, 'pwned'))).toBe(false);
  });

  it('a file that is not at the revision, whose tool no contract there has', () => {
    repo.write('contracts/new.contract.json', contract('new.tool'));
    const result = jtc(repo.dir, '--base', 'HEAD', 'contracts/new.contract.json');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('contracts/new.contract.json: not at HEAD');
    // Within a folder that was there, the same file is a new tool.
    expect(codes(jtc(repo.dir, '--base', 'HEAD', 'contracts'))).toEqual({ status: 1, codes: ['JTC401', 'JTC411'] });
    rmSync(join(repo.dir, 'contracts/new.contract.json'));
  });

  it('a folder that is not at the revision', () => {
    repo.write('fresh/c.contract.json', contract('c.tool'));
    expect(jtc(repo.dir, '--base', 'HEAD', 'fresh')).toMatchObject({ status: 2, stderr: expect.stringContaining('fresh: not at HEAD') });
    rmSync(join(repo.dir, 'fresh'), { recursive: true });
  });

  it('a tool moved in from a place where two files have its name', () => {
    repo.write('moved/b.contract.json', contract('b.tool'));
    expect(jtc(repo.dir, '--base', 'HEAD', 'moved')).toMatchObject({ status: 2, stderr: expect.stringContaining('2 files there have its name (twice/one.contract.json, twice/two/b.contract.json)') });
    rmSync(join(repo.dir, 'moved'), { recursive: true });
  });

  it('an input outside the repository, and one that exists in neither version', () => {
    const outside = mkdtempSync(join(tmpdir(), 'jtc-outside-'));
    writeFileSync(join(outside, 'a.contract.json'), contract('a.tool'));
    expect(jtc(repo.dir, '--base', 'HEAD', outside)).toMatchObject({ status: 2, stderr: expect.stringContaining('outside the git repository') });
    expect(jtc(repo.dir, '--base', 'HEAD', 'nowhere')).toMatchObject({ status: 2, stderr: expect.stringContaining('nowhere: no such file or folder, neither here nor at HEAD') });
  });

  it('a link at the revision that leads out of it', () => {
    const linked = repository({ 'contracts/a.contract.json': contract('a.tool') });
    symlinkSync('/etc/hostname', join(linked.dir, 'contracts/outside.contract.json'));
    linked.git('add', '-A');
    linked.git('commit', '-qm', 'link out');
    expect(jtc(linked.dir, '--base', 'HEAD', 'contracts')).toMatchObject({ status: 2, stderr: expect.stringContaining('is a link to /etc/hostname') });
  });

  it('contracts in a submodule, whose history is not this repository’s', () => {
    const inner = repository({ 'x.contract.json': contract('x.tool') });
    const outer = repository({ 'contracts/a.contract.json': contract('a.tool') });
    outer.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', inner.dir, 'contracts/vendor');
    outer.git('commit', '-qm', 'submodule');
    outer.write('contracts/vendor/x.contract.json', contract('x.tool', 5));
    expect(jtc(outer.dir, '--base', 'HEAD', 'contracts')).toMatchObject({ status: 2, stderr: expect.stringContaining('inside the submodule contracts/vendor') });
    expect(jtc(outer.dir, '--base', 'HEAD', 'contracts/vendor')).toMatchObject({ status: 2, stderr: expect.stringContaining('inside the submodule contracts/vendor') });
  });

  it('inputs that hold no contract in either version', () => {
    mkdirSync(join(repo.dir, 'empty'));
    writeFileSync(join(repo.dir, 'empty/readme.md'), '');
    repo.git('add', 'empty');
    repo.git('commit', '-qm', 'empty');
    expect(jtc(repo.dir, '--base', 'HEAD', 'empty')).toMatchObject({ status: 2, stderr: expect.stringContaining('nothing to compare') });
  });
});
