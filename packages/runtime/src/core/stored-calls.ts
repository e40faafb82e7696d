import { callFailure, callSuccess } from './call-pipeline.js';
import type { CallResult } from './runtime-types.js';
import type { ContentBlock } from './content.js';
import { readJsonText, type EnvelopeLimits } from './envelope.js';
import { ToolError } from './errors.js';
import { stringifyJson } from './json.js';
import { unreadableRecord, type StoredCall } from './store.js';

/**
 * What the runtime writes to its store about a deferred call and reads back from it: the record of
 * its end, the result a caller gets from a record, and, on the replica that runs its handler, the
 * questions the handler waits on.
 */

/** A stored call done with a result. */
export function doneCall(stored: StoredCall, result: CallResult, outcome?: 'cancelled'): StoredCall {
  const done = { ...stored, state: 'done' as const, finishedAt: Date.now() };
  if (result.ok) {
    const output = stored.exactNumbers ? stringifyJson(result.output) : JSON.stringify(result.output);
    return result.content === undefined ? { ...done, outcome: 'completed', output } : { ...done, outcome: 'completed', output, content: JSON.stringify(result.content) };
  }
  const { code, message, issues } = result.error;
  return { ...done, outcome: outcome ?? (code === 'denied' ? 'denied' : 'failed'), error: { code, message, issues } };
}

/** The call as the store is to forget it: expiring now rather than at the end of its TTL. */
export function forgottenCall(stored: StoredCall): StoredCall {
  return { ...stored, expiresAt: Date.now() + 1 };
}

/** Whether two ends of a call say the same (when each was written aside): a retry of an end already stored reconciles with it. */
export function sameEnd(stored: StoredCall, next: StoredCall): boolean {
  return stored.outcome === next.outcome && stored.output === next.output && stored.content === next.content && stored.error?.code === next.error?.code && stored.error?.message === next.error?.message;
}

/** The caller's result from a done stored call; a record whose output or content is no JSON throws a `StoredRecordError`. */
export function storedResult(stored: StoredCall, limits: EnvelopeLimits): CallResult {
  const { callId } = stored;
  if (stored.outcome !== 'completed') {
    const { code, message, issues } = stored.error!;
    return callFailure(callId, new ToolError(code, message, issues));
  }
  let output: unknown;
  let content: ContentBlock[] | undefined;
  try {
    output = readJsonText(stored.output!, stored.exactNumbers, limits);
    content = stored.content === undefined ? undefined : (JSON.parse(stored.content) as ContentBlock[]);
  } catch (error) {
    throw unreadableRecord(callId, `its output is not JSON the runtime wrote (${error instanceof Error ? error.message : 'unparsable'})`);
  }
  return callSuccess(callId, output, content);
}

/**
 * The questions a running deferred call's handler waits on, on the replica that runs it. Each is
 * asked through the store, where any replica reads it and stores its answer; this replica hears of
 * the answer (at its next poll, at once when it was answered here) and hands its JSON text over.
 */
export class OpenQuestions {
  /** The handler's waits on each key's answer: a question asked twice under one key waits twice. */
  readonly #waiting = new Map<string, { readonly resolve: (answer: string) => void; readonly reject: (reason: unknown) => void }[]>();

  /** Resolves with the answer's JSON text once it is heard; rejects with the reason the call closed, if it closes first. */
  ask(key: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const waits = this.#waiting.get(key) ?? [];
      waits.push({ resolve, reject });
      this.#waiting.set(key, waits);
    });
  }

  /** Whether a question under `key` still waits for its answer. */
  waits(key: string): boolean {
    return this.#waiting.has(key);
  }

  /** Hands over the answers of the questions that wait for one. */
  hear(answers: ReadonlyMap<string, string>): void {
    for (const [key, waits] of this.#waiting) {
      const answer = answers.get(key);
      if (answer === undefined) continue;
      this.#waiting.delete(key);
      for (const wait of waits) wait.resolve(answer);
    }
  }

  /** The call has closed: every question still waiting is withdrawn. */
  close(reason: unknown): void {
    for (const waits of this.#waiting.values()) for (const wait of waits) wait.reject(reason);
    this.#waiting.clear();
  }
}
