import { callFailure, cancelledError, type CallPipeline, type HandledCall, type OpenCall, type Settlement, listenForAbort, newHandle, quoted, runThen, settledHandle } from './call-pipeline.js';
import { CallPoller } from './call-poller.js';
import { budgetExhausted, ToolError } from './errors.js';
import { readJsonText } from './envelope.js';
import { maxCallIdLength, type Ledger } from './ledger.js';
import type { CallResult, DeferOptions, DeferredAnswers, DeferredCall, DeferredStatus } from './runtime-types.js';
import { guardStore, memoryStore, storeUnavailable, StoredRecordError, unreadableRecord, type AnswerOutcome, type RuntimeStore, type StoredCall, type StoredCallRead, type StoredCallState } from './store.js';
import { doneCall, forgottenCall, OpenQuestions, sameEnd, storedResult } from './stored-calls.js';
import { toolName, type ToolRegistry } from './tool-registry.js';
import { describeThrown } from '../support/describe-thrown.js';

/** A call of `deferAsync` open on this replica: its handler runs here, or its caller here waits for it. */
export interface StoredOpenCall extends HandledCall {
  readonly stored: StoredCall;
  /** The questions its handler waits on; made on the first. */
  questions?: OpenQuestions;
}

/** A stored call as read, with its caller's result once it is done. */
interface StoredRead extends StoredCallRead {
  readonly result?: CallResult;
}

/** The runtime's options for deferred calls, checked. */
export interface DeferredCallOptions {
  /** The fleet's store; undefined keeps the calls in a store of this runtime's own, made on first use. */
  readonly shared: RuntimeStore | undefined;
  readonly replicaId: string;
  readonly deferredTtlMs: number;
  readonly leaseMs: number;
  readonly pollMs: number;
  readonly maxDeferredCalls: number;
}

/**
 * The calls of `deferAsync`, which outlive their request: kept in the store, where every replica
 * sharing it reads them and ends them by their id; their handlers run under this replica's lease,
 * renewed by the poller (`call-poller.ts`), which also hears what other replicas did to the calls
 * open here. What is written to the store and read back is `stored-calls.ts`; the store itself,
 * `store.ts`. Each call takes the pipeline's steps (`call-pipeline.ts`): started and reserved, stored,
 * run (or handed off), its verdict stored, then closed here.
 */
export class DeferredCalls {
  /** The calls open on this replica, by id. */
  readonly #open = new Map<string, StoredOpenCall>();
  readonly #poller: CallPoller;
  /** Where the calls are kept: the fleet's store, or, without one, a store of this runtime's own (made on first use). */
  #callStore: RuntimeStore | undefined;

  readonly #pipeline: CallPipeline;
  readonly #ledger: Ledger;
  readonly #tools: ToolRegistry;
  readonly #options: DeferredCallOptions;
  /** The fleet's store, when there is one. */
  readonly #shared: RuntimeStore | undefined;
  readonly #replicaId: string;

  constructor(pipeline: CallPipeline, ledger: Ledger, tools: ToolRegistry, options: DeferredCallOptions) {
    this.#pipeline = pipeline;
    this.#ledger = ledger;
    this.#tools = tools;
    this.#options = options;
    const { shared, replicaId, leaseMs, pollMs } = options;
    this.#shared = shared;
    this.#replicaId = replicaId;
    this.#poller = new CallPoller(pollMs, {
      open: this.#open,
      keepLease: shared === undefined ? undefined : (since) => shared.keepLease(replicaId, leaseMs, since),
      adopt: async (callId) => {
        const open = this.#open.get(callId);
        if (open !== undefined) await this.#adopt(open);
      },
    });
  }

  /**
   * `CapabilityRuntime.suspend` for a call of `deferAsync` running here; undefined when none runs
   * here under `callId`. Such a call is suspended in its first round (an MCP task's input_required
   * round before it became a task): its id was never handed out, so the store's copy goes at once
   * (done, expiring now) rather than reading as lease_expired later.
   */
  suspend(callId: string): CallResult | undefined {
    const open = this.#open.get(callId);
    if (open?.handle.state !== 'running') return undefined;
    return this.#pipeline.suspendRound(open, (error) => this.#forgetSuspended(open, error));
  }

  #forgetSuspended(open: StoredOpenCall, error: ToolError): void {
    const { callId } = open.stored;
    this.#open.delete(callId);
    this.#replace(forgottenCall(doneCall(open.stored, callFailure(callId, error), 'cancelled')), ['running']).catch(() => undefined);
  }

  /** `CapabilityRuntime.deferAsync`: the call started, reserved and stored, then run here or handed off. */
  async defer<O = unknown>(name: string, input: unknown, options?: DeferOptions): Promise<DeferredCall<O>> {
    const ttlMs = readTtl(options);
    const started = this.#pipeline.start(name, input, options, 'deferAsync');
    if (!started.ok) return settledHandle(started, toolName(name)) as DeferredCall<O>;
    const call = started.call;
    const refusal =
      typeof ttlMs === 'string' ? `the call options for "${call.entry.name}" are wrong: ${ttlMs}` : this.#open.size >= this.#options.maxDeferredCalls ? `this replica holds ${this.#options.maxDeferredCalls} open deferred calls, the most it keeps (maxDeferredCalls): try again once some have ended` : undefined;
    if (refusal !== undefined) {
      const handle = this.#refused(call, new ToolError('denied', refusal));
      if (this.#shared === undefined) this.#ledger.giveBack(call.entry.name);
      return handle as DeferredCall<O>;
    }
    const { entry, record } = call;
    const runsHere = entry.handler !== undefined;
    const stored: StoredCall = {
      callId: record.callId,
      tool: entry.name,
      state: runsHere ? 'running' : 'pending',
      startedAt: record.startedAt,
      expiresAt: record.startedAt + ((ttlMs as number | undefined) ?? this.#options.deferredTtlMs),
      exactNumbers: entry.contract.exactNumbers === true,
      budgeted: entry.budget !== undefined,
      ...(this.#shared === undefined ? {} : { owner: this.#replicaId }),
    };
    const reservesThere = this.#ledger.reservesThroughStore(entry);
    let opened: boolean;
    try {
      opened = await this.#store().openCall(stored, reservesThere ? entry.budget : undefined, runsHere && this.#shared !== undefined ? this.#options.leaseMs : undefined);
    } catch (error) {
      if (!reservesThere) this.#ledger.giveBack(entry.name);
      if (this.#shared !== undefined) this.#forgetUnconfirmed(stored);
      return this.#refused(call, storeUnavailable(`call ${record.callId} to "${entry.name}" was not stored (if the store took it, it is forgotten and its budget given back once the store answers)`, error), call.input) as DeferredCall<O>;
    }
    if (!opened) return this.#refused(call, budgetExhausted(entry.name), call.input) as DeferredCall<O>;
    const handle = newHandle(record.callId, entry.name);
    // A protocol call has no handler to hand the host's context to: the call does not keep it for its whole TTL.
    const setting = runsHere ? call.setting : { signal: call.setting.signal, context: undefined };
    const open: StoredOpenCall = { entry, record, input: call.input, setting, watch: call.watch, handle, stored };
    this.#open.set(record.callId, open);
    listenForAbort(open, () => void this.cancel(record.callId).catch(() => undefined));
    if (runsHere) runThen(open, (settlement) => void this.#endRunning(open, settlement));
    else this.#pipeline.handOff(open);
    this.#poller.start();
    return handle as DeferredCall<O>;
  }

  /** A started call refused before it was stored, as a handle already settled; `input` when it passed its contract. */
  #refused(call: OpenCall, error: ToolError, input?: unknown): DeferredCall {
    return settledHandle(this.#pipeline.deny(call.record, error, call.watch, input), call.entry.name);
  }

  /** `CapabilityRuntime.forgetCall`. */
  async forget(callId: string): Promise<void> {
    const read = await this.#readStored(callId);
    if (read?.call.state === 'done') await guardStore(this.#replace(forgottenCall(read.call), ['done']), `call ${read.call.callId} could not be forgotten`);
  }

  /** `CapabilityRuntime.readCall`: the stored call, a running one whose lease ran out ended as `lease_expired` first. */
  async read<O = unknown>(callId: string): Promise<DeferredStatus<O> | undefined> {
    const read = await this.#readStored(callId);
    if (read === undefined) return undefined;
    const { tool, state, startedAt, expiresAt, outcome, finishedAt } = read.call;
    const status = { callId: read.call.callId, tool, state, startedAt, expiresAt, ...(read.updatedAt === undefined ? {} : { updatedAt: read.updatedAt }) };
    if (state === 'done') return { ...status, outcome: outcome!, finishedAt: finishedAt!, result: read.result as CallResult<O> };
    const open = [...read.questions].filter(([key]) => !read.answers.has(key));
    if (open.length === 0) return status;
    try {
      return { ...status, questions: Object.fromEntries(open.map(([key, question]) => [key, JSON.parse(question) as unknown])) };
    } catch (error) {
      throw storeUnavailable(`call ${read.call.callId} could not be read`, unreadableRecord(read.call.callId, `a question in it is not JSON (${describeThrown(error)})`));
    }
  }

  /** `CapabilityRuntime.askAsync`: stored with the call, asked again every poll until the store takes it. */
  ask(callId: string, key: string, question: unknown): Promise<unknown> {
    const open = this.#open.get(callId);
    if (open === undefined || open.handle.state !== 'running') return Promise.reject(new ToolError('unknown_call', `no deferred call ${quoted(callId)} runs on this replica to ask for: unknown, not running here, or already finished`));
    let text: string;
    try {
      text = JSON.stringify(question);
    } catch (error) {
      return Promise.reject(new ToolError('denied', `the question of call ${callId} is not JSON: ${describeThrown(error)}`));
    }
    open.questions ??= new OpenQuestions();
    const questions = open.questions;
    const answered = questions.ask(key);
    const put = async (): Promise<boolean> => {
      if (this.#open.get(callId) !== open || !questions.waits(key)) return true;
      try {
        // A call that ended meanwhile takes no question: the next poll hears how it ended.
        if (!(await this.#store().askCall(callId, key, text))) this.#poller.changedCall(callId);
        return true;
      } catch {
        return false;
      }
    };
    this.#poller.retryUntilDone(put);
    return answered.then((answer) => {
      try {
        return readJsonText(answer, false, this.#pipeline.limits);
      } catch (error) {
        throw new ToolError('store_unavailable', `the answer to call ${callId}'s question ${JSON.stringify(key)} cannot be read from the store: it is not JSON (${describeThrown(error)})`);
      }
    });
  }

  /** `CapabilityRuntime.answerAsync`. */
  async answer(callId: string, answers: Readonly<Record<string, unknown>>): Promise<DeferredAnswers> {
    const read = await this.#readStored(callId);
    if (read === undefined) throw new ToolError('unknown_call', `no deferred call ${quoted(callId)} to answer: unknown, or expired`);
    const texts = new Map<string, string>();
    for (const [key, answer] of Object.entries(answers)) {
      const text = JSON.stringify(answer);
      if (text === undefined) throw new ToolError('denied', `the answer under ${JSON.stringify(key)} is not JSON`);
      texts.set(key, text);
    }
    const outcomes = (state: StoredCallState, of: readonly AnswerOutcome[]): DeferredAnswers => ({ state, outcomes: new Map([...texts.keys()].map((key, index) => [key, of[index]!])) });
    // Nothing can be delivered to a call that is not running: the store is not written.
    if (read.call.state !== 'running')
      return outcomes(
        read.call.state,
        [...texts.keys()].map((key) => (read.answers.has(key) ? 'answered' : 'not-open')),
      );
    const receipt = await guardStore(this.#store().answerCall(read.call.callId, texts, this.#replicaId), `the answers to call ${read.call.callId} were not confirmed by the store: they may or may not be stored, and answering again reconciles`);
    if (receipt === undefined) throw new ToolError('unknown_call', `deferred call ${quoted(callId)} expired before it could be answered`);
    const delivered = new Map([...texts].filter((_, index) => receipt.outcomes[index] === 'delivered'));
    this.#open.get(read.call.callId)?.questions?.hear(delivered);
    return outcomes(receipt.state, receipt.outcomes);
  }

  /** `CapabilityRuntime.cancelAsync`. */
  async cancel(callId: string): Promise<CallResult> {
    const read = await this.#readStored(callId);
    if (read?.call.state === 'done' && read.call.outcome === 'cancelled') return read.result!;
    if (read === undefined || read.call.state === 'done') throw new ToolError('unknown_call', `no open deferred call ${quoted(callId)} to cancel: unknown, expired or already finished`);
    const stored = read.call;
    const result = callFailure(stored.callId, cancelledError(stored.callId, stored.tool));
    const givesBack = stored.state === 'pending' && stored.budgeted;
    const release = givesBack && this.#shared !== undefined;
    const replaced = await guardStore(this.#replace(doneCall(stored, result, 'cancelled'), [stored.state], release), `the cancellation of call ${stored.callId} was not confirmed by the store: it may or may not have taken effect, and cancelling again reconciles`);
    if (!replaced) return this.#reconcileEnd(stored.callId, undefined);
    if (givesBack && !release) this.#ledger.giveBack(stored.tool);
    const open = this.#open.get(stored.callId);
    if (open !== undefined) this.#closeStored(open, result, 'cancelled', 'elsewhere');
    return result;
  }

  #store(): RuntimeStore {
    this.#callStore ??= this.#shared ?? memoryStore();
    return this.#callStore;
  }

  /** `RuntimeStore.replaceCall`, written by this replica; `release` gives a pending call's budget back in the same step. */
  #replace(next: StoredCall, from: readonly StoredCallState[], release = false): Promise<boolean> {
    return this.#store().replaceCall(next, from, { release, by: this.#replicaId });
  }

  /** The stored call, with its result when done; rejects with `store_unavailable` when the store cannot answer or its record cannot be read. */
  async #readStored(callId: string): Promise<StoredRead | undefined> {
    if (typeof callId !== 'string') throw new ToolError('unknown_call', `no deferred call ${quoted(callId)}: a call id is a string`);
    // Longer than any id this runtime mints: nothing to ask the store for.
    if (callId.length > maxCallIdLength) return undefined;
    return guardStore(this.#readFromStore(callId), `call ${quoted(callId)} could not be read`);
  }

  /**
   * The stored call, a running one whose replica's lease has run out ended as `lease_expired`
   * first. Rejects as the store does: a `StoredRecordError` for a record that is no call.
   */
  async #readFromStore(callId: string): Promise<StoredRead | undefined> {
    const read = await this.#store().readCall(callId);
    if (read === undefined) return undefined;
    const stored = read.call;
    if (stored.state === 'done') return { ...read, result: storedResult(stored, this.#pipeline.limits) };
    if (stored.state !== 'running' || stored.owner === undefined || read.leaseHeld) return read;
    const error = new ToolError('lease_expired', `call ${stored.callId} to "${stored.tool}" was running on replica ${stored.owner}, whose lease on it has run out (the replica stopped, or lost the store): it may or may not have done its work`);
    const expired = doneCall(stored, callFailure(stored.callId, error));
    if (await this.#replace(expired, ['running'])) return { ...read, call: expired, result: storedResult(expired, this.#pipeline.limits) };
    return this.#readFromStore(callId);
  }

  /** Ends a pending deferred call with a peer's output or error (`completeAsync`, `failAsync`), wherever it was deferred. */
  async settlePending(callId: string, settlement: Settlement): Promise<CallResult> {
    const read = await this.#readStored(callId);
    if (read === undefined || read.call.state === 'running') throw new ToolError('unknown_call', `no pending deferred call ${quoted(callId)}: unknown, expired, not a protocol call, or already finished`);
    const stored = read.call;
    const entry = this.#tools.get(stored.tool);
    if (entry === undefined) throw new ToolError('unknown_tool', `call ${stored.callId} is for "${stored.tool}", which this runtime does not serve: end it where the tool is registered`);
    const result = this.#pipeline.verdict(entry, stored.callId, settlement);
    const end = doneCall(stored, result);
    if (stored.state === 'done') return this.#reconcileEnd(stored.callId, end, read);
    const replaced = await guardStore(this.#replace(end, ['pending']), `the end of call ${stored.callId} was not confirmed by the store: it may or may not be stored, and ending it again reconciles`);
    if (!replaced) return this.#reconcileEnd(stored.callId, end);
    const open = this.#open.get(stored.callId);
    if (open !== undefined) this.#closeStored(open, result);
    return result;
  }

  /**
   * A call ended before this end (or cancellation, `end` undefined) was stored: the stored result
   * when it says what this end says (a retry of one whose answer was lost), else `unknown_call`.
   */
  async #reconcileEnd(callId: string, end: StoredCall | undefined, read?: StoredRead): Promise<CallResult> {
    const now = read ?? (await this.#readStored(callId));
    if (now?.call.state === 'done' && (end === undefined ? now.call.outcome === 'cancelled' : sameEnd(now.call, end))) return now.result!;
    throw new ToolError('unknown_call', `deferred call ${quoted(callId)} was ended otherwise (${now === undefined ? 'it has expired' : now.call.state === 'done' ? now.call.outcome : now.call.state})`);
  }

  /**
   * A handler of `deferAsync` has settled on this replica: its result is stored unless the call
   * ended meanwhile (cancelled, or its lease taken as expired). A result the store does not confirm
   * is stored again every `pollMs` (it may have been stored: storing it again changes nothing),
   * until the store takes it, or the call is found ended elsewhere, or it expires.
   */
  async #endRunning(open: StoredOpenCall, settlement: Settlement): Promise<void> {
    if (this.#open.get(open.stored.callId) !== open) return;
    const result = this.#pipeline.verdict(open.entry, open.stored.callId, settlement);
    const end = doneCall(open.stored, result);
    this.#poller.retryUntilDone(async () => {
      if (this.#open.get(open.stored.callId) !== open) return true;
      let replaced: boolean;
      try {
        replaced = await this.#replace(end, ['running']);
      } catch (error) {
        // A record that is no call cannot take the result: that ends the call; a store away is asked again until the call expires.
        const lost = error instanceof StoredRecordError || Date.now() >= open.stored.expiresAt;
        if (lost) this.#closeStored(open, callFailure(open.stored.callId, storeUnavailable(`the result of call ${open.stored.callId} to "${open.entry.name}" could not be stored`, error)));
        return lost;
      }
      if (this.#open.get(open.stored.callId) !== open) return true;
      if (replaced) this.#closeStored(open, result);
      else await this.#adopt(open);
      return true;
    });
  }

  /**
   * Brings a call open here in line with the store: ended elsewhere (or expired from the store),
   * it closes with what the store says; running, its handler hears the answers given to its
   * questions. A store that cannot answer is asked again at the next poll; a record that is no call
   * ends the call here with `store_unavailable`, saying so.
   */
  async #adopt(open: StoredOpenCall): Promise<void> {
    const { callId } = open.stored;
    let read: StoredRead | undefined;
    try {
      read = await this.#readFromStore(callId);
    } catch (error) {
      if (this.#open.get(callId) !== open) return;
      if (error instanceof StoredRecordError) this.#closeStored(open, callFailure(callId, new ToolError('store_unavailable', error.message)), undefined, 'elsewhere');
      else this.#poller.changedCall(callId);
      return;
    }
    if (this.#open.get(callId) !== open) return;
    if (read?.call.state === 'running') open.questions?.hear(read.answers);
    if (read?.call.state === 'running' || read?.call.state === 'pending') return;
    const result = read === undefined ? callFailure(callId, new ToolError('cancelled', `call ${callId} to "${open.entry.name}" expired from the store before it ended`)) : read.result!;
    this.#closeStored(open, result, read === undefined || read.call.outcome === 'cancelled' ? 'cancelled' : undefined, 'elsewhere');
  }

  /**
   * Closes a call open here: its record, its handle, its questions, then, for a call its handler
   * did not end (`ended` is 'elsewhere': cancelled, or its lease taken as expired), its handler's signal.
   */
  #closeStored(open: StoredOpenCall, result: CallResult, outcome?: 'cancelled', ended: 'here' | 'elsewhere' = 'here'): void {
    this.#open.delete(open.stored.callId);
    open.release?.();
    this.#pipeline.closeResult(open, result, outcome);
    open.handle.settle(result);
    open.questions?.close(result.ok ? new ToolError('cancelled', `call ${open.stored.callId} ended before its question was answered`) : result.error);
    if (ended === 'elsewhere' && !result.ok) open.abort?.abort(result.error);
  }

  /**
   * A call whose opening the store did not confirm may stand in it all the same, its budget taken:
   * it is forgotten, its budget given back in the same step, as soon as the store answers (first at
   * once: on a store's one connection that lands after the opening). Its id was never handed out.
   */
  #forgetUnconfirmed(stored: StoredCall): void {
    const error = new ToolError('cancelled', `call ${stored.callId} to "${stored.tool}" was not stored`);
    const forgotten = forgottenCall(doneCall(stored, callFailure(stored.callId, error), 'cancelled'));
    this.#poller.retryUntilDone(async () => {
      try {
        await this.#replace(forgotten, [stored.state], stored.budgeted);
        return true;
      } catch {
        return Date.now() >= stored.expiresAt;
      }
    });
  }
}

/** `DeferOptions.ttlMs`, checked: a problem is described, never thrown. */
function readTtl(options: DeferOptions | undefined): number | undefined | string {
  let ttlMs: unknown;
  try {
    ttlMs = options?.ttlMs;
  } catch (error) {
    return `ttlMs could not be read: ${describeThrown(error)}`;
  }
  if (ttlMs === undefined || (Number.isSafeInteger(ttlMs) && (ttlMs as number) >= 1)) return ttlMs as number | undefined;
  return `ttlMs must be a whole number of milliseconds of at least 1, got ${describeThrown(ttlMs)}`;
}
