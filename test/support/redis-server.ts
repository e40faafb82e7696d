import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

/**
 * A private `redis-server` for tests (Debian's package; `.ci/run` installs it): its own process on a
 * free port of 127.0.0.1, no persistence (no RDB, no AOF), its working folder a temp folder removed
 * when it stops. Never a system service, so tests can stop, kill and restart it at will.
 */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>`, for clients and for `REDIS_URL`. */
  readonly url: string;
  readonly port: number;
  /** Ends the server (SIGTERM, waiting for its exit) and removes its folder; it can be restarted. */
  stop(): Promise<void>;
  /** Starts it again on the same port (stopping it first when it runs); its data starts empty. */
  restart(): Promise<void>;
  /** Ends it abruptly (SIGKILL, waiting for its exit), as a crash would; it can be restarted. */
  kill(): Promise<void>;
}

const binary = process.env['REDIS_SERVER'] ?? 'redis-server';

/** Why there is no redis-server to run, or undefined when there is one. */
function findRedisServer(): string | undefined {
  const found = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  if (found.error !== undefined) return `${binary}: ${found.error.message}`;
  return found.status === 0 ? undefined : `${binary} --version exited ${String(found.status)}: ${found.stderr.trim()}`;
}

/** Why redis-server cannot run here (undefined when it can). */
export const redisServerProblem = findRedisServer();

/**
 * Whether tests needing redis-server skip: on a contributor's machine without it they say so loudly
 * and skip; under CI they run and fail, since `.ci/run` installs it.
 */
export const skipWithoutRedis = redisServerProblem !== undefined && process.env['CI'] === undefined;
if (skipWithoutRedis) console.warn(`\n!!! TESTS NEEDING REDIS WERE NOT RUN: no redis-server (${redisServerProblem}). Install Debian's redis-server; CI runs them.\n`);

/** Whether a server on the port answers PING with +PONG. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    socket.setTimeout(5_000, () => socket.destroy());
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) socket.end();
    });
    socket.on('close', () => resolve(reply.startsWith('+PONG')));
    socket.on('error', () => undefined);
  });
}

const running = new Set<ChildProcess>();
// A test run that ends without stopping its servers (a failed hook, a crash) leaves none behind.
process.on('exit', () => {
  for (const server of running) server.kill('SIGKILL');
});

/** One redis-server process on the port, resolved once it answers PING; rejected if it exits first. */
async function launch(port: number, folder: string): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', folder, '--daemonize', 'no', '--logfile', '', '--loglevel', 'warning'];
  const server = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  server.stdout!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  server.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  let exited = false;
  const exit = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  void exit.then(() => {
    exited = true;
    running.delete(server);
  });
  running.add(server);
  while (!exited) {
    if (await answersPing(port)) return server;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server on port ${port} exited before it answered: ${output.trim()}`);
}

/** Ends the process with the signal and waits for its exit. */
async function end(server: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exit = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  server.kill(signal);
  await exit;
}

/** Starts a private redis-server on a free loopback port (throws when redis-server is absent). */
export async function startRedisServer(): Promise<RedisServer> {
  if (redisServerProblem !== undefined) throw new Error(`tests needing Redis need redis-server: ${redisServerProblem}`);
  let folder = mkdtempSync(join(tmpdir(), 'jtc-redis-'));
  let port = 0;
  let server: ChildProcess | undefined;
  // A free port can be taken between the probe and the server's bind: try another few.
  for (let attempt = 1; server === undefined; attempt++) {
    port = await freePort();
    try {
      server = await launch(port, folder);
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
  let current: ChildProcess | undefined = server;
  const halt = async (signal: NodeJS.Signals) => {
    if (current !== undefined) await end(current, signal);
    current = undefined;
    rmSync(folder, { recursive: true, force: true });
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () => halt('SIGTERM'),
    kill: () => halt('SIGKILL'),
    async restart() {
      await halt('SIGTERM');
      folder = mkdtempSync(join(tmpdir(), 'jtc-redis-'));
      current = await launch(port, folder);
    },
  };
}
