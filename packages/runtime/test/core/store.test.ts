import { describe, expect, it } from 'vitest';
import { mathAdd } from '../../../../examples/generated/index.js';
import { precisionEcho } from '../support/precision-echo.js';
import { CapabilityRuntime, memoryStore, parseJson, ToolError, ToolMetadata, ToolPolicy, type RuntimeOptions, type RuntimeStore } from '../../src/index.js';

/** One replica of a server: math.add run here (budgeted when asked), math.remote completed from outside. */
function replica(store: RuntimeStore | undefined, options: { budget?: number; handler?: (input: { left: number; right: number }) => unknown } & RuntimeOptions = {}): CapabilityRuntime {
  const { budget, handler = ({ left, right }) => ({ total: left + right }), ...runtimeOptions } = options;
  const runtime = new CapabilityRuntime({ ...runtimeOptions, ...(store === undefined ? {} : { store }) });
  const policy = budget === undefined ? ToolPolicy.json('math.add') : ToolPolicy.json('math.add').withCallBudget(budget);
  runtime.registerValidatedJsonTool(policy, ToolMetadata.of('Adds.'), mathAdd, (request) => handler(request.input) as { total: number });
  return runtime;
}

/** math.add served outside the process: every replica registers it, any may complete it. */
function protocolReplica(store: RuntimeStore | undefined, budget?: number): CapabilityRuntime {
  const runtime = new CapabilityRuntime(store === undefined ? {} : { store });
  runtime.registerValidatedProtocolJsonTool(budget === undefined ? ToolPolicy.json('math.add') : ToolPolicy.json('math.add').withCallBudget(budget), ToolMetadata.of('Adds, elsewhere.'), mathAdd);
  return runtime;
}

/** A store whose every answer can be made to fail, as an unreachable one's does. */
function breakableStore(): { store: RuntimeStore; down: (down: boolean) => void } {
  const inner = memoryStore();
  let isDown = false;
  const store = Object.fromEntries(Object.entries(inner).map(([name, method]) => [name, (...args: unknown[]) => (isDown ? Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')) : (method as (...a: unknown[]) => Promise<unknown>)(...args))])) as unknown as RuntimeStore;
  return { store, down: (down) => void (isDown = down) };
}

/** What another replica settles within its poll; after 5 s the test fails rather than hangs. */
const within = <T>(promise: Promise<T>): Promise<T> => Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('not settled within 5 s')), 5_000).unref())]);

/** Waits for what another replica does within its poll; gives up after 5 s, failing the test rather than hanging it. */
const until = async (check: () => boolean | Promise<boolean>): Promise<void> => {
  for (let waited = 0; !(await check()); waited += 5) {
    if (waited > 5_000) throw new Error('gave up waiting after 5 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe('memoryStore', () => {
  it('reserves exactly the budget however many ask at once, and releases never below zero', async () => {
    const store = memoryStore();
    const taken = await Promise.all(Array.from({ length: 100 }, () => store.reserve('t', 7)));
    expect(taken.filter(Boolean)).toHaveLength(7);
    expect(await store.used('t')).toBe(7);
    for (let i = 0; i < 9; i++) await store.release('t');
    expect(await store.used('t')).toBe(0);
  });

  it('forgets calls and claims when they expire, and replaces a call only from the states given', async () => {
    let time = 1_000;
    const store = memoryStore(() => time);
    const call = { callId: 'c1', tool: 't', state: 'pending' as const, startedAt: 1_000, expiresAt: 2_000, exactNumbers: false, budgeted: false };
    const done = { ...call, state: 'done' as const, outcome: 'completed' as const, finishedAt: 1_500, output: '{}' };
    expect(await store.openCall(call, undefined, undefined)).toBe(true);
    await expect(store.openCall(call, undefined, undefined)).rejects.toThrow(/already stored/);
    expect(await store.replaceCall(done, ['running'])).toBe(false);
    expect(await store.replaceCall(done, ['pending'])).toBe(true);
    expect((await store.readCall('c1'))?.call.state).toBe('done');
    expect(await store.claimOnce('k', 1_500)).toBe(true);
    expect(await store.claimOnce('k', 1_500)).toBe(false);
    time = 2_000;
    expect(await store.readCall('c1')).toBeUndefined();
    expect(await store.claimOnce('k', 3_000)).toBe(true);
  });
});

describe('a runtime without a store', () => {
  it('keeps its call ids, and its synchronous path, as they were', () => {
    const runtime = replica(undefined, { budget: 1 });
    expect(runtime.call('math.add', { left: 1, right: 2 })).toEqual({ ok: true, callId: 'call-1', output: { total: 3 } });
    expect(runtime.call('math.add', { left: 1, right: 2 })).toMatchObject({ ok: false, error: { code: 'budget_exhausted' } });
  });

  it('serves deferAsync, readCall and completeAsync from its own memory, budget included', async () => {
    const runtime = protocolReplica(undefined, 1);
    const handle = await runtime.deferAsync('math.add', { left: 1, right: 2 });
    expect(handle.state).toBe('pending');
    expect(runtime.remainingCalls('math.add')).toBe(0);
    expect(await runtime.readCall(handle.callId)).toMatchObject({ callId: handle.callId, tool: 'math.add', state: 'pending' });
    expect(await runtime.completeAsync(handle.callId, { total: 3 })).toEqual({ ok: true, callId: handle.callId, output: { total: 3 } });
    expect(await handle.result).toEqual({ ok: true, callId: handle.callId, output: { total: 3 } });
    expect(await runtime.readCall(handle.callId)).toMatchObject({ state: 'done', outcome: 'completed', result: { ok: true, output: { total: 3 } } });
    expect(runtime.records()).toMatchObject([{ callId: handle.callId, outcome: 'completed' }]);
    expect((await runtime.deferAsync('math.add', { left: 1, right: 2 })).state).toBe('done');
  });
});

describe('a runtime without a store, its deferred calls expiring', () => {
  it('settles a pending call nobody completed within its ttlMs, and forgets it', async () => {
    const runtime = new CapabilityRuntime({ pollMs: 5 });
    runtime.registerValidatedProtocolJsonTool(ToolPolicy.json('math.add'), ToolMetadata.of('Adds, elsewhere.'), mathAdd);
    const handle = await runtime.deferAsync('math.add', { left: 1, right: 1 }, { ttlMs: 20 });
    expect(await within(handle.result)).toMatchObject({ ok: false, error: { code: 'cancelled', message: `call ${handle.callId} to "math.add" expired from the store before it ended` } });
    expect(await runtime.readCall(handle.callId)).toBeUndefined();
    expect(runtime.records()).toMatchObject([{ outcome: 'cancelled' }]);
  });
});

describe('replicas sharing a store', () => {
  it('mint call ids no other replica mints', async () => {
    const store = memoryStore();
    const [a, b] = [replica(store, { replicaId: 'a' }), replica(store)];
    expect((await a.callAsync('math.add', { left: 1, right: 1 })).callId).toBe('call-a-1');
    expect((await b.callAsync('math.add', { left: 1, right: 1 })).callId).toMatch(/^call-[0-9a-z]{8}-1$/);
    expect(() => new CapabilityRuntime({ replicaId: 'no spaces' })).toThrow(RangeError);
  });

  it('hand out deferred call ids nobody can guess from the ones before (an MCP task id is one)', async () => {
    const a = protocolReplica(memoryStore());
    const ids = await Promise.all([1, 2, 3].map(async () => (await a.deferAsync('math.add', { left: 1, right: 1 })).callId));
    for (const id of ids) expect(id).toMatch(/^call-[0-9a-z]{8}-[1-3]-[0-9a-f]{32}$/);
    expect(new Set(ids.map((id) => id.slice(-32))).size).toBe(3);
    expect(await a.readCall(`${ids[0]!.slice(0, -32)}${'0'.repeat(32)}`)).toBeUndefined();
  });

  it('complete exactly the budget between them under concurrency, and refuse the synchronous path for a budgeted tool', async () => {
    const store = memoryStore();
    const replicas = [replica(store, { budget: 50 }), replica(store, { budget: 50 }), replica(store, { budget: 50 })];
    const results = await Promise.all(Array.from({ length: 1_000 }, (_, i) => replicas[i % 3]!.callAsync('math.add', { left: i, right: 1 })));
    expect(results.filter((r) => r.ok)).toHaveLength(50);
    expect(results.filter((r) => !r.ok && r.error.code === 'budget_exhausted')).toHaveLength(950);
    expect(await replicas[1]!.remainingCallsAsync('math.add')).toBe(0);
    const sync = replicas[0]!.call('math.add', { left: 1, right: 1 });
    expect(sync).toMatchObject({ ok: false, error: { code: 'asynchronous_store', message: 'the call budget of "math.add" is kept in the runtime\'s store: call it with callAsync() or deferAsync()' } });
    expect(replicas[0]!.callJson('math.add', '{"left":1,"right":1}')).toMatchObject({ ok: false, error: { code: 'asynchronous_store' } });
    expect(replica(store).call('math.add', { left: 1, right: 1 })).toMatchObject({ ok: true });
  });

  it('let a call deferred on A be read on B, completed on C and its result read on A', async () => {
    const store = memoryStore();
    const [a, b, c] = [protocolReplica(store), protocolReplica(store), protocolReplica(store)];
    const handle = await a.deferAsync('math.add', { left: 2, right: 3 }, { ttlMs: 60_000 });
    expect(await b.readCall(handle.callId)).toMatchObject({ state: 'pending', tool: 'math.add' });
    await expect(b.completeAsync(handle.callId, { total: 'five' })).resolves.toMatchObject({ ok: false, error: { code: 'invalid_output' } });
    // The broken completion ended the call: failed, stored so, and the good one after it finds nothing pending.
    await expect(c.completeAsync(handle.callId, { total: 5 })).rejects.toMatchObject({ code: 'unknown_call' });
    const status = await a.readCall(handle.callId);
    expect(status).toMatchObject({ state: 'done', outcome: 'failed', result: { ok: false, error: { code: 'invalid_output' } } });
    expect(status!.expiresAt - status!.startedAt).toBe(60_000);

    const second = await a.deferAsync('math.add', { left: 2, right: 3 }, { ttlMs: 60_000 });
    expect(await c.completeAsync(second.callId, { total: 5 })).toEqual({ ok: true, callId: second.callId, output: { total: 5 } });
    expect(await a.readCall(second.callId)).toMatchObject({ state: 'done', outcome: 'completed', result: { ok: true, output: { total: 5 } } });
    await expect(b.failAsync(second.callId, 'too late')).rejects.toMatchObject({ code: 'unknown_call' });
  });

  it("settle the caller's handle on A when C ends the call, and record it on A only", async () => {
    const store = memoryStore();
    const [a, c] = [new CapabilityRuntime({ store, pollMs: 5 }), protocolReplica(store)];
    a.registerValidatedProtocolJsonTool(ToolPolicy.json('math.add'), ToolMetadata.of('Adds, elsewhere.'), mathAdd);
    const handle = await a.deferAsync('math.add', { left: 2, right: 3 });
    await c.failAsync(handle.callId, ToolError.denied('not today'));
    expect(await within(handle.result)).toMatchObject({ ok: false, error: { code: 'denied', message: 'not today' } });
    expect(a.records()).toMatchObject([{ callId: handle.callId, outcome: 'denied', errorCode: 'denied' }]);
    expect(c.records()).toEqual([]);
  });

  it('keep every digit of an exact-mode output through the store', async () => {
    const contract = precisionEcho();
    const store = memoryStore();
    const [a, b] = [new CapabilityRuntime({ store }), new CapabilityRuntime({ store })];
    for (const runtime of [a, b]) runtime.registerValidatedProtocolJsonTool(ToolPolicy.json('precision.echo'), ToolMetadata.of('Echo.'), contract as never);
    const handle = await a.deferAsync('precision.echo', parseJson('{"x": 1}', { exactNumbers: true }));
    const exact = parseJson('{"x": 123456789012345678901234567890.000000000000000000001}', { exactNumbers: true });
    await b.completeAsync(handle.callId, exact);
    expect((await store.readCall(handle.callId))?.call.output).toBe('{"x":123456789012345678901234567890.000000000000000000001}');
    const status = await a.readCall<{ x: unknown }>(handle.callId);
    expect(status?.result).toEqual({ ok: true, callId: handle.callId, output: exact });
  });

  it('cancel a pending call from another replica, giving its budget back', async () => {
    const store = memoryStore();
    const [a, b] = [protocolReplica(store, 1), protocolReplica(store, 1)];
    const handle = await a.deferAsync('math.add', { left: 1, right: 1 });
    expect(await b.remainingCallsAsync('math.add')).toBe(0);
    expect(await b.cancelAsync(handle.callId)).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(await a.readCall(handle.callId)).toMatchObject({ state: 'done', outcome: 'cancelled' });
    expect(await b.remainingCallsAsync('math.add')).toBe(1);
    // Cancelled twice (a retry whose first answer was lost) is one cancellation: the same result, the budget given back once.
    expect(await a.cancelAsync(handle.callId)).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(await b.remainingCallsAsync('math.add')).toBe(1);
  });

  it("reach a running handler's signal on its replica when another cancels it, and drop what it returns", async () => {
    const store = memoryStore();
    let aborted: unknown;
    const a = new CapabilityRuntime({ store, pollMs: 5 });
    a.registerValidatedJsonTool(ToolPolicy.json('math.add'), ToolMetadata.of('Adds slowly.'), mathAdd, async (request) => {
      await new Promise<void>((resolve) => request.signal.addEventListener('abort', () => resolve(), { once: true }));
      aborted = request.signal.reason;
      return { total: 0 };
    });
    const b = replica(store);
    const handle = await a.deferAsync('math.add', { left: 1, right: 1 });
    expect(await b.readCall(handle.callId)).toMatchObject({ state: 'running' });
    await b.cancelAsync(handle.callId);
    expect(await within(handle.result)).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    await until(() => aborted !== undefined);
    expect(aborted).toMatchObject({ code: 'cancelled' });
    expect(await b.readCall(handle.callId)).toMatchObject({ state: 'done', outcome: 'cancelled' });
    expect(a.records()).toMatchObject([{ callId: handle.callId, outcome: 'cancelled' }]);
  });

  it('read a call whose replica stopped renewing its lease as failed with lease_expired, and the late result is dropped', async () => {
    const store = memoryStore();
    let finish!: () => void;
    // A replica that never renews in time stands for one that died: its lease runs out after 20 ms.
    const a = replica(store, { leaseMs: 20, pollMs: 60_000, replicaId: 'gone', handler: async () => new Promise((resolve) => (finish = () => resolve({ total: 2 }))) });
    const b = replica(store);
    const handle = await a.deferAsync('math.add', { left: 1, right: 1 });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const status = await b.readCall(handle.callId);
    expect(status).toMatchObject({ state: 'done', outcome: 'failed', result: { ok: false, error: { code: 'lease_expired' } } });
    expect(status?.result?.ok === false && status.result.error.message).toMatch(/^call call-gone-1-[0-9a-f]{32} to "math.add" was running on replica gone, whose lease on it has run out \(the replica stopped, or lost the store\)/);
    finish();
    expect(await handle.result).toMatchObject({ ok: false, error: { code: 'lease_expired' } });
    expect(await b.readCall(handle.callId)).toMatchObject({ outcome: 'failed', result: { error: { code: 'lease_expired' } } });
  });

  it('renew the lease of a handler that runs longer than it', async () => {
    const store = memoryStore();
    const a = replica(store, { leaseMs: 40, pollMs: 5, handler: async () => new Promise((resolve) => setTimeout(() => resolve({ total: 2 }), 120)) });
    const handle = await a.deferAsync('math.add', { left: 1, right: 1 });
    await new Promise((resolve) => setTimeout(resolve, 80));
    // Twice the lease after the start, read elsewhere: still running, since its replica renews it.
    expect(await replica(store).readCall(handle.callId)).toMatchObject({ state: 'running' });
    expect(await handle.result).toMatchObject({ ok: true, output: { total: 2 } });
    expect(await replica(store).readCall(handle.callId)).toMatchObject({ outcome: 'completed' });
  });

  it('fail closed when the store cannot answer: denied with store_unavailable, nothing run, and service resumes', async () => {
    const { store, down } = breakableStore();
    let ran = 0;
    const runtime = replica(store, { budget: 2, handler: ({ left, right }) => (ran++, { total: left + right }) });
    down(true);
    const denied = await runtime.callAsync('math.add', { left: 1, right: 1 });
    expect(denied).toMatchObject({ ok: false, error: { code: 'store_unavailable', message: 'no call of "math.add"\'s budget could be reserved: the runtime\'s store did not answer (connect ECONNREFUSED 127.0.0.1:6379)' } });
    await expect((await runtime.deferAsync('math.add', { left: 1, right: 1 })).result).resolves.toMatchObject({ ok: false, error: { code: 'store_unavailable' } });
    await expect(runtime.readCall('call-x-1')).rejects.toMatchObject({ code: 'store_unavailable' });
    // An id longer than any a runtime mints is not asked of the store at all.
    expect(await runtime.readCall(`call-x-${'1'.repeat(1_000_000)}`)).toBeUndefined();
    await expect(runtime.claimOnce('k', Date.now() + 1_000)).rejects.toMatchObject({ code: 'store_unavailable' });
    expect(ran).toBe(0);
    expect(runtime.records().map((r) => r.errorCode)).toEqual(['store_unavailable', 'store_unavailable']);
    down(false);
    expect(await runtime.callAsync('math.add', { left: 1, right: 1 })).toMatchObject({ ok: true });
    expect(ran).toBe(1);
  });

  it('report a completion the store did not take to the completer, and leave the call pending', async () => {
    const { store, down } = breakableStore();
    const [a, c] = [protocolReplica(store), protocolReplica(store)];
    const handle = await a.deferAsync('math.add', { left: 1, right: 1 });
    down(true);
    await expect(c.completeAsync(handle.callId, { total: 2 })).rejects.toMatchObject({ code: 'store_unavailable' });
    down(false);
    expect(await c.readCall(handle.callId)).toMatchObject({ state: 'pending' });
    expect(await c.completeAsync(handle.callId, { total: 2 })).toMatchObject({ ok: true });
  });
});

describe('the questions of a running deferred call: asked on its replica, answered on any', () => {
  /** A replica whose math.add handler asks for the right operand, through the store, and adds what it is told. */
  function asking(store: RuntimeStore, options: RuntimeOptions = {}): CapabilityRuntime {
    const runtime = new CapabilityRuntime({ store, pollMs: 5, ...options });
    runtime.registerValidatedJsonTool(ToolPolicy.json('math.add'), ToolMetadata.of('Adds what it is told.'), mathAdd, async (request) => {
      const answer = (await runtime.askAsync(request.callId, 'right', { prompt: 'the right operand?' })) as { right: number };
      return { total: request.input.left + answer.right };
    });
    return runtime;
  }

  it('a question asked on A is read on B and answered on C; the handler on A hears the answer', async () => {
    const store = memoryStore();
    const [a, b, c] = [asking(store), asking(store), asking(store)];
    const handle = await a.deferAsync('math.add', { left: 2, right: 0 });
    await until(async () => (await b.readCall(handle.callId))?.questions !== undefined);
    expect(await b.readCall(handle.callId)).toMatchObject({ state: 'running', questions: { right: { prompt: 'the right operand?' } }, updatedAt: expect.any(Number) });
    expect(await c.answerAsync(handle.callId, { right: { right: 3 }, nobody: 1 })).toEqual({
      state: 'running',
      outcomes: new Map([
        ['right', 'delivered'],
        ['nobody', 'not-open'],
      ]),
    });
    // Answered, the question is open nowhere, even before A has heard.
    expect((await b.readCall(handle.callId))?.questions).toBeUndefined();
    expect(await within(handle.result)).toMatchObject({ ok: true, output: { total: 5 } });
    // A repeated answer (a retry whose first answer was lost) is harmless, and the first stands.
    expect(await c.answerAsync(handle.callId, { right: { right: 9 } })).toEqual({ state: 'done', outcomes: new Map([['right', 'answered']]) });
    expect(await b.answerAsync(handle.callId, { left: 1 })).toEqual({ state: 'done', outcomes: new Map([['left', 'not-open']]) });
    await expect(b.answerAsync('call-x-1-nothing', { right: 1 })).rejects.toMatchObject({ code: 'unknown_call' });
  });

  it('without a store, the same on one runtime', async () => {
    const runtime = new CapabilityRuntime();
    runtime.registerValidatedJsonTool(ToolPolicy.json('math.add'), ToolMetadata.of('Adds what it is told.'), mathAdd, async (request) => ({ total: request.input.left + ((await runtime.askAsync(request.callId, 'right', {})) as number) }));
    const handle = await runtime.deferAsync('math.add', { left: 2, right: 0 });
    await until(async () => (await runtime.readCall(handle.callId))?.questions !== undefined);
    expect((await runtime.answerAsync(handle.callId, { right: 40 })).outcomes.get('right')).toBe('delivered');
    expect(await within(handle.result)).toMatchObject({ ok: true, output: { total: 42 } });
  });

  it('the replica that asked dies: the call ends lease_expired everywhere within its lease, and an answer after that is not delivered', async () => {
    const store = memoryStore();
    // Never renewing in time, A stands for a replica killed once it had asked.
    const a = asking(store, { leaseMs: 40, pollMs: 60_000, replicaId: 'killed' });
    const b = asking(store);
    const handle = await a.deferAsync('math.add', { left: 2, right: 0 });
    await until(async () => (await b.readCall(handle.callId))?.questions !== undefined);
    await until(async () => (await b.readCall(handle.callId))?.state === 'done');
    expect(await b.readCall(handle.callId)).toMatchObject({ outcome: 'failed', result: { ok: false, error: { code: 'lease_expired' } } });
    expect(await b.answerAsync(handle.callId, { right: { right: 3 } })).toEqual({ state: 'done', outcomes: new Map([['right', 'not-open']]) });
  });

  it('a question the store did not take is asked again until it does', async () => {
    const { store, down } = breakableStore();
    const a = asking(store, { leaseMs: 60_000 });
    const handle = await a.deferAsync('math.add', { left: 2, right: 0 });
    down(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    down(false);
    await until(async () => (await a.readCall(handle.callId))?.questions !== undefined);
    await a.answerAsync(handle.callId, { right: { right: 1 } });
    expect(await within(handle.result)).toMatchObject({ ok: true, output: { total: 3 } });
  });
});

describe('a replica polling the store', () => {
  /** A memoryStore that counts the calls of each method. */
  function countedStore(): { store: RuntimeStore; counts: Map<string, number> } {
    const inner = memoryStore();
    const counts = new Map<string, number>();
    const store = Object.fromEntries(Object.entries(inner).map(([name, method]) => [name, (...args: unknown[]) => (counts.set(name, (counts.get(name) ?? 0) + 1), (method as (...a: unknown[]) => Promise<unknown>)(...args))])) as unknown as RuntimeStore;
    return { store, counts };
  }

  it('renews its lease on a thousand running calls, and hears of their changes, with one store call per poll', async () => {
    const { store, counts } = countedStore();
    let finish!: () => void;
    const finished = new Promise<{ total: number }>((resolve) => (finish = () => resolve({ total: 0 })));
    const a = replica(store, { pollMs: 5, handler: () => finished });
    const handles = await Promise.all(Array.from({ length: 1_000 }, (_, i) => a.deferAsync('math.add', { left: i, right: 1 })));
    const before = new Map(counts);
    await until(() => (counts.get('keepLease') ?? 0) >= (before.get('keepLease') ?? 0) + 5);
    const since = Object.fromEntries([...counts].map(([name, count]) => [name, count - (before.get(name) ?? 0)]).filter(([, count]) => count !== 0));
    expect(Object.keys(since)).toEqual(['keepLease']);
    // One of them cancelled elsewhere is heard of through the same call, and read once.
    await replica(store).cancelAsync(handles[500]!.callId);
    expect(await within(handles[500]!.result)).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    finish();
    expect((await Promise.all(handles.map((handle) => handle.result))).filter((result) => result.ok)).toHaveLength(999);
  });

  it('holds at most maxDeferredCalls open, and denies one more, saying so', async () => {
    const limited = new CapabilityRuntime({ store: memoryStore(), maxDeferredCalls: 2 });
    limited.registerValidatedProtocolJsonTool(ToolPolicy.json('math.add'), ToolMetadata.of('Adds, elsewhere.'), mathAdd);
    const [first] = [await limited.deferAsync('math.add', { left: 1, right: 1 }), await limited.deferAsync('math.add', { left: 1, right: 1 })];
    expect(await (await limited.deferAsync('math.add', { left: 1, right: 1 })).result).toMatchObject({ ok: false, error: { code: 'denied', message: 'this replica holds 2 open deferred calls, the most it keeps (maxDeferredCalls): try again once some have ended' } });
    await limited.completeAsync(first!.callId, { total: 2 });
    expect((await limited.deferAsync('math.add', { left: 1, right: 1 })).state).toBe('pending');
    expect(() => new CapabilityRuntime({ maxDeferredCalls: 0 })).toThrow(RangeError);
  });
});
