import { describe, expect, it } from 'vitest';
import { defaultEnvelopeLimits, ToolError } from '../../src/index.js';
import { readStoredCall, StoredRecordError, type StoredCall } from '../../src/core/store.js';
import { doneCall, OpenQuestions, sameEnd, storedResult } from '../../src/core/stored-calls.js';

const running: StoredCall = { callId: 'c1', tool: 'math.add', state: 'running', startedAt: 1, expiresAt: 2, exactNumbers: false, budgeted: true, owner: 'a' };

describe('a stored call read back from a store', () => {
  it('is the call the runtime wrote, its state the one kept beside it', () => {
    const done = doneCall(running, { ok: true, callId: 'c1', output: { total: 2 } });
    expect(readStoredCall('c1', JSON.stringify(done), 'done')).toEqual({ ...done, state: 'done' });
    expect(storedResult(readStoredCall('c1', JSON.stringify(done), 'done'), defaultEnvelopeLimits)).toEqual({ ok: true, callId: 'c1', output: { total: 2 } });
  });

  it('is refused, saying why, when it is no call the runtime wrote', () => {
    const done = doneCall(running, { ok: true, callId: 'c1', output: { total: 2 } });
    const cases: [string, unknown, string][] = [
      ['{"total": 2', 'done', 'it is not JSON'],
      ['null', 'done', 'it is null, not a call'],
      ['[1]', 'done', 'it is an array, not a call'],
      [JSON.stringify({ ...done, callId: 'c2' }), 'done', "it is another call's record"],
      [JSON.stringify(done), 'finished', 'its state is "finished"'],
      [JSON.stringify({ ...done, output: undefined }), 'done', 'it is done and completed, without its output'],
      [JSON.stringify({ ...done, outcome: 'failed', output: undefined }), 'done', 'it is done and failed, without an error the runtime writes'],
      [JSON.stringify({ ...done, error: { code: 'no_such_code', message: 'x', issues: [] }, outcome: 'failed' }), 'done', 'without an error the runtime writes'],
      [JSON.stringify({ ...running, startedAt: 'then' }), 'running', 'its startedAt is "then"'],
      [JSON.stringify({ ...running, budgeted: undefined }), 'running', 'its budgeted is missing'],
    ];
    for (const [json, state, problem] of cases) {
      expect(() => readStoredCall('c1', json, state), json).toThrow(StoredRecordError);
      expect(() => readStoredCall('c1', json, state), json).toThrow(problem);
    }
    expect(() => storedResult({ ...done, output: 'not json' }, defaultEnvelopeLimits)).toThrow(/cannot be read: its output is not JSON the runtime wrote/);
  });

  it('says the same end as another when outcome, output and error agree, whenever each was written', () => {
    const failed = (message: string) => doneCall(running, { ok: false, callId: 'c1', error: new ToolError('handler_failed', message) });
    expect(sameEnd(failed('no'), { ...failed('no'), finishedAt: 99 })).toBe(true);
    expect(sameEnd(failed('no'), failed('yes'))).toBe(false);
    expect(sameEnd(doneCall(running, { ok: true, callId: 'c1', output: { total: 2 } }), doneCall(running, { ok: true, callId: 'c1', output: { total: 3 } }))).toBe(false);
  });
});

describe('the questions a handler waits on', () => {
  it('hands each answer to every wait under its key, once, and withdraws the rest when the call closes', async () => {
    const questions = new OpenQuestions();
    const [first, again, other] = [questions.ask('name'), questions.ask('name'), questions.ask('other')];
    questions.hear(new Map([['name', '"Ada"']]));
    expect(await Promise.all([first, again])).toEqual(['"Ada"', '"Ada"']);
    expect(questions.waits('name')).toBe(false);
    expect(questions.waits('other')).toBe(true);
    questions.close(new ToolError('cancelled', 'the call was cancelled'));
    await expect(other).rejects.toMatchObject({ code: 'cancelled' });
    expect(questions.waits('other')).toBe(false);
  });
});
