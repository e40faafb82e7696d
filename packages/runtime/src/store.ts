import type { ValidationIssue } from './contract.js';
import type { ToolErrorCode } from './errors.js';

/**
 * What the replicas of one server must share, behind one small interface: budget reservations,
 * the state and results of deferred calls (`deferAsync`, served as MCP tasks), the lease of a call
 * whose handler runs on some replica, and the once-only claims that make a sealed `requestState`
 * good for one retry. `new CapabilityRuntime({ store })` takes one; without it a runtime keeps all of
 * that in its own memory as it always did (budgets on the synchronous path, no promise on it).
 *
 * Every method answers with a promise and rejects when the store cannot answer (unreachable, timed
 * out, a reply it cannot read): the runtime then fails closed with `store_unavailable`, never
 * allowing a call it could not reserve. `memoryStore()` is the in-process implementation (several
 * runtimes of one process can share it); `redisStore()` of `@json-tool-contracts/runtime/redis` is
 * the one for a fleet. A store keeps plain data only: records are JSON, outputs JSON text.
 */
export interface RuntimeStore {
  /**
   * Takes one call of `tool`'s budget when fewer than `budget` are taken: atomically, so that
   * every runtime sharing the store together completes at most `budget` calls. Answers whether it took one.
   */
  reserve(tool: string, budget: number): Promise<boolean>;
  /** Gives one taken call of `tool`'s budget back (a cancelled pending call, a suspended round); never below zero. */
  release(tool: string): Promise<void>;
  /** How many calls of `tool`'s budget are taken. */
  used(tool: string): Promise<number>;
  /**
   * Stores a new deferred call (kept until `call.expiresAt`), first taking one call of its tool's
   * budget when `budget` is given, as one atomic step. Answers false, storing nothing, when the
   * budget is used up. A call id is never reused: the runtime makes them unique per replica.
   */
  openCall(call: StoredCall, budget: number | undefined): Promise<boolean>;
  /** The call as stored, or undefined when it is unknown or has expired. */
  readCall(callId: string): Promise<StoredCall | undefined>;
  /**
   * Replaces a stored call with `next` (same `callId`, kept until `next.expiresAt`) only while its
   * state is one of `from`: the compare-and-set that lets exactly one replica end a call. Answers
   * whether it replaced it.
   */
  replaceCall(next: StoredCall, from: readonly StoredCallState[]): Promise<boolean>;
  /**
   * Moves the lease of a running call to `leaseUntil`; answers the call's state after (so an owner
   * learns that the call ended elsewhere: cancelled, or its lease taken as expired), or undefined
   * when the call is gone.
   */
  renewLease(callId: string, leaseUntil: number): Promise<StoredCallState | undefined>;
  /**
   * Claims `key` once, until `expiresAt` (ms since the epoch): true for the first claim, false for
   * every later one until then. What makes a sealed `requestState` good for one retry on every replica.
   */
  claimOnce(key: string, expiresAt: number): Promise<boolean>;
}

/** running: its handler works on the replica `owner` under a lease; pending: it waits for `completeAsync`/`failAsync`; done: it has its result. */
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
  /** running: the replica whose handler runs it. */
  readonly owner?: string;
  /** running: the owner renews this; once it has passed, the call reads as failed with `lease_expired`. */
  readonly leaseUntil?: number;
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

/**
 * The in-process store: what a runtime without a `store` option keeps in its own memory, as a
 * store that several runtimes of one process can share (workers of one server, tests of a fleet).
 * Records are kept as JSON text, as a shared store keeps them, and forgotten when they expire;
 * budgets last as long as the store.
 */
export function memoryStore(now: () => number = Date.now): RuntimeStore {
  const taken = new Map<string, number>();
  const calls = new Map<string, { readonly json: string; readonly state: StoredCallState; readonly expiresAt: number }>();
  const claims = new Map<string, number>();
  let writes = 0;
  const take = (tool: string, budget: number): boolean => {
    const used = taken.get(tool) ?? 0;
    if (used >= budget) return false;
    taken.set(tool, used + 1);
    return true;
  };
  const live = (callId: string) => {
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
  };
  const put = (call: StoredCall): void => {
    calls.set(call.callId, { json: JSON.stringify(call), state: call.state, expiresAt: call.expiresAt });
    wrote();
  };
  return {
    reserve: async (tool, budget) => take(tool, budget),
    async release(tool) {
      const used = taken.get(tool) ?? 0;
      if (used > 0) taken.set(tool, used - 1);
    },
    used: async (tool) => taken.get(tool) ?? 0,
    async openCall(call, budget) {
      if (live(call.callId) !== undefined) throw new Error(`call id ${call.callId} is already stored`);
      if (budget !== undefined && !take(call.tool, budget)) return false;
      put(call);
      return true;
    },
    async readCall(callId) {
      const held = live(callId);
      return held === undefined ? undefined : (JSON.parse(held.json) as StoredCall);
    },
    async replaceCall(next, from) {
      const held = live(next.callId);
      if (held === undefined || !from.includes(held.state)) return false;
      put(next);
      return true;
    },
    async renewLease(callId, leaseUntil) {
      const held = live(callId);
      if (held === undefined) return undefined;
      if (held.state === 'running') calls.set(callId, { ...held, json: JSON.stringify({ ...(JSON.parse(held.json) as StoredCall), leaseUntil }) });
      return held.state;
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
