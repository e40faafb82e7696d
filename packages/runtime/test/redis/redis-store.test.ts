import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mathAdd } from '../../../../examples/generated/index.js';
import { precisionEcho } from '../support/precision-echo.js';
import { skipWithoutRedis, startRedisServer, type RedisServer } from '../../../../test/support/redis-server.js';
import { CapabilityRuntime, parseJson, type ToolError, ToolMetadata, ToolPolicy, type RuntimeOptions, type RuntimeStore } from '../../src/index.js';
import { compileSchema } from '../../../../test/support/load-module.js';
import { mcpElicit, mcpToolHandlers, type McpAnswerValidator } from '../../src/mcp/server.js';
import { connectRedisStore, redisStore, type RedisStoreConnection } from '../../src/redis/redis-store.js';
import { startHoldingProxy, type HoldingProxy } from '../../../../test/support/holding-proxy.js';

function replica(store: RuntimeStore, budget?: number, options: RuntimeOptions = {}): CapabilityRuntime {
  const runtime = new CapabilityRuntime({ ...options, store });
  runtime.registerValidatedJsonTool(budget === undefined ? ToolPolicy.json('math.add') : ToolPolicy.json('math.add').withCallBudget(budget), ToolMetadata.of('Adds.'), mathAdd, ({ input }) => ({ total: input.left + input.right }));
  return runtime;
}

/** math.add served outside the process: every replica registers it, any may complete it. */
function protocolReplica(store: RuntimeStore, budget?: number): CapabilityRuntime {
  const runtime = new CapabilityRuntime({ store, pollMs: 20 });
  runtime.registerValidatedProtocolJsonTool(budget === undefined ? ToolPolicy.json('math.add') : ToolPolicy.json('math.add').withCallBudget(budget), ToolMetadata.of('Adds, elsewhere.'), mathAdd);
  return runtime;
}

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

/**
 * The store among hostile peers: another client writing under its keys, a Redis that may evict, a
 * network that holds Redis's replies past the store's timeout. Each on its own redis-server.
 */
describe.skipIf(skipWithoutRedis)('redisStore among hostile peers', () => {
  const closing: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const close of closing.reverse()) await close().catch(() => undefined);
  });
  async function server(config: string[] = []): Promise<RedisServer> {
    const started = await startRedisServer(config);
    closing.push(() => started.stop());
    return started;
  }
  async function rawClient(url: string) {
    const client = createClient({ url });
    await client.connect();
    closing.push(() => client.close());
    return client;
  }
  async function storeAt(url: string, options: { prefix?: string; commandTimeoutMs?: number } = {}): Promise<RuntimeStore> {
    const connection = await connectRedisStore({ url, prefix: 'jtc:', ...options });
    closing.push(() => connection.close());
    return connection.store;
  }
  /** Waits for what a store or a replica does on its own; gives up after 5 s, failing rather than hanging. */
  const until = async (check: () => Promise<boolean>): Promise<void> => {
    for (let waited = 0; !(await check()); waited += 20) {
      if (waited > 5_000) throw new Error('gave up waiting after 5 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it('a call record another client made unreadable ends that call with store_unavailable saying what is wrong; every replica lives and says so', async () => {
    const redis = await server();
    const raw = await rawClient(redis.url);
    const [storeA, storeB] = [await storeAt(redis.url), await storeAt(redis.url)];
    let finish!: () => void;
    const finishing = new Promise<void>((resolve) => (finish = resolve));
    const a = new CapabilityRuntime({ store: storeA, pollMs: 20 });
    a.registerValidatedJsonTool(ToolPolicy.json('math.add'), ToolMetadata.of('Adds once told to.'), mathAdd, async ({ input }) => {
      await finishing;
      return { total: input.left + input.right };
    });
    const b = replica(storeB);
    const corruptions: Record<string, (key: string, record: Record<string, unknown>) => Promise<unknown>> = {
      'done without its output': (key, record) => raw.hSet(key, { state: 'done', call: JSON.stringify({ ...record, state: 'done', outcome: 'completed', finishedAt: Date.now() }) }),
      'an output that is no JSON': (key, record) => raw.hSet(key, { state: 'done', call: JSON.stringify({ ...record, state: 'done', outcome: 'completed', finishedAt: Date.now(), output: '{"total": 2' }) }),
      'null for its record': (key) => raw.hSet(key, { state: 'done', call: 'null' }),
      'a string under its key': (key) => raw.set(key, 'another application was here'),
    };
    const problems: Record<string, RegExp> = {
      'done without its output': /cannot be read: it is done and completed, without its output$/,
      'an output that is no JSON': /cannot be read: its output is not JSON the runtime wrote \(/,
      'null for its record': /cannot be read: it is null, not a call$/,
      'a string under its key': /cannot be read: jtc:call:\S+ holds another kind of value than a call's hash$/,
    };
    const handles = await Promise.all(Object.keys(corruptions).map(() => a.deferAsync('math.add', { left: 1, right: 1 })));
    for (const [index, corrupt] of Object.values(corruptions).entries()) {
      const key = `jtc:call:${handles[index]!.callId}`;
      await corrupt(key, JSON.parse((await raw.hGet(key, 'call'))!) as Record<string, unknown>);
    }
    for (const [index, name] of Object.keys(corruptions).entries()) {
      const read = b.readCall(handles[index]!.callId);
      await expect(read, name).rejects.toMatchObject({ code: 'store_unavailable', message: expect.stringMatching(problems[name]!) });
      expect(((await read.catch((error: unknown) => error)) as ToolError).message).not.toMatch(/\n\s+at /);
    }
    finish();
    const results = await Promise.all(handles.map((handle) => handle.result));
    for (const [index, name] of Object.keys(corruptions).entries()) expect(results[index], name).toMatchObject({ ok: false, error: { code: 'store_unavailable', message: expect.stringMatching(problems[name]!) } });
    expect(a.records().map((record) => record.errorCode)).toEqual(Object.keys(corruptions).map(() => 'store_unavailable'));
    // Both replicas serve on, and new calls are stored and read as ever.
    const next = await a.deferAsync('math.add', { left: 2, right: 3 });
    expect(await next.result).toMatchObject({ ok: true, output: { total: 5 } });
    expect(await b.readCall(next.callId)).toMatchObject({ state: 'done', outcome: 'completed' });
  });

  it('on a Redis whose maxmemory-policy evicts, denies every call saying noeviction is needed, so that another application filling it never runs a budget open', async () => {
    const redis = await server(['--maxmemory', '4mb', '--maxmemory-policy', 'volatile-lru']);
    const other = await rawClient(redis.url);
    const replicas = [replica(await storeAt(redis.url), 50), replica(await storeAt(redis.url), 50)];
    const round = () => Promise.all(Array.from({ length: 50 }, (_, i) => replicas[i % 2]!.callAsync('math.add', { left: i, right: 1 })));
    const first = await round();
    // Another application's keys, each with an expiry, as a cache's are: several times what Redis may hold, so that older keys are evicted.
    for (let batch = 0; batch < 20; batch++) await Promise.all(Array.from({ length: 100 }, (_, i) => other.set(`cache:${batch}:${i}`, 'x'.repeat(10_000), { EX: 3_600 }).catch(() => undefined)));
    const second = await round();
    const all = [...first, ...second];
    expect(all.filter((result) => result.ok).length).toBeLessThanOrEqual(50);
    const refused = all.filter((result) => !result.ok);
    expect(new Set(refused.map((result) => !result.ok && result.error.code))).toEqual(new Set(['store_unavailable']));
    expect(!refused[0]!.ok && refused[0]!.error.message).toMatch(/Redis's maxmemory-policy is volatile-lru, which may evict the store's keys .* the store needs noeviction: set maxmemory-policy noeviction/);
    await expect(replicas[0]!.claimOnce('requestState:nonce', Date.now() + 60_000)).rejects.toMatchObject({ code: 'store_unavailable', message: expect.stringContaining('noeviction') });
    // Set to noeviction, a store serves.
    await other.configSet('maxmemory-policy', 'noeviction');
    await other.flushAll();
    expect(await replica(await storeAt(redis.url), 50).callAsync('math.add', { left: 1, right: 1 })).toMatchObject({ ok: true });
  });

  describe('replies held past the timeout, while Redis does what it was asked', () => {
    let redis: RedisServer;
    let proxy: HoldingProxy;
    let prefixes = 0;
    beforeAll(async () => {
      redis = await server();
      proxy = await startHoldingProxy(redis.port);
      closing.push(() => proxy.close());
      // Redis learns the scripts first (a command held in these tests is one Redis runs, not a NOSCRIPT it refuses).
      const warm = protocolReplica(await storeAt(redis.url, { prefix: 'warm:' }), 10);
      await warm.completeAsync((await warm.deferAsync('math.add', { left: 1, right: 1 })).callId, { total: 2 });
      await warm.cancelAsync((await warm.deferAsync('math.add', { left: 1, right: 1 })).callId);
    });
    /** A replica of its own prefix, direct to Redis or through the proxy (its commands time out after 300 ms). */
    const replicas = async (budget?: number) => {
      const prefix = `held-${++prefixes}:`;
      const direct = protocolReplica(await storeAt(redis.url, { prefix }), budget);
      const held = protocolReplica(await storeAt(proxy.url, { prefix, commandTimeoutMs: 300 }), budget);
      // Its first command reads the eviction policy, before anything is held.
      await held.remainingCallsAsync('math.add');
      return { direct, held };
    };
    /** Runs `act` with replies held (from the first request that holds `from`), then lets them through. */
    async function whileHeld<T>(act: () => Promise<T>, from?: string): Promise<T> {
      proxy.hold(from);
      try {
        return await act();
      } finally {
        proxy.release();
      }
    }

    it('a completion whose answer was lost says it may have been stored; completed again, it answers with the stored result', async () => {
      const { direct, held } = await replicas();
      const handle = await direct.deferAsync('math.add', { left: 1, right: 1 });
      const completion = () => expect(held.completeAsync(handle.callId, { total: 2 })).rejects.toMatchObject({ code: 'store_unavailable', message: expect.stringMatching(/^the end of call \S+ was not confirmed by the store: it may or may not be stored, and ending it again reconciles: /) });
      // The read before it is answered; the end it writes is done in Redis, its answer held past the timeout.
      await whileHeld(completion, '"outcome":"completed"');
      expect(await direct.readCall(handle.callId)).toMatchObject({ state: 'done', outcome: 'completed' });
      expect(await held.completeAsync(handle.callId, { total: 2 })).toEqual({ ok: true, callId: handle.callId, output: { total: 2 } });
      expect(await handle.result).toEqual({ ok: true, callId: handle.callId, output: { total: 2 } });
      // Another end is no retry of that one.
      await expect(held.completeAsync(handle.callId, { total: 3 })).rejects.toMatchObject({ code: 'unknown_call' });
    });

    it('a cancellation whose answer was lost gave the budget back all the same; cancelled again, it answers with the cancelled result', async () => {
      const { direct, held } = await replicas(1);
      const handle = await direct.deferAsync('math.add', { left: 1, right: 1 });
      expect(await direct.remainingCallsAsync('math.add')).toBe(0);
      await whileHeld(() => expect(held.cancelAsync(handle.callId)).rejects.toMatchObject({ code: 'store_unavailable', message: expect.stringContaining('it may or may not have taken effect') }), '"outcome":"cancelled"');
      expect(await direct.remainingCallsAsync('math.add')).toBe(1);
      expect(await held.cancelAsync(handle.callId)).toMatchObject({ ok: false, error: { code: 'cancelled' } });
      expect(await direct.remainingCallsAsync('math.add')).toBe(1);
    });

    it('a once-only claim whose answer was lost is given back, so that the retry it was for can claim it', async () => {
      const { direct, held } = await replicas();
      const expiresAt = Date.now() + 60_000;
      await whileHeld(() => expect(held.claimOnce('requestState:lost', expiresAt)).rejects.toMatchObject({ code: 'store_unavailable' }));
      await until(() => direct.claimOnce('requestState:lost', expiresAt));
      expect(await held.claimOnce('requestState:lost', expiresAt)).toBe(false);
    });

    it('a deferred call whose storing was not confirmed is forgotten, its budget given back', async () => {
      const { direct, held } = await replicas(1);
      const handle = await whileHeld(() => held.deferAsync('math.add', { left: 1, right: 1 }));
      expect(await handle.result).toMatchObject({ ok: false, error: { code: 'store_unavailable', message: expect.stringMatching(/was not stored \(if the store took it, it is forgotten and its budget given back once the store answers\)/) } });
      await until(async () => (await direct.remainingCallsAsync('math.add')) === 1);
      expect(await direct.readCall(handle.callId)).toBeUndefined();
    });
  });
});
