import { describe, expect, it } from 'vitest';
import { mathAdd, notesSearch } from '../../../../examples/generated/index.js';
import { CapabilityRuntime, maxToolErrorMessageLength, ToolError, ToolMetadata, ToolPolicy, type CallRecord } from '../../src/index.js';
import { compileContract } from '../../../../test/support/load-module.js';

/** Values that break `String(value)`, `value.message` or `value.then` when read. */
const revoked = (): object => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};
const unprintable: readonly [string, () => unknown][] = [
  ['a null-prototype object', () => Object.create(null)],
  [
    'an object whose toString throws',
    () => ({
      toString: () => {
        throw 1;
      },
    }),
  ],
  [
    'an Error whose message getter throws',
    () =>
      Object.defineProperty(new Error('x'), 'message', {
        get: () => {
          throw new Error('no');
        },
      }),
  ],
  ['a revoked proxy', revoked],
  ['a symbol', () => Symbol('s')],
];
const hostileResults: readonly [string, () => unknown][] = [
  [
    'a getter "then" that throws',
    () => ({
      get then() {
        throw 0;
      },
    }),
  ],
  [
    'a "then" that throws',
    () => ({
      then() {
        throw 0;
      },
    }),
  ],
  [
    'a "then" that throws a null-prototype object',
    () => ({
      then() {
        throw Object.create(null);
      },
    }),
  ],
  ['a revoked proxy', revoked],
];

function mathRuntime(handler: () => unknown, budget = 10) {
  const records: CallRecord[] = [];
  const runtime = new CapabilityRuntime({ onRecord: (record) => records.push(record) });
  runtime.registerValidatedJsonTool(ToolPolicy.json('math.add').withCallBudget(budget), ToolMetadata.of('Adds.'), mathAdd, handler as never);
  return { runtime, records };
}

const finished = (records: readonly CallRecord[]) => records.filter((r) => r.outcome !== 'pending').map((r) => [r.outcome, r.errorCode]);

describe('nothing a handler throws or returns escapes the runtime', () => {
  it.each(unprintable)('a synchronous handler throwing %s fails the call with a message', (_, thrown) => {
    const { runtime, records } = mathRuntime(() => {
      throw thrown();
    });
    const result = runtime.call('math.add', { left: 1, right: 2 });
    expect(!result.ok && result.error.code).toBe('handler_failed');
    expect(!result.ok && result.error.message).toMatch(/^the handler failed: .+/);
    expect(finished(records)).toEqual([['failed', 'handler_failed']]);
    expect(runtime.records().map((r) => r.outcome)).toEqual(['failed']);
  });

  it.each(hostileResults)('a handler returning %s fails the call', async (_, result) => {
    const { runtime, records } = mathRuntime(result);
    const sync = runtime.call('math.add', { left: 1, right: 2 });
    expect(!sync.ok && sync.error.code).toBe('handler_failed');
    const deferred = runtime.defer('math.add', { left: 1, right: 2 });
    runtime.pump();
    expect(await deferred.result).toMatchObject({ ok: false, error: { code: 'handler_failed' } });
    expect(await runtime.callAsync('math.add', { left: 1, right: 2 })).toMatchObject({ ok: false, error: { code: 'handler_failed' } });
    expect(records.filter((r) => r.outcome === 'pending' && !records.some((o) => o.callId === r.callId && o.outcome !== 'pending'))).toEqual([]);
  });

  it.each(unprintable)('an async handler rejecting with %s settles the call, with no unhandled rejection', async (_, thrown) => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', listener);
    try {
      const { runtime, records } = mathRuntime(async () => {
        throw thrown();
      });
      const deferred = runtime.defer('math.add', { left: 1, right: 2 });
      runtime.pump();
      expect(await deferred.result).toMatchObject({ ok: false, error: { code: 'handler_failed' } });
      expect(await runtime.callAsync('math.add', { left: 1, right: 2 })).toMatchObject({ ok: false, error: { code: 'handler_failed' } });
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).toEqual([]);
      expect(finished(records)).toEqual([
        ['failed', 'handler_failed'],
        ['failed', 'handler_failed'],
      ]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });

  it('a listener that throws changes no outcome and escapes nothing', () => {
    const runtime = new CapabilityRuntime({
      onRecord: () => {
        throw Object.create(null);
      },
    });
    runtime.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, ({ left, right }) => ({ total: left + right }));
    expect(runtime.call('math.add', { left: 1, right: 2 })).toMatchObject({ ok: true, output: { total: 3 } });
  });
});

describe('the handler receives exactly the value that was validated', () => {
  it('a deferred input changed by the caller after defer() reaches the handler unchanged', () => {
    const seen: unknown[] = [];
    const runtime = new CapabilityRuntime();
    runtime.registerValidatedJsonTool(ToolPolicy.json('math.add'), ToolMetadata.of('Adds.'), mathAdd, (request) => {
      seen.push(request.input);
      return { total: 0 };
    });
    const input: Record<string, unknown> = { left: 1, right: 2 };
    runtime.defer('math.add', input);
    input['left'] = 'evil';
    runtime.pump();
    expect(seen).toEqual([{ left: 1, right: 2 }]);
  });

  it('a Proxy that answers differently after validation cannot hand the handler another value', () => {
    const seen: unknown[] = [];
    const runtime = new CapabilityRuntime();
    runtime.registerValidatedJsonTool(ToolPolicy.json('math.add'), ToolMetadata.of('Adds.'), mathAdd, (request) => {
      seen.push((request.input as { left: unknown }).left);
      return { total: 0 };
    });
    let reads = 0;
    const shifty = new Proxy({ left: 1, right: 2 }, { get: (target, key) => (key === 'left' && reads++ > 0 ? 'evil' : Reflect.get(target, key)) });
    expect(runtime.call('math.add', shifty).ok).toBe(true);
    expect(seen).toEqual([1]);
  });

  it('an output the handler changes after returning it reaches the caller as validated', async () => {
    const runtime = new CapabilityRuntime();
    const output: Record<string, unknown> = { total: 3 };
    runtime.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, async () => {
      setTimeout(() => (output['total'] = 'evil'), 0);
      return output as { total: number };
    });
    const result = await runtime.callAsync('math.add', { left: 1, right: 2 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(result).toMatchObject({ ok: true, output: { total: 3 } });
  });
});

describe("a caller's mistakes never throw", () => {
  it('a symbol or an object as a tool name is an unknown tool', () => {
    const { runtime } = mathRuntime(() => ({ total: 1 }));
    for (const name of [Symbol('x'), Object.create(null), 42]) {
      const result = runtime.call(name as never, {});
      expect(!result.ok && result.error.code).toBe('unknown_tool');
    }
  });

  it('callJson with a symbol name is unknown_tool, its text unread; text that is no string is invalid_json', () => {
    const { runtime } = mathRuntime(() => ({ total: 1 }));
    const throwsNull = {
      toString: () => {
        throw null;
      },
    };
    const cases: [unknown, unknown, string, RegExp][] = [
      [Symbol('x'), '{', 'unknown_tool', /^no tool named Symbol\(x\); available: math.add$/],
      ['math.add', throwsNull, 'invalid_json', /^input for "math.add" is not valid JSON: expected JSON text \(a string\), got object$/],
      [Symbol('y'), throwsNull, 'unknown_tool', /^no tool named Symbol\(y\)/],
      ['math.add', new String('{"left":1,"right":2}'), 'invalid_json', /got object$/],
    ];
    for (const [name, text, code, message] of cases) {
      const result = runtime.callJson(name as never, text as never);
      expect(result.ok).toBe(false);
      if (!result.ok) expect([result.error.code, result.error.message]).toEqual([code, expect.stringMatching(message)]);
    }
    expect(runtime.records().map((r) => [r.tool, r.outcome, r.errorCode])).toEqual([
      ['Symbol(x)', 'denied', 'unknown_tool'],
      ['math.add', 'denied', 'invalid_json'],
      ['Symbol(y)', 'denied', 'unknown_tool'],
      ['math.add', 'denied', 'invalid_json'],
    ]);
  });

  it('a small call cannot produce a large message: issue lines, their number and the tool list are bounded, the issues are complete', () => {
    // A closed object with many long property names: each unexpected key's issue lists them all.
    const allowed = Array.from({ length: 128 }, (_, i) => `property_with_a_long_descriptive_name_for_a_model_to_read_number_${i}`);
    const wide = compileContract(JSON.stringify({ name: 'wide.tool', description: 'D.', input: { type: 'object', properties: Object.fromEntries(allowed.map((n) => [n, { type: 'string' }])), additionalProperties: false }, output: {} }));
    const runtime = new CapabilityRuntime();
    runtime.registerValidatedJsonTool(ToolPolicy.json('wide.tool'), ToolMetadata.of('D.'), wide as never, () => ({}));
    const input = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`unexpected${i}`, i]));
    expect(JSON.stringify(input).length).toBeLessThan(1_200);
    const result = runtime.call('wide.tool', input);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.issues).toHaveLength(40);
    expect(result.error.message.length).toBeLessThanOrEqual(maxToolErrorMessageLength);
    expect(result.error.message).toMatch(/^input for "wide.tool" does not match its contract: \/unexpected0: unexpected property "unexpected0"; allowed: property_with.*…; .*… and 30 more$/);
    // A handler's own message is bounded as well, and a cut never splits a surrogate pair.
    runtime.registerValidatedJsonTool(ToolPolicy.json('loud.tool'), ToolMetadata.of('D.'), { ...wide, name: 'loud.tool' } as never, () => {
      throw ToolError.denied('😀'.repeat(10_000));
    });
    const denied = runtime.call('loud.tool', {});
    expect(!denied.ok && denied.error.message.length).toBeLessThanOrEqual(maxToolErrorMessageLength);
    expect(!denied.ok && denied.error.message.endsWith('😀…')).toBe(true);
    // An unknown tool names the first 20 tools and how many there are.
    const many = new CapabilityRuntime();
    for (let i = 0; i < 400; i++) many.registerValidatedJsonTool(ToolPolicy.json(`t${String(i).padStart(3, '0')}`), ToolMetadata.of('D.'), { ...wide, name: `t${String(i).padStart(3, '0')}` } as never, () => ({}));
    const unknown = many.call('nope', {});
    expect(!unknown.ok && unknown.error.message).toBe(`no tool named "nope"; available: ${Array.from({ length: 20 }, (_, i) => `t${String(i).padStart(3, '0')}`).join(', ')}, … (400 in all)`);
  });

  it('JSON.stringify of a failed result keeps the error: code, message and issues', () => {
    const { runtime } = mathRuntime(() => ({ total: 1 }));
    const result = runtime.call('math.add', { left: 1 });
    expect(JSON.parse(JSON.stringify(result))).toEqual({ ok: false, callId: 'call-1', error: { name: 'ToolError', code: 'invalid_input', message: 'input for "math.add" does not match its contract: (root): missing required property "right"', issues: [expect.objectContaining({ keyword: 'required' })] } });
  });

  it('complete, fail and cancel with a symbol or an unknown id throw ToolError("unknown_call")', () => {
    const runtime = new CapabilityRuntime();
    runtime.registerValidatedProtocolJsonTool(ToolPolicy.json('notes.search'), ToolMetadata.of('Searches.'), notesSearch);
    for (const id of [Symbol('x'), 'call-99', Object.create(null)]) {
      for (const act of [() => runtime.complete(id as never, {}), () => runtime.fail(id as never, 'x'), () => runtime.cancel(id as never)]) {
        expect(act).toThrow(ToolError);
        try {
          act();
        } catch (error) {
          expect((error as ToolError).code).toBe('unknown_call');
        }
      }
    }
  });

  it('fail() with something other than a ToolError or text still ends the call', async () => {
    const runtime = new CapabilityRuntime();
    runtime.registerValidatedProtocolJsonTool(ToolPolicy.json('notes.search'), ToolMetadata.of('Searches.'), notesSearch);
    const pending = runtime.callAsync('notes.search', { query: 'x' });
    const [record] = runtime.records();
    expect(runtime.fail(record!.callId, Object.create(null) as never)).toMatchObject({ ok: false, error: { code: 'handler_failed' } });
    expect(await pending).toMatchObject({ ok: false, error: { code: 'handler_failed' } });
  });
});

describe('options are checked at construction', () => {
  it.each([[{ maxRecords: -1 }], [{ maxRecords: Number.NaN }], [{ maxRecords: 1.5 }], [{ maxRecords: '5' }], [{ envelope: { maxDepth: 0 } }], [{ envelope: { maxNodes: Number.NaN } }], [{ onRecord: 'log' }]])('%j is a RangeError', (options) => {
    expect(() => new CapabilityRuntime(options as never)).toThrow(RangeError);
  });

  it('maxRecords 0 keeps no record, while onRecord still hears every call', () => {
    const heard: string[] = [];
    const runtime = new CapabilityRuntime({ maxRecords: 0, onRecord: (r) => heard.push(r.outcome) });
    runtime.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, ({ left, right }) => ({ total: left + right }));
    for (let i = 0; i < 5; i++) runtime.call('math.add', { left: i, right: 0 });
    expect([runtime.records(), heard.length]).toEqual([[], 5]);
  });
});
