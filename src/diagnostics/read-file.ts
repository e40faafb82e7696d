import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs';
import { UsageError, withIoErrors } from './usage-error.js';

/** What stands at a path, as a message names it. */
export type EntryKind = 'file' | 'folder' | 'symlink' | 'FIFO' | 'device' | 'socket';

export function kindOf(stat: Stats): EntryKind {
  if (stat.isFile()) return 'file';
  if (stat.isDirectory()) return 'folder';
  if (stat.isSymbolicLink()) return 'symlink';
  if (stat.isFIFO()) return 'FIFO';
  return stat.isSocket() ? 'socket' : 'device';
}

/** What stands at a path itself (a link is a symlink, never what it points to); undefined for nothing. */
export function entryAt(path: string): EntryKind | undefined {
  const stat = withIoErrors(path, () => lstatSync(path, { throwIfNoEntry: false }));
  return stat === undefined ? undefined : kindOf(stat);
}

/** The message for something other than what a path of ours must hold. */
export function misplaced(path: string, kind: EntryKind, role: string): UsageError {
  return new UsageError(`${path}: is a ${kind} where ${role} belongs; move or remove it`);
}

export interface ReadOptions {
  /** At most this many bytes are read: ask for one more than a size limit to tell a file over it. */
  readonly limit: number;
  /** What the path is for, as the message names it ("the build lock"). */
  readonly role: string;
  /** Whether a symlink is read through (a contract named on the command line) or refused (our own files). */
  readonly followLinks: boolean;
}

const chunkSize = 64 * 1024;

/**
 * The first `limit` bytes of a regular file, or undefined when nothing is there. The file is opened
 * once, without blocking (a FIFO never hangs the read), and checked on that descriptor, so what is
 * read is what was checked; anything but a regular file is a UsageError naming what stands there.
 * Memory is bounded by the limit, never by the file (a link to /dev/zero, a 2 GB file).
 */
export function readRegularFile(path: string, options: ReadOptions): Buffer | undefined {
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (options.followLinks ? 0 : (constants.O_NOFOLLOW ?? 0));
  let fd: number;
  try {
    fd = openSync(path, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    // ELOOP: the link O_NOFOLLOW refused; ENXIO: a socket, which cannot be opened.
    if (code === 'ELOOP' || code === 'ENXIO') throw misplaced(path, entryAt(path) ?? 'symlink', options.role);
    return withIoErrors(path, () => {
      throw error;
    });
  }
  try {
    const stat = fstatSync(fd);
    const kind = kindOf(stat);
    if (kind !== 'file') throw misplaced(path, kind, options.role);
    const chunks: Buffer[] = [];
    let total = 0;
    // The first read asks for one byte past the size, so a file that did not grow is read in one call.
    let wanted = stat.size + 1;
    while (total < options.limit) {
      const chunk = Buffer.allocUnsafe(Math.min(wanted, options.limit - total));
      wanted = chunkSize;
      const read = withIoErrors(path, () => readSync(fd, chunk, 0, chunk.length, null));
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      total += read;
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}
