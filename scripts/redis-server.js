// A private redis-server (Debian's package; .ci/run installs it) for the tests and the benchmark:
// its own process on a free port of 127.0.0.1, no persistence (no RDB, no AOF), its working folder a
// temp folder removed when it stops. Never a system service, so its users can stop, kill and
// restart it at will. Types: redis-server.d.ts beside it.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

const binary = process.env.REDIS_SERVER ?? 'redis-server';

/** Why there is no redis-server to run, or undefined when there is one. */
function findRedisServer() {
  const found = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  if (found.error !== undefined) return `${binary}: ${found.error.message}`;
  return found.status === 0 ? undefined : `${binary} --version exited ${String(found.status)}: ${found.stderr.trim()}`;
}

export const redisServerProblem = findRedisServer();

/** Whether a server on the port answers PING with +PONG. */
function answersPing(port) {
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

const running = new Set();
// A run that ends without stopping its servers (a failed hook, a crash) leaves none behind.
process.on('exit', () => {
  for (const server of running) server.kill('SIGKILL');
});

/** One redis-server process on the port, resolved once it answers PING; rejected if it exits first. */
async function launch(port, folder, config) {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', folder, '--daemonize', 'no', '--logfile', '', '--loglevel', 'warning', ...config];
  const server = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk) => {
    output += chunk.toString();
  };
  server.stdout.on('data', keep);
  server.stderr.on('data', keep);
  let exited = false;
  server.once('exit', () => {
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
async function end(server, signal) {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exit = new Promise((resolve) => server.once('exit', resolve));
  server.kill(signal);
  await exit;
}

/** Starts a private redis-server on a free loopback port (throws when redis-server is absent); `config`: more of its command-line options. */
export async function startRedisServer(config = []) {
  if (redisServerProblem !== undefined) throw new Error(`this needs redis-server: ${redisServerProblem}`);
  let folder = mkdtempSync(join(tmpdir(), 'jtc-redis-'));
  let port = 0;
  let current;
  // A free port can be taken between the probe and the server's bind: try another few.
  for (let attempt = 1; current === undefined; attempt++) {
    port = await freePort();
    try {
      current = await launch(port, folder, config);
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
  const halt = async (signal) => {
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
      current = await launch(port, folder, config);
    },
  };
}
