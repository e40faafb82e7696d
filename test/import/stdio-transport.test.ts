import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bin } from '../cli/jtc-process.js';

/**
 * `jtc import --stdio` against hostile servers: helpers that hold the server's output open (in its
 * process group, or out of it with `setsid`), servers that ignore SIGTERM, say nothing, exit at once
 * or write bytes that are not UTF-8. Every run must end within a bounded time, far below how long
 * the helpers would live (300 s), with the answer or a clear message.
 */
const scratch = mkdtempSync(join(tmpdir(), 'jtc-stdio-'));
const leftovers: number[] = [];
afterAll(() => {
  for (const pid of leftovers) if (alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

const server = (flags = ''): string => `"${process.execPath}" fixtures/import/hostile/stdio-server.mjs ${flags}`;
/** Far more than the shutdown takes (a few seconds), far less than the helpers live. */
const bounded = 60_000;

/** Runs the built CLI, with its own limit so that a hang fails the test instead of stopping it. */
function run(args: readonly string[]): { code: number | null; stdout: string; stderr: string; ms: number } {
  const started = Date.now();
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 2 * bounded, killSignal: 'SIGKILL' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, ms: Date.now() - started };
}

/** Whether a process is still running (a zombie waiting for its parent to read its status is not). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The pid a command wrote into a file. */
const pidIn = (file: string): number => {
  const pid = Number(readFileSync(file, 'utf8').trim());
  leftovers.push(pid);
  return pid;
};

let serial = 0;
/** A shell command that starts `helper` in the background (its output is the server's), writes its pid, then the server. */
function withHelper(helper: 'sleep 300' | 'setsid sleep 300', serverFlags = ''): { command: string; helperPid: string; serverPid: string } {
  const helperPid = join(scratch, `helper-${++serial}`);
  const serverPid = join(scratch, `server-${serial}`);
  return { command: `${helper} & echo $! > ${helperPid}; echo $$ > ${serverPid}; exec ${server(serverFlags)}`, helperPid, serverPid };
}

describe.skipIf(process.platform === 'win32')('jtc import --stdio: a server that leaves something behind', () => {
  const out = join(scratch, 'contracts');

  it('a helper in its process group holds its output: the import ends on time with the tools, and the helper is stopped', () => {
    const { command, helperPid } = withHelper('sleep 300');
    const result = run(['import', '--stdio', command, '-o', out]);
    expect(result).toMatchObject({ code: 0, stderr: '', stdout: expect.stringContaining('1 tool: 1 imported') });
    expect(result.ms).toBeLessThan(bounded);
    expect(existsSync(join(out, 'ping.contract.json'))).toBe(true);
    expect(alive(pidIn(helperPid))).toBe(false);
  });

  it('--check takes the same path and ends on time', () => {
    const { command, helperPid } = withHelper('sleep 300');
    const result = run(['import', '--stdio', command, '--check', out]);
    expect(result).toMatchObject({ code: 0, stdout: '1 tool: 1 unchanged, 0 drifted, 0 missing, 0 new, 0 unreadable; 0 breaking\n' });
    expect(result.ms).toBeLessThan(bounded);
    expect(alive(pidIn(helperPid))).toBe(false);
  });

  it('a helper that left the group (setsid) cannot be stopped, but does not keep the import waiting', () => {
    const { command, helperPid } = withHelper('setsid sleep 300');
    const result = run(['import', '--stdio', command, '-o', join(scratch, 'setsid')]);
    expect(result).toMatchObject({ code: 0, stdout: expect.stringContaining('1 tool: 1 imported') });
    expect(result.ms).toBeLessThan(bounded);
    // Out of the group, out of reach: it is the test's to stop.
    expect(alive(pidIn(helperPid))).toBe(true);
  });

  it('--timeout fires while a helper holds the output, and a server that ignores SIGTERM is killed with its group', () => {
    const { command, helperPid, serverPid } = withHelper('sleep 300', '--silent --ignore-term');
    const result = run(['import', '--stdio', command, '-o', join(scratch, 'never'), '--timeout', '1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^jtc: server ".*": no answer to initialize within 1 s \(raise --timeout if it starts slowly\)\n$/);
    expect(result.ms).toBeLessThan(bounded);
    expect([alive(pidIn(serverPid)), alive(pidIn(helperPid))]).toEqual([false, false]);
  });

  it('a server that exits at once while a helper holds its output is reported then, not after the timeout', () => {
    const { command, helperPid } = withHelper('sleep 300', '--exit-early');
    const result = run(['import', '--stdio', command, '-o', join(scratch, 'never'), '--timeout', '600']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^jtc: server ".*" exited with code 0 before it answered\n$/);
    expect(result.ms).toBeLessThan(bounded);
    expect(alive(pidIn(helperPid))).toBe(false);
  });
});

describe('jtc import --stdio: a stateless MCP 2026-07-28 server', () => {
  it('refusing initialize, it is asked server/discover and listed with the revision in every _meta', () => {
    const out = join(scratch, 'stateless');
    const result = run(['import', '--stdio', server('--stateless'), '-o', out]);
    expect(result).toMatchObject({ code: 0, stderr: '', stdout: expect.stringContaining('1 tool: 1 imported') });
    expect(existsSync(join(out, 'ping.contract.json'))).toBe(true);
  });
});

describe('jtc import --stdio: what a server writes', () => {
  it('refuses an answer that is not UTF-8 instead of importing replacement characters', () => {
    const result = run(['import', '--stdio', server('--invalid-utf8'), '-o', join(scratch, 'never')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^jtc: server ".*": sent a message that is not valid UTF-8; MCP messages are UTF-8\n$/);
    expect(existsSync(join(scratch, 'never'))).toBe(false);
  });

  it("quotes a dying server's stderr line by line", () => {
    const result = run(['import', '--stdio', `"${process.execPath}" -e "process.stderr.write('first line\\nsecond\\tline\\n'); process.exit(3)"`, '-o', join(scratch, 'never')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^jtc: server ".*" exited with code 3 before it answered; it said:\njtc: {3}first line\njtc: {3}second\\u0009line\n$/);
  });
});
