import { connect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { type RedisServer, skipWithoutRedis, startRedisServer } from '../support/redis-server.js';

/** Sends one inline command and resolves the server's first reply line, or the connection's error code. */
function send(port: number, command: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    socket.on('connect', () => socket.write(`${command}\r\n`));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) socket.end();
    });
    socket.on('close', () => resolve(reply.trim()));
    socket.on('error', (error: NodeJS.ErrnoException) => void (reply = error.code ?? error.message));
  });
}

describe.skipIf(skipWithoutRedis)('a private redis-server for tests', () => {
  let redis: RedisServer | undefined;
  afterAll(() => redis?.stop());

  it('serves on its loopback port, keeps nothing across a restart on the same port, and refuses connections once stopped or killed', async () => {
    redis = await startRedisServer();
    expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
    expect(await send(redis.port, 'SET fleet 1')).toBe('+OK');
    expect(await send(redis.port, 'CONFIG GET save')).toMatch(/^\*2/);
    await redis.restart();
    expect(await send(redis.port, 'EXISTS fleet')).toBe(':0');
    await redis.kill();
    expect(await send(redis.port, 'PING')).toBe('ECONNREFUSED');
    await redis.restart();
    expect(await send(redis.port, 'PING')).toBe('+PONG');
    await redis.stop();
    expect(await send(redis.port, 'PING')).toBe('ECONNREFUSED');
  });
});
