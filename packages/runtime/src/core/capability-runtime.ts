import { CallPipeline, peerFailure, quoted, settledHandle } from './call-pipeline.js';
import { Ledger } from './ledger.js';
import { type Handler, ToolRegistry } from './tool-registry.js';
import { OpenCalls } from './open-calls.js';
import { DeferredCalls } from './deferred-calls.js';
import type { RuntimeStore } from './store.js';
import { claimOnce } from './once-claims.js';
import type { CallOptions, CallRecord, CallResult, CatalogEntry, DeferOptions, DeferredAnswers, DeferredCall, DeferredStatus, Returned, RuntimeOptions, ToolRequest } from './runtime-types.js';
import { defaultEnvelopeLimits, type EnvelopeLimits } from './envelope.js';
import { ToolError } from './errors.js';
import { ToolMetadata, type ToolPolicy } from './policy.js';
import type { ToolContract } from './contract.js';
import { isAsyncFunction, type ContractSet, type HandlerMap } from './handler-map.js';
import { describeThrown } from '../support/describe-thrown.js';

export type { CallEnd, CallFailure, CallObserver, CallOptions, CallOutcome, CallRecord, CallResult, CallWatch, CatalogEntry, DeferOptions, DeferredAnswers, DeferredCall, DeferredState, DeferredStatus, Returned, RuntimeOptions, ToolRequest } from './runtime-types.js';
export { maxCallIdLength } from './ledger.js';

/**
 * Registers tools with their contracts and runs every call through one path (`call-pipeline.ts`), in this order:
 * JSON envelope of the input → input contract → reserve a call from the budget → handler →
 * output envelope → output contract → result. Rejected input is recorded as denied and reserves
 * nothing; a failing handler or an invalid output uses up the reserved call and is recorded as failed.
 */
export class CapabilityRuntime {
  readonly #tools = new ToolRegistry();
  readonly #ledger: Ledger;
  readonly #pipeline: CallPipeline;
  readonly #local: OpenCalls;
  readonly #deferred: DeferredCalls;
  /** The fleet's store, when there is one: where once-only keys are claimed. */
  readonly #store: RuntimeStore | undefined;

  constructor(options: RuntimeOptions = {}) {
    const limits = { ...defaultEnvelopeLimits, ...options.envelope };
    for (const [key, value] of Object.entries(limits)) {
      if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`envelope.${key} must be a whole number of at least 1, got ${String(value)}`);
    }
    const maxRecords = options.maxRecords ?? 1_000;
    if (!(Number.isSafeInteger(maxRecords) && maxRecords >= 0) && maxRecords !== Number.POSITIVE_INFINITY) {
      throw new RangeError(`maxRecords must be a whole number of at least 0 (0 keeps none) or Infinity, got ${String(options.maxRecords)}`);
    }
    if (options.onRecord !== undefined && typeof options.onRecord !== 'function') throw new RangeError('onRecord must be a function');
    if (options.observer !== undefined && typeof options.observer?.callStarted !== 'function') throw new RangeError('observer must have a callStarted method');
    const { store, replicaId, deferredTtlMs = 3_600_000, leaseMs = 30_000, pollMs = 1_000, maxDeferredCalls = 10_000 } = options;
    if (store !== undefined && (typeof store !== 'object' || store === null || typeof store.reserve !== 'function' || typeof store.openCall !== 'function')) throw new RangeError('store must be a RuntimeStore (memoryStore(), redisStore(), …)');
    if (replicaId !== undefined && (typeof replicaId !== 'string' || !/^[A-Za-z0-9_.:-]{1,64}$/.test(replicaId))) throw new RangeError(`replicaId must be 1 to 64 letters, digits or _.:-, got ${describeThrown(replicaId)}`);
    for (const [key, value] of Object.entries({ deferredTtlMs, leaseMs, pollMs })) {
      if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${key} must be a whole number of milliseconds of at least 1, got ${String(value)}`);
    }
    if (!Number.isSafeInteger(maxDeferredCalls) || maxDeferredCalls < 1) throw new RangeError(`maxDeferredCalls must be a whole number of at least 1, got ${String(maxDeferredCalls)}`);
    const resolvedReplicaId = replicaId ?? (store === undefined ? 'local' : randomReplicaId());
    // Without a store call ids stay as they were (`call-1`); with one they name the replica, so no two replicas mint the same.
    const callIdPrefix = store === undefined && replicaId === undefined ? 'call-' : `call-${resolvedReplicaId}-`;
    this.#ledger = new Ledger(this.#tools, { maxRecords, onRecord: options.onRecord, observer: options.observer, callIdPrefix, shared: store });
    this.#pipeline = new CallPipeline(this.#tools, this.#ledger, limits);
    this.#local = new OpenCalls(this.#pipeline, this.#ledger);
    this.#deferred = new DeferredCalls(this.#pipeline, this.#ledger, this.#tools, { shared: store, replicaId: resolvedReplicaId, deferredTtlMs, leaseMs, pollMs, maxDeferredCalls });
    this.#store = store;
  }

  // ---- registration

  /** The handler gets `{ tool, callId, input, signal, context }` and returns the output, or throws `ToolError.denied(…)`. */
  registerValidatedJsonTool<I, O, N extends string>(policy: ToolPolicy, metadata: ToolMetadata, contract: ToolContract<I, O, N>, handler: (request: ToolRequest<I>) => Returned<NoInfer<O>>): void {
    this.#tools.register(policy, metadata, contract, handler as Handler, isAsyncFunction(handler));
  }

  /** A tool served outside the process: calls go through `defer` and end with `complete` or `fail`. */
  registerValidatedProtocolJsonTool<I, O, N extends string>(policy: ToolPolicy, metadata: ToolMetadata, contract: ToolContract<I, O, N>): void {
    this.#tools.register(policy, metadata, contract, undefined, false);
  }

  /**
   * The handler takes the typed input (and the whole request, for its `signal` and `context`) and
   * returns the typed output; TypeScript checks both against the contract.
   */
  registerTypedJsonTool<I, O, N extends string>(policy: ToolPolicy, contract: ToolContract<I, O, N>, handler: (input: I, request: ToolRequest<I>) => Returned<NoInfer<O>>): void {
    this.registerTypedJsonToolWithMetadata(policy, ToolMetadata.of(contract.description), contract, handler);
  }

  registerTypedJsonToolWithMetadata<I, O, N extends string>(policy: ToolPolicy, metadata: ToolMetadata, contract: ToolContract<I, O, N>, handler: (input: I, request: ToolRequest<I>) => Returned<NoInfer<O>>): void {
    this.#tools.register(policy, metadata, contract, (request) => handler(request.input as I, request as ToolRequest<I>), isAsyncFunction(handler));
  }

  /**
   * Every tool of a contract set at once: `handlers` has exactly one entry per contract, under its
   * export name: `(input, request) => output`, `{ handler, budget?, metadata? }`, or
   * `{ protocol: true, budget?, metadata? }` for a tool served outside the process. TypeScript
   * rejects a missing or extra entry and a handler that does not fit its contract, at that entry;
   * at run time the whole map is checked first (entries, name clashes, tools already registered)
   * and a `RegistrationError` naming every problem leaves the runtime as it was.
   */
  registerAll<Cs extends ContractSet>(contracts: Cs, handlers: NoInfer<HandlerMap<Cs>>): void {
    this.#tools.registerAll(contracts, handlers);
  }

  // ---- calls

  /**
   * A synchronous call. Never throws, whatever the caller passes or the handler does: every
   * failure is a `ToolError` result. A handler known to be asynchronous is refused before it runs
   * (`asynchronous_handler`, nothing reserved): use `callAsync`.
   */
  call<O = unknown>(name: string, input: unknown, options?: CallOptions): CallResult<O> {
    return this.#pipeline.call(name, input, 'call', options);
  }

  /**
   * The one call for hosts: synchronous and asynchronous handlers alike, and protocol tools, whose
   * promise resolves when `complete`, `fail` or `cancel` ends the call. The same path, records and
   * budget rules as `call`; the promise never rejects.
   */
  callAsync<O = unknown>(name: string, input: unknown, options?: CallOptions): Promise<CallResult<O>> {
    const started = this.#pipeline.start(name, input, options, 'callAsync');
    return (started.ok ? this.#local.run(started.call) : Promise.resolve(started)) as Promise<CallResult<O>>;
  }

  /**
   * A call with JSON text in and JSON text out. A name no tool has is `unknown_tool`, its text
   * unread; malformed JSON, or anything but a string, is denied as `invalid_json`; like `call`, it
   * never throws.
   */
  callJson(name: string, inputJson: string, callOptions?: CallOptions): CallResult<string> {
    return this.#pipeline.callJson(name, inputJson, callOptions);
  }

  /**
   * A deferred call. The input is checked and a call reserved at once; a handler tool then waits
   * for `pump()`, a protocol tool for `complete()` or `fail()`. A rejected call settles at once.
   */
  defer<O = unknown>(name: string, input: unknown, options?: CallOptions): DeferredCall<O> {
    const started = this.#pipeline.start(name, input, options, 'defer');
    return (started.ok ? this.#local.defer(started.call) : settledHandle(started, name)) as DeferredCall<O>;
  }

  /**
   * Runs queued calls in the order they were deferred, at most `limit` of them (default: until
   * the queue is empty, including calls deferred meanwhile). Synchronous handlers finish within
   * `pump`; asynchronous ones settle their handle later. Returns how many calls it started.
   */
  pump(limit = Number.POSITIVE_INFINITY): number {
    return this.#local.pump(limit);
  }

  /** Completes a pending protocol call; its output is held to the envelope and the output contract. */
  complete(callId: string, output: unknown): CallResult {
    return this.#local.settlePending(callId, { output });
  }

  /** Ends a pending protocol call with an error (a `denied` error is recorded as denied). */
  fail(callId: string, error: ToolError | string): CallResult {
    return this.#local.settlePending(callId, peerFailure(error));
  }

  /**
   * Cancels a call of `callAsync` or `defer` and settles it at once as `cancelled`. A queued or
   * pending call gives its reserved call back to the budget. A running call's handler sees
   * `request.signal` aborted; it has run, so its reserved call stays used, and whatever it returns
   * later is dropped. A synchronous `call` is never open: it ends before anything else runs.
   */
  cancel(callId: string): CallResult {
    return this.#local.cancel(callId);
  }

  /**
   * Ends a running call of `callAsync`, `defer` or `deferAsync` (running here) without an output because its handler waits for
   * something its host must fetch first and will call again with (MCP 2026-07-28's
   * `input_required`: the client answers, retries, and the handler runs again from the top). The
   * call gives its reserved call back and leaves no record: the round that ends the logical call
   * pays for it and records it, so one logical call costs one call of the budget and one record
   * however many rounds it takes. Its handle settles as `suspended`; then the handler's signal is
   * aborted with that error, and whatever it returns later is dropped. Throws `unknown_call` for a
   * call that is not running.
   */
  suspend(callId: string): CallResult {
    const suspended = this.#local.suspend(callId) ?? this.#deferred.suspend(callId);
    if (suspended === undefined) throw new ToolError('unknown_call', `no running call ${quoted(callId)} to suspend: unknown, not started, or already finished`);
    return suspended;
  }

  // ---- deferred calls any replica can read and end

  /**
   * A deferred call that outlives its request, kept in the store where every replica sharing it
   * can read it (`readCall`) and end it (`completeAsync`, `failAsync`, `cancelAsync`) by its call
   * id: what an MCP task is made of. The input is checked and the call reserved (through the store,
   * with the call's record, in one step), then stored; the promise resolves once the store holds it,
   * so its `callId` can be handed out. A handler tool runs at once on this replica (not queued for
   * `pump`), under this replica's lease, which it renews every `pollMs`; a protocol tool is
   * `pending` until some replica completes it. A refused call resolves with a handle already
   * settled (`state: 'done'`): `budget_exhausted`, `store_unavailable` (nothing is stored: a record
   * the store may have taken is forgotten, its budget given back, once it answers), `denied` when
   * this replica holds `maxDeferredCalls` open already, and so on. The handle's `result` settles on
   * this replica when the call ends here, or when this replica hears that it ended elsewhere
   * (within `pollMs`). A call whose caller aborts `options.signal` is cancelled as `cancelAsync` does.
   */
  deferAsync<O = unknown>(name: string, input: unknown, options?: DeferOptions): Promise<DeferredCall<O>> {
    return this.#deferred.defer<O>(name, input, options);
  }

  /**
   * Lets the store forget a finished call of `deferAsync` whose id was never handed out (an MCP
   * call of a task tool that ended in its first turn and was answered with its plain result), so
   * that it is not kept, output and all, for its whole `ttlMs`. A call not yet done is left alone.
   */
  forgetCall(callId: string): Promise<void> {
    return this.#deferred.forget(callId);
  }

  /**
   * A deferred call of `deferAsync` as the store holds it, read from any replica: its state, the
   * questions its handler waits on (`askAsync`), and its result once done (the output parsed from
   * the stored JSON text, every digit kept for an exact-mode tool). A running call whose replica's
   * lease has run out is ended here as failed with `lease_expired` (its replica died, or lost the
   * store). Undefined for an unknown or expired call; rejects with a `ToolError`
   * `store_unavailable` when the store cannot answer, or holds a record under the id that is no call.
   */
  readCall<O = unknown>(callId: string): Promise<DeferredStatus<O> | undefined> {
    return this.#deferred.read<O>(callId);
  }

  /**
   * Asks a question for a running call of `deferAsync` whose handler runs on this replica
   * (`question`, JSON data, under `key`): it is stored with the call, where every replica reads it
   * (`readCall`'s `questions`) and any replica answers it (`answerAsync`). Resolves with the
   * answer, parsed from its JSON text, once it is given, wherever it is given (this replica hears
   * of it within its `pollMs`); rejects with why the call ended, if it ends first. A question the
   * store did not take is asked again every `pollMs` while the call runs. What an MCP task's handler
   * asks (`mcpElicit` and the other helpers) once the call has become a task.
   */
  askAsync(callId: string, key: string, question: unknown): Promise<unknown> {
    return this.#deferred.ask(callId, key, question);
  }

  /**
   * Answers the questions of a running call of `deferAsync` from any replica (`answers`, JSON data
   * by the keys they were asked under): stored with the call at once, and heard by the replica that
   * runs its handler within its `pollMs` (at once when that is this one). Resolves with the call's
   * state and, for each key, what became of its answer: `delivered`; `answered` (the question had
   * its answer already, which stands: answering again is harmless); or `not-open` (no question open
   * under the key: never asked, or the call is not running). Rejects with a `ToolError`
   * `unknown_call` (unknown or expired) or `store_unavailable` (the answers may or may not be
   * stored: answering again reconciles).
   */
  answerAsync(callId: string, answers: Readonly<Record<string, unknown>>): Promise<DeferredAnswers> {
    return this.#deferred.answer(callId, answers);
  }

  /**
   * Completes a pending protocol call of `deferAsync` from any replica that has its tool
   * registered. The output passes the output envelope and contract here first: one that breaks them
   * ends the call failed (`invalid_output`), stored and recorded so, never delivered. Resolves with
   * the call's result (what its caller gets); a call already ended with this same end (a retry of a
   * completion whose answer was lost) resolves with the stored result. Rejects with a `ToolError`:
   * `unknown_call` (unknown, expired, not pending, or ended otherwise), `unknown_tool` (not
   * registered here), or `store_unavailable` (the store did not confirm the end: it may or may not
   * be stored, and completing it again reconciles).
   */
  completeAsync(callId: string, output: unknown): Promise<CallResult> {
    return this.#deferred.settlePending(callId, { output });
  }

  /** Ends a pending protocol call of `deferAsync` with an error from any replica (a `denied` error is recorded as denied); resolves and rejects as `completeAsync` does. */
  failAsync(callId: string, error: ToolError | string): Promise<CallResult> {
    return this.#deferred.settlePending(callId, peerFailure(error));
  }

  /**
   * Cancels a call of `deferAsync` from any replica: it is stored as done and `cancelled` at once,
   * and a pending call gives its reserved call back to the budget in the same step. A running
   * call's handler sees its `request.signal` aborted (on the replica that runs it, within its
   * `pollMs`); it has run, so its reserved call stays used and whatever it returns later is dropped.
   * Resolves with the cancelled result, also for a call cancelled already (a retry of a cancellation
   * whose answer was lost); rejects with a `ToolError` `unknown_call` (unknown, expired or ended
   * otherwise) or `store_unavailable` (the store did not confirm it: cancelling again reconciles).
   */
  cancelAsync(callId: string): Promise<CallResult> {
    return this.#deferred.cancel(callId);
  }

  /**
   * Claims `key` once, until `expiresAt` (ms since the epoch), across every runtime sharing the
   * store: true for the first claim. Without a store nothing is shared and every claim is granted.
   * Rejects with a `ToolError` `store_unavailable` when the store cannot answer (a claim it may have
   * taken is given back once it answers). The MCP adapters claim each sealed `requestState` this
   * way, so a state continues one retry only.
   */
  claimOnce(key: string, expiresAt: number): Promise<boolean> {
    return claimOnce(this.#store, key, expiresAt);
  }

  /** How many more calls a tool may complete, through the store when there is one; undefined when unlimited or unknown. Rejects with `store_unavailable`. */
  remainingCallsAsync(name: string): Promise<number | undefined> {
    return this.#ledger.remainingShared(name);
  }

  // ---- what the host can see

  records(): CallRecord[] {
    return this.#ledger.records();
  }

  /**
   * Changes whenever the catalog does (a tool is registered), so that a host rebuilds what it
   * derives from `catalog()` only then: `catalog()` copies every schema.
   */
  get catalogRevision(): number {
    return this.#tools.revision;
  }

  /**
   * Every tool with its contract's schemas (copies, never shared objects), sorted by name. The
   * schemas are JSON Schema as a host takes JS values: an exact-mode bound no double holds is a
   * double on the safe side, never looser than the contract, which the runtime enforces exactly
   * (`hostJsonSchema`: an input schema as a host fills it in, an output schema as it checks what
   * it receives).
   */
  catalog(): CatalogEntry[] {
    return this.#tools.catalog();
  }

  /** The envelope limits every call is held to (`RuntimeOptions.envelope` over the defaults): adapters parse arguments within them. */
  get envelopeLimits(): EnvelopeLimits {
    return { ...this.#pipeline.limits };
  }

  /** How many more calls a tool may complete; undefined when unlimited. With a store the budget is kept there: this answers the whole budget, `remainingCallsAsync` what is left. */
  remainingCalls(name: string): number | undefined {
    return this.#tools.get(name)?.remaining;
  }
}

/** Eight random base-36 characters: enough that two replicas never pick the same by chance. */
function randomReplicaId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) => (byte % 36).toString(36)).join('');
}
