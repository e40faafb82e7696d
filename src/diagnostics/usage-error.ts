import { escapeForTerminal } from './diagnostic.js';

/**
 * A problem with the command line or the file system: exit code 2, a message, no stack trace.
 * The message is for a terminal, so what it quotes (a path, a revision) is escaped there.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';

  /** `details`: lines quoted under the message (what a server wrote), each on its own indented line. */
  constructor(message: string, details: readonly string[] = []) {
    super(escapeForTerminal(message) + details.map((line) => `\n  ${escapeForTerminal(line)}`).join(''));
  }
}

/** Runs a file-system action; any failure becomes a UsageError naming the path and the reason. */
export function withIoErrors<T>(path: string, action: () => T): T {
  try {
    return action();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file or folder' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EISDIR' ? 'is a folder' : (error as Error).message;
    throw new UsageError(`${path}: ${reason}`);
  }
}

/**
 * Loads an optional peer dependency of json-tool-contracts; when it is not installed, a UsageError
 * says what needs it (`purpose`) and how to install `peer`.
 */
export async function importOptionalPeer<T>(load: () => Promise<T>, peer: string, purpose: string): Promise<T> {
  try {
    return await load();
  } catch {
    throw new UsageError(`${purpose}, an optional peer dependency of json-tool-contracts that is not installed: npm install --save-dev ${peer}`);
  }
}
