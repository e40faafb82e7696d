import { createClient } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import { mathAdd } from '../../examples/generated/index.js';
import { CapabilityRuntime, ToolMetadata, ToolPolicy } from '../../packages/runtime/src/index.js';
import { connectRedisStore, redisStore } from '../../packages/runtime/src/redis/redis-store.js';
import { startHoldingProxy } from '../support/holding-proxy.js';
import { skipWithoutRedis, startRedisServer } from '../support/redis-server.js';

/**
 * One replica running thousands of deferred calls on a Redis whose every reply comes a
 * millisecond late (a proxy delays them), as a store a network hop away is: its lease must hold for
 * as long as it lives, whatever it has open. Slow (seconds of leases): `npm run test:fleet`.
 */
describe.skipIf(skipWithoutRedis)('leases of a replica with thousands of running calls', () => {
  const closing: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const close of closing.reverse()) await close().catch(() => undefined);
  });

  it('4,000 running calls, every reply 1 ms late, a 3 s lease: held through two lease periods, with one command per poll', async () => {
    const redis = await startRedisServer();
    closing.push(() => redis.stop());
    const proxy = await startHoldingProxy(redis.port);
    closing.push(() => proxy.close());
    const client = createClient({ url: proxy.url, disableOfflineQueue: true });
    await client.connect();
    closing.push(() => client.close());
    let commands = 0;
    const counting = {
      sendCommand(args: string[]) {
        commands++;
        return client.sendCommand(args);
      },
    };
    const store = redisStore(counting, { prefix: 'leases:' });
    let finish!: () => void;
    const finishing = new Promise<void>((resolve) => (finish = resolve));
    const leaseMs = 3_000;
    const a = new CapabilityRuntime({ store, leaseMs, pollMs: 1_000 });
    a.registerValidatedJsonTool(ToolPolicy.json('math.add'), ToolMetadata.of('Adds once told to.'), mathAdd, async ({ input }) => {
      await finishing;
      return { total: input.left + input.right };
    });
    const handles = [];
    for (let start = 0; start < 4_000; start += 500) handles.push(...(await Promise.all(Array.from({ length: 500 }, (_, i) => a.deferAsync('math.add', { left: start + i, right: 1 })))));
    expect(handles.every((handle) => handle.state === 'running')).toBe(true);
    proxy.delay(1);
    const before = commands;
    await new Promise((resolve) => setTimeout(resolve, 2 * leaseMs + 1_000));
    // About one renewal a second, however many calls it holds (the eviction policy is read again too).
    expect(commands - before).toBeLessThan(30);
    const direct = await connectRedisStore({ url: redis.url, prefix: 'leases:' });
    closing.push(() => direct.close());
    const reader = new CapabilityRuntime({ store: direct.store });
    const states = await Promise.all(handles.filter((_, i) => i % 50 === 0).map(async (handle) => (await reader.readCall(handle.callId))?.state));
    expect(new Set(states)).toEqual(new Set(['running']));
    finish();
    const results = await Promise.all(handles.map((handle) => handle.result));
    expect(results.filter((result) => !result.ok).map((result) => !result.ok && result.error.code)).toEqual([]);
  });
});
