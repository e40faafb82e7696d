import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The CLI spawned against the file-system states that broke it: folders and FIFOs where files
 * belong, SIGKILL in the middle of a build, two builds into one folder, and a watch that sees
 * editor-style saves, deletions and re-creations.
 */
const bin = resolve('bin/jtc.js');
const jtc = (args: string[], cwd: string) => {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
};

function scratch(from = 'fixtures/valid'): string {
  const dir = mkdtempSync(join(tmpdir(), 'jtc-fs-'));
  cpSync(from, join(dir, 'contracts'), { recursive: true });
  return dir;
}

/** Many contracts, so that a build takes long enough to be killed while it writes. */
function manyContracts(dir: string, count: number, description: string): void {
  mkdirSync(join(dir, 'many'), { recursive: true });
  const template = JSON.parse(readFileSync('fixtures/corpus/github.get_pull_request.contract.json', 'utf8')) as Record<string, unknown>;
  for (let i = 0; i < count; i++) writeFileSync(join(dir, 'many', `t${i}.contract.json`), JSON.stringify({ ...template, name: `many.tool${i}`, description }));
}

const tempFiles = (out: string) => readdirSync(out).filter((name) => name.endsWith('.tmp') || name.endsWith('.lock'));

describe('odd file-system states get a message and exit 2', () => {
  it('a folder where a module belongs', () => {
    const dir = scratch();
    mkdirSync(join(dir, 'out/math.add.ts'), { recursive: true });
    const result = jtc(['build', 'contracts', '-o', 'out'], dir);
    expect(result).toMatchObject({ code: 2, stdout: '', stderr: 'jtc: out/math.add.ts: is a folder where a generated file belongs; move or remove it\n' });
  });

  it('a FIFO named like a contract is skipped in a folder and refused when named', () => {
    const dir = scratch();
    if (spawnSync('mkfifo', [join(dir, 'contracts/p.contract.json')]).status !== 0) return;
    expect(jtc(['check', 'contracts'], dir)).toMatchObject({ code: 0, stdout: '4 contracts: 0 errors, 0 warnings\n' });
    expect(jtc(['check', 'contracts/p.contract.json'], dir)).toMatchObject({ code: 2, stderr: 'jtc: contracts/p.contract.json: not a regular file or a folder\n' });
  });
});

describe('builds that are killed or run at once', () => {
  it('SIGKILL during a build leaves every file the old or the new complete one, and the next build no temporary file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jtc-kill-'));
    manyContracts(dir, 300, 'Old.');
    expect(jtc(['build', 'many', '-o', 'out', '--jobs', '1'], dir).code).toBe(0);
    const old = Object.fromEntries(
      readdirSync(join(dir, 'out'))
        .filter((name) => name !== '.jtc-cache')
        .map((name) => [name, readFileSync(join(dir, 'out', name), 'utf8')]),
    );
    manyContracts(dir, 300, 'New.');
    expect(jtc(['build', 'many', '-o', 'fresh', '--jobs', '1'], dir).code).toBe(0);
    const fresh = Object.fromEntries(
      readdirSync(join(dir, 'fresh'))
        .filter((name) => name !== '.jtc-cache')
        .map((name) => [name, readFileSync(join(dir, 'fresh', name), 'utf8')]),
    );
    for (const delay of [150, 300, 450, 600, 800]) {
      const child = spawn(process.execPath, [bin, 'build', 'many', '-o', 'out', '--jobs', '1'], { cwd: dir, stdio: 'ignore' });
      await new Promise((r) => setTimeout(r, delay));
      child.kill('SIGKILL');
      await new Promise((r) => child.on('exit', r));
      for (const name of readdirSync(join(dir, 'out')).filter((n) => !n.startsWith('.'))) {
        const text = readFileSync(join(dir, 'out', name), 'utf8');
        expect({ name, complete: text === old[name] || text === fresh[name] }).toEqual({ name, complete: true });
      }
    }
    expect(jtc(['build', 'many', '-o', 'out', '--jobs', '1'], dir).code).toBe(0);
    expect(tempFiles(join(dir, 'out'))).toEqual([]);
    for (const [name, text] of Object.entries(fresh)) expect(readFileSync(join(dir, 'out', name), 'utf8')).toBe(text);
  });

  it('two builds into one folder: each ends complete or says another build holds the folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jtc-two-'));
    manyContracts(dir, 200, 'Both.');
    const run = (): Promise<{ code: number | null; stderr: string }> =>
      new Promise((done) => {
        const child = spawn(process.execPath, [bin, 'build', 'many', '-o', 'out', '--jobs', '1'], { cwd: dir });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('exit', (code) => done({ code, stderr }));
      });
    for (let trial = 0; trial < 3; trial++) {
      rmSync(join(dir, 'out'), { recursive: true, force: true });
      const results = await Promise.all([run(), run()]);
      for (const result of results) {
        if (result.code !== 0) expect(result).toMatchObject({ code: 2, stderr: expect.stringMatching(/another jtc build \(process \d+\) is writing into this folder/) as unknown });
      }
      expect(results.some((r) => r.code === 0)).toBe(true);
      expect(tempFiles(join(dir, 'out'))).toEqual([]);
      expect(jtc(['check', 'many', '-o', 'out'], dir).code).toBe(0);
    }
  });
});

describe('watch keeps watching', () => {
  async function watching(dir: string, args: string[], steps: (output: () => string, waitFor: (predicate: () => boolean) => Promise<void>) => Promise<void>): Promise<void> {
    const child: ChildProcess = spawn(process.execPath, [bin, 'build', ...args, '-o', 'out', '--watch'], { cwd: dir });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', r));
    const waitFor = async (predicate: () => boolean): Promise<void> => {
      for (let i = 0; i < 200 && !predicate(); i++) await new Promise((r) => setTimeout(r, 50));
      expect({ output, seen: predicate() }).toMatchObject({ seen: true });
    };
    try {
      await waitFor(() => output.includes('rebuilt; watching'));
      await steps(() => output, waitFor);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  }

  const saveByRename = (path: string, text: string): void => {
    writeFileSync(`${path}.swp`, text);
    renameSync(`${path}.swp`, path);
  };

  it('a single watched file saved by rename, again and again', async () => {
    const dir = scratch();
    const contract = join(dir, 'contracts/math.add.contract.json');
    const module = join(dir, 'out/math.add.ts');
    await watching(dir, ['contracts/math.add.contract.json'], async (_, waitFor) => {
      for (const description of ['First save.', 'Second save.', 'Third save.']) {
        saveByRename(contract, readFileSync(contract, 'utf8').replace(/"description": "[^"]*"/, `"description": "${description}"`));
        await waitFor(() => existsSync(module) && readFileSync(module, 'utf8').includes(description));
      }
    });
  });

  it('a watched folder deleted and created again', async () => {
    const dir = scratch();
    const saved = mkdtempSync(join(tmpdir(), 'jtc-saved-'));
    cpSync(join(dir, 'contracts'), saved, { recursive: true });
    await watching(dir, ['contracts'], async (output, waitFor) => {
      rmSync(join(dir, 'contracts'), { recursive: true });
      await waitFor(() => output().includes('contracts: no such file or folder'));
      cpSync(saved, join(dir, 'contracts'), { recursive: true });
      const contract = join(dir, 'contracts/math.add.contract.json');
      saveByRename(contract, readFileSync(contract, 'utf8').replace(/"description": "[^"]*"/, '"description": "Back again."'));
      await waitFor(() => readFileSync(join(dir, 'out/math.add.ts'), 'utf8').includes('Back again.'));
    });
  });
});
