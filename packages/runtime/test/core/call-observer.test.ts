import { describe, expect, it } from 'vitest';
import { mathAdd } from '../../../../examples/generated/index.js';
import { CapabilityRuntime, ToolMetadata, ToolPolicy, type CallEnd, type CallObserver, type CallRecord, type CallWatch } from '../../src/index.js';

/** The one hook observability goes through: every call from its start to its final record, and nothing an observer does changes a call. */

type Heard = { started: CallRecord[]; contexts: unknown[]; runs: unknown[]; handedOff: CallRecord[]; ended: [CallRecord, CallEnd][] };

function listening(overrides: Partial<CallWatch> = {}): { observer: CallObserver; heard: Heard } {
  const heard: Heard = { started: [], contexts: [], runs: [], handedOff: [], ended: [] };
  const observer: CallObserver = {
    callStarted(record, context) {
      heard.started.push(record);
      heard.contexts.push(context);
      return {
        runHandler: (run, input) => {
          heard.runs.push(input);
          return run();
        },
        handedOff: (record) => void heard.handedOff.push(record),
        ended: (record, end) => void heard.ended.push([record, end]),
        ...overrides,
      };
    },
  };
  return { observer, heard };
}

function addRuntime(observer: CallObserver, handler: (input: { left: number; right: number }) => unknown = ({ left, right }) => ({ total: left + right })): { runtime: CapabilityRuntime; runs: () => number } {
  let runs = 0;
  const runtime = new CapabilityRuntime({ observer });
  runtime.registerTypedJsonTool(ToolPolicy.json('math.add').withCallBudget(3), mathAdd, (input) => {
    runs++;
    return handler(input) as never;
  });
  return { runtime, runs: () => runs };
}

describe('CallObserver', () => {
  it('hears every call start with its context, the handler run with the validated input, and the final record with its copies', async () => {
    const { observer, heard } = listening();
    const { runtime } = addRuntime(observer);
    const input = { left: 2, right: 3 };
    runtime.call('math.add', input, { context: 'the host' });
    await runtime.callAsync('math.add', { left: 'x', right: 1 });
    runtime.call('math.missing', {});
    expect(heard.started.map((record) => [record.tool, record.callId, record.outcome])).toEqual([
      ['math.add', 'call-1', 'pending'],
      ['math.add', 'call-2', 'pending'],
      ['math.missing', 'call-3', 'pending'],
    ]);
    expect(heard.contexts).toEqual(['the host', undefined, undefined]);
    expect(heard.runs).toEqual([{ left: 2, right: 3 }]);
    expect(heard.runs[0]).not.toBe(input);
    expect(heard.ended.map(([record, end]) => [record.outcome, record.errorCode, end.error?.code, end.input, end.output])).toEqual([
      ['completed', undefined, undefined, { left: 2, right: 3 }, { total: 5 }],
      ['denied', 'invalid_input', 'invalid_input', undefined, undefined],
      ['denied', 'unknown_tool', 'unknown_tool', undefined, undefined],
    ]);
    expect(heard.ended.map(([record]) => record)).toEqual(runtime.records());
  });

  it('hears the hand-off of a protocol call and its end at complete, and a cancelled call once', () => {
    const { observer, heard } = listening();
    const runtime = new CapabilityRuntime({ observer });
    runtime.registerValidatedProtocolJsonTool(ToolPolicy.json('math.add'), ToolMetadata.of('Adds.'), mathAdd);
    const first = runtime.defer('math.add', { left: 1, right: 2 });
    const second = runtime.defer('math.add', { left: 1, right: 2 });
    expect(heard.handedOff.map((record) => [record.callId, record.outcome])).toEqual([
      ['call-1', 'pending'],
      ['call-2', 'pending'],
    ]);
    expect(heard.ended).toEqual([]);
    runtime.complete(first.callId, { total: 3 });
    runtime.cancel(second.callId);
    expect(heard.ended.map(([record, end]) => [record.callId, record.outcome, end.output])).toEqual([
      ['call-1', 'completed', { total: 3 }],
      ['call-2', 'cancelled', undefined],
    ]);
  });

  it('keeps every outcome whatever the observer throws, and runs the handler exactly once', async () => {
    const boom = (): never => {
      throw new Error('observer bug');
    };
    const watches: Partial<CallWatch>[] = [
      { runHandler: boom },
      {
        runHandler: (run) => {
          run();
          return boom();
        },
      },
      { ended: boom },
    ];
    const observers: CallObserver[] = [{ callStarted: boom }, { callStarted: () => 'not a watch' as never }, ...watches.map((watch) => listening(watch).observer)];
    for (const observer of observers) {
      const { runtime, runs } = addRuntime(observer);
      expect(runtime.call('math.add', { left: 2, right: 3 })).toEqual({ ok: true, callId: 'call-1', output: { total: 5 } });
      expect(await runtime.callAsync('math.add', { left: 1, right: 1 })).toEqual({ ok: true, callId: 'call-2', output: { total: 2 } });
      expect(runtime.call('math.add', { left: 'x', right: 1 })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
      expect(runs()).toBe(2);
      expect(runtime.records().map((record) => record.outcome)).toEqual(['completed', 'completed', 'denied']);
    }
  });

  it('refuses an observer without callStarted at construction', () => {
    expect(() => new CapabilityRuntime({ observer: {} as CallObserver })).toThrow(new RangeError('observer must have a callStarted method'));
    expect(() => new CapabilityRuntime({ observer: null as unknown as CallObserver })).toThrow(RangeError);
  });
});
