import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/diagnostics/usage-error.js';
import { generatedMarker } from '../../src/emit/marker.js';
import { type LockRecord, lockOutput, lockRecordFor } from '../../src/output/lock.js';
import { writeOutput } from '../../src/output/write.js';

/**
 * The output folder's lock against what a killed build, a reused pid, another machine or a hostile
 * file system leaves at its path, and many builds taking over one dead holder's lock at once.
 */
const files = [{ path: 'a.ts', text: `${generatedMarker} 0.0.0\na\n` }];
const onLinux = existsSync('/proc/self/stat');

let out: string;
let lock: string;
beforeEach(() => {
  out = mkdtempSync(join(tmpdir(), 'jtc-lock-'));
  lock = join(out, '.jtc-build.lock');
});

const plant = (record: LockRecord | string): void => writeFileSync(lock, typeof record === 'string' ? record : `${JSON.stringify(record)}\n`);

/** A pid that ran and has exited. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

/** Our own files the build leaves in the folder after it ends: there must be none. */
const leftovers = (folder: string) => readdirSync(folder).filter((name) => name.endsWith('.tmp') || name.endsWith('.lock'));

describe('a lock whose holder runs', () => {
  it('stops the build with a message and writes nothing; once the holder has exited it is taken over', async () => {
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      plant(lockRecordFor(holder.pid!));
      expect(() => writeOutput(out, files)).toThrow(new UsageError(`${out}: another jtc build (process ${holder.pid}) is writing into this folder; wait for it to finish`));
      expect(existsSync(join(out, 'a.ts'))).toBe(false);
    } finally {
      holder.kill();
    }
    await new Promise((done) => holder.on('exit', done));
    expect(writeOutput(out, files).written).toEqual(['a.ts']);
    expect(leftovers(out)).toEqual([]);
  });
});

describe.runIf(onLinux)('a pid that runs but is not the holder', () => {
  it('PID 1, alive in this container, holds no lock its own start time does not match', () => {
    plant(lockRecordFor(1));
    expect(() => writeOutput(out, files)).toThrow(/another jtc build \(process 1\) is writing into this folder/);
    // A build killed in another container, where it ran as PID 1: the same kernel, another start time.
    plant({ ...lockRecordFor(1), start: '1' });
    expect(writeOutput(out, files).written).toEqual(['a.ts']);
  });

  it('a lock with this very process id, left by an earlier process that had it, is taken over', () => {
    plant({ ...lockRecordFor(process.pid), start: '1' });
    expect(writeOutput(out, files).written).toEqual(['a.ts']);
    expect(leftovers(out)).toEqual([]);
  });

  it('a lock taken before this machine restarted is taken over', () => {
    plant({ ...lockRecordFor(process.pid), boot: 'an-earlier-boot' });
    expect(writeOutput(out, files).written).toEqual(['a.ts']);
  });
});

describe('a lock this machine cannot check', () => {
  it('from another machine: the message says whose it is and how to clear it, and deleting it is enough', () => {
    plant({ ...lockRecordFor(process.pid), host: 'build-agent-7', boot: 'another-kernel', start: '42' });
    expect(() => writeOutput(out, files)).toThrow(new UsageError(`${out}: locked by a jtc build on host "build-agent-7" (process ${process.pid}), which cannot be checked from here; if no jtc build is running there, delete ${lock}`));
    expect(existsSync(join(out, 'a.ts'))).toBe(false);
    rmSync(lock);
    expect(writeOutput(out, files).written).toEqual(['a.ts']);
  });

  it.each([
    ['an earlier version (a bare pid)', '1\n'],
    ['an empty file', ''],
    ['a record of another format', '{"pid":1}'],
    ['a huge file', 'x'.repeat(1 << 20)],
  ])('%s: the message says how to clear it', (_, text) => {
    plant(text);
    expect(() => writeOutput(out, files)).toThrow(new UsageError(`${out}: ${lock} is not a lock this version of jtc can check; if no jtc build is writing into this folder, delete it`));
  });
});

describe('what stands at the lock path is never followed or read unless it is a regular file', () => {
  const victim = () => {
    const path = join(mkdtempSync(join(tmpdir(), 'jtc-victim-')), 'precious.txt');
    writeFileSync(path, 'precious');
    return path;
  };

  it.each([
    ['a symlink to a file elsewhere', 'symlink', () => symlinkSync(victim(), lock)],
    ['a dangling symlink', 'symlink', () => symlinkSync(join(out, 'nowhere'), lock)],
    ['a symlink to /dev/zero', 'symlink', () => symlinkSync('/dev/zero', lock)],
    ['a folder', 'folder', () => mkdirSync(lock)],
  ])('%s: a message and nothing written', (_, kind, make) => {
    make();
    expect(() => writeOutput(out, files)).toThrow(new UsageError(`${lock}: is a ${kind} where the build lock belongs; move or remove it`));
    expect(existsSync(join(out, 'a.ts'))).toBe(false);
  });

  it.runIf(onLinux)('a FIFO: a message, not a build that waits for a writer', () => {
    expect(spawnSync('mkfifo', [lock]).status).toBe(0);
    expect(() => writeOutput(out, files)).toThrow(new UsageError(`${lock}: is a FIFO where the build lock belongs; move or remove it`));
  });

  it("a symlink planted at the takeover slot of a dead holder's lock: a message, and its target left as it was", () => {
    const target = victim();
    const dead = { ...lockRecordFor(process.pid), pid: deadPid(), start: '1' };
    plant(dead);
    const slot = join(out, `.jtc-takeover-${dead.token}.lock`);
    symlinkSync(target, slot);
    expect(() => writeOutput(out, files)).toThrow(new UsageError(`${slot}: is a symlink where the build lock belongs; move or remove it`));
    expect(readFileSync(target, 'utf8')).toBe('precious');
  });

  it('the symlink target is left as it was', () => {
    const target = victim();
    symlinkSync(target, lock);
    expect(() => writeOutput(out, files)).toThrow(UsageError);
    expect(readFileSync(target, 'utf8')).toBe('precious');
  });
});

/**
 * Builds that each try to take the lock when told "go", print whether they won, and keep what
 * they won until the test has heard from all of them: taking over a lock must be exclusive.
 */
const contender = `
import { lockOutput } from ${JSON.stringify(pathToFileURL(resolve('dist/output/lock.js')).href)};
const out = process.argv[1];
process.stdout.write('ready\\n');
process.stdin.once('data', () => {
  let release;
  try {
    release = lockOutput(out);
    process.stdout.write(JSON.stringify({ won: process.pid }) + '\\n');
  } catch (error) {
    process.stdout.write(JSON.stringify({ lost: error.message }) + '\\n');
  }
  process.stdin.once('end', () => release?.());
});
`;

function startContender(): { child: ChildProcess; line: (n: number) => Promise<string> } {
  const child = spawn(process.execPath, ['--input-type=module', '-e', contender, out], { stdio: ['pipe', 'pipe', 'inherit'] });
  let text = '';
  const waiting: (() => void)[] = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    for (const wake of waiting.splice(0)) wake();
  });
  const line = async (n: number): Promise<string> => {
    while (text.split('\n').length <= n + 1) await new Promise<void>((wake) => waiting.push(wake));
    return text.split('\n')[n]!;
  };
  return { child, line };
}

describe('racing takeovers of a dead holder', () => {
  it('exactly one of many builds takes the lock over; the others name it; no temporary file remains', async () => {
    for (let round = 0; round < 4; round++) {
      plant({ ...lockRecordFor(process.pid), pid: deadPid(), start: '1' });
      const contenders = Array.from({ length: 12 }, startContender);
      for (const { line } of contenders) expect(await line(0)).toBe('ready');
      for (const { child } of contenders) child.stdin!.write('go\n');
      const results = await Promise.all(contenders.map(async ({ line }) => JSON.parse(await line(1)) as { won?: number; lost?: string }));
      const winners = results.filter((r) => r.won !== undefined);
      expect({ round, winners: winners.length }).toEqual({ round, winners: 1 });
      for (const result of results.filter((r) => r.lost !== undefined)) expect(result.lost).toBe(`${out}: another jtc build (process ${winners[0]!.won}) is writing into this folder; wait for it to finish`);
      for (const { child } of contenders) child.stdin!.end();
      await Promise.all(contenders.map(({ child }) => new Promise((done) => child.on('exit', done))));
      expect(leftovers(out)).toEqual([]);
    }
  });
});

describe('lockOutput', () => {
  it('releases only a lock that is still its own', () => {
    const release = lockOutput(out);
    const other = { ...lockRecordFor(process.pid), token: 'f'.repeat(32) };
    plant(other);
    release();
    expect(readFileSync(lock, 'utf8')).toBe(`${JSON.stringify(other)}\n`);
  });
});
