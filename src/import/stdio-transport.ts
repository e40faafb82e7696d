import { spawn } from 'node:child_process';
import { UsageError } from '../diagnostics/usage-error.js';
import { Frames } from './frames.js';
import { routeOf, rpcMessage, seconds, type Transport, type TransportOptions } from './json-rpc.js';
import { maxSourceBytes } from './sources.js';
import { isWindows, signalGroup, stopGroup } from './process-group.js';

/** What stderr said last, for a message about a server that failed. */
const stderrKept = 4096;
/**
 * After the server exits, how long its last answers may take to be read. The end of its output
 * usually comes at once; a process it started that still holds the output open (a daemon, `cmd &`)
 * must not keep us waiting for answers that cannot come.
 */
const afterExitMs = 2000;

/**
 * A server started with `command` through the shell, in a process group of its own (so that
 * stopping it stops what the shell and the server started too), speaking newline-delimited
 * JSON-RPC on its stdin and stdout. Answers are read until `close`; then the output is no longer
 * read and the whole group is signalled, whether or not the shell is still there, so that no
 * process the server left behind keeps the import waiting. A process that left the group (`setsid`)
 * cannot be reached and is left as it is; the import still ends on time.
 */
export function stdioTransport(command: string, options: TransportOptions): Transport {
  const label = `server "${command}"`;
  const child = spawn(command, { shell: true, stdio: ['pipe', 'pipe', 'pipe'], detached: !isWindows });
  let stderr = '';
  /** Why no answer can come any more, once none can. */
  let ended: UsageError | undefined;
  let exitedHow: string | undefined;
  const waiting = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  const failure = (message: string): UsageError => {
    const said = stderr.trim() === '' ? [] : stderr.trim().split(/\r?\n/);
    return said.length === 1 ? new UsageError(`${message}; it said: ${said[0]}`) : new UsageError(said.length === 0 ? message : `${message}; it said:`, said);
  };
  const end = (error: UsageError): void => {
    ended ??= error;
    for (const pending of waiting.values()) pending.reject(ended);
    waiting.clear();
  };

  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-stderrKept);
  });
  child.on('error', (error) => end(new UsageError(`${label}: could not be started: ${error.message}`)));
  child.on('exit', (code, signal) => {
    exitedHow = signal === null ? `exited with code ${code}` : `was stopped by ${signal}`;
    // What it wrote just before exiting is still being read: 'close' says when it all was.
    setTimeout(() => end(failure(`${label} ${exitedHow} before it answered`)), afterExitMs).unref();
  });
  child.on('close', () => end(failure(`${label} ${exitedHow ?? 'closed its output'} before it answered`)));
  child.stdin.on('error', () => {
    // A server that exits closes its stdin; the exit is reported above.
  });

  // Fatal: a message that is not UTF-8 is refused, not read with replacement characters.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const lines = new Frames('\n', maxSourceBytes, () => new UsageError(`${label}: sent a message of more than ${maxSourceBytes} bytes`));
  const onOutput = (chunk: Buffer): void => {
    try {
      for (const line of lines.push(decoder.decode(chunk, { stream: true }))) if (line.trim() !== '') receive(line.replace(/\r$/, ''));
    } catch (error) {
      end(error instanceof UsageError ? error : new UsageError(`${label}: sent a message that is not valid UTF-8; MCP messages are UTF-8`));
      stopReading();
      signalGroup(child, 'SIGTERM');
    }
  };
  child.stdout.on('data', onOutput);
  const stopReading = (): void => {
    child.stdout.off('data', onOutput);
    child.stdout.destroy();
  };

  const receive = (line: string): void => {
    const { id, method } = routeOf(line);
    if (typeof method === 'string') {
      // A request from the server (ping, roots/list): this client offers nothing.
      if (id !== undefined) child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: `jtc import does not handle ${method}` } })}\n`);
      return;
    }
    const pending = typeof id === 'number' ? waiting.get(id) : undefined;
    if (pending === undefined) return;
    waiting.delete(id as number);
    pending.resolve(line);
  };

  let nextId = 1;
  return {
    label,
    request(method, params) {
      if (ended !== undefined) return Promise.reject(ended);
      if (exitedHow !== undefined) return Promise.reject(failure(`${label} ${exitedHow}`));
      const id = nextId++;
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(failure(`${label}: no answer to ${method} within ${seconds(options.timeoutMs)} (raise --timeout if it starts slowly)`));
        }, options.timeoutMs);
        waiting.set(id, {
          resolve: (text) => {
            clearTimeout(timer);
            resolve(text);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        });
        child.stdin.write(`${rpcMessage(id, method, params)}\n`);
      });
    },
    async notify(method) {
      child.stdin.write(`${rpcMessage(undefined, method)}\n`);
    },
    async close() {
      // Nothing it writes from now on counts, and a process that holds the output open is not waited for.
      end(new UsageError(`${label}: closed`));
      stopReading();
      await stopGroup(child);
    },
  };
}
