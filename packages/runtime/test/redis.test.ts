import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mathAdd } from '../../../examples/generated/index.js';
import { precisionEcho } from './support/precision-echo.js';
import { skipWithoutRedis, startRedisServer, type RedisServer } from '../../../test/support/redis-server.js';
import { CapabilityRuntime, parseJson, ToolMetadata, ToolPolicy, type RuntimeOptions, type RuntimeStore } from '../src/index.js';
import { compileSchema } from '../../../test/support/load-module.js';
import { mcpElicit, mcpToolHandlers, type McpAnswerValidator } from '../src/hosts/mcp.js';
import { connectRedisStore, redisStore, type RedisStoreConnection } from '../src/redis.js';

/**
 * Replicas in one process, each with a connection of its own to one private redis-server (a free
 * loopback port, started and stopped here): what a fleet shares, through Redis itself.
 */
describe.skipIf(skipWithoutRedis)('redisStore on a real redis-server', () => {
  let server: RedisServer;
  const connections: RedisStoreConnection[] = [];
  let prefixes = 0;

  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    for (const connection of connections) await connection.close().catch(() => undefined);
    await server?.stop();
  });

  /** A store of its own prefix per test, so that tests share the server and nothing else. */
  async function storeFor(prefix: string, options: { commandTimeoutMs?: number } = {}): Promise<RuntimeStore> {
    const connection = await connectRedisStore({ url: server.url, prefix, ...options });
    connections.push(connection);
    return connection.store;
  }
  const nextPrefix = () => `jtc-test-${++prefixes}:`;

  function replica(store: RuntimeStore, budget?: number, options: RuntimeOptions = {}): CapabilityRuntime {
    const runtime = new CapabilityRuntime({ ...options, store });
    runtime.registerValidatedJsonTool(budget === undefined ? ToolPolicy.json('math.add') : ToolPolicy.json('math.add').withCallBudget(budget), ToolMetadata.of('Adds.'), mathAdd, ({ input }) => ({ total: input.left + input.right }));
    return runtime;
  }

  it('three replicas with a budget of 50 complete exactly 50 of 1,000 concurrent calls; the other 950 are budget_exhausted', async () => {
    const prefix = nextPrefix();
    const replicas = await Promise.all([0, 1, 2].map(async () => replica(await storeFor(prefix), 50)));
    const results = await Promise.all(Array.from({ length: 1_000 }, (_, i) => replicas[i % 3]!.callAsync('math.add', { left: i, right: 1 })));
    expect(results.filter((result) => result.ok)).toHaveLength(50);
    expect(results.filter((result) => !result.ok && result.error.code === 'budget_exhausted')).toHaveLength(950);
    expect(await replicas[2]!.remainingCallsAsync('math.add')).toBe(0);
  });

  it('a deferred call made on A is read on B, completed on C and its result read on A, every digit kept', async () => {
    const contract = precisionEcho();
    const prefix = nextPrefix();
    const [a, b, c] = await Promise.all(
      [0, 1, 2].map(async () => {
        const runtime = new CapabilityRuntime({ store: await storeFor(prefix) });
        runtime.registerValidatedProtocolJsonTool(ToolPolicy.json('precision.echo'), ToolMetadata.of('Echo, completed elsewhere.'), contract as never);
        return runtime;
      }),
    );
    const exact = parseJson('{"x": 18446744073709551615.000000000000000000001}', { exactNumbers: true });
    const handle = await a!.deferAsync('precision.echo', exact);
    expect(await b!.readCall(handle.callId)).toMatchObject({ callId: handle.callId, tool: 'precision.echo', state: 'pending' });
    expect(await c!.completeAsync(handle.callId, exact)).toMatchObject({ ok: true });
    const status = await a!.readCall(handle.callId);
    expect(status).toMatchObject({ state: 'done', outcome: 'completed' });
    expect(status?.result).toEqual({ ok: true, callId: handle.callId, output: exact });
    const broken = await a!.deferAsync('precision.echo', exact);
    expect(await b!.completeAsync(broken.callId, { x: 'not a number' })).toMatchObject({ ok: false, error: { code: 'invalid_output' } });
    expect(await c!.readCall(broken.callId)).toMatchObject({ outcome: 'failed', result: { ok: false, error: { code: 'invalid_output' } } });
  });

  it('every key it writes lives under the prefix and expires', async () => {
    const prefix = nextPrefix();
    const store = await storeFor(prefix);
    const runtime = replica(store, 5);
    await runtime.callAsync('math.add', { left: 1, right: 1 });
    await runtime.deferAsync('math.add', { left: 1, right: 1 }, { ttlMs: 60_000 });
    expect(await store.claimOnce('requestState:abc', Date.now() + 30_000)).toBe(true);
    expect(await store.claimOnce('requestState:abc', Date.now() + 30_000)).toBe(false);
    const client = createClient({ url: server.url });
    await client.connect();
    try {
      const keys = (await client.keys('*')).filter((key) => key.startsWith(prefix)).sort();
      expect(
        keys.map((key) =>
          key
            .slice(prefix.length)
            .replace(/call-[0-9a-z]+-(\d+)-[0-9a-f]{32}$/, 'call-<replica>-$1-<token>')
            .replace(/^lease:[0-9a-z]+$/, 'lease:<replica>'),
        ),
      ).toEqual(['budget:math.add', 'call:call-<replica>-2-<token>', 'lease:<replica>', 'once:requestState:abc']);
      const ttls = await Promise.all(keys.map((key) => client.pTTL(key)));
      expect(ttls.every((ttl) => ttl > 0 && ttl <= 86_400_000)).toBe(true);
      expect(ttls[1]).toBeLessThanOrEqual(60_000);
    } finally {
      await client.close();
    }
  });

  it('a sealed requestState continues one retry: replayed on another replica, it is refused', async () => {
    const prefix = nextPrefix();
    const key = 'a key of at least thirty-two bytes, shared by the fleet';
    const confirmation = compileSchema('{"type": "object", "properties": {}, "additionalProperties": false}') as unknown as McpAnswerValidator<Record<string, never>>;
    const [a, b] = await Promise.all(
      [0, 1].map(async () => {
        const runtime = new CapabilityRuntime({ store: await storeFor(prefix) });
        runtime.registerValidatedJsonTool(ToolPolicy.json('math.add'), ToolMetadata.of('Adds what the user confirms.'), mathAdd, async (request) => {
          const answer = await mcpElicit(request, { key: 'confirm', message: 'Add them?', requestedSchema: { type: 'object', properties: {} }, validator: confirmation });
          return { total: answer.status === 'accepted' ? request.input.left + request.input.right : 0 };
        });
        const mcp = mcpToolHandlers(runtime, { requestState: { key } });
        const modern = { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } } };
        return (retry: Record<string, unknown>) => mcp.callTool({ name: 'math.add', arguments: { left: 2, right: 3 }, ...modern, ...retry });
      }),
    );
    const first = (await a!({})) as { requestState: string };
    const retry = { inputResponses: { confirm: { action: 'accept', content: {} } }, requestState: first.requestState };
    expect(await b!(retry)).toMatchObject({ structuredContent: { total: 5 } });
    await expect(a!(retry)).rejects.toMatchObject({ code: -32602, data: { refusal: 'replayed' } });
  });

  it('an expired lease reads as failed with lease_expired on every replica', async () => {
    const prefix = nextPrefix();
    const a = new CapabilityRuntime({ store: await storeFor(prefix), leaseMs: 300, pollMs: 60_000, replicaId: 'doomed' });
    a.registerValidatedJsonTool(ToolPolicy.json('math.add'), ToolMetadata.of('Never ends.'), mathAdd, () => new Promise<never>(() => undefined));
    const b = replica(await storeFor(prefix));
    const handle = await a.deferAsync('math.add', { left: 1, right: 1 });
    expect(await b.readCall(handle.callId)).toMatchObject({ state: 'running' });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await b.readCall(handle.callId)).toMatchObject({ state: 'done', outcome: 'failed', result: { ok: false, error: { code: 'lease_expired' } } });
    expect(await replica(await storeFor(prefix)).readCall(handle.callId)).toMatchObject({ outcome: 'failed' });
  });

  it('a replica renews the lease of a handler that runs longer than it', async () => {
    const prefix = nextPrefix();
    const a = new CapabilityRuntime({ store: await storeFor(prefix), leaseMs: 300, pollMs: 50 });
    a.registerValidatedJsonTool(ToolPolicy.json('math.add'), ToolMetadata.of('Adds slowly.'), mathAdd, ({ input }) => new Promise((resolve) => setTimeout(() => resolve({ total: input.left + input.right }), 700)));
    const handle = await a.deferAsync('math.add', { left: 1, right: 1 });
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(await replica(await storeFor(prefix)).readCall(handle.callId)).toMatchObject({ state: 'running' });
    expect(await handle.result).toMatchObject({ ok: true, output: { total: 2 } });
  });

  it('Redis stopped mid-run: calls are denied with store_unavailable and none passes the budget; restarted, service resumes', async () => {
    const prefix = nextPrefix();
    const replicas = await Promise.all([0, 1].map(async () => replica(await storeFor(prefix, { commandTimeoutMs: 500 }), 10)));
    const before = await Promise.all(Array.from({ length: 6 }, (_, i) => replicas[i % 2]!.callAsync('math.add', { left: i, right: 1 })));
    expect(before.every((result) => result.ok)).toBe(true);
    await server.stop();
    const during = await Promise.all(Array.from({ length: 40 }, (_, i) => replicas[i % 2]!.callAsync('math.add', { left: i, right: 1 })));
    expect(during.filter((result) => result.ok)).toHaveLength(0);
    expect(new Set(during.map((result) => !result.ok && result.error.code))).toEqual(new Set(['store_unavailable']));
    const message = !during[0]!.ok && during[0]!.error.message;
    expect(message).toMatch(/^no call of "math.add"'s budget could be reserved: the runtime's store did not answer \(.+\)$/);
    expect(message).not.toMatch(/\n\s+at /);
    await server.restart();
    // The restarted server starts empty (no persistence here): the window's count starts again.
    let after = await replicas[0]!.callAsync('math.add', { left: 1, right: 1 });
    for (let tries = 0; !after.ok && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = await replicas[0]!.callAsync('math.add', { left: 1, right: 1 });
    }
    expect(after).toMatchObject({ ok: true });
    const rest = await Promise.all(Array.from({ length: 30 }, (_, i) => replicas[i % 2]!.callAsync('math.add', { left: i, right: 1 })));
    expect(rest.filter((result) => result.ok)).toHaveLength(9);
  });

  it('takes an ioredis-shaped client (call) as well as node-redis (sendCommand)', async () => {
    const client = createClient({ url: server.url });
    await client.connect();
    try {
      const store = redisStore({ call: (command: string, ...args: string[]) => client.sendCommand([command, ...args]) }, { prefix: nextPrefix() });
      const replicas = [replica(store, 2), replica(store, 2)];
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => replicas[i % 2]!.callAsync('math.add', { left: i, right: 1 })));
      expect(results.map((result) => result.ok || result.error.code).sort()).toEqual(['budget_exhausted', 'budget_exhausted', 'budget_exhausted', 'budget_exhausted', true, true]);
    } finally {
      await client.close();
    }
  });

  it('a Redis that is not there denies at once, within its timeout, never allowing a call', async () => {
    const nobody = redisStore({ sendCommand: () => new Promise(() => undefined) }, { commandTimeoutMs: 50 });
    const result = await replica(nobody, 1).callAsync('math.add', { left: 1, right: 1 });
    expect(result).toMatchObject({ ok: false, error: { code: 'store_unavailable', message: 'no call of "math.add"\'s budget could be reserved: the runtime\'s store did not answer (Redis did not answer INFO within 50 ms)' } });
    const closed = await connectRedisStore({ url: 'redis://127.0.0.1:1', connectTimeoutMs: 200 });
    connections.push(closed);
    expect(await replica(closed.store, 1).callAsync('math.add', { left: 1, right: 1 })).toMatchObject({ ok: false, error: { code: 'store_unavailable' } });
  });
});
