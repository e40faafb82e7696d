import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { readRegularFile } from '../diagnostics/read-file.js';
import { UsageError, withIoErrors } from '../diagnostics/usage-error.js';
import { randomTempName, takeoverSlotName } from './temp-files.js';

const lockName = '.jtc-build.lock';
const lockFormat = 'json-tool-contracts build lock 1';

/**
 * Who holds a lock. A pid alone cannot say whether the holder still runs: pids are reused (every
 * container's build may run as the same pid, PID 1 always runs), so on Linux the record also keeps
 * the kernel's boot id and the process's start time on it, and a process that does not match both
 * is not the holder. `token` names one holding, so that a takeover replaces only the record it judged.
 */
export interface LockRecord {
  readonly format: typeof lockFormat;
  readonly token: string;
  readonly pid: number;
  readonly host: string;
  /** Linux only: `/proc/sys/kernel/random/boot_id`. */
  readonly boot?: string;
  /** Linux only: the process's start time in clock ticks since boot (`/proc/<pid>/stat`, field 22). */
  readonly start?: string;
}

/** A record for a running process (this one when building; the tests describe others). */
export function lockRecordFor(pid: number): LockRecord {
  const boot = bootId();
  const start = boot === undefined ? undefined : processStart(pid);
  const base = { format: lockFormat, token: randomBytes(16).toString('hex'), pid, host: hostname() } as const;
  return boot === undefined || start === undefined ? base : { ...base, boot, start };
}

/**
 * Takes the output folder's lock, or throws a UsageError saying who holds it and what to do. The
 * lock file is placed whole (a complete record linked into place), so it is never seen half
 * written. A lock whose holder no longer runs is taken over through a takeover slot named after
 * that holder's token: creating the slot is exclusive, so of many builds that find the same dead
 * holder exactly one replaces its record (by rename), and the others find the new holder running.
 */
export function lockOutput(outDir: string): () => void {
  const path = join(outDir, lockName);
  const record = lockRecordFor(process.pid);
  const blocker = claim(outDir, path, record);
  if (blocker === undefined) return () => release(path, record);
  if (blocker.holder === 'unreadable') throw new UsageError(`${outDir}: ${blocker.path} is not a lock this version of jtc can check; if no jtc build is writing into this folder, delete it`);
  if (blocker.state === 'running') throw new UsageError(`${outDir}: another jtc build (process ${blocker.holder.pid}) is writing into this folder; wait for it to finish`);
  throw new UsageError(`${outDir}: locked by a jtc build on host ${JSON.stringify(blocker.holder.host)} (process ${blocker.holder.pid}), which cannot be checked from here; if no jtc build is running there, delete ${blocker.path}`);
}

const maxAttempts = 100;

/** What keeps a build from a lock path: a record it cannot check, or a holder that runs here or elsewhere. */
type Blocker = { readonly path: string; readonly holder: 'unreadable' } | { readonly path: string; readonly holder: LockRecord; readonly state: 'running' | 'elsewhere' };

/** Places this build's record at `path` (the lock or a takeover slot), or says what holds it. */
function claim(outDir: string, path: string, record: LockRecord): Blocker | undefined {
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const placed = placeRecord(outDir, path, record, 'link');
    if (placed === 'placed') return undefined;
    if (placed === 'retry') continue;
    const holder = readLock(path);
    if (holder === undefined) continue;
    if (holder === 'unreadable') return { path, holder };
    const state = holderState(holder);
    if (state !== 'gone') return { path, holder, state };
    const slot = join(outDir, takeoverSlotName(holder.token));
    const taker = claim(outDir, slot, record);
    if (taker !== undefined) {
      // Another build is taking the dead holder's place: it is the one to name, unless it has taken it already.
      if (tokenAt(path) === holder.token) return taker;
      continue;
    }
    try {
      // Only the holder of the slot replaces this record, so it cannot change between the read and the rename.
      if (tokenAt(path) === holder.token && placeRecord(outDir, path, record, 'rename') === 'placed') return undefined;
    } finally {
      rmSync(slot, { force: true });
    }
  }
  throw new UsageError(`${outDir}: other jtc builds kept taking ${path} at the same moment; run the build again`);
}

function release(path: string, record: LockRecord): void {
  try {
    if (tokenAt(path) === record.token) rmSync(path);
  } catch {
    // Not ours any more, or no longer a file: leave it as it is.
  }
}

/**
 * Puts a complete record at `target`: written to a temporary file of its own first, then linked
 * (fails when anything stands there, so a link or file planted there is never followed) or renamed
 * over it. `retry` when the temporary file went missing (the lock holder removes stray ones).
 */
function placeRecord(outDir: string, target: string, record: LockRecord, how: 'link' | 'rename'): 'placed' | 'taken' | 'retry' {
  const temp = join(outDir, randomTempName());
  withIoErrors(temp, () => writeFileSync(temp, `${JSON.stringify(record)}\n`, { flag: 'wx' }));
  try {
    if (how === 'link') linkSync(temp, target);
    else renameSync(temp, target);
    return 'placed';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return 'taken';
    if (code === 'ENOENT') return 'retry';
    return withIoErrors(target, () => {
      throw error;
    });
  } finally {
    rmSync(temp, { force: true });
  }
}

/**
 * The record at a lock path; undefined when none is there; `unreadable` for a file that is no record
 * of this format (an older jtc's bare pid, a hand-written file); a symlink, FIFO, device or folder
 * there is a UsageError.
 */
function readLock(path: string): LockRecord | 'unreadable' | undefined {
  const bytes = readRegularFile(path, { limit: 4096, role: 'the build lock', followLinks: false });
  if (bytes === undefined) return undefined;
  return parseRecord(bytes.toString('utf8')) ?? 'unreadable';
}

function tokenAt(path: string): string | undefined {
  const record = readLock(path);
  return typeof record === 'object' ? record.token : undefined;
}

function parseRecord(text: string): LockRecord | undefined {
  try {
    const value = JSON.parse(text) as Partial<Record<keyof LockRecord, unknown>>;
    const optional = (field: unknown) => field === undefined || typeof field === 'string';
    if (value.format !== lockFormat || typeof value.token !== 'string' || !/^[0-9a-f]{32}$/.test(value.token)) return undefined;
    if (typeof value.pid !== 'number' || !Number.isSafeInteger(value.pid) || value.pid <= 0 || typeof value.host !== 'string') return undefined;
    if (!optional(value.boot) || !optional(value.start) || (value.boot === undefined) !== (value.start === undefined)) return undefined;
    return value as LockRecord;
  } catch {
    return undefined;
  }
}

/** Whether a holder still runs, or runs `elsewhere`: on another machine, which this one cannot ask. */
function holderState(holder: LockRecord): 'running' | 'gone' | 'elsewhere' {
  const boot = bootId();
  // The same kernel (this machine, or another container on it): the pid must still be the process that started then.
  if (holder.boot !== undefined && holder.boot === boot) {
    const start = processStart(holder.pid);
    // A process whose start cannot be read (another user's, under hidepid) is taken to be the holder.
    if (start === undefined) return pidRuns(holder.pid) ? 'running' : 'gone';
    return start === holder.start ? 'running' : 'gone';
  }
  if (holder.host !== hostname()) return 'elsewhere';
  // The same host under another boot id: it has restarted since.
  if (holder.boot !== boot) return 'gone';
  // No boot ids (no /proc): the pid is all there is.
  return pidRuns(holder.pid) ? 'running' : 'gone';
}

function pidRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Field 22 of `/proc/<pid>/stat`, counted after the command name, which may hold spaces and parentheses. */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}
