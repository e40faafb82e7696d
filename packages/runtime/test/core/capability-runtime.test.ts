import { describe, expect, it } from 'vitest';
import { mathAdd, notesSearch } from '../../../../examples/generated/index.js';
import { CapabilityRuntime, RegistrationError, ToolError, ToolMetadata, ToolPolicy, type CallRecord } from '../../src/index.js';

const validSearch = { query: 'milk' };
const validHits = { hits: [{ id: 'n1', score: 1 }] };

function mathRuntime(budget?: number, handler: (input: { left: number; right: number }) => unknown = ({ left, right }) => ({ total: left + right })) {
  const seen: unknown[] = [];
  const events: CallRecord[] = [];
  const runtime = new CapabilityRuntime({ onRecord: (record) => events.push(record) });
  const policy = budget === undefined ? ToolPolicy.json('math.add') : ToolPolicy.json('math.add').withCallBudget(budget);
  runtime.registerValidatedJsonTool(policy, ToolMetadata.of('Adds.'), mathAdd, (request) => {
    seen.push(request.input);
    return handler(request.input) as { total: number };
  });
  return { runtime, seen, events };
}

describe('registration', () => {
  it('refuses a second tool with the same name and a policy that names another tool', () => {
    const { runtime } = mathRuntime();
    expect(() => runtime.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, () => ({ total: 1 }))).toThrow(RegistrationError);
    expect(() => runtime.registerTypedJsonTool(ToolPolicy.json('math.sum'), mathAdd as never, () => ({ total: 1 }))).toThrow(/contract is for "math.add"/);
  });

  it('rejects a negative or fractional budget', () => {
    expect(() => ToolPolicy.json('x').withCallBudget(-1)).toThrow(RangeError);
    expect(() => ToolPolicy.json('x').withCallBudget(1.5)).toThrow(RangeError);
  });
});

describe('the synchronous call path', () => {
  it('returns the output of a valid call and records it as completed', () => {
    const { runtime, events } = mathRuntime();
    const result = runtime.call('math.add', { left: 2, right: 3 });
    expect(result).toEqual({ ok: true, callId: 'call-1', output: { total: 5 } });
    expect(runtime.records()).toMatchObject([{ tool: 'math.add', callId: 'call-1', outcome: 'completed' }]);
    expect(events.map((e) => e.outcome)).toEqual(['completed']);
    expect(runtime.records()[0]!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('denies invalid input before the handler, with the issues, and reserves nothing', () => {
    const { runtime, seen } = mathRuntime(1);
    const result = runtime.call('math.add', { left: 2, right: '3', extra: 1 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('invalid_input');
    expect(result.error.message).toBe('input for "math.add" does not match its contract: /right: must be an integer, got string; /extra: unexpected property "extra"; allowed: left, right');
    expect(result.error.issues.map((i) => i.keyword)).toEqual(['type', 'additionalProperties']);
    expect(seen).toEqual([]);
    expect(runtime.remainingCalls('math.add')).toBe(1);
    expect(runtime.records()).toMatchObject([{ outcome: 'denied', errorCode: 'invalid_input' }]);
  });

  it('checks the envelope before the contract, and never calls getters', () => {
    const { runtime, seen } = mathRuntime();
    const hostile = Object.defineProperty({ left: 1 }, 'right', {
      get: () => {
        throw new Error('invoked');
      },
      enumerable: true,
    });
    const result = runtime.call('math.add', hostile);
    expect(!result.ok && result.error.code).toBe('invalid_envelope');
    expect(!result.ok && result.error.message).toContain('/right: accessor properties are not JSON');
    expect(seen).toEqual([]);
  });

  it('refuses in the envelope an object whose hidden property could stand in for an unexpected one', () => {
    const { runtime, seen } = mathRuntime();
    // math.add's input is closed: "extra" is unexpected, and "right" is invisible to for…in.
    const disguised = Object.defineProperty({ left: 1, extra: 2 }, 'right', { value: 2, enumerable: false });
    const result = runtime.call('math.add', disguised);
    expect(!result.ok && result.error.code).toBe('invalid_envelope');
    expect(!result.ok && result.error.message).toContain('non-enumerable');
    expect(seen).toEqual([]);
  });

  it('runs out of budget exactly at n, and records the refusal as denied', () => {
    const { runtime } = mathRuntime(2);
    expect([1, 2, 3].map(() => runtime.call('math.add', { left: 1, right: 1 }).ok)).toEqual([true, true, false]);
    const last = runtime.call('math.add', { left: 1, right: 1 });
    expect(!last.ok && last.error.code).toBe('budget_exhausted');
    expect(runtime.records().map((r) => r.outcome)).toEqual(['completed', 'completed', 'denied', 'denied']);
    expect(runtime.remainingCalls('math.add')).toBe(0);
  });

  it('never returns an output that breaks its contract; the call is used up and recorded as failed', () => {
    const { runtime } = mathRuntime(2, () => ({ total: 1.5 }));
    const result = runtime.call('math.add', { left: 1, right: 1 });
    expect(result.ok).toBe(false);
    expect(!result.ok && [result.error.code, result.error.message]).toEqual(['invalid_output', 'output of "math.add" does not match its contract: /total: must be an integer, got number']);
    expect(runtime.remainingCalls('math.add')).toBe(1);
    expect(runtime.records()).toMatchObject([{ outcome: 'failed', errorCode: 'invalid_output' }]);
  });

  it('checks the output envelope too', () => {
    const { runtime } = mathRuntime(undefined, () => ({ total: 1, when: new Date() }));
    const result = runtime.call('math.add', { left: 1, right: 1 });
    expect(!result.ok && result.error.code).toBe('invalid_output');
    expect(!result.ok && result.error.message).toContain('an instance of Date');
  });

  it('records a handler refusal as denied and a crash as failed; both use the reserved call', () => {
    const denied = mathRuntime(5, () => {
      throw ToolError.denied('not today');
    });
    const r1 = denied.runtime.call('math.add', { left: 1, right: 1 });
    expect(!r1.ok && [r1.error.code, r1.error.message]).toEqual(['denied', 'not today']);
    expect(denied.runtime.records()).toMatchObject([{ outcome: 'denied', errorCode: 'denied' }]);
    expect(denied.runtime.remainingCalls('math.add')).toBe(4);
    const crashed = mathRuntime(5, () => {
      throw new TypeError('boom');
    });
    const r2 = crashed.runtime.call('math.add', { left: 1, right: 1 });
    expect(!r2.ok && [r2.error.code, r2.error.message]).toEqual(['handler_failed', 'the handler failed: boom']);
    expect(crashed.runtime.records()).toMatchObject([{ outcome: 'failed', errorCode: 'handler_failed' }]);
  });

  it('names the available tools for an unknown one, and never throws for a caller mistake', () => {
    const { runtime } = mathRuntime();
    const result = runtime.call('math.mul', { left: 1, right: 1 });
    expect(!result.ok && [result.error.code, result.error.message]).toEqual(['unknown_tool', 'no tool named "math.mul"; available: math.add']);
    const cyclic: Record<string, unknown> = { left: 1 };
    cyclic['right'] = cyclic;
    for (const input of [
      undefined,
      null,
      'x',
      cyclic,
      new Proxy(
        {},
        {
          getPrototypeOf() {
            throw new Error('trap');
          },
        },
      ),
    ]) {
      expect(() => runtime.call('math.add', input)).not.toThrow();
      expect(runtime.call('math.add', input).ok).toBe(false);
    }
  });

  it('denies 100,000-deep nesting passed as a JS value without overflowing the stack', () => {
    const { runtime, seen } = mathRuntime();
    let deep: unknown = { left: 1, right: 1 };
    for (let i = 0; i < 100_000; i++) deep = { left: 1, right: 1, nested: deep };
    const result = runtime.call('math.add', deep);
    expect(!result.ok && result.error.code).toBe('invalid_envelope');
    expect(seen).toEqual([]);
  });

  it('treats prototype-polluting keys as ordinary, unexpected keys', () => {
    const { runtime, seen } = mathRuntime();
    const result = runtime.call('math.add', JSON.parse('{"left": 1, "right": 2, "__proto__": {"polluted": true}}'));
    expect(!result.ok && result.error.code).toBe('invalid_input');
    expect(seen).toEqual([]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('fails a handler that returns a promise, then refuses it before it runs again', () => {
    const { runtime, seen } = mathRuntime(5, async () => ({ total: 1 }));
    const first = runtime.call('math.add', { left: 1, right: 1 });
    expect(!first.ok && [first.error.code, first.error.message]).toEqual(['handler_failed', 'the handler of "math.add" returned a promise: call it with callAsync()']);
    const second = runtime.call('math.add', { left: 1, right: 1 });
    expect(!second.ok && second.error.code).toBe('asynchronous_handler');
    expect([seen.length, runtime.remainingCalls('math.add')]).toEqual([1, 4]);
  });

  it('refuses an async function handler before running it, reserving nothing', () => {
    const runtime = new CapabilityRuntime();
    let ran = 0;
    runtime.registerTypedJsonTool(ToolPolicy.json('math.add').withCallBudget(1), mathAdd, async ({ left, right }) => (ran++, { total: left + right }));
    const result = runtime.call('math.add', { left: 1, right: 1 });
    expect(!result.ok && [result.error.code, result.error.message]).toEqual(['asynchronous_handler', 'the handler of "math.add" is asynchronous: call it with callAsync()']);
    expect([ran, runtime.remainingCalls('math.add'), runtime.records()[0]!.outcome]).toEqual([0, 1, 'denied']);
  });
});

describe('records', () => {
  it('keeps the latest maxRecords while onRecord hears every call', () => {
    const heard: string[] = [];
    const runtime = new CapabilityRuntime({ maxRecords: 3, onRecord: (r) => heard.push(r.callId) });
    runtime.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, ({ left, right }) => ({ total: left + right }));
    for (let i = 0; i < 10; i++) runtime.call('math.add', { left: i, right: 0 });
    expect(runtime.records().map((r) => r.callId)).toEqual(['call-8', 'call-9', 'call-10']);
    expect(heard).toHaveLength(10);
  });
});

describe('callJson', () => {
  it('takes and gives JSON text', () => {
    const { runtime } = mathRuntime();
    expect(runtime.callJson('math.add', '{"left": 20, "right": 22}')).toEqual({ ok: true, callId: 'call-1', output: '{"total":42}' });
  });

  it('denies malformed JSON with a clear error', () => {
    const { runtime } = mathRuntime();
    const result = runtime.callJson('math.add', '{"left": 1,');
    expect(!result.ok && result.error.code).toBe('invalid_json');
    expect(!result.ok && result.error.message).toMatch(/^input for "math.add" is not valid JSON: /);
    expect(runtime.records()).toMatchObject([{ outcome: 'denied', errorCode: 'invalid_json' }]);
  });

  it('holds parsed JSON to the same envelope: an object or array root, within maxNodes', () => {
    const { runtime } = mathRuntime();
    const scalar = runtime.callJson('math.add', '"text"');
    expect(!scalar.ok && [scalar.error.code, scalar.error.message]).toEqual(['invalid_envelope', 'input for "math.add" is not a plain JSON object or array: must be a JSON object or array, got string']);
    const small = new CapabilityRuntime({ envelope: { maxNodes: 5 } });
    small.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, ({ left, right }) => ({ total: left + right }));
    expect(small.callJson('math.add', '{"left": 1, "right": 2}').ok).toBe(true);
    const big = small.callJson('math.add', '[1, 2, 3, 4, 5]');
    expect(!big.ok && big.error.message).toContain('more than 5 values');
  });

  it('denies hostile nesting without overflowing the stack', () => {
    const { runtime } = mathRuntime();
    const result = runtime.callJson('math.add', '['.repeat(100_000) + ']'.repeat(100_000));
    expect(!result.ok && result.error.code).toBe('invalid_json');
    expect(!result.ok && result.error.message).toContain('nesting deeper than 256 levels');
  });
});

describe('deferred calls, host-pumped', () => {
  it('checks input at once, runs handlers only when pumped, in order', async () => {
    const { runtime, seen } = mathRuntime(5);
    const first = runtime.defer('math.add', { left: 1, right: 1 });
    const rejected = runtime.defer('math.add', { left: 1 });
    const second = runtime.defer('math.add', { left: 2, right: 2 });
    expect([first.state, rejected.state, second.state]).toEqual(['queued', 'done', 'queued']);
    expect(await rejected.result).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(seen).toEqual([]);
    expect(runtime.remainingCalls('math.add')).toBe(3);
    expect(runtime.pump(1)).toBe(1);
    expect(seen).toEqual([{ left: 1, right: 1 }]);
    expect(runtime.pump()).toBe(1);
    expect(await first.result).toMatchObject({ ok: true, output: { total: 2 } });
    expect(await second.result).toMatchObject({ ok: true, output: { total: 4 } });
  });

  it('awaits async handlers and still enforces the output contract', async () => {
    const { runtime } = mathRuntime(undefined, async ({ left }) => ({ total: left === 0 ? 'zero' : left }));
    const good = runtime.defer('math.add', { left: 7, right: 0 });
    const bad = runtime.defer('math.add', { left: 0, right: 0 });
    runtime.pump();
    expect(good.state).toBe('running');
    expect(await good.result).toMatchObject({ ok: true, output: { total: 7 } });
    expect(await bad.result).toMatchObject({ ok: false, error: { code: 'invalid_output' } });
    expect(runtime.records().map((r) => r.outcome)).toEqual(['completed', 'failed']);
  });

  it('cancels a queued call and gives its reservation back', async () => {
    const { runtime, seen } = mathRuntime(1);
    const call = runtime.defer('math.add', { left: 1, right: 1 });
    expect(runtime.remainingCalls('math.add')).toBe(0);
    expect(runtime.cancel(call.callId)).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(runtime.remainingCalls('math.add')).toBe(1);
    expect(runtime.pump()).toBe(0);
    expect(seen).toEqual([]);
    expect(await call.result).toMatchObject({ error: { code: 'cancelled' } });
    expect(runtime.records()).toMatchObject([{ outcome: 'cancelled' }]);
  });
});

describe('deferred calls, completed from outside', () => {
  function protocolRuntime(budget?: number) {
    const runtime = new CapabilityRuntime();
    const policy = budget === undefined ? ToolPolicy.json('notes.search') : ToolPolicy.json('notes.search').withCallBudget(budget);
    runtime.registerValidatedProtocolJsonTool(policy, ToolMetadata.of('Search.').withInputSchema({ prompt: 'only' }), notesSearch);
    return runtime;
  }

  it('is pending until completed, and the output contract is enforced at completion', async () => {
    const runtime = protocolRuntime(2);
    const good = runtime.defer('notes.search', validSearch);
    const bad = runtime.defer('notes.search', validSearch);
    expect(good.state).toBe('pending');
    expect(runtime.records().map((r) => r.outcome)).toEqual(['pending', 'pending']);
    expect(runtime.complete(good.callId, validHits)).toMatchObject({ ok: true });
    expect(runtime.complete(bad.callId, { hits: [{ id: 1 }] })).toMatchObject({ ok: false, error: { code: 'invalid_output' } });
    expect(await good.result).toMatchObject({ ok: true, output: validHits });
    expect(runtime.records().map((r) => r.outcome)).toEqual(['completed', 'failed']);
    expect(runtime.remainingCalls('notes.search')).toBe(0);
  });

  it('fails and cancels pending calls; finishing an unknown or finished call is an error', async () => {
    const runtime = protocolRuntime(2);
    const failed = runtime.defer('notes.search', validSearch);
    runtime.fail(failed.callId, 'peer went away');
    expect(await failed.result).toMatchObject({ ok: false, error: { code: 'handler_failed', message: 'peer went away' } });
    expect(() => runtime.complete(failed.callId, validHits)).toThrow(ToolError);
    expect(() => runtime.complete('call-999', validHits)).toThrow(/no pending protocol call/);
    const cancelled = runtime.defer('notes.search', validSearch);
    runtime.cancel(cancelled.callId);
    expect(() => runtime.cancel(cancelled.callId)).toThrow(ToolError);
    expect(runtime.remainingCalls('notes.search')).toBe(1);
  });

  it('cannot be called synchronously', () => {
    const result = protocolRuntime().call('notes.search', validSearch);
    expect(!result.ok && result.error.message).toContain('call it with callAsync(), or defer() and complete()');
  });

  it('lists the catalog with copied schemas, and prompt-only schemas that validate nothing', () => {
    const runtime = protocolRuntime();
    runtime.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, ({ left, right }) => ({ total: left + right }));
    const catalog = runtime.catalog();
    expect(catalog.map((e) => e.name)).toEqual(['math.add', 'notes.search']);
    expect(catalog[0]).toMatchObject({ description: 'Adds two integer fields.', inputSchema: mathAdd.inputSchema });
    expect(catalog[1]!.promptInputSchema).toEqual({ prompt: 'only' });
    (catalog[0]!.inputSchema as Record<string, unknown>)['type'] = 'changed';
    expect(runtime.catalog()[0]!.inputSchema['type']).toBe('object');
    expect(runtime.defer('notes.search', { prompt: 'only' }).state).toBe('done');
  });
});

describe('a call its host suspends or refuses', () => {
  it('suspend: a running call gives its reserved call back, leaves no record, settles as suspended and aborts its signal', async () => {
    const events: CallRecord[] = [];
    const ended: [CallRecord, string | undefined][] = [];
    const observer = { callStarted: () => ({ ended: (record: CallRecord, end: { error?: ToolError | undefined }) => void ended.push([record, end.error?.code]) }) };
    const runtime = new CapabilityRuntime({ onRecord: (record) => events.push(record), observer });
    let signal: AbortSignal | undefined;
    let release: (() => void) | undefined;
    runtime.registerTypedJsonTool(ToolPolicy.json('math.add').withCallBudget(1), mathAdd, async (input, request) => {
      signal = request.signal;
      await new Promise<void>((resolve) => (release = resolve));
      return { total: input.left };
    });
    const first = runtime.callAsync('math.add', { left: 1, right: 2 });
    expect(runtime.remainingCalls('math.add')).toBe(0);
    expect(runtime.suspend('call-1')).toMatchObject({ ok: false, callId: 'call-1', error: { code: 'suspended' } });
    expect(await first).toMatchObject({ ok: false, error: { code: 'suspended', message: 'call call-1 to "math.add" was suspended: its host calls again with what the handler asked for' } });
    expect(signal?.aborted).toBe(true);
    expect([runtime.remainingCalls('math.add'), runtime.records(), events]).toEqual([1, [], []]);
    // An observer hears the round end (its handler ran), though no record is kept.
    expect(ended.map(([record, code]) => [record.callId, record.outcome, record.errorCode, code])).toEqual([['call-1', 'pending', 'suspended', 'suspended']]);
    // What the handler returns later is dropped; the call is no longer open.
    release?.();
    expect(() => runtime.suspend('call-1')).toThrow(expect.objectContaining({ code: 'unknown_call' }));
    const second = runtime.callAsync('math.add', { left: 4, right: 2 });
    release?.();
    expect(await second).toMatchObject({ ok: true, output: { total: 4 } });
    expect(runtime.records().map((record) => [record.callId, record.outcome])).toEqual([['call-2', 'completed']]);
  });

  it('suspend refuses a call that is not running: queued, pending, synchronous or unknown', () => {
    const { runtime } = mathRuntime();
    runtime.registerValidatedProtocolJsonTool(ToolPolicy.json('notes.search'), ToolMetadata.of('Searches.'), notesSearch);
    const queued = runtime.defer('math.add', { left: 1, right: 2 });
    const pending = runtime.defer('notes.search', validSearch);
    for (const callId of [queued.callId, pending.callId, 'call-99']) expect(() => runtime.suspend(callId)).toThrow(expect.objectContaining({ code: 'unknown_call' }));
  });

  it("refusal: a known tool is recorded as denied with the host's error and nothing runs or is reserved; an unknown tool is answered as one", () => {
    const { runtime, seen } = mathRuntime(1);
    const refusal = ToolError.denied('its continuation token was forged');
    expect(runtime.call('math.add', { left: 1, right: 2 }, { refusal })).toEqual({ ok: false, callId: 'call-1', error: refusal });
    expect(runtime.call('math.sub', {}, { refusal })).toMatchObject({ ok: false, error: { code: 'unknown_tool' } });
    expect(runtime.call('math.add', { left: 1, right: 2 }, { refusal: 'no' as never })).toMatchObject({ ok: false, error: { code: 'denied', message: expect.stringContaining('refusal must be a ToolError') } });
    expect([seen, runtime.remainingCalls('math.add')]).toEqual([[], 1]);
    expect(runtime.records().map((record) => [record.outcome, record.errorCode])).toEqual([
      ['denied', 'denied'],
      ['denied', 'unknown_tool'],
      ['denied', 'denied'],
    ]);
  });
});
