import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jtc } from './jtc-process.js';

/** A repository with contracts, a jtc.config.json at its root, and a subfolder to run from. */
function project(config: Record<string, unknown> | string): string {
  const repo = mkdtempSync(join(tmpdir(), 'jtc-project-'));
  mkdirSync(join(repo, '.git'));
  mkdirSync(join(repo, 'docs'));
  cpSync('fixtures/valid', join(repo, 'contracts'), { recursive: true });
  cpSync('fixtures/warnings/JTC204-empty-enum.contract.json', join(repo, 'warned/empty-enum.contract.json'));
  writeFileSync(join(repo, 'jtc.config.json'), typeof config === 'string' ? config : JSON.stringify(config, null, 2));
  return repo;
}

const built = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).filter((name) => name !== '.jtc-cache') : []).sort();

describe('jtc.config.json', () => {
  it('gives build and check their contracts and output folder when the command names none, from any subfolder', () => {
    const repo = project({ contracts: ['contracts'], out: 'src/generated' });
    const build = jtc(['build'], join(repo, 'docs'));
    expect(build).toMatchObject({ code: 0, stderr: '' });
    expect(build.stdout).toContain('built 5 files into ../src/generated: 5 written');
    expect(built(join(repo, 'src/generated'))).toEqual(['adversarial.names.ts', 'index.ts', 'limits.at_limit.ts', 'math.add.ts', 'notes.search.ts']);
    // check compares the configured output folder with what the contracts generate, as -o does.
    expect(jtc(['check'], repo)).toEqual({ code: 0, stdout: 'generated output in src/generated is up to date\n4 contracts: 0 errors, 0 warnings\n', stderr: '' });
    // Named contracts are checked alone; the configured folder is compared only with -o.
    expect(jtc(['check', 'contracts/math.add.contract.json'], repo)).toEqual({ code: 0, stdout: '1 contract: 0 errors, 0 warnings\n', stderr: '' });
    expect(jtc(['check', 'contracts/math.add.contract.json', '-o', 'src/generated'], repo)).toMatchObject({ code: 1, stdout: expect.stringContaining('src/generated/notes.search.ts: orphaned') as unknown });
  });

  it('sets emit, strict, exactNumbers and targets, and every flag given on the command line wins', () => {
    const repo = project({ contracts: ['contracts', 'warned'], out: 'out', emit: 'js', strict: true, targets: ['openai'] });
    // strict: the warnings of the empty enum and of the openai target fail the build.
    const strict = jtc(['build', '--format', 'json'], repo);
    expect(strict.code).toBe(1);
    expect(new Set((JSON.parse(strict.stdout) as { diagnostics: { code: string }[] }).diagnostics.map((d) => d.code))).toEqual(new Set(['JTC204', 'JTC351']));
    expect(built(join(repo, 'out'))).toEqual([]);
    expect(jtc(['build', '--no-strict'], repo).code).toBe(0);
    expect(built(join(repo, 'out'))).toContain('math.add.mjs');
    expect(jtc(['build', '--no-strict', '--emit', 'ts', '-o', 'ts-out'], repo).code).toBe(0);
    expect(built(join(repo, 'ts-out'))).toContain('math.add.ts');
    // --target replaces the configured list; '' leaves none. check compares the configured output folder too.
    const warningsOf = (args: string[]) => {
      const result = jtc(['check', '--no-strict', '--format', 'json', ...args], repo);
      expect(result.code).toBe(0);
      return (JSON.parse(result.stdout) as { summary: { warnings: number } }).summary.warnings;
    };
    expect(warningsOf(['--target', ''])).toBe(1);
    expect(warningsOf([])).toBe(6);
  });

  it('sets support, unless --support says otherwise', () => {
    const repo = project({ contracts: ['contracts'], out: 'out', support: 'shared' });
    expect(jtc(['build'], repo).code).toBe(0);
    expect(built(join(repo, 'out'))).toContain('jtc-support.ts');
    expect(jtc(['check'], repo).code).toBe(0);
    expect(jtc(['build', '--support', 'inline'], repo).stdout).toContain('1 deleted');
    expect(built(join(repo, 'out'))).not.toContain('jtc-support.ts');
    const wrong = project({ support: 'all' });
    expect(jtc(['check', 'contracts'], wrong)).toMatchObject({ code: 2, stderr: expect.stringContaining('expected one of inline, shared, found "all"') as unknown });
  });

  it('keeps every digit with exactNumbers, unless --no-exact-numbers', () => {
    const repo = project({ exactNumbers: true });
    writeFileSync(join(repo, 'contracts/big.contract.json'), '{"name": "big.bound", "description": "Huge bound.", "input": {"type": "object", "properties": {"n": {"type": "number", "maximum": 1e400}}}, "output": {}}');
    expect(jtc(['check', 'contracts'], repo).code).toBe(0);
    expect(jtc(['check', 'contracts', '--no-exact-numbers'], repo).stdout).toContain('error JTC117');
  });

  it('stops with exit 2 and every problem at its line and column, before reading a contract', () => {
    const repo = project('{\n  "contracts": ["contracts"],\n  "out": "out",\n  "emit": "mjs",\n  "output": "gen"\n}\n');
    expect(jtc(['build'], join(repo, 'docs'))).toEqual({
      code: 2,
      stdout: '',
      stderr: 'jtc: ../jtc.config.json:4:11 - error: expected one of ts, js, found "mjs" at /emit\njtc: ../jtc.config.json:5:3 - error: unknown field "output" at /output (the fields are $schema, contracts, out, emit, support, exactNumbers, strict, targets)\n',
    });
    expect(existsSync(join(repo, 'out'))).toBe(false);
    expect(jtc(['check', 'contracts'], repo)).toMatchObject({ code: 2, stdout: '' });
  });

  it('refuses a FIFO or a link to /dev/zero at jtc.config.json with exit 2, without waiting on it or reading it without end', () => {
    const repo = project('{}');
    const config = join(repo, 'jtc.config.json');
    rmSync(config);
    execFileSync('mkfifo', [config]);
    const refusal = (kind: string) => ({ code: 2, stdout: '', stderr: `jtc: jtc.config.json:1:1 - error: cannot read the project configuration: is a ${kind} where the project configuration belongs; move or remove it\n` });
    expect(jtc(['check', 'contracts'], repo)).toEqual(refusal('FIFO'));
    expect(jtc(['build', 'contracts', '-o', 'out'], repo)).toEqual(refusal('FIFO'));
    rmSync(config);
    symlinkSync('/dev/zero', config);
    expect(jtc(['check', 'contracts'], repo)).toEqual(refusal('device'));
    // A link to a regular file is read through, as a contract named on the command line is.
    rmSync(config);
    writeFileSync(join(repo, 'shared.json'), '{"contracts": ["contracts"]}');
    symlinkSync(join(repo, 'shared.json'), config);
    expect(jtc(['check'], repo)).toMatchObject({ code: 0, stdout: '4 contracts: 0 errors, 0 warnings\n' });
  });

  it('applies no jtc.config.json from above a project root without .git, or from the home folder, and --verbose says which one applies', () => {
    const outer = mkdtempSync(join(tmpdir(), 'jtc-outer-'));
    const project = join(outer, 'downloads', 'tools');
    cpSync('fixtures/valid/math.add.contract.json', join(project, 'contracts/math.add.contract.json'));
    writeFileSync(join(project, 'package.json'), '{"name": "tools"}');
    // A configuration above the project that would send the output outside it.
    const escaped = `${outer}-escaped`;
    writeFileSync(join(outer, 'jtc.config.json'), JSON.stringify({ contracts: ['downloads/tools/contracts'], out: escaped }));
    const env = { ...process.env, HOME: join(outer, 'home') };
    expect(jtc(['build'], project, env)).toEqual({ code: 2, stdout: '', stderr: 'jtc: build: name the output folder with -o <dir>, or "out" in jtc.config.json\n' });
    expect(jtc(['check', '.', '--verbose'], join(project, 'contracts'), env)).toEqual({
      code: 0,
      stdout: '1 contract: 0 errors, 0 warnings\n',
      stderr: "jtc: configuration: none (the search for jtc.config.json stopped at .., a project's root (it holds package.json)); the built-in defaults apply\n",
    });
    expect(existsSync(escaped)).toBe(false);
    // Under the home folder, a jtc.config.json in the home folder applies to no folder below it.
    const home = join(outer, 'home');
    cpSync('fixtures/valid/math.add.contract.json', join(home, 'scratch/math.add.contract.json'));
    writeFileSync(join(home, 'jtc.config.json'), JSON.stringify({ out: escaped }));
    expect(jtc(['build', '.', '--verbose'], join(home, 'scratch'), env)).toEqual({
      code: 2,
      stdout: '',
      stderr: `jtc: configuration: none (the search for jtc.config.json stopped below ${home}, the home folder); the built-in defaults apply\njtc: build: name the output folder with -o <dir>, or "out" in jtc.config.json\n`,
    });
    // The project's own file applies, from any folder in it, and --verbose names it (--format json keeps standard output JSON).
    writeFileSync(join(project, 'jtc.config.json'), JSON.stringify({ contracts: ['contracts'], out: 'src/generated' }));
    expect(jtc(['build', '--verbose'], join(project, 'contracts'), env)).toMatchObject({ code: 0, stderr: 'jtc: configuration: ../jtc.config.json\n' });
    const json = jtc(['check', '--verbose', '--format', 'json'], project, env);
    expect(json).toMatchObject({ code: 0, stderr: 'jtc: configuration: jtc.config.json\n' });
    expect(JSON.parse(json.stdout)).toMatchObject({ summary: { contracts: 1, errors: 0 } });
  });

  it('without a configuration, a command naming no contracts says where they can be named', () => {
    const repo = project({ out: 'out' });
    expect(jtc(['build'], repo)).toEqual({ code: 2, stdout: '', stderr: 'jtc: build: name contract files or folders, or list them in jtc.config.json "contracts" (jtc help build)\n' });
    expect(jtc(['build', 'contracts'], repo).stdout).toContain('built 5 files into out');
  });
});

/** The text of the first ```json block of a docs page whose text matches, as the page shows it. */
function jsonBlockOf(page: string, holding: RegExp): string {
  const block = [...readFileSync(page, 'utf8').matchAll(/^```json\n([\s\S]*?)\n```$/gm)].map((match) => match[1]!).find((text) => holding.test(text));
  if (block === undefined) throw new Error(`${page}: no json block matching ${holding}`);
  return `${block}\n`;
}

describe('the example jtc.config.json of docs/configuration.md, as written there', () => {
  const example = jsonBlockOf('docs/configuration.md', /"targets"/);
  const mathAdd = jsonBlockOf('docs/contracts.md', /"name": "math\.add"/);

  it('builds and checks the docs’ math.add contract', () => {
    const repo = mkdtempSync(join(tmpdir(), 'jtc-docs-config-'));
    mkdirSync(join(repo, '.git'));
    mkdirSync(join(repo, 'contracts'));
    writeFileSync(join(repo, 'contracts/math.add.contract.json'), mathAdd);
    writeFileSync(join(repo, 'jtc.config.json'), example);
    expect(jtc(['build'], repo)).toEqual({ code: 0, stdout: 'built 2 files into src/generated: 2 written, 0 deleted, 0 unchanged\n1 contract: 0 errors, 0 warnings\n', stderr: '' });
    expect(jtc(['check'], repo)).toEqual({ code: 0, stdout: 'generated output in src/generated is up to date\n1 contract: 0 errors, 0 warnings\n', stderr: '' });
  });

  it.each(['mcp', 'ai-sdk'])('builds and checks the project jtc init --template %s writes', (template) => {
    const dir = mkdtempSync(join(tmpdir(), 'jtc-docs-config-init-'));
    expect(jtc(['init', '--template', template], dir)).toMatchObject({ code: 0, stderr: '' });
    writeFileSync(join(dir, 'jtc.config.json'), example);
    expect(jtc(['build'], dir)).toEqual({ code: 0, stdout: 'built 2 files into src/generated: 0 written, 0 deleted, 2 unchanged\n1 contract: 0 errors, 0 warnings\n', stderr: '' });
    expect(jtc(['check'], join(dir, 'src'))).toEqual({ code: 0, stdout: 'generated output in generated is up to date\n1 contract: 0 errors, 0 warnings\n', stderr: '' });
  });
});
