import { describe, expect, it } from 'vitest';
import { mathAdd } from '../../../../examples/generated/index.js';
import { CapabilityRuntime, contractOutcome, ToolError, ToolPolicy, type CallRecord } from '../../src/index.js';

/** The outcome a host acts on without reading error text, from the records the runtime hands out. */

describe('contractOutcome', () => {
  it('classes every way a call ends, on the records onRecord hears and an observer is ended with', () => {
    const heard: CallRecord[] = [];
    const ended: CallRecord[] = [];
    const runtime = new CapabilityRuntime({
      onRecord: (record) => void heard.push(record),
      observer: { callStarted: () => ({ ended: (record) => void ended.push(record) }) },
    });
    runtime.registerTypedJsonTool(ToolPolicy.json('math.add').withCallBudget(6), mathAdd, ({ left, right }) => {
      if (left === 1) throw ToolError.denied('not one');
      if (left === 2) return { total: 'two' } as never;
      if (left === 3) throw new Error('boom');
      return { total: left + right };
    });
    runtime.call('math.add', { left: 0, right: 1 });
    runtime.call('math.add', { left: 'x', right: 1 });
    runtime.call('math.add', [1]);
    runtime.callJson('math.add', '{"left":');
    runtime.call('math.add', { left: 1, right: 1 });
    runtime.call('math.add', { left: 2, right: 1 });
    runtime.call('math.add', { left: 3, right: 1 });
    runtime.call('math.add', { left: 0, right: 1 }, { signal: AbortSignal.abort() });
    runtime.call('math.nope', {});
    runtime.call('math.add', { left: 0, right: 1 });
    runtime.call('math.add', { left: 0, right: 1 });
    runtime.call('math.add', { left: 0, right: 1 });
    expect(ended.map(contractOutcome)).toEqual(['completed', 'invalid_input', 'invalid_input', 'invalid_input', 'denied', 'invalid_output', 'failed', 'cancelled', 'unknown_tool', 'completed', 'completed', 'budget_exhausted']);
    // onRecord hears each call pending first (no outcome yet), then final.
    expect(heard.filter((record) => record.outcome !== 'pending').map(contractOutcome)).toEqual(ended.map(contractOutcome));
    expect(heard.filter((record) => record.outcome === 'pending').map(contractOutcome)).toEqual(heard.filter((record) => record.outcome === 'pending').map(() => undefined));
    expect(contractOutcome({ tool: 'math.add', callId: 'call-1', outcome: 'denied', errorCode: 'suspended', startedAt: 0 })).toBe('suspended');
    expect(contractOutcome({ tool: 'math.add', callId: 'call-1', outcome: 'failed', errorCode: 'lease_expired', startedAt: 0 })).toBe('failed');
  });
});
