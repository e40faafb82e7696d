import { describe, expect, it } from 'vitest';
import { mathAdd, notesSearch } from '../../../../examples/generated/index.js';
import { CapabilityRuntime, ToolError, ToolMetadata, ToolPolicy, type CallRecord, type ToolRequest } from '../../src/index.js';

/** A handler that waits until the test releases it, so a call can be cancelled while it runs. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

function runtimeWith(handler: (input: { left: number; right: number }, request: ToolRequest<{ left: number; right: number }>) => unknown, budget = 5) {
  const records: CallRecord[] = [];
  const runtime = new CapabilityRuntime({ onRecord: (record) => records.push(record) });
  runtime.registerTypedJsonTool(ToolPolicy.json('math.add').withCallBudget(budget), mathAdd, handler as never);
  return { runtime, records };
}

describe('what a handler sees of its call', () => {
  it('gets the context and a live signal through call, callAsync and defer/pump, typed and validated alike', async () => {
    const seen: unknown[] = [];
    const runtime = new CapabilityRuntime();
    runtime.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, ({ left, right }, request) => {
      seen.push([request.tool, request.context, request.signal.aborted]);
      return { total: left + right };
    });
    runtime.registerValidatedJsonTool(ToolPolicy.json('notes.search'), ToolMetadata.of('Search.'), notesSearch, async (request) => {
      seen.push([request.tool, request.context, request.signal.aborted, request.input]);
      return { hits: [] };
    });
    const input = { left: 1, right: 2 };
    expect(runtime.call('math.add', input, { context: 'sync' })).toMatchObject({ ok: true });
    expect(runtime.callJson('math.add', '{"left":1,"right":2}', { context: 'json' })).toMatchObject({ ok: true });
    expect(await runtime.callAsync('math.add', input, { context: { user: 'ada' } })).toMatchObject({ ok: true });
    const deferred = runtime.defer('notes.search', { query: 'q' }, { context: 'deferred' });
    runtime.pump();
    expect(await deferred.result).toMatchObject({ ok: true });
    expect(runtime.call('math.add', input)).toMatchObject({ ok: true });
    expect(seen).toEqual([
      ['math.add', 'sync', false],
      ['math.add', 'json', false],
      ['math.add', { user: 'ada' }, false],
      ['notes.search', 'deferred', false, { query: 'q' }],
      ['math.add', undefined, false],
    ]);
  });

  it('denies options it cannot use, never throwing and reserving nothing', () => {
    const { runtime, records } = runtimeWith(() => ({ total: 0 }), 1);
    const hostile = Object.defineProperty({}, 'signal', {
      get() {
        throw new Error('no');
      },
    });
    for (const options of [{ signal: 'stop' }, hostile, 7]) {
      expect(runtime.call('math.add', { left: 1, right: 1 }, options as never)).toMatchObject({ ok: false, error: { code: 'denied', message: expect.stringContaining('call options for "math.add"') } });
    }
    expect(runtime.remainingCalls('math.add')).toBe(1);
    expect(records.map((r) => r.outcome)).toEqual(['denied', 'denied', 'denied']);
  });
});

describe('cancelling a call', () => {
  it('a running call: the signal aborts with the cancelled error, the result settles at once, the call stays used, a late result is dropped', async () => {
    const release = gate();
    const signals: AbortSignal[] = [];
    const { runtime, records } = runtimeWith(async (input, request) => {
      signals.push(request.signal);
      await release.opened;
      return { total: input.left + input.right };
    }, 2);
    const pending = runtime.callAsync('math.add', { left: 1, right: 1 });
    const callId = records[0]?.callId ?? 'call-1';
    const cancelled = runtime.cancel(callId);
    expect(cancelled).toMatchObject({ ok: false, callId, error: { code: 'cancelled', message: `call ${callId} to "math.add" was cancelled while its handler ran` } });
    expect(signals[0]!.aborted).toBe(true);
    expect(signals[0]!.reason).toBeInstanceOf(ToolError);
    expect(await pending).toEqual(cancelled);
    release.open();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(records.map((r) => r.outcome)).toEqual(['cancelled']);
    expect(runtime.records()).toMatchObject([{ callId, outcome: 'cancelled', errorCode: 'cancelled' }]);
    expect(runtime.remainingCalls('math.add')).toBe(1);
    expect(() => runtime.cancel(callId)).toThrow(/no open call/);
  });

  it("the host's signal cancels a running call the same way, and a late rejection stays handled", async () => {
    const release = gate();
    const { runtime, records } = runtimeWith(async (_, request) => {
      await release.opened;
      throw new Error(`too late, aborted: ${request.signal.aborted}`);
    });
    const host = new AbortController();
    const pending = runtime.callAsync('math.add', { left: 1, right: 1 }, { signal: host.signal });
    host.abort();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    release.open();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(records.map((r) => r.outcome)).toEqual(['cancelled']);
    expect(runtime.remainingCalls('math.add')).toBe(4);
  });

  it("the host's signal cancels a queued call and a pending protocol call, giving their reservations back", async () => {
    const { runtime, records } = runtimeWith(() => ({ total: 0 }), 1);
    runtime.registerValidatedProtocolJsonTool(ToolPolicy.json('notes.search').withCallBudget(1), ToolMetadata.of('Search.'), notesSearch);
    const host = new AbortController();
    const queued = runtime.defer('math.add', { left: 1, right: 1 }, { signal: host.signal });
    const pending = runtime.defer('notes.search', { query: 'q' }, { signal: host.signal });
    expect([runtime.remainingCalls('math.add'), runtime.remainingCalls('notes.search')]).toEqual([0, 0]);
    host.abort();
    expect(await queued.result).toMatchObject({ error: { code: 'cancelled' } });
    expect(await pending.result).toMatchObject({ error: { code: 'cancelled' } });
    expect(runtime.pump()).toBe(0);
    expect([runtime.remainingCalls('math.add'), runtime.remainingCalls('notes.search')]).toEqual([1, 1]);
    expect(records.filter((r) => r.outcome !== 'pending').map((r) => r.outcome)).toEqual(['cancelled', 'cancelled']);
  });

  it('a signal aborted before the call never runs the handler and reserves nothing', async () => {
    let ran = 0;
    const { runtime, records } = runtimeWith(() => ({ total: ran++ }), 1);
    const aborted = AbortSignal.abort();
    expect(runtime.call('math.add', { left: 1, right: 1 }, { signal: aborted })).toMatchObject({ ok: false, error: { code: 'cancelled', message: 'call call-1 to "math.add" was cancelled before it started' } });
    expect(await runtime.callAsync('math.add', { left: 1, right: 1 }, { signal: aborted })).toMatchObject({ error: { code: 'cancelled' } });
    expect(await runtime.defer('math.add', { left: 1, right: 1 }, { signal: aborted }).result).toMatchObject({ error: { code: 'cancelled' } });
    expect([ran, runtime.remainingCalls('math.add')]).toEqual([0, 1]);
    expect(records.map((r) => r.outcome)).toEqual(['cancelled', 'cancelled', 'cancelled']);
  });

  it("a synchronous call sees the host's signal; aborted while it runs, its output is dropped", () => {
    const host = new AbortController();
    const { runtime } = runtimeWith((input, request) => {
      expect(request.signal).toBe(host.signal);
      host.abort();
      return { total: input.left };
    }, 1);
    expect(runtime.call('math.add', { left: 1, right: 1 }, { signal: host.signal })).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(runtime.records()).toMatchObject([{ outcome: 'cancelled' }]);
    expect(runtime.remainingCalls('math.add')).toBe(0);
  });

  it('a call that finished is no longer open, and leaves no listener on the host signal', async () => {
    const { runtime, records } = runtimeWith(async (input) => ({ total: input.left }));
    const host = new AbortController();
    expect(await runtime.callAsync('math.add', { left: 3, right: 0 }, { signal: host.signal })).toMatchObject({ ok: true });
    host.abort();
    expect(records.map((r) => r.outcome)).toEqual(['completed']);
    expect(() => runtime.cancel('call-1')).toThrow(ToolError);
  });
});
