import type { ValidationIssue } from './contract.js';
import { ToolError, toolErrorCodes, type ToolErrorCode } from './errors.js';
import { describeThrown } from '../support/describe-thrown.js';
import { isObjectRecord } from '../support/is-object-record.js';

/**
 * What the replicas of one server must share, behind one small interface: budget reservations,
 * the state and results of deferred calls (`deferAsync`, served as MCP tasks) with the questions
 * their handlers ask and the answers given, the lease of each replica on the calls whose handlers
 * it runs, and the once-only claims that make a sealed `requestState` good for one retry.
 * `new CapabilityRuntime({ store })` takes one; without it a runtime keeps all of that in its own
 * memory as it always did (budgets on the synchronous path, no promise on it).
 *
 * Every method answers with a promise and rejects when the store cannot answer (unreachable, timed
 * out, a reply it cannot read): the runtime then fails closed with `store_unavailable`, never
 * allowing a call it could not reserve. A write whose answer was lost may or may not have happened:
 * the runtime says so, and its retries reconcile (an end already stored answers with the stored
 * result; a cancellation gives its budget back in the same step). `memoryStore()` is the in-process
 * implementation (several runtimes of one process can share it); `redisStore()` of
 * `@json-tool-contracts/runtime/redis` is the one for a fleet. A store keeps plain data only:
 * records are JSON, outputs, questions and answers JSON text.
 */
export interface RuntimeStore {
  /**
   * Takes one call of `tool`'s budget when fewer than `budget` are taken: atomically, so that
   * every runtime sharing the store together completes at most `budget` calls. Answers whether it took one.
   */
  reserve(tool: string, budget: number): Promise<boolean>;
  /** Gives one taken call of `tool`'s budget back (a suspended round, a call that was never stored); never below zero. */
  release(tool: string): Promise<void>;
  /** How many calls of `tool`'s budget are taken. */
  used(tool: string): Promise<number>;
  /**
   * Stores a new deferred call (kept until `call.expiresAt`), first taking one call of its tool's
   * budget when `budget` is given, as one atomic step. Answers false, storing nothing, when the
   * budget is used up. A call id is never reused: the runtime makes them unique per replica. For
   * a running call, `leaseMs` starts (or renews) its owner's lease in the same step, as `keepLease` does.
   */
  openCall(call: StoredCall, budget: number | undefined, leaseMs: number | undefined): Promise<boolean>;
  /** The call as stored, with its questions and answers and whether its owner's lease holds; undefined when it is unknown or has expired. Rejects with a `StoredRecordError` when the store holds a record under the id that is no call the runtime wrote. */
  readCall(callId: string): Promise<StoredCallRead | undefined>;
  /**
   * Replaces a stored call with `next` (same `callId`, kept until `next.expiresAt`; its questions
   * and answers stay) only while its state is one of `from`: the compare-and-set that lets exactly
   * one replica end a call. Answers whether it replaced it. The call's owner hears of it through
   * `keepLease`, unless `options.by` (the replica writing) is the owner.
   */
  replaceCall(next: StoredCall, from: readonly StoredCallState[], options?: ReplaceOptions): Promise<boolean>;
  /** Adds the question its handler asks (JSON text) under `key` to a running call; answers whether the call was running (a call that ended keeps no question). Asking again under a key replaces nothing but the same text. */
  askCall(callId: string, key: string, question: string): Promise<boolean>;
  /**
   * Stores answers (JSON text by key) to a running call's open questions, atomically: a key with
   * an answer keeps its first one. Answers the call's state and, for each key in the order given,
   * what became of it; undefined when the call is unknown or has expired. The call's owner hears of
   * an answer delivered through `keepLease`, unless `by` (the replica writing) is the owner.
   */
  answerCall(callId: string, answers: ReadonlyMap<string, string>, by: string): Promise<AnswerReceipt | undefined>;
  /**
   * One round trip however many calls a replica holds: renews `replicaId`'s lease on every call
   * whose handler it runs for `leaseMs` more, and answers the ids of its calls that other replicas
   * changed (ended, answered) after the mark `since` of an earlier answer (undefined: every change
   * kept), oldest first, with the mark to give next time. Changes up to `since` go; the same mark
   * given again answers the same changes, so an answer that was lost is given again.
   */
  keepLease(replicaId: string, leaseMs: number, since: string | undefined): Promise<LeaseRenewal>;
  /**
   * Claims `key` once, until `expiresAt` (ms since the epoch): true for the first claim, false for
   * every later one until then. What makes a sealed `requestState` good for one retry on every
   * replica. A claim whose answer was lost (the call it was for is refused) is given back once the
   * store answers again, so that the client's retry can claim it.
   */
  claimOnce(key: string, expiresAt: number): Promise<boolean>;
}

export interface LeaseRenewal {
  /** The ids of the replica's calls changed by others, oldest first (at most `maxHeard`: the rest come next time); an id may come more than once. */
  readonly changed: readonly string[];
  /** What to give as `since` next time. */
  readonly mark: string | undefined;
}

export interface ReplaceOptions {
  /** Also gives one call of the tool's budget back, in the same step (a pending call cancelled). */
  readonly release?: boolean;
  /** The replica writing: the call's owner hears of the change unless it made it. */
  readonly by?: string;
}

/** running: its handler works on the replica `owner` under that replica's lease; pending: it waits for `completeAsync`/`failAsync`; done: it has its result. */
export type StoredCallState = 'running' | 'pending' | 'done';

/** How a deferred call ended, as its record says. */
export type StoredOutcome = 'completed' | 'denied' | 'failed' | 'cancelled';

/** A deferred call as the store keeps it: plain JSON data. */
export interface StoredCall {
  readonly callId: string;
  readonly tool: string;
  readonly state: StoredCallState;
  /** Milliseconds since the epoch. */
  readonly startedAt: number;
  /** When the store forgets the call, ms since the epoch (the runtime's `deferredTtlMs`, or the call's own `ttlMs`). */
  readonly expiresAt: number;
  /** Its output is JSON text to be parsed with `parseJson(text, { exactNumbers: true })`. */
  readonly exactNumbers: boolean;
  /** It took a call of its tool's budget: cancelling it while pending gives that back. */
  readonly budgeted: boolean;
  /** With a shared store: the replica that opened it, where its caller waits and, while it is running, its handler runs under that replica's lease. */
  readonly owner?: string;
  /** done: */
  readonly outcome?: StoredOutcome;
  readonly finishedAt?: number;
  /** done and completed: the validated output as JSON text, every digit kept. */
  readonly output?: string;
  /** done and completed with content blocks: the checked blocks as JSON text. */
  readonly content?: string;
  /** done and not completed: why. */
  readonly error?: StoredError;
}

export interface StoredError {
  readonly code: ToolErrorCode;
  readonly message: string;
  readonly issues: readonly ValidationIssue[];
}

/** A stored call as `readCall` answers it: the record, and what the store keeps beside it. */
export interface StoredCallRead {
  readonly call: StoredCall;
  /** A running call's owner still holds its lease: false once the lease has run out (the owner stopped, or lost the store). */
  readonly leaseHeld: boolean;
  /** The questions its handler asked, JSON text by key (answered or not). */
  readonly questions: ReadonlyMap<string, string>;
  /** The answers given, JSON text by key. */
  readonly answers: ReadonlyMap<string, string>;
  /** When a question was last asked or answered, ms since the epoch. */
  readonly updatedAt: number | undefined;
}

/**
 * What became of one answer: `delivered`, stored for the open question under its key; `answered`,
 * the question had its answer already (which stands); `not-open`, no question is open under the
 * key (never asked, or the call is not running).
 */
export type AnswerOutcome = 'delivered' | 'answered' | 'not-open';

export interface AnswerReceipt {
  readonly state: StoredCallState;
  readonly outcomes: readonly AnswerOutcome[];
}

/** The store holds a record under a call's id that is no call the runtime wrote (another client wrote it, or it was cut short): that call cannot go on. */
export class StoredRecordError extends Error {
  override readonly name = 'StoredRecordError';
}

/** The store's failure, told without its stack: what was not done, and what the store said (or what is wrong with what it holds). */
export function storeUnavailable(what: string, error: unknown): ToolError {
  if (error instanceof StoredRecordError) return new ToolError('store_unavailable', `${what}: ${error.message}`);
  return new ToolError('store_unavailable', `${what}: the runtime's store did not answer (${describeThrown(error)})`);
}

/** A store's answer, or its failure as a `store_unavailable` ToolError. */
export async function guardStore<T>(answer: Promise<T>, what: string): Promise<T> {
  try {
    return await answer;
  } catch (error) {
    throw storeUnavailable(what, error);
  }
}

const states: ReadonlySet<string> = new Set<StoredCallState>(['running', 'pending', 'done']);
const outcomes: ReadonlySet<string> = new Set<StoredOutcome>(['completed', 'denied', 'failed', 'cancelled']);

/** Whether text names a call state, for stores that keep the state beside the record. */
export function isStoredCallState(value: unknown): value is StoredCallState {
  return typeof value === 'string' && states.has(value);
}

/**
 * The call a store's JSON text describes, its shape checked as the runtime writes it; anything
 * else (not JSON, `null`, a call done without its result, another call's record) throws a
 * `StoredRecordError` that says what is wrong. `state`: the state the store keeps beside it.
 */
export function readStoredCall(callId: string, json: string, state: unknown): StoredCall {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw unreadableRecord(callId, `it is not JSON (${error instanceof Error ? error.message : 'unparsable'})`);
  }
  const problem = storedCallProblem(callId, value, state);
  if (problem !== undefined) throw unreadableRecord(callId, problem);
  return { ...(value as StoredCall), state: state as StoredCallState };
}

/** Why a record read back from a store cannot be a call the runtime wrote; undefined when it can. */
function storedCallProblem(callId: string, value: unknown, state: unknown): string | undefined {
  if (!isObjectRecord(value)) return `it is ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}, not a call`;
  if (value['callId'] !== callId) return "it is another call's record";
  if (!isStoredCallState(state)) return `its state is ${describeField(state)}`;
  if (typeof value['tool'] !== 'string') return `its tool is ${describeField(value['tool'])}`;
  for (const field of ['startedAt', 'expiresAt'] as const) if (!Number.isFinite(value[field])) return `its ${field} is ${describeField(value[field])}`;
  for (const field of ['exactNumbers', 'budgeted'] as const) if (typeof value[field] !== 'boolean') return `its ${field} is ${describeField(value[field])}`;
  if (value['owner'] !== undefined && typeof value['owner'] !== 'string') return `its owner is ${describeField(value['owner'])}`;
  if (state !== 'done') return undefined;
  const outcome = value['outcome'];
  if (typeof outcome !== 'string' || !outcomes.has(outcome)) return `it is done, and its outcome is ${describeField(outcome)}`;
  if (!Number.isFinite(value['finishedAt'])) return `it is done, and its finishedAt is ${describeField(value['finishedAt'])}`;
  if (outcome === 'completed') {
    if (typeof value['output'] !== 'string') return 'it is done and completed, without its output';
    if (value['content'] !== undefined && typeof value['content'] !== 'string') return `its content is ${describeField(value['content'])}`;
    return undefined;
  }
  const error = value['error'];
  if (!isObjectRecord(error) || typeof error['code'] !== 'string' || !toolErrorCodes.has(error['code']) || typeof error['message'] !== 'string' || !Array.isArray(error['issues'])) return `it is done and ${outcome}, without an error the runtime writes`;
  return undefined;
}

/** The error for a record under `callId` that cannot be a call the runtime wrote, saying what is wrong with it. */
export function unreadableRecord(callId: string, problem: string): StoredRecordError {
  return new StoredRecordError(`the store's record of call ${JSON.stringify(callId.slice(0, 160))} cannot be read: ${problem}`);
}

function describeField(value: unknown): string {
  if (value === undefined) return 'missing';
  const text = JSON.stringify(value) ?? typeof value;
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/** A call as the in-process store holds it: the record as JSON text, and what the store keeps beside it. */
interface HeldCall {
  json: string;
  state: StoredCallState;
  expiresAt: number;
  owner: string | undefined;
  readonly questions: Map<string, string>;
  readonly answers: Map<string, string>;
  updatedAt: number | undefined;
}

/**
 * The in-process store: what a runtime without a `store` option keeps in its own memory, as a
 * store that several runtimes of one process can share (workers of one server, tests of a fleet).
 * Records are kept as JSON text, as a shared store keeps them, and forgotten when they expire;
 * budgets last as long as the store.
 */
export function memoryStore(now: () => number = Date.now): RuntimeStore {
  const taken = new Map<string, number>();
  const calls = new Map<string, HeldCall>();
  const claims = new Map<string, number>();
  const leases = new Map<string, number>();
  /** Each replica's calls changed by others, numbered in the order they changed (one count for the store, so that an inbox made again never numbers below a mark given before), and until when the list is kept. */
  const inboxes = new Map<string, { changes: { readonly seq: number; readonly callId: string }[]; expiresAt: number }>();
  let changes = 0;
  let writes = 0;
  const take = (tool: string, budget: number): boolean => {
    const used = taken.get(tool) ?? 0;
    if (used >= budget) return false;
    taken.set(tool, used + 1);
    return true;
  };
  const giveBack = (tool: string): void => {
    const used = taken.get(tool) ?? 0;
    if (used > 0) taken.set(tool, used - 1);
  };
  const live = (callId: string): HeldCall | undefined => {
    const held = calls.get(callId);
    if (held === undefined || held.expiresAt > now()) return held;
    calls.delete(callId);
    return undefined;
  };
  // Expired entries nobody reads again go in a sweep every 1,024 writes: the store stays bounded at O(1) per write.
  const wrote = (): void => {
    if (++writes % 1_024 !== 0) return;
    const time = now();
    for (const [key, held] of calls) if (held.expiresAt <= time) calls.delete(key);
    for (const [key, until] of claims) if (until <= time) claims.delete(key);
    for (const [key, until] of leases) if (until <= time) leases.delete(key);
    for (const [key, inbox] of inboxes) if (inbox.expiresAt <= time) inboxes.delete(key);
  };
  const notify = (held: HeldCall, callId: string, by: string | undefined): void => {
    if (held.owner === undefined || held.owner === by) return;
    const inbox = inboxes.get(held.owner) ?? { changes: [], expiresAt: 0 };
    inbox.changes.push({ seq: ++changes, callId });
    inbox.expiresAt = Math.max(inbox.expiresAt, held.expiresAt);
    inboxes.set(held.owner, inbox);
  };
  const renew = (replicaId: string, leaseMs: number): void => void leases.set(replicaId, now() + leaseMs);
  return {
    reserve: async (tool, budget) => take(tool, budget),
    release: async (tool) => giveBack(tool),
    used: async (tool) => taken.get(tool) ?? 0,
    async openCall(call, budget, leaseMs) {
      if (live(call.callId) !== undefined) throw new Error(`call id ${call.callId} is already stored`);
      if (budget !== undefined && !take(call.tool, budget)) return false;
      calls.set(call.callId, { json: JSON.stringify(call), state: call.state, expiresAt: call.expiresAt, owner: call.owner, questions: new Map(), answers: new Map(), updatedAt: undefined });
      if (leaseMs !== undefined && call.owner !== undefined) renew(call.owner, leaseMs);
      wrote();
      return true;
    },
    async readCall(callId) {
      const held = live(callId);
      if (held === undefined) return undefined;
      const leaseHeld = held.owner !== undefined && (leases.get(held.owner) ?? 0) > now();
      return { call: readStoredCall(callId, held.json, held.state), leaseHeld, questions: new Map(held.questions), answers: new Map(held.answers), updatedAt: held.updatedAt };
    },
    async replaceCall(next, from, options = {}) {
      const held = live(next.callId);
      if (held === undefined || !from.includes(held.state)) return false;
      Object.assign(held, { json: JSON.stringify(next), state: next.state, expiresAt: next.expiresAt });
      if (options.release === true) giveBack(next.tool);
      notify(held, next.callId, options.by);
      wrote();
      return true;
    },
    async askCall(callId, key, question) {
      const held = live(callId);
      if (held?.state !== 'running') return false;
      held.questions.set(key, question);
      held.updatedAt = now();
      return true;
    },
    async answerCall(callId, answers, by) {
      const held = live(callId);
      if (held === undefined) return undefined;
      const outcomes = [...answers].map(([key, answer]): AnswerOutcome => {
        if (held.answers.has(key)) return 'answered';
        if (held.state !== 'running' || !held.questions.has(key)) return 'not-open';
        held.answers.set(key, answer);
        return 'delivered';
      });
      if (outcomes.includes('delivered')) {
        held.updatedAt = now();
        notify(held, callId, by);
      }
      return { state: held.state, outcomes };
    },
    async keepLease(replicaId, leaseMs, since) {
      renew(replicaId, leaseMs);
      const inbox = inboxes.get(replicaId);
      if (inbox === undefined) return { changed: [], mark: since };
      const after = since === undefined ? 0 : Number(since);
      inbox.changes = inbox.changes.filter((change) => change.seq > after);
      const told = inbox.changes.slice(0, maxHeard);
      return { changed: told.map((change) => change.callId), mark: told.length === 0 ? since : String(told.at(-1)!.seq) };
    },
    async claimOnce(key, expiresAt) {
      const until = claims.get(key);
      if (until !== undefined && until > now()) return false;
      claims.set(key, expiresAt);
      wrote();
      return true;
    },
  };
}

/** The most ids one `keepLease` answers: a replica that heard of more hears the rest at its next poll. */
export const maxHeard = 1_000;
