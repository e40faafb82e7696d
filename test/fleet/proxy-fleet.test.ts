import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jtc } from '../cli/jtc-process.js';
import { type GatewayProcess, startGateway } from '../cli/proxy-process.js';
import { type RedisServer, skipWithoutRedis, startRedisServer } from '../support/redis-server.js';

/**
 * Several gateways as docs/gateway.md starts them: three `jtc proxy --redis` replicas in front of
 * one upstream each (server-everything over stdio), on one private redis-server, with one budget
 * for get-sum: the calls that complete across the three are exactly the budget, whichever replica
 * each reached.
 */
const budget = 7;

describe.skipIf(skipWithoutRedis)('jtc proxy: three replicas on one Redis', () => {
  let redis: RedisServer;
  let folder: string;
  const replicas: GatewayProcess[] = [];
  beforeAll(async () => {
    redis = await startRedisServer();
    folder = mkdtempSync(join(tmpdir(), 'jtc-proxy-fleet-'));
    const upstream = `"${process.execPath}" node_modules/@modelcontextprotocol/server-everything/dist/index.js`;
    expect(jtc(['import', '--stdio', upstream, '-o', join(folder, 'contracts')]).code).toBe(0);
    const started = await Promise.all([0, 1, 2].map(() => startGateway([join(folder, 'contracts'), '--stdio', upstream, '--redis', redis.url, '--budget', `get-sum=${budget}`])));
    replicas.push(...started);
  });
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
    await redis?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('holds one budget across the three: exactly that many calls complete, the rest are budget_exhausted', async () => {
    const clients = await Promise.all(
      replicas.map(async (replica, index) => {
        const client = new Client({ name: `fleet-${index}`, version: '1.0.0' }, index === 1 ? {} : { versionNegotiation: { mode: { pin: '2026-07-28' } } });
        await client.connect(new StreamableHTTPClientTransport(replica.url));
        return client;
      }),
    );
    try {
      // Five calls through each replica at once: fifteen for a budget of seven.
      const results = await Promise.all(clients.flatMap((client) => Array.from({ length: 5 }, (_, i) => client.callTool({ name: 'get-sum', arguments: { a: i, b: 1 } }))));
      const texts = results.map((result) => (result.content as { type: string; text: string }[])[0]!.text);
      expect(results.filter((result) => result.isError !== true)).toHaveLength(budget);
      expect(texts.filter((text) => text.startsWith('budget_exhausted: '))).toHaveLength(results.length - budget);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });
});
