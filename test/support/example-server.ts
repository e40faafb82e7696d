import { spawn } from 'node:child_process';
import { freePort } from '../../scripts/free-port.js';

/** An example server started as its README line says, `PORT=<port> npm run <script>`. */
export interface ExampleServer {
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  readonly port: number;
  /** What it printed so far, stdout and stderr. */
  output(): string;
  /** Ends it (SIGTERM to the group npm leads) and waits for its exit. */
  stop(): Promise<void>;
  /** Ends it abruptly (SIGKILL to the group), as a crash would, and waits for its exit. */
  kill(): Promise<void>;
}

/**
 * `npm run <script>` on `port` of 127.0.0.1 (a free one unless given: a server started again on its
 * own), its environment extended by `env`, resolved once it prints `MCP server on <url>` (rejected
 * if it exits first).
 */
export async function startExample(script: string, env: Record<string, string>, port?: number): Promise<ExampleServer> {
  port ??= await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  // Its own process group, so that a signal reaches the server npm starts as its child.
  const server = spawn('npm', ['run', '--silent', script], { env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    server.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`MCP server on ${url}`)) resolve();
    });
    server.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    server.on('exit', (code, signal) => reject(new Error(`the example server exited (${String(code ?? signal)}): ${output}`)));
  });
  const end = async (signal: NodeJS.Signals) => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    try {
      process.kill(-server.pid!, signal);
    } catch {
      server.kill(signal);
    }
    await exited;
  };
  return { url, port, output: () => output, stop: () => end('SIGTERM'), kill: () => end('SIGKILL') };
}
