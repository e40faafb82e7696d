import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { bin } from './jtc-process.js';

/** A `jtc proxy --listen 0` process, started as a user starts it, and what it said on stderr. */
export interface GatewayProcess {
  readonly url: URL;
  readonly child: ChildProcess;
  stderr(): string;
  /** Resolves once stderr holds `text` (the report of a listing, a warning). */
  said(text: string | RegExp): Promise<void>;
  /** SIGTERM, and its exit code once it exited. */
  stop(): Promise<number | null>;
}

export async function startGateway(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<GatewayProcess> {
  const child = spawn(process.execPath, [bin, 'proxy', ...args, '--listen', '0'], { stdio: ['ignore', 'ignore', 'pipe'], env });
  let stderr = '';
  const listeners = new Set<() => void>();
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    for (const listener of listeners) listener();
  });
  const said = (text: string | RegExp): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (typeof text === 'string' ? stderr.includes(text) : text.test(stderr)) {
          listeners.delete(check);
          resolve();
        } else if (child.exitCode !== null) {
          listeners.delete(check);
          reject(new Error(`jtc proxy exited (${child.exitCode}) before it said ${String(text)}:\n${stderr}`));
        }
      };
      listeners.add(check);
      child.once('exit', check);
      check();
    });
  await said(/serving .* at (http:\/\/\S+)\n/);
  const url = new URL(/serving .* at (http:\/\/\S+)\n/.exec(stderr)![1]!);
  return {
    url,
    child,
    stderr: () => stderr,
    said,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      return child.exitCode;
    },
  };
}
