import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin, jtc } from './jtc-process.js';

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'jtc-cli-'));
  cpSync('fixtures/valid', join(dir, 'contracts'), { recursive: true });
  return dir;
}

/** A build's files, without the cache an incremental build keeps beside them. */
const builtFiles = (dir: string) => readdirSync(dir).filter((name) => name !== '.jtc-cache');
const snapshot = (dir: string) => Object.fromEntries(builtFiles(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]));

describe('jtc check', () => {
  it('exits 0 on clean contracts with a one-line summary', () => {
    expect(jtc(['check', 'fixtures/valid'])).toEqual({ code: 0, stdout: '4 contracts: 0 errors, 0 warnings\n', stderr: '' });
  });

  it('prints every error as file:line:col with code, pointer and hint, and exits 1', () => {
    const { code, stdout } = jtc(['check', 'fixtures/invalid']);
    expect(code).toBe(1);
    expect(stdout).toContain('fixtures/invalid/JTC104-pattern.contract.json:7:47 - error JTC104: unsupported keyword "pattern" at /input/properties/query/pattern (regular expressions are outside the contract subset; validate the format in the handler)\n');
    expect(stdout.trimEnd().split('\n').pop()).toBe('28 contracts: 26 errors, 0 warnings');
  });

  it('allows warnings, unless --strict', () => {
    expect(jtc(['check', 'fixtures/warnings']).code).toBe(0);
    expect(jtc(['check', 'fixtures/warnings', '--strict']).code).toBe(1);
  });

  it('prints the same as JSON with --format json', () => {
    const { code, stdout } = jtc(['check', 'fixtures/invalid/JTC110-type-array.contract.json', '--format', 'json']);
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({
      diagnostics: [{ code: 'JTC110', severity: 'error', line: 7, column: 29, pointer: '/input/properties/nickname/type', title: 'type array' }],
      summary: { contracts: 1, errors: 1, warnings: 0 },
    });
  });

  it('exits 2 with a message, never a stack trace, for a missing path or a bad flag', () => {
    const missing = jtc(['check', 'no/such/folder']);
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toBe('jtc: no/such/folder: no such file or folder\n');
    expect(jtc(['check', 'fixtures/valid', '--format', 'xml']).code).toBe(2);
    expect(jtc(['frobnicate']).code).toBe(2);
  });

  it('exits 2 naming a contract file it cannot read', () => {
    const dir = scratch();
    symlinkSync(join(dir, 'nowhere'), join(dir, 'contracts/dangling.contract.json'));
    const { code, stderr } = jtc(['check', 'contracts'], dir);
    expect(code).toBe(2);
    expect(stderr).toBe('jtc: contracts/dangling.contract.json: no such file or folder\n');
  });

  it('has --help and --version', () => {
    expect(jtc(['--help'])).toMatchObject({ code: 0 });
    expect(jtc(['--help']).stdout).toContain('build');
    expect(jtc(['check', '--help']).stdout).toContain('--strict');
    const packageVersion = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
    expect(jtc(['--version'])).toEqual({ code: 0, stdout: `${packageVersion}\n`, stderr: '' });
    expect(jtc(['-v']).stdout).toBe(`${packageVersion}\n`);
  });
});

describe('the command line', () => {
  it('finishes with its own exit code and no stack trace when its reader has gone (jtc check | head)', async () => {
    const child = spawn(process.execPath, [bin, 'check', 'fixtures/valid'], { stdio: ['ignore', 'pipe', 'pipe'] });
    // The read end closes before the first line is written, so every write meets a closed pipe.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });

  /** The long flags a help text lists. */
  const flagsIn = (help: string): string[] => [...help.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((match) => match[1]!).sort();

  it('lists each command with what it does, and its options only in its own help', () => {
    const overview = jtc(['--help']);
    expect(overview).toMatchObject({ code: 0, stderr: '' });
    expect(overview.stdout).toMatch(/^ {2}check \[options\] \[inputs\.\.\.\] +check contracts/m);
    expect(overview.stdout).toMatch(/^ {2}diff \[options\] \[inputs\.\.\.\] +compare two versions/m);
    expect(overview.stdout).not.toContain('--watch');
    expect(flagsIn(jtc(['build', '--help']).stdout)).toEqual(['--emit', '--exact-numbers', '--format', '--help', '--jobs', '--no-cache', '--no-exact-numbers', '--no-strict', '--out', '--strict', '--support', '--target', '--verbose', '--watch']);
    expect(flagsIn(jtc(['check', '--help']).stdout)).toEqual(['--emit', '--exact-numbers', '--format', '--help', '--jobs', '--no-exact-numbers', '--no-strict', '--out', '--strict', '--support', '--target', '--verbose']);
    expect(flagsIn(jtc(['diff', '--help']).stdout)).toEqual(['--base', '--exact-numbers', '--format', '--help', '--no-exact-numbers', '--verbose']);
    expect(flagsIn(jtc(['lsp', '--help']).stdout)).toEqual(['--help', '--stdio']);
    expect(jtc(['lsp'])).toEqual({ code: 2, stdout: '', stderr: 'jtc: lsp: the server speaks over standard input and output: jtc lsp --stdio\n' });
    expect(jtc(['build', '--help']).stdout).toMatch(/^Usage: jtc build \[options\] \[inputs\.\.\.\]\n/);
    expect(jtc(['build', '--help']).stdout).toMatch(/\(choices:\s+"ts",\s+"js",\s+default:\s+"ts"\)/);
    expect(jtc(['build', '--help']).stdout).toMatch(/\(choices:\s+"inline",\s+"shared",\s+default:\s+"inline"\)/);
  });

  it('shows the same help for help <command> and <command> --help, and -h', () => {
    for (const command of ['check', 'build', 'diff']) {
      const help = jtc([command, '--help']);
      expect(help).toMatchObject({ code: 0, stderr: '' });
      expect(jtc(['help', command])).toEqual(help);
      expect(jtc([command, '-h'])).toEqual(help);
    }
    expect(jtc(['help'])).toEqual(jtc(['--help']));
  });

  it('suggests the command or option meant by a typo, in one line, exit 2', () => {
    expect(jtc(['biuld', 'contracts'])).toEqual({ code: 2, stdout: '', stderr: "jtc: unknown command 'biuld' (Did you mean build?)\n" });
    expect(jtc(['check', 'fixtures/valid', '--frmat', 'json'])).toEqual({ code: 2, stdout: '', stderr: "jtc: unknown option '--frmat' (Did you mean --format?)\n" });
    expect(jtc(['frobnicate'])).toEqual({ code: 2, stdout: '', stderr: "jtc: unknown command 'frobnicate'\n" });
    expect(jtc(['diff', 'a', 'b', '--emit', 'js'])).toEqual({ code: 2, stdout: '', stderr: "jtc: unknown option '--emit'\n" });
  });

  it('names the choices of a bad --emit, --format or --target, and refuses a bad --jobs, exit 2', () => {
    expect(jtc(['check', 'fixtures/valid', '--format', 'xml'])).toEqual({ code: 2, stdout: '', stderr: "jtc: option '--format <format>' argument 'xml' is invalid. Allowed choices are text, json.\n" });
    expect(jtc(['build', 'fixtures/valid', '-o', 'out', '--emit', 'mjs'])).toEqual({ code: 2, stdout: '', stderr: "jtc: option '--emit <kind>' argument 'mjs' is invalid. Allowed choices are ts, js.\n" });
    const target = jtc(['check', 'fixtures/valid', '--target', 'openai,claude']);
    expect(target).toMatchObject({ code: 2, stdout: '' });
    expect(target.stderr).toMatch(/^jtc: option '--target <names>' argument 'openai,claude' is invalid\. Unknown target "claude"; the targets are mcp-2025-11-25, .*gemini-parameters\.\n$/);
    expect(jtc(['check', 'fixtures/valid', '-j', '1.5'])).toEqual({ code: 2, stdout: '', stderr: "jtc: option '-j, --jobs <n>' argument '1.5' is invalid. It takes a whole number of at least 1.\n" });
  });

  it('takes --target repeated or comma-separated, each target once', () => {
    const once = jtc(['check', 'fixtures/valid', '--target', 'openai', '--format', 'json']);
    expect(once.code).toBe(0);
    expect(jtc(['check', 'fixtures/valid', '--target', 'openai,openai', '--target', 'openai', '--format', 'json'])).toEqual(once);
    expect((JSON.parse(once.stdout) as { summary: { warnings: number } }).summary.warnings).toBeGreaterThan(0);
  });

  it('exits 2 with the help on standard error when no command is named, and for a missing argument', () => {
    const bare = jtc([]);
    expect(bare).toMatchObject({ code: 2, stdout: '' });
    expect(bare.stderr).toContain('Usage: jtc [options] [command]');
    expect(jtc(['check'])).toEqual({ code: 2, stdout: '', stderr: 'jtc: check: name contract files or folders, or list them in jtc.config.json "contracts" (jtc help check)\n' });
    expect(jtc(['build', 'fixtures/valid'])).toEqual({ code: 2, stdout: '', stderr: 'jtc: build: name the output folder with -o <dir>, or "out" in jtc.config.json\n' });
    expect(jtc(['check', 'fixtures/valid', '-o'])).toEqual({ code: 2, stdout: '', stderr: "jtc: option '-o, --out <dir>' argument missing\n" });
    expect(jtc(['diff', 'fixtures/valid'])).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/^jtc: diff: name the old and the new version/) as unknown });
  });
});

describe('jtc build and jtc check -o', () => {
  it('builds modules and an index, then reports the output as up to date', () => {
    const dir = scratch();
    const build = jtc(['build', 'contracts', '-o', 'generated'], dir);
    expect(build.code).toBe(0);
    expect(build.stdout).toContain('built 5 files into generated: 5 written, 0 deleted, 0 unchanged');
    expect(builtFiles(join(dir, 'generated')).sort()).toEqual(['adversarial.names.ts', 'index.ts', 'limits.at_limit.ts', 'math.add.ts', 'notes.search.ts']);
    expect(jtc(['check', 'contracts', '-o', 'generated'], dir)).toMatchObject({ code: 0 });
  });

  it('fails check -o listing stale, missing and orphaned files', () => {
    const dir = scratch();
    jtc(['build', 'contracts', '-o', 'generated'], dir);
    writeFileSync(join(dir, 'generated/math.add.ts'), `${readFileSync(join(dir, 'generated/math.add.ts'), 'utf8')}// edited\n`);
    unlinkSync(join(dir, 'generated/notes.search.ts'));
    rmSync(join(dir, 'contracts/limits.at_limit.contract.json'));
    const { code, stdout } = jtc(['check', 'contracts', '-o', 'generated'], dir);
    expect(code).toBe(1);
    expect(stdout).toContain('generated/index.ts: stale');
    expect(stdout).toContain('generated/math.add.ts: stale');
    expect(stdout).toContain('generated/notes.search.ts: missing');
    expect(stdout).toContain('generated/limits.at_limit.ts: orphaned');
  });

  it('writes nothing and keeps the previous output when any contract has an error', () => {
    const dir = scratch();
    jtc(['build', 'contracts', '-o', 'generated'], dir);
    const before = snapshot(join(dir, 'generated'));
    cpSync('fixtures/invalid/JTC104-pattern.contract.json', join(dir, 'contracts/bad.contract.json'));
    writeFileSync(join(dir, 'contracts/math.add.contract.json'), readFileSync(join(dir, 'contracts/math.add.contract.json'), 'utf8').replace('Adds two', 'Sums two'));
    const { code, stdout } = jtc(['build', 'contracts', '-o', 'generated'], dir);
    expect(code).toBe(1);
    expect(stdout).toContain('build failed: no file was written');
    expect(snapshot(join(dir, 'generated'))).toEqual(before);
  });

  it('builds exact-mode modules with --exact-numbers, and accepts bounds beyond f64 only then', () => {
    const dir = scratch();
    writeFileSync(join(dir, 'contracts/big.contract.json'), '{"name": "big.bound", "description": "Huge bound.", "input": {"type": "object", "properties": {"n": {"type": "number", "maximum": 1e400}}}, "output": {}}');
    expect(jtc(['build', 'contracts', '-o', 'generated'], dir).code).toBe(1);
    expect(jtc(['build', 'contracts', '-o', 'generated', '--exact-numbers'], dir).code).toBe(0);
    expect(readFileSync(join(dir, 'generated/big.bound.ts'), 'utf8')).toContain('exactNumbers: true,');
    expect(jtc(['check', 'contracts', '-o', 'generated', '--exact-numbers'], dir).code).toBe(0);
  });

  it('emits ESM JavaScript with declarations', () => {
    const dir = scratch();
    expect(jtc(['build', 'contracts', '-o', 'js', '--emit', 'js'], dir).code).toBe(0);
    expect(readdirSync(join(dir, 'js'))).toContain('math.add.d.mts');
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', `import { mathAdd } from ${JSON.stringify(join(dir, 'js/index.mjs'))}; console.log(mathAdd.input.is({ left: 1, right: 2 }), mathAdd.input.is({ left: 1 }))`], { encoding: 'utf8' });
    expect(run.stdout).toBe('true false\n');
  });

  it('with --support shared writes one support module the modules import, checks it with check -o, and removes it once the build is inline again', () => {
    const dir = scratch();
    const shared = jtc(['build', 'contracts', '-o', 'js', '--emit', 'js', '--support', 'shared'], dir);
    expect(shared.stdout).toContain('built 12 files into js: 12 written, 0 deleted, 0 unchanged');
    expect(builtFiles(join(dir, 'js'))).toContain('jtc-support.mjs');
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', `import { mathAdd } from ${JSON.stringify(join(dir, 'js/index.mjs'))}; console.log(mathAdd.input.is({ left: 1, right: 2 }), mathAdd.input.validate({ left: 1 }).issues[0].message)`], { encoding: 'utf8' });
    expect(run.stdout).toBe('true missing required property "right"\n');
    expect(jtc(['check', 'contracts', '-o', 'js', '--emit', 'js', '--support', 'shared'], dir)).toMatchObject({ code: 0 });
    // Checked as an inline build, the folder is stale and the support module orphaned.
    const inlineCheck = jtc(['check', 'contracts', '-o', 'js', '--emit', 'js'], dir);
    expect(inlineCheck.code).toBe(1);
    expect(inlineCheck.stdout).toContain('js/math.add.mjs: stale');
    expect(inlineCheck.stdout).toContain('js/jtc-support.mjs: orphaned');
    expect(inlineCheck.stdout).toContain('js/jtc-support.d.mts: orphaned');
    // A hand edit of the support module is drift like any other.
    writeFileSync(join(dir, 'js/jtc-support.mjs'), `${readFileSync(join(dir, 'js/jtc-support.mjs'), 'utf8')}// edited\n`);
    expect(jtc(['check', 'contracts', '-o', 'js', '--emit', 'js', '--support', 'shared'], dir).stdout).toContain('js/jtc-support.mjs: stale');
    const inline = jtc(['build', 'contracts', '-o', 'js', '--emit', 'js'], dir);
    expect(inline.stdout).toContain('built 10 files into js: 8 written, 2 deleted, 2 unchanged');
    expect(builtFiles(join(dir, 'js')).filter((name) => name.startsWith('jtc-support'))).toEqual([]);
    expect(jtc(['check', 'contracts', '-o', 'js', '--emit', 'js'], dir)).toMatchObject({ code: 0 });
    expect(jtc(['build', 'contracts', '-o', 'js', '--support', 'everything'], dir)).toMatchObject({ code: 2, stderr: expect.stringContaining('Allowed choices are inline, shared') as unknown });
  });

  it('keeps the previous shared output whole when a contract has an error', () => {
    const dir = scratch();
    jtc(['build', 'contracts', '-o', 'generated', '--support', 'shared'], dir);
    const before = snapshot(join(dir, 'generated'));
    expect(Object.keys(before)).toContain('jtc-support.ts');
    cpSync('fixtures/invalid/JTC104-pattern.contract.json', join(dir, 'contracts/bad.contract.json'));
    const failed = jtc(['build', 'contracts', '-o', 'generated'], dir);
    expect(failed.stdout).toContain('build failed: no file was written');
    expect(snapshot(join(dir, 'generated'))).toEqual(before);
  });

  it('refuses a tool named jtc-support, whose module would be the support module', () => {
    const dir = scratch();
    writeFileSync(join(dir, 'contracts/support.contract.json'), '{"name": "JTC-Support", "description": "D.", "input": {"type": "object"}, "output": {}}');
    const { code, stdout } = jtc(['check', 'contracts'], dir);
    expect(code).toBe(1);
    expect(stdout).toContain("would be written to the support module's file (jtc-support.ts");
  });

  it('refuses an output folder that holds contracts', () => {
    const dir = scratch();
    const { code, stderr } = jtc(['build', 'contracts', '-o', 'contracts'], dir);
    expect(code).toBe(2);
    expect(stderr).toContain('the output folder holds the contract source');
  });

  it('compiles on several threads with --jobs, to the same bytes and the same report as on one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jtc-cli-'));
    const contracts = join(dir, 'contracts');
    mkdirSync(contracts);
    const corpus = readdirSync('fixtures/corpus').filter((name) => name.endsWith('.contract.json'));
    // 70 contracts: enough for two threads of at least 32 contracts each.
    for (let i = 0; i < 70; i++) {
      const contract = JSON.parse(readFileSync(join('fixtures/corpus', corpus[i % corpus.length]!), 'utf8')) as { name: string };
      contract.name = `${contract.name}_${i}`;
      writeFileSync(join(contracts, `${contract.name}.contract.json`), JSON.stringify(contract, null, 2));
    }
    const parallel = jtc(['build', 'contracts', '-o', 'parallel', '--jobs', '2'], dir);
    const single = jtc(['build', 'contracts', '-o', 'single', '--jobs', '1'], dir);
    expect(parallel).toEqual({ ...single, stdout: single.stdout.replace('into single', 'into parallel on 2 threads') });
    expect(parallel.code).toBe(0);
    expect(snapshot(join(dir, 'parallel'))).toEqual(snapshot(join(dir, 'single')));
    expect(Object.keys(snapshot(join(dir, 'parallel')))).toHaveLength(71);
    // check -o generates what it compares on as many threads.
    expect(jtc(['check', 'contracts', '-o', 'single', '--jobs', '2'], dir).stdout).toContain('generated output in single is up to date');

    // Errors found on either thread are reported alike, and nothing is written.
    // Every other contract goes to the worker: these four land on both threads.
    const [first, second, third, fourth] = readdirSync(contracts).sort();
    writeFileSync(join(contracts, first!), '{ "name": ');
    writeFileSync(join(contracts, second!), readFileSync(join(contracts, second!), 'utf8').replace('"type": "object"', '"type": "objekt"'));
    const thirdName = (JSON.parse(readFileSync(join(contracts, third!), 'utf8')) as { name: string }).name;
    const renamed = JSON.parse(readFileSync(join(contracts, fourth!), 'utf8')) as { name: string };
    writeFileSync(join(contracts, fourth!), JSON.stringify({ ...renamed, name: thirdName }, null, 2));
    const failedParallel = jtc(['build', 'contracts', '-o', 'failed', '--jobs', '2'], dir);
    expect(failedParallel).toEqual(jtc(['build', 'contracts', '-o', 'failed', '--jobs', '1'], dir));
    expect(failedParallel.code).toBe(1);
    expect(failedParallel.stdout).toContain(`contracts/${first}:1:11 - error`);
    expect(failedParallel.stdout).toContain(`contracts/${second}:`);
    expect(failedParallel.stdout).toContain(`error JTC124: tool name ${JSON.stringify(thirdName)} is also used by`);
    expect(existsSync(join(dir, 'failed'))).toBe(false);
    expect(jtc(['build', 'contracts', '-o', 'failed', '--jobs', '0'], dir).code).toBe(2);
  });

  it('rebuilds on change with --watch, keeps the last good output on an error, and exits 0 on SIGINT', async () => {
    const dir = scratch();
    const child = spawn(process.execPath, [bin, 'build', 'contracts', '-o', 'generated', '--watch'], { cwd: dir });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const waitFor = async (predicate: () => boolean): Promise<void> => {
      // Up to 2 minutes: a guard against a hang, far beyond what a slow machine needs.
      for (let i = 0; i < 2400 && !predicate(); i++) await new Promise((r) => setTimeout(r, 50));
      expect(predicate()).toBe(true);
    };
    const exited = new Promise((r) => child.on('exit', r));
    try {
      const target = join(dir, 'generated/math.add.ts');
      await waitFor(() => output.includes('rebuilt; watching'));
      const contract = join(dir, 'contracts/math.add.contract.json');
      writeFileSync(contract, readFileSync(contract, 'utf8').replace('Adds two integer fields.', 'Adds two integers.'));
      await waitFor(() => existsSync(target) && readFileSync(target, 'utf8').includes('Adds two integers.'));
      const good = readFileSync(target, 'utf8');
      writeFileSync(contract, '{ "name": ');
      await waitFor(() => output.includes('kept the last good output'));
      expect(readFileSync(target, 'utf8')).toBe(good);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  });
});
