import { copyContent, splitContent, type ContentBlock, type OutputWithContent } from './content.js';
import type { ToolContract, ValidationIssue } from './contract.js';
import { copyEnvelope, defaultEnvelopeLimits, readJsonText, whyNotEnvelope, type EnvelopeLimits } from './envelope.js';
import { describeThrown } from '../support/describe-thrown.js';
import { describeNames, inputMismatch, outputMismatch, RegistrationError, ToolError, toolErrorCodes, type ToolErrorCode } from './errors.js';
import { isAsyncFunction, planHandlerMap, type ContractSet, type HandlerMap } from './handler-map.js';
import { standingFor, stringifyJson } from './json.js';
import { hostJsonSchema } from '../support/host-json-schema.js';
import { ToolMetadata, type ToolPolicy } from './policy.js';
import { memoryStore, StoredRecordError, type AnswerOutcome, type RuntimeStore, type StoredCall, type StoredCallRead, type StoredCallState, type StoredOutcome } from './store.js';
import { CallPoller } from './call-poller.js';
import { doneCall, OpenQuestions, sameEnd, storedResult } from './stored-calls.js';

export interface ToolRequest<I> {
  readonly tool: string;
  readonly callId: string;
  readonly input: I;
  /**
   * Aborted when the call is cancelled (`runtime.cancel(callId)`, or the host's own cancellation
   * through `CallOptions.signal`); its reason is the `cancelled` ToolError. Whatever the handler
   * returns after that is dropped.
   */
  readonly signal: AbortSignal;
  /** What the host adapter handed over with the call (`CallOptions.context`); undefined for a direct call. Each adapter has a typed accessor. */
  readonly context: unknown;
}

/**
 * What a handler gives back: its output, or its output with content blocks (`withContent`), now or
 * as a promise. One promise form only: tsc explains a mismatch through the first member of the
 * union of the same kind (a promise for a promise), and then chooses within `O | OutputWithContent<O>`
 * as it does for a synchronous handler, so an async handler's error ends at the field too (with
 * `Promise<O>` listed first, an async `withContent` ended at "property missing in OutputWithContent").
 */
export type Returned<O> = O | OutputWithContent<O> | Promise<O | OutputWithContent<O>>;

/** What a host passes with a call beside its input. */
export interface CallOptions {
  /** The host's own cancellation: aborting it cancels the call as `runtime.cancel(callId)` does. */
  readonly signal?: AbortSignal | undefined;
  /** Handed to the handler as `request.context`, untouched (the MCP request, the AI SDK's tool-call options, …). */
  readonly context?: unknown;
  /**
   * The host refuses this call for a reason of its own protocol (MCP: a forged or expired
   * `requestState`): once the tool is known, the call is recorded as denied with this error and
   * returns it; nothing is validated, reserved or run.
   */
  readonly refusal?: ToolError | undefined;
}

export type CallFailure = { readonly ok: false; readonly callId: string; readonly error: ToolError };
/** `content`: the blocks a handler returned with `withContent`, checked and copied; absent when it returned none. */
export type CallResult<O = unknown> = { readonly ok: true; readonly callId: string; readonly output: O; readonly content?: readonly ContentBlock[] } | CallFailure;

export type CallOutcome = 'completed' | 'denied' | 'failed' | 'pending' | 'cancelled';

/** An audit line for one call, kept whatever happened to it. */
export interface CallRecord {
  readonly tool: string;
  readonly callId: string;
  readonly outcome: CallOutcome;
  readonly errorCode?: ToolErrorCode;
  /** Milliseconds since the epoch. */
  readonly startedAt: number;
  readonly finishedAt?: number;
  readonly durationMs?: number;
}

export type DeferredState = 'queued' | 'running' | 'pending' | 'done';

export interface DeferredCall<O = unknown> {
  readonly callId: string;
  readonly tool: string;
  /** queued: waits for `pump()`; running: an async handler works; pending: waits for `complete`/`fail`. */
  readonly state: DeferredState;
  readonly result: Promise<CallResult<O>>;
}

export interface CatalogEntry {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema: Record<string, unknown>;
  /** The contract keeps every digit of a number (`--exact-numbers`): JSON text for it must be parsed with `parseJson(text, { exactNumbers: true })`. */
  readonly exactNumbers: boolean;
  /** Prompt-only schemas from `ToolMetadata`: shown to models, never used to validate. */
  readonly promptInputSchema?: Record<string, unknown>;
  readonly promptOutputSchema?: Record<string, unknown>;
}

export interface RuntimeOptions {
  /** Positive whole numbers; invalid values throw a RangeError at construction. */
  readonly envelope?: Partial<EnvelopeLimits>;
  /** How many of the latest records `records()` keeps (default 1,000; 0 keeps none, Infinity all); `onRecord` hears them all. */
  readonly maxRecords?: number;
  /** Called with every record as it is created or reaches its outcome. What it throws is ignored: a call's outcome never depends on it. */
  readonly onRecord?: (record: CallRecord) => void;
  /**
   * Watches every call from its start to its final record, with what the host handed over
   * (`otelCallObserver()` of `@json-tool-contracts/runtime/otel` turns calls into spans and
   * metrics). Unset, it costs nothing; whatever it throws is ignored, as for `onRecord`.
   */
  readonly observer?: CallObserver;
  /**
   * What this runtime shares with the other replicas of its server (`redisStore()` of
   * `@json-tool-contracts/runtime/redis`, or `memoryStore()` for runtimes of one process): budget
   * reservations, deferred calls (`deferAsync`) with their leases and results, and the once-only
   * claims of sealed `requestState`. Unset, all of it stays in this runtime's memory, as before.
   * With a store, a budgeted tool is reserved through it, so `call`, `callJson` and `defer` refuse a
   * budgeted tool with `asynchronous_store` (use `callAsync` or `deferAsync`); a store that cannot
   * answer denies the call with `store_unavailable`, never allowing it.
   */
  readonly store?: RuntimeStore;
  /** Names this replica in its call ids (`call-<replicaId>-<n>`, unique across a fleet; a `deferAsync` call's id ends in 128 random bits) and in the leases it holds; with a store, random unless given. */
  readonly replicaId?: string;
  /** How long a deferred call of `deferAsync` is kept, from its start, in milliseconds (default 3,600,000: an hour); `DeferOptions.ttlMs` sets it per call. */
  readonly deferredTtlMs?: number;
  /**
   * With a store: how long a replica's lease on the deferred calls whose handlers it runs lasts
   * unrenewed, in milliseconds (default 30,000). The replica renews it every `pollMs`, one round trip
   * for all of them; once it has passed (the replica died or lost the store), its running calls read
   * everywhere as failed with `lease_expired`.
   */
  readonly leaseMs?: number;
  /** With a store: how often, in milliseconds, a replica renews its lease and hears which of its deferred calls were ended or answered elsewhere (default 1,000): one round trip however many are open. */
  readonly pollMs?: number;
  /**
   * How many calls of `deferAsync` this replica holds open at once (their handlers running here, or
   * their callers waiting here), default 10,000; one more is denied ("this replica holds … open
   * deferred calls, the most it keeps"), so that open MCP tasks cannot take the process's memory.
   */
  readonly maxDeferredCalls?: number;
}

/** What `deferAsync` takes beside the options of any call. */
export interface DeferOptions extends CallOptions {
  /** How long the call is kept from its start, in milliseconds, instead of `RuntimeOptions.deferredTtlMs` (an MCP task's requested `ttl`). */
  readonly ttlMs?: number | undefined;
}

/**
 * A deferred call of `deferAsync` as any replica sharing the store reads it (`readCall`).
 * running: its handler works on some replica under a lease; pending: a protocol call waits for
 * `completeAsync`/`failAsync`; done: `result` is what its caller gets.
 */
export interface DeferredStatus<O = unknown> {
  readonly callId: string;
  readonly tool: string;
  readonly state: StoredCallState;
  /** Milliseconds since the epoch. */
  readonly startedAt: number;
  /** When the store forgets the call, ms since the epoch. */
  readonly expiresAt: number;
  /** When a question was last asked or answered, ms since the epoch. */
  readonly updatedAt?: number;
  /** running: the questions its handler waits on (`askAsync`), by key, each as it was asked; absent when none is open. */
  readonly questions?: Readonly<Record<string, unknown>>;
  /** done: */
  readonly outcome?: StoredOutcome;
  readonly finishedAt?: number;
  readonly result?: CallResult<O>;
}

/** What `answerAsync` did: the call's state, and what became of each answer, by its key. */
export interface DeferredAnswers {
  readonly state: StoredCallState;
  readonly outcomes: ReadonlyMap<string, AnswerOutcome>;
}

/** Hears each call as it starts; what it returns watches that one call until its record is final. */
export interface CallObserver {
  /**
   * A call has started: its record (`pending`) and the host's `CallOptions.context` (the MCP
   * request, the AI SDK's call options, …). Returns what watches this call, or undefined to leave it.
   */
  callStarted(record: CallRecord, context: unknown): CallWatch | undefined;
}

/** One call, watched from its start until its record is final. Every method is called at most once. */
export interface CallWatch {
  /**
   * Runs the call's handler (for instance with the call's span as the active context): must call
   * `run` and return what it returns. `input` is the validated copy the handler is about to get.
   */
  runHandler?<T>(run: () => T, input: unknown): T;
  /** A protocol call is handed to the outside, where `complete`, `fail` or `cancel` will end it. */
  handedOff?(record: CallRecord): void;
  /** The call's record is final. */
  ended(record: CallRecord, end: CallEnd): void;
}

/** How a watched call ended, beside its record. */
export interface CallEnd {
  /** Why it did not complete. */
  readonly error?: ToolError | undefined;
  /** The validated copy of the input (which a handler may since have changed); absent when the input was refused. */
  readonly input?: unknown;
  /** The validated copy of the output the caller got; only for a completed call. */
  readonly output?: unknown;
}

type AnyContract = ToolContract<unknown, unknown>;
/** How a handler or a protocol peer ended a call. */
type Settlement = { readonly output: unknown } | { readonly error: ToolError };
type Handler = (request: ToolRequest<unknown>) => unknown;
/** The call's options as read once at its start; reading a hostile options object never throws out of a call. */
type CallSetting = { readonly signal: AbortSignal | undefined; readonly context: unknown; readonly refusal?: ToolError | undefined };

interface ToolEntry {
  readonly name: string;
  readonly metadata: ToolMetadata;
  readonly contract: AnyContract;
  /** Absent for protocol tools, which are completed from outside. */
  readonly handler?: Handler;
  /** Known to return promises (an async function, or one that returned a promise once): `call` refuses it before running it. */
  asynchronous: boolean;
  /** The policy's call budget; undefined is unlimited. */
  readonly budget: number | undefined;
  /** Calls left; undefined is unlimited. With a store the budget is kept there and this stays at the budget. */
  remaining: number | undefined;
}

type MutableRecord = { -readonly [K in keyof CallRecord]: CallRecord[K] };

interface OpenCall {
  readonly entry: ToolEntry;
  readonly record: MutableRecord;
  readonly input: unknown;
  readonly setting: CallSetting;
  /** The observer's watch over this call; undefined without an observer. */
  readonly watch: CallWatch | undefined;
  /** Made when the handler first reads `request.signal`, or when the call is cancelled: most calls never need one. */
  abort?: AbortController;
  /** Removes the listener on the host's signal when the call ends. */
  release?: () => void;
}

/** A deferred call while it is queued, running or pending. */
interface DeferredOpenCall extends OpenCall {
  readonly handle: MutableHandle;
}

interface MutableHandle extends DeferredCall {
  state: DeferredState;
  settle(result: CallResult): void;
}

/** A call of `deferAsync` open on this replica: its handler runs here, or its caller here waits for it. */
interface StoredOpenCall extends DeferredOpenCall {
  readonly stored: StoredCall;
  /** The questions its handler waits on; made on the first. */
  questions?: OpenQuestions;
}

/** A stored call as read, with its caller's result once it is done. */
interface StoredRead extends StoredCallRead {
  readonly result?: CallResult;
}

/**
 * Registers tools with their contracts and runs every call through one path, in this order:
 * JSON envelope of the input → input contract → reserve a call from the budget → handler →
 * output envelope → output contract → result. Rejected input is recorded as denied and reserves
 * nothing; a failing handler or an invalid output uses up the reserved call and is recorded as failed.
 */
export class CapabilityRuntime {
  private readonly tools = new Map<string, ToolEntry>();
  private callRecords: MutableRecord[] = [];
  private readonly maxRecords: number;
  private readonly queue: DeferredOpenCall[] = [];
  private readonly open = new Map<string, DeferredOpenCall>();
  private readonly limits: EnvelopeLimits;
  private readonly observer: CallObserver | undefined;
  private nextCallId = 1;
  private revision = 0;
  /** The fleet's store; undefined keeps everything in this runtime. */
  private readonly shared: RuntimeStore | undefined;
  /** Where `deferAsync` keeps its calls: the fleet's store, or one of this runtime's own, made on first use. */
  private ownStore: RuntimeStore | undefined;
  private readonly callIdPrefix: string;
  private readonly replicaId: string;
  private readonly deferredTtlMs: number;
  private readonly leaseMs: number;
  private readonly maxDeferredCalls: number;
  private readonly storedCalls = new Map<string, StoredOpenCall>();
  private readonly poller: CallPoller;

  constructor(private readonly options: RuntimeOptions = {}) {
    this.limits = { ...defaultEnvelopeLimits, ...options.envelope };
    for (const [key, value] of Object.entries(this.limits)) {
      if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`envelope.${key} must be a whole number of at least 1, got ${String(value)}`);
    }
    this.maxRecords = options.maxRecords ?? 1_000;
    if (!(Number.isSafeInteger(this.maxRecords) && this.maxRecords >= 0) && this.maxRecords !== Number.POSITIVE_INFINITY) {
      throw new RangeError(`maxRecords must be a whole number of at least 0 (0 keeps none) or Infinity, got ${String(options.maxRecords)}`);
    }
    if (options.onRecord !== undefined && typeof options.onRecord !== 'function') throw new RangeError('onRecord must be a function');
    if (options.observer !== undefined && typeof options.observer?.callStarted !== 'function') throw new RangeError('observer must have a callStarted method');
    this.observer = options.observer;
    const { store, replicaId, deferredTtlMs = 3_600_000, leaseMs = 30_000, pollMs = 1_000, maxDeferredCalls = 10_000 } = options;
    if (store !== undefined && (typeof store !== 'object' || store === null || typeof store.reserve !== 'function' || typeof store.openCall !== 'function')) throw new RangeError('store must be a RuntimeStore (memoryStore(), redisStore(), …)');
    if (replicaId !== undefined && (typeof replicaId !== 'string' || !/^[A-Za-z0-9_.:-]{1,64}$/.test(replicaId))) throw new RangeError(`replicaId must be 1 to 64 letters, digits or _.:-, got ${describeThrown(replicaId)}`);
    for (const [key, value] of Object.entries({ deferredTtlMs, leaseMs, pollMs })) {
      if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${key} must be a whole number of milliseconds of at least 1, got ${String(value)}`);
    }
    if (!Number.isSafeInteger(maxDeferredCalls) || maxDeferredCalls < 1) throw new RangeError(`maxDeferredCalls must be a whole number of at least 1, got ${String(maxDeferredCalls)}`);
    this.maxDeferredCalls = maxDeferredCalls;
    this.shared = store;
    this.replicaId = replicaId ?? (store === undefined ? 'local' : randomReplicaId());
    // Without a store call ids stay as they were (`call-1`); with one they name the replica, so no two replicas mint the same.
    this.callIdPrefix = store === undefined && replicaId === undefined ? 'call-' : `call-${this.replicaId}-`;
    this.deferredTtlMs = deferredTtlMs;
    this.leaseMs = leaseMs;
    this.poller = new CallPoller(pollMs, {
      open: this.storedCalls,
      keepLease: store === undefined ? undefined : (since) => store.keepLease(this.replicaId, leaseMs, since),
      adopt: async (callId) => {
        const open = this.storedCalls.get(callId);
        if (open !== undefined) await this.adopt(open);
      },
    });
  }

  // ---- registration

  /** The handler gets `{ tool, callId, input, signal, context }` and returns the output, or throws `ToolError.denied(…)`. */
  registerValidatedJsonTool<I, O, N extends string>(policy: ToolPolicy, metadata: ToolMetadata, contract: ToolContract<I, O, N>, handler: (request: ToolRequest<I>) => Returned<NoInfer<O>>): void {
    this.register(policy, metadata, contract, handler as Handler, isAsyncFunction(handler));
  }

  /** A tool served outside the process: calls go through `defer` and end with `complete` or `fail`. */
  registerValidatedProtocolJsonTool<I, O, N extends string>(policy: ToolPolicy, metadata: ToolMetadata, contract: ToolContract<I, O, N>): void {
    this.register(policy, metadata, contract, undefined, false);
  }

  /**
   * The handler takes the typed input (and the whole request, for its `signal` and `context`) and
   * returns the typed output; TypeScript checks both against the contract.
   */
  registerTypedJsonTool<I, O, N extends string>(policy: ToolPolicy, contract: ToolContract<I, O, N>, handler: (input: I, request: ToolRequest<I>) => Returned<NoInfer<O>>): void {
    this.registerTypedJsonToolWithMetadata(policy, ToolMetadata.of(contract.description), contract, handler);
  }

  registerTypedJsonToolWithMetadata<I, O, N extends string>(policy: ToolPolicy, metadata: ToolMetadata, contract: ToolContract<I, O, N>, handler: (input: I, request: ToolRequest<I>) => Returned<NoInfer<O>>): void {
    this.register(policy, metadata, contract, (request) => handler(request.input as I, request as ToolRequest<I>), isAsyncFunction(handler));
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
    const planned = planHandlerMap(contracts, handlers, (name) => this.tools.has(name));
    const registered: string[] = [];
    try {
      for (const tool of planned) {
        this.register(tool.policy, tool.metadata, tool.contract, tool.handler, tool.asynchronous);
        registered.push(tool.policy.name);
      }
    } catch (error) {
      // A contract whose getters answer differently the second time: the tools of this map registered so far go again.
      for (const name of registered) this.tools.delete(name);
      this.revision++;
      throw new RegistrationError(`registerAll registered nothing: ${error instanceof RegistrationError ? error.message : `a contract cannot be read (a getter or proxy threw): ${describeThrown(error)}`}`);
    }
  }

  private register(policy: ToolPolicy, metadata: ToolMetadata, contract: AnyContract, handler: Handler | undefined, asynchronous: boolean): void {
    if (policy.name !== contract.name) throw new RegistrationError(`policy names the tool "${policy.name}" but its contract is for "${contract.name}"`);
    if (this.tools.has(policy.name)) throw new RegistrationError(`tool "${policy.name}" is already registered`);
    const entry: ToolEntry = { name: policy.name, metadata, contract, asynchronous, budget: policy.callBudget, remaining: policy.callBudget };
    this.tools.set(policy.name, handler === undefined ? entry : { ...entry, handler });
    this.revision++;
  }

  // ---- calls

  /**
   * A synchronous call. Never throws, whatever the caller passes or the handler does: every
   * failure is a `ToolError` result. A handler known to be asynchronous is refused before it runs
   * (`asynchronous_handler`, nothing reserved): use `callAsync`.
   */
  call<O = unknown>(name: string, input: unknown, options?: CallOptions): CallResult<O> {
    return this.callWith(name, input, false, options);
  }

  private callWith<O>(name: string, input: unknown, parsedFromJson: boolean, options: CallOptions | undefined): CallResult<O> {
    const started = this.start(name, input, false, parsedFromJson, options);
    if (!started.ok) return started;
    const call = started.call;
    const outcome = call.watch === undefined ? runHandler(call) : runWatched(call, call.watch);
    // Only the handler itself can abort the host's signal while a synchronous call runs; it ran, so its call stays used.
    if (isAborted(call.setting.signal)) {
      if ('awaited' in outcome) settleThenable(outcome.awaited, () => undefined);
      return this.closeCancelled(call, `call ${call.record.callId} to "${call.entry.name}" was cancelled while its handler ran`) as CallResult<O>;
    }
    if ('awaited' in outcome) {
      // It ran, so the reserved call stays used; from now on `call` refuses it before it runs.
      call.entry.asynchronous = true;
      settleThenable(outcome.awaited, () => undefined);
      return this.finish(call, { error: new ToolError('handler_failed', `the handler of "${call.entry.name}" returned a promise: call it with callAsync()`) }) as CallResult<O>;
    }
    return this.finish(call, outcome) as CallResult<O>;
  }

  /**
   * The one call for hosts: synchronous and asynchronous handlers alike, and protocol tools, whose
   * promise resolves when `complete`, `fail` or `cancel` ends the call. The same path, records and
   * budget rules as `call`; the promise never rejects.
   */
  callAsync<O = unknown>(name: string, input: unknown, options?: CallOptions): Promise<CallResult<O>> {
    const started = this.start(name, input, true, false, options, 'awaited');
    if (!started.ok) return Promise.resolve(started);
    if (this.shared !== undefined && started.call.entry.budget !== undefined) return this.reserveThenRun(started.call) as Promise<CallResult<O>>;
    return this.runNow(started.call) as Promise<CallResult<O>>;
  }

  private runNow(started: OpenCall): Promise<CallResult> {
    const handle = newHandle(started.record.callId, started.entry.name);
    const call = this.openDeferred(started, handle);
    if (call !== undefined) this.run(call);
    return handle.result;
  }

  /** A budgeted call under a store: one reservation through it (one round trip), then the call runs as any other. */
  private async reserveThenRun(call: OpenCall): Promise<CallResult> {
    const refusal = await this.reserveShared(call.entry);
    if (refusal !== undefined) return this.deny(call.record, refusal, call.watch, call.input);
    if (isAborted(call.setting.signal)) {
      this.giveBack(call.entry.name);
      return this.closeCancelled(call, `call ${call.record.callId} to "${call.entry.name}" was cancelled before it started`);
    }
    return this.runNow(call);
  }

  /** Reserves a call of a budgeted tool through the store: undefined when reserved, else why not. */
  private async reserveShared(entry: ToolEntry): Promise<ToolError | undefined> {
    try {
      return (await this.shared!.reserve(entry.name, entry.budget!)) ? undefined : budgetExhausted(entry.name);
    } catch (error) {
      return storeUnavailable(`no call of "${entry.name}"'s budget could be reserved`, error);
    }
  }

  /** Gives a reserved call back; through a store it is best effort: a release that does not reach it leaves the call used (fail closed). */
  private giveBack(tool: string): void {
    const entry = this.tools.get(tool);
    if (this.shared === undefined) {
      if (entry?.remaining !== undefined) entry.remaining++;
    } else if (entry === undefined || entry.budget !== undefined) {
      this.shared.release(tool).catch(() => undefined);
    }
  }

  /**
   * A call with JSON text in and JSON text out. A name no tool has is `unknown_tool`, its text
   * unread; malformed JSON, or anything but a string, is denied as `invalid_json`; like `call`, it
   * never throws.
   */
  callJson(name: string, inputJson: string, callOptions?: CallOptions): CallResult<string> {
    const entry = typeof name === 'string' ? this.tools.get(name) : undefined;
    // No tool, no text to read: `unknown_tool` as with `call`, so a made-up name never passes for a tool's (in records, spans, metrics).
    if (entry === undefined) return this.callWith<string>(name, undefined, true, callOptions);
    const exactNumbers = entry.contract.exactNumbers;
    let input: unknown;
    try {
      // Never JSON.parse of a non-string: it would run the value's own toString.
      if (typeof inputJson !== 'string') throw new TypeError(`expected JSON text (a string), got ${inputJson === null ? 'null' : typeof inputJson}`);
      input = readJsonText(inputJson, exactNumbers, this.limits);
    } catch (error) {
      const record = this.openRecord(toolName(name));
      const watch = this.observer === undefined ? undefined : this.watchCall(record, readCallOptions(callOptions));
      return this.deny(record, new ToolError('invalid_json', `input for ${quoted(name)} is not valid JSON: ${describeThrown(error)}`), watch);
    }
    // What parseJson builds is a JSON envelope by construction (plain objects and arrays of data
    // properties, finite numbers, within the same limits), so the envelope walk is not repeated.
    const result = this.callWith(name, input, true, callOptions);
    return result.ok ? { ...result, output: exactNumbers ? stringifyJson(result.output) : JSON.stringify(result.output) } : result;
  }

  /**
   * A deferred call. The input is checked and a call reserved at once; a handler tool then waits
   * for `pump()`, a protocol tool for `complete()` or `fail()`. A rejected call settles at once.
   */
  defer<O = unknown>(name: string, input: unknown, options?: CallOptions): DeferredCall<O> {
    const started = this.start(name, input, true, false, options);
    if (!started.ok) return settledHandle(started, name) as DeferredCall<O>;
    const handle = newHandle(started.call.record.callId, name);
    const call = this.openDeferred(started.call, handle);
    if (call !== undefined) this.queue.push(call);
    return handle as DeferredCall<O>;
  }

  /**
   * Keeps a started call open under its handle. A protocol tool is then pending until `complete`,
   * `fail` or `cancel`; a handler tool is returned for the caller to run now or queue.
   */
  private openDeferred(started: OpenCall, handle: DeferredOpenCall['handle']): DeferredOpenCall | undefined {
    // Written out: a spread of the started call costs more than the rest of callAsync together (V8's generic copy of properties).
    const call: DeferredOpenCall = { entry: started.entry, record: started.record, input: started.input, setting: started.setting, watch: started.watch, handle };
    this.open.set(handle.callId, call);
    listenForAbort(call, () => void (this.open.get(handle.callId) === call && this.cancelOpen(call)));
    if (call.entry.handler !== undefined) return call;
    this.handOff(call);
    return undefined;
  }

  /** A protocol call goes to the outside: pending until `complete`, `fail` or `cancel` ends it. */
  private handOff(call: DeferredOpenCall): void {
    call.handle.state = 'pending';
    this.notify(call.record);
    if (call.watch !== undefined) observe(call.watch, (watch) => watch.handedOff?.({ ...call.record }));
  }

  /**
   * Runs queued calls in the order they were deferred, at most `limit` of them (default: until
   * the queue is empty, including calls deferred meanwhile). Synchronous handlers finish within
   * `pump`; asynchronous ones settle their handle later. Returns how many calls it started.
   */
  pump(limit = Number.POSITIVE_INFINITY): number {
    let started = 0;
    while (started < limit && this.queue.length > 0) {
      this.run(this.queue.shift()!);
      started++;
    }
    return started;
  }

  /** Runs a deferred call's handler; a promise it returns settles the call when it settles. */
  private run(call: DeferredOpenCall): void {
    call.handle.state = 'running';
    // A call cancelled while its handler ran is already settled: what the handler gives later is dropped.
    runThen(call, (settlement) => void (this.open.get(call.record.callId) === call && this.settle(call, settlement)));
  }

  /** Completes a pending protocol call; its output is held to the envelope and the output contract. */
  complete(callId: string, output: unknown): CallResult {
    const call = this.takePending(callId);
    return this.settle(call, { output });
  }

  /** Ends a pending protocol call with an error (a `denied` error is recorded as denied). */
  fail(callId: string, error: ToolError | string): CallResult {
    const call = this.takePending(callId);
    return this.settle(call, { error: typeof error === 'string' ? new ToolError('handler_failed', error) : handlerError(error) });
  }

  /**
   * Cancels a call of `callAsync` or `defer` and settles it at once as `cancelled`. A queued or
   * pending call gives its reserved call back to the budget. A running call's handler sees
   * `request.signal` aborted; it has run, so its reserved call stays used, and whatever it returns
   * later is dropped. A synchronous `call` is never open: it ends before anything else runs.
   */
  cancel(callId: string): CallResult {
    const call = this.open.get(callId);
    if (call === undefined) throw new ToolError('unknown_call', `no open call ${quoted(callId)} to cancel: unknown, already finished, or a synchronous call()`);
    return this.cancelOpen(call);
  }

  private cancelOpen(call: DeferredOpenCall): CallResult {
    const { callId } = call.record;
    this.open.delete(callId);
    call.release?.();
    if (call.handle.state === 'running') return this.closeCancelled(call, `call ${callId} to "${call.entry.name}" was cancelled while its handler ran`);
    const queued = this.queue.indexOf(call);
    if (queued >= 0) this.queue.splice(queued, 1);
    this.giveBack(call.entry.name);
    return this.closeCancelled(call, `call ${callId} to "${call.entry.name}" was cancelled`);
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
    const stored = this.storedCalls.get(callId);
    const call = this.open.get(callId) ?? stored;
    if (call === undefined || call.handle.state !== 'running') throw new ToolError('unknown_call', `no running call ${quoted(callId)} to suspend: unknown, not started, or already finished`);
    this.open.delete(callId);
    call.release?.();
    this.giveBack(call.entry.name);
    this.dropRecord(call.record);
    const error = new ToolError('suspended', `call ${callId} to "${call.entry.name}" was suspended: its host calls again with what the handler asked for`);
    if (stored !== undefined) {
      // A call of deferAsync suspended in its first round (an MCP task's input_required round before it became a task): its id was never
      // handed out, so the store's copy goes at once (done, expiring now) rather than reading as lease_expired later.
      this.storedCalls.delete(callId);
      this.store()
        .replaceCall({ ...doneCall(stored.stored, { ok: false, callId, error }, 'cancelled'), expiresAt: Date.now() + 1 }, ['running'], { by: this.replicaId })
        .catch(() => undefined);
    }
    // The observer hears the round end (its handler ran), with the record as it stood (pending, error code suspended), which records() does not keep.
    const finishedAt = Date.now();
    const watch = call.watch;
    if (watch !== undefined) observe(watch, (watching) => watching.ended({ ...call.record, finishedAt, durationMs: finishedAt - call.record.startedAt, errorCode: 'suspended' }, { error, input: call.input }));
    const result: CallFailure = { ok: false, callId, error };
    call.handle.settle(result);
    call.abort?.abort(error);
    return result;
  }

  /** Records the call as cancelled, settles its handle, then aborts its signal: the handler's listeners see a finished call. */
  private closeCancelled(call: OpenCall, message: string): CallResult {
    const error = new ToolError('cancelled', message);
    const result: CallFailure = { ok: false, callId: call.record.callId, error };
    this.closeRecord(call.record, 'cancelled', 'cancelled', call.watch, error);
    if ('handle' in call) (call as DeferredOpenCall).handle.settle(result);
    call.abort?.abort(error);
    return result;
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
  async deferAsync<O = unknown>(name: string, input: unknown, options?: DeferOptions): Promise<DeferredCall<O>> {
    const ttlMs = readTtl(options);
    const started = this.start(name, input, true, false, options, 'handed-out');
    const refusal = !started.ok
      ? undefined
      : typeof ttlMs === 'string'
        ? `the call options for "${started.call.entry.name}" are wrong: ${ttlMs}`
        : this.storedCalls.size >= this.maxDeferredCalls
          ? `this replica holds ${this.maxDeferredCalls} open deferred calls, the most it keeps (maxDeferredCalls): try again once some have ended`
          : undefined;
    if (!started.ok || refusal !== undefined) {
      const failure = started.ok ? this.deny(started.call.record, new ToolError('denied', refusal!), started.call.watch) : started;
      if (started.ok && this.shared === undefined) this.giveBack(started.call.entry.name);
      return settledHandle(failure, toolName(name)) as DeferredCall<O>;
    }
    const call = started.call;
    const { entry, record } = call;
    const runsHere = entry.handler !== undefined;
    const stored: StoredCall = {
      callId: record.callId,
      tool: entry.name,
      state: runsHere ? 'running' : 'pending',
      startedAt: record.startedAt,
      expiresAt: record.startedAt + ((ttlMs as number | undefined) ?? this.deferredTtlMs),
      exactNumbers: entry.contract.exactNumbers === true,
      budgeted: entry.budget !== undefined,
      ...(this.shared === undefined ? {} : { owner: this.replicaId }),
    };
    const reservesThere = this.shared !== undefined && entry.budget !== undefined;
    let opened: boolean;
    try {
      opened = await this.store().openCall(stored, reservesThere ? entry.budget : undefined, runsHere && this.shared !== undefined ? this.leaseMs : undefined);
    } catch (error) {
      if (!reservesThere) this.giveBack(entry.name);
      if (this.shared !== undefined) this.forgetUnconfirmed(stored);
      return settledHandle(this.deny(record, storeUnavailable(`call ${record.callId} to "${entry.name}" was not stored (if the store took it, it is forgotten and its budget given back once the store answers)`, error), call.watch, call.input), entry.name) as DeferredCall<O>;
    }
    if (!opened) return settledHandle(this.deny(record, budgetExhausted(entry.name), call.watch, call.input), entry.name) as DeferredCall<O>;
    const handle = newHandle(record.callId, entry.name);
    // A protocol call has no handler to hand the host's context to: the call does not keep it for its whole TTL.
    const setting = runsHere ? call.setting : { signal: call.setting.signal, context: undefined };
    const open: StoredOpenCall = { entry, record, input: call.input, setting, watch: call.watch, handle, stored };
    this.storedCalls.set(record.callId, open);
    listenForAbort(open, () => void this.cancelAsync(record.callId).catch(() => undefined));
    if (runsHere) {
      handle.state = 'running';
      runThen(open, (settlement) => void this.endRunning(open, settlement));
    } else {
      this.handOff(open);
    }
    this.poller.start();
    return handle as DeferredCall<O>;
  }

  /**
   * Lets the store forget a finished call of `deferAsync` whose id was never handed out (an MCP
   * call of a task tool that ended in its first turn and was answered with its plain result), so
   * that it is not kept, output and all, for its whole `ttlMs`. A call not yet done is left alone.
   */
  async forgetCall(callId: string): Promise<void> {
    const read = await this.readStored(callId);
    if (read?.call.state === 'done') await guardStore(this.store().replaceCall({ ...read.call, expiresAt: Date.now() + 1 }, ['done'], { by: this.replicaId }), `call ${read.call.callId} could not be forgotten`);
  }

  /**
   * A deferred call of `deferAsync` as the store holds it, read from any replica: its state, the
   * questions its handler waits on (`askAsync`), and its result once done (the output parsed from
   * the stored JSON text, every digit kept for an exact-mode tool). A running call whose replica's
   * lease has run out is ended here as failed with `lease_expired` (its replica died, or lost the
   * store). Undefined for an unknown or expired call; rejects with a `ToolError`
   * `store_unavailable` when the store cannot answer, or holds a record under the id that is no call.
   */
  async readCall<O = unknown>(callId: string): Promise<DeferredStatus<O> | undefined> {
    const read = await this.readStored(callId);
    if (read === undefined) return undefined;
    const { tool, state, startedAt, expiresAt, outcome, finishedAt } = read.call;
    const status = { callId: read.call.callId, tool, state, startedAt, expiresAt, ...(read.updatedAt === undefined ? {} : { updatedAt: read.updatedAt }) };
    if (state === 'done') return { ...status, outcome: outcome!, finishedAt: finishedAt!, result: read.result as CallResult<O> };
    const open = [...read.questions].filter(([key]) => !read.answers.has(key));
    if (open.length === 0) return status;
    try {
      return { ...status, questions: Object.fromEntries(open.map(([key, question]) => [key, JSON.parse(question) as unknown])) };
    } catch (error) {
      throw storeUnavailable(`call ${read.call.callId} could not be read`, new StoredRecordError(`the store's record of call ${JSON.stringify(read.call.callId)} cannot be read: a question in it is not JSON (${describeThrown(error)})`));
    }
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
    const open = this.storedCalls.get(callId);
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
      if (this.storedCalls.get(callId) !== open || !questions.waits(key)) return true;
      try {
        // A call that ended meanwhile takes no question: the next poll hears how it ended.
        if (!(await this.store().askCall(callId, key, text))) this.poller.changedCall(callId);
        return true;
      } catch {
        return false;
      }
    };
    this.poller.retryUntilDone(put);
    return answered.then((answer) => {
      try {
        return readJsonText(answer, false, this.limits);
      } catch (error) {
        throw new ToolError('store_unavailable', `the answer to call ${callId}'s question ${JSON.stringify(key)} cannot be read from the store: it is not JSON (${describeThrown(error)})`);
      }
    });
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
  async answerAsync(callId: string, answers: Readonly<Record<string, unknown>>): Promise<DeferredAnswers> {
    const read = await this.readStored(callId);
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
    const receipt = await guardStore(this.store().answerCall(read.call.callId, texts, this.replicaId), `the answers to call ${read.call.callId} were not confirmed by the store: they may or may not be stored, and answering again reconciles`);
    if (receipt === undefined) throw new ToolError('unknown_call', `deferred call ${quoted(callId)} expired before it could be answered`);
    const delivered = new Map([...texts].filter((_, index) => receipt.outcomes[index] === 'delivered'));
    this.storedCalls.get(read.call.callId)?.questions?.hear(delivered);
    return outcomes(receipt.state, receipt.outcomes);
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
    return this.endPending(callId, { output });
  }

  /** Ends a pending protocol call of `deferAsync` with an error from any replica (a `denied` error is recorded as denied); resolves and rejects as `completeAsync` does. */
  failAsync(callId: string, error: ToolError | string): Promise<CallResult> {
    return this.endPending(callId, { error: typeof error === 'string' ? new ToolError('handler_failed', error) : handlerError(error) });
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
  async cancelAsync(callId: string): Promise<CallResult> {
    const read = await this.readStored(callId);
    if (read?.call.state === 'done' && read.call.outcome === 'cancelled') return read.result!;
    if (read === undefined || read.call.state === 'done') throw new ToolError('unknown_call', `no open deferred call ${quoted(callId)} to cancel: unknown, expired or already finished`);
    const stored = read.call;
    const error = new ToolError('cancelled', `call ${stored.callId} to "${stored.tool}" was cancelled`);
    const result: CallFailure = { ok: false, callId: stored.callId, error };
    const givesBack = stored.state === 'pending' && stored.budgeted;
    const release = givesBack && this.shared !== undefined;
    const replaced = await guardStore(this.store().replaceCall(doneCall(stored, result, 'cancelled'), [stored.state], { release, by: this.replicaId }), `the cancellation of call ${stored.callId} was not confirmed by the store: it may or may not have taken effect, and cancelling again reconciles`);
    if (!replaced) return this.reconcileEnd(stored.callId, undefined);
    if (givesBack && !release) this.giveBack(stored.tool);
    const open = this.storedCalls.get(stored.callId);
    if (open !== undefined) this.closeStored(open, result, 'cancelled', 'elsewhere');
    return result;
  }

  /**
   * Claims `key` once, until `expiresAt` (ms since the epoch), across every runtime sharing the
   * store: true for the first claim. Without a store nothing is shared and every claim is granted.
   * Rejects with a `ToolError` `store_unavailable` when the store cannot answer (a claim it may have
   * taken is given back once it answers). The MCP adapters claim each sealed `requestState` this
   * way, so a state continues one retry only.
   */
  async claimOnce(key: string, expiresAt: number): Promise<boolean> {
    if (this.shared === undefined) return true;
    return guardStore(this.shared.claimOnce(key, expiresAt), 'the store could not claim a once-only key');
  }

  /** How many more calls a tool may complete, through the store when there is one; undefined when unlimited or unknown. Rejects with `store_unavailable`. */
  async remainingCallsAsync(name: string): Promise<number | undefined> {
    const entry = this.tools.get(name);
    if (entry?.budget === undefined || this.shared === undefined) return entry?.remaining;
    const used = await guardStore(this.shared.used(name), `the store could not say how much of "${name}"'s budget is used`);
    return Math.max(0, entry.budget - used);
  }

  private store(): RuntimeStore {
    if (this.shared !== undefined) return this.shared;
    this.ownStore ??= memoryStore();
    return this.ownStore;
  }

  /** The stored call, with its result when done; rejects with `store_unavailable` when the store cannot answer or its record cannot be read. */
  private async readStored(callId: string): Promise<StoredRead | undefined> {
    if (typeof callId !== 'string') throw new ToolError('unknown_call', `no deferred call ${quoted(callId)}: a call id is a string`);
    // Longer than any id this runtime mints: nothing to ask the store for.
    if (callId.length > maxCallIdLength) return undefined;
    return guardStore(this.readFromStore(callId), `call ${quoted(callId)} could not be read`);
  }

  /**
   * The stored call, a running one whose replica's lease has run out ended as `lease_expired`
   * first. Rejects as the store does: a `StoredRecordError` for a record that is no call.
   */
  private async readFromStore(callId: string): Promise<StoredRead | undefined> {
    const store = this.store();
    const read = await store.readCall(callId);
    if (read === undefined) return undefined;
    const stored = read.call;
    if (stored.state === 'done') return { ...read, result: storedResult(stored, this.limits) };
    if (stored.state !== 'running' || stored.owner === undefined || read.leaseHeld) return read;
    const error = new ToolError('lease_expired', `call ${stored.callId} to "${stored.tool}" was running on replica ${stored.owner}, whose lease on it has run out (the replica stopped, or lost the store): it may or may not have done its work`);
    const expired = doneCall(stored, { ok: false, callId: stored.callId, error });
    if (await store.replaceCall(expired, ['running'], { by: this.replicaId })) return { ...read, call: expired, result: storedResult(expired, this.limits) };
    return this.readFromStore(callId);
  }

  private async endPending(callId: string, settlement: Settlement): Promise<CallResult> {
    const read = await this.readStored(callId);
    if (read === undefined || read.call.state === 'running') throw new ToolError('unknown_call', `no pending deferred call ${quoted(callId)}: unknown, expired, not a protocol call, or already finished`);
    const stored = read.call;
    const entry = this.tools.get(stored.tool);
    if (entry === undefined) throw new ToolError('unknown_tool', `call ${stored.callId} is for "${stored.tool}", which this runtime does not serve: end it where the tool is registered`);
    const result = this.verdict(entry, stored.callId, settlement);
    const end = doneCall(stored, result);
    if (stored.state === 'done') return this.reconcileEnd(stored.callId, end, read);
    const replaced = await guardStore(this.store().replaceCall(end, ['pending'], { by: this.replicaId }), `the end of call ${stored.callId} was not confirmed by the store: it may or may not be stored, and ending it again reconciles`);
    if (!replaced) return this.reconcileEnd(stored.callId, end);
    const open = this.storedCalls.get(stored.callId);
    if (open !== undefined) this.closeStored(open, result);
    return result;
  }

  /**
   * A call ended before this end (or cancellation, `end` undefined) was stored: the stored result
   * when it says what this end says (a retry of one whose answer was lost), else `unknown_call`.
   */
  private async reconcileEnd(callId: string, end: StoredCall | undefined, read?: StoredRead): Promise<CallResult> {
    const now = read ?? (await this.readStored(callId));
    if (now?.call.state === 'done' && (end === undefined ? now.call.outcome === 'cancelled' : sameEnd(now.call, end))) return now.result!;
    throw new ToolError('unknown_call', `deferred call ${quoted(callId)} was ended otherwise (${now === undefined ? 'it has expired' : now.call.state === 'done' ? now.call.outcome : now.call.state})`);
  }

  /**
   * A handler of `deferAsync` has settled on this replica: its result is stored unless the call
   * ended meanwhile (cancelled, or its lease taken as expired). A result the store does not confirm
   * is stored again every `pollMs` (it may have been stored: storing it again changes nothing),
   * until the store takes it, or the call is found ended elsewhere, or it expires.
   */
  private async endRunning(open: StoredOpenCall, settlement: Settlement): Promise<void> {
    if (this.storedCalls.get(open.stored.callId) !== open) return;
    const result = this.verdict(open.entry, open.stored.callId, settlement);
    const end = doneCall(open.stored, result);
    this.poller.retryUntilDone(async () => {
      if (this.storedCalls.get(open.stored.callId) !== open) return true;
      let replaced: boolean;
      try {
        replaced = await this.store().replaceCall(end, ['running'], { by: this.replicaId });
      } catch (error) {
        // A record that is no call cannot take the result: that ends the call; a store away is asked again until the call expires.
        const lost = error instanceof StoredRecordError || Date.now() >= open.stored.expiresAt;
        if (lost) this.closeStored(open, { ok: false, callId: open.stored.callId, error: storeUnavailable(`the result of call ${open.stored.callId} to "${open.entry.name}" could not be stored`, error) });
        return lost;
      }
      if (this.storedCalls.get(open.stored.callId) !== open) return true;
      if (replaced) this.closeStored(open, result);
      else await this.adopt(open);
      return true;
    });
  }

  /**
   * Brings a call open here in line with the store: ended elsewhere (or expired from the store),
   * it closes with what the store says; running, its handler hears the answers given to its
   * questions. A store that cannot answer is asked again at the next poll; a record that is no call
   * ends the call here with `store_unavailable`, saying so.
   */
  private async adopt(open: StoredOpenCall): Promise<void> {
    const { callId } = open.stored;
    let read: StoredRead | undefined;
    try {
      read = await this.readFromStore(callId);
    } catch (error) {
      if (this.storedCalls.get(callId) !== open) return;
      if (error instanceof StoredRecordError) this.closeStored(open, { ok: false, callId, error: new ToolError('store_unavailable', error.message) }, undefined, 'elsewhere');
      else this.poller.changedCall(callId);
      return;
    }
    if (this.storedCalls.get(callId) !== open) return;
    if (read?.call.state === 'running') open.questions?.hear(read.answers);
    if (read?.call.state === 'running' || read?.call.state === 'pending') return;
    const result: CallResult = read === undefined ? { ok: false, callId, error: new ToolError('cancelled', `call ${callId} to "${open.entry.name}" expired from the store before it ended`) } : read.result!;
    this.closeStored(open, result, read === undefined || read.call.outcome === 'cancelled' ? 'cancelled' : undefined, 'elsewhere');
  }

  /**
   * Closes a call open here: its record, its handle, its questions, then, for a call its handler
   * did not end (`ended` is 'elsewhere': cancelled, or its lease taken as expired), its handler's signal.
   */
  private closeStored(open: StoredOpenCall, result: CallResult, outcome?: 'cancelled', ended: 'here' | 'elsewhere' = 'here'): void {
    this.storedCalls.delete(open.stored.callId);
    open.release?.();
    this.closeResult(open, result, outcome);
    open.handle.settle(result);
    open.questions?.close(result.ok ? new ToolError('cancelled', `call ${open.stored.callId} ended before its question was answered`) : result.error);
    if (ended === 'elsewhere' && !result.ok) open.abort?.abort(result.error);
  }

  /**
   * A call whose opening the store did not confirm may stand in it all the same, its budget taken:
   * it is forgotten, its budget given back in the same step, as soon as the store answers (first at
   * once: on a store's one connection that lands after the opening). Its id was never handed out.
   */
  private forgetUnconfirmed(stored: StoredCall): void {
    const error = new ToolError('cancelled', `call ${stored.callId} to "${stored.tool}" was not stored`);
    const forgotten = { ...doneCall(stored, { ok: false, callId: stored.callId, error }, 'cancelled'), expiresAt: Date.now() + 1 };
    this.poller.retryUntilDone(async () => {
      try {
        await this.store().replaceCall(forgotten, [stored.state], { release: stored.budgeted, by: this.replicaId });
        return true;
      } catch {
        return Date.now() >= stored.expiresAt;
      }
    });
  }

  // ---- what the host can see

  records(): CallRecord[] {
    const kept = this.callRecords.length > this.maxRecords ? this.callRecords.slice(this.callRecords.length - this.maxRecords) : this.callRecords;
    return kept.map((record) => ({ ...record }));
  }

  /**
   * Changes whenever the catalog does (a tool is registered), so that a host rebuilds what it
   * derives from `catalog()` only then: `catalog()` copies every schema.
   */
  get catalogRevision(): number {
    return this.revision;
  }

  /**
   * Every tool with its contract's schemas (copies, never shared objects), sorted by name. The
   * schemas are JSON Schema as a host takes JS values: an exact-mode bound no double holds is a
   * double on the safe side, never looser than the contract, which the runtime enforces exactly
   * (`hostJsonSchema`: an input schema as a host fills it in, an output schema as it checks what
   * it receives).
   */
  catalog(): CatalogEntry[] {
    return [...this.tools.values()]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((entry) => {
        const { promptInputSchema, promptOutputSchema } = entry.metadata;
        const exact = entry.contract.exactNumbers === true;
        return {
          name: entry.name,
          description: entry.metadata.description,
          inputSchema: schemaForHosts(entry.contract.inputSchema, 'input', exact),
          outputSchema: schemaForHosts(entry.contract.outputSchema, 'output', exact),
          exactNumbers: exact,
          ...(promptInputSchema === undefined ? {} : { promptInputSchema: schemaForHosts(promptInputSchema, 'input', false) }),
          ...(promptOutputSchema === undefined ? {} : { promptOutputSchema: schemaForHosts(promptOutputSchema, 'output', false) }),
        };
      });
  }

  /** The envelope limits every call is held to (`RuntimeOptions.envelope` over the defaults): adapters parse arguments within them. */
  get envelopeLimits(): EnvelopeLimits {
    return { ...this.limits };
  }

  /** How many more calls a tool may complete; undefined when unlimited. With a store the budget is kept there: this answers the whole budget, `remainingCallsAsync` what is left. */
  remainingCalls(name: string): number | undefined {
    return this.tools.get(name)?.remaining;
  }

  // ---- the one call path

  /**
   * `asynchronous`: the caller reserves a budgeted call through the store itself (otherwise a
   * budgeted tool under a store is refused); `handed-out` (deferAsync) also gives the call an
   * unguessable id, since it is handed to others (an MCP task's id, a completer on another replica)
   * and whoever holds it can read, answer or cancel the call.
   */
  private start(name: string, input: unknown, deferred: boolean, parsedFromJson: boolean, options: CallOptions | undefined, asynchronous?: 'awaited' | 'handed-out'): { ok: true; call: OpenCall } | CallFailure {
    const tool = toolName(name);
    const record = this.openRecord(tool, asynchronous === 'handed-out');
    // Read before the tool is looked up, so that the observer sees every call with its context (an unknown tool's too).
    const setting = readCallOptions(options);
    const watch = this.observer === undefined ? undefined : this.watchCall(record, setting);
    const entry = typeof name === 'string' ? this.tools.get(name) : undefined;
    if (entry === undefined) return this.deny(record, new ToolError('unknown_tool', `no tool named ${quoted(name)}; available: ${describeNames([...this.tools.keys()].sort())}`), watch);
    if (typeof setting === 'string') return this.deny(record, new ToolError('denied', `the call options for "${tool}" are wrong: ${setting}`), watch);
    if (setting.refusal !== undefined) return this.deny(record, setting.refusal, watch);
    if (isAborted(setting.signal)) {
      const error = new ToolError('cancelled', `call ${record.callId} to "${tool}" was cancelled before it started`);
      this.closeRecord(record, 'cancelled', 'cancelled', watch, error);
      return { ok: false, callId: record.callId, error };
    }
    if (!deferred && entry.handler === undefined) return this.deny(record, new ToolError('handler_failed', `"${tool}" is served outside the process: call it with callAsync(), or defer() and complete()`), watch);
    if (!deferred && entry.asynchronous) return this.deny(record, new ToolError('asynchronous_handler', `the handler of "${tool}" is asynchronous: call it with callAsync()`), watch);
    // The handler receives the copy that was validated, never the caller's object (parsed JSON is ours alone).
    const value = parsedFromJson ? input : copyEnvelope(input, this.limits, entry.contract.exactNumbers);
    const problem = parsedFromJson ? rootProblem(input) : value === undefined ? whyNotEnvelope(input, this.limits, entry.contract.exactNumbers) : undefined;
    if (problem !== undefined) return this.deny(record, new ToolError('invalid_envelope', `input for "${tool}" is not a plain JSON object or array: ${problem}`), watch);
    if (!entry.contract.input.is(value)) {
      return this.deny(record, inputMismatch(tool, issuesOf(entry.contract.input.validate(value))), watch);
    }
    if (entry.remaining !== undefined) {
      if (this.shared !== undefined) {
        if (asynchronous === undefined) return this.deny(record, new ToolError('asynchronous_store', `the call budget of "${tool}" is kept in the runtime's store: call it with callAsync() or deferAsync()`), watch, value);
      } else {
        if (entry.remaining === 0) return this.deny(record, budgetExhausted(tool), watch, value);
        entry.remaining--;
      }
    }
    return { ok: true, call: { entry, record, input: value, setting, watch } };
  }

  /** Output envelope → output contract → result; or the handler's error. The reserved call stays used. */
  private finish(call: OpenCall, settlement: Settlement): CallResult {
    const result = this.verdict(call.entry, call.record.callId, settlement);
    this.closeResult(call, result);
    return result;
  }

  /** What a call's caller gets for a settlement: the output envelope and contract decide. */
  private verdict(entry: ToolEntry, callId: string, settlement: Settlement): CallResult {
    const name = entry.name;
    let error: ToolError | undefined;
    if ('error' in settlement) {
      error = settlement.error;
    } else {
      const { output, content } = splitContent(settlement.output);
      const copy = copyEnvelope(output, this.limits, entry.contract.exactNumbers);
      const blocks = content === undefined ? undefined : copyContent(content, this.limits);
      if (copy === undefined) {
        error = new ToolError('invalid_output', `output of "${name}" is not a plain JSON object or array: ${whyNotEnvelope(output, this.limits, entry.contract.exactNumbers)}`);
      } else if (!entry.contract.output.is(copy)) {
        error = outputMismatch(name, issuesOf(entry.contract.output.validate(copy)));
      } else if (blocks !== undefined && !blocks.ok) {
        error = new ToolError('invalid_output', `content of "${name}" is not content blocks: ${blocks.problem}`);
      } else {
        // The caller gets the copy that was validated: a handler that keeps changing its object changes nothing.
        return blocks === undefined ? { ok: true, callId, output: copy } : { ok: true, callId, output: copy, content: blocks.content };
      }
    }
    return { ok: false, callId, error };
  }

  /** Makes a call's record final with the result its caller gets; `outcome` only for a result that was stored cancelled. */
  private closeResult(call: OpenCall, result: CallResult, outcome?: 'cancelled'): void {
    if (result.ok) this.closeRecord(call.record, 'completed', undefined, call.watch, undefined, call.input, result.output);
    else if (outcome === 'cancelled') this.closeRecord(call.record, 'cancelled', 'cancelled', call.watch, result.error);
    else this.closeRecord(call.record, result.error.code === 'denied' ? 'denied' : 'failed', result.error.code, call.watch, result.error, call.input);
  }

  private settle(call: DeferredOpenCall, settlement: Settlement): CallResult {
    this.open.delete(call.record.callId);
    call.release?.();
    const result = this.finish(call, settlement);
    call.handle.settle(result);
    return result;
  }

  private takePending(callId: string): DeferredOpenCall {
    const call = this.open.get(callId);
    if (call === undefined || call.handle.state !== 'pending') throw new ToolError('unknown_call', `no pending protocol call ${quoted(callId)}: unknown, not a protocol call, or already finished`);
    return call;
  }

  /** `input`: the validated copy, when the input passed its contract and something else refused the call. */
  private deny(record: MutableRecord, error: ToolError, watch: CallWatch | undefined, input?: unknown): CallFailure {
    this.closeRecord(record, 'denied', error.code, watch, error, input);
    return { ok: false, callId: record.callId, error };
  }

  /** The observer's watch over a call that has just started; an observer that throws or answers nothing watches nothing. */
  private watchCall(record: MutableRecord, setting: CallSetting | string): CallWatch | undefined {
    try {
      const watch = this.observer!.callStarted({ ...record }, typeof setting === 'string' ? undefined : setting.context);
      return typeof watch === 'object' && watch !== null && typeof watch.ended === 'function' ? watch : undefined;
    } catch {
      return undefined;
    }
  }

  private openRecord(tool: string, unguessable = false): MutableRecord {
    const callId = `${this.callIdPrefix}${this.nextCallId++}${unguessable ? `-${randomToken()}` : ''}`;
    const record: MutableRecord = { tool, callId, outcome: 'pending', startedAt: Date.now() };
    if (this.maxRecords === 0) return record;
    this.callRecords.push(record);
    // Trimmed in halves, so keeping a bounded log costs O(1) per call.
    if (this.callRecords.length >= 2 * this.maxRecords) this.callRecords = this.callRecords.slice(-this.maxRecords);
    return record;
  }

  /** Takes back an open record that was never heard (a suspended call's): found from the end, where the latest calls are. */
  private dropRecord(record: MutableRecord): void {
    const at = this.callRecords.lastIndexOf(record);
    if (at >= 0) this.callRecords.splice(at, 1);
  }

  /** Makes the record final; a watched call's observer hears how it ended (`error`, and the validated copies it went through). */
  private closeRecord(record: MutableRecord, outcome: CallOutcome, errorCode?: ToolErrorCode, watch?: CallWatch, error?: ToolError, input?: unknown, output?: unknown): void {
    record.outcome = outcome;
    record.finishedAt = Date.now();
    record.durationMs = record.finishedAt - record.startedAt;
    if (errorCode !== undefined) record.errorCode = errorCode;
    this.notify(record);
    if (watch !== undefined) observe(watch, (watching) => watching.ended({ ...record }, { error, input, output }));
  }

  private notify(record: MutableRecord): void {
    const listener = this.options.onRecord;
    if (listener === undefined) return;
    try {
      listener({ ...record });
    } catch {
      // The listener's own failure; the call's outcome is already decided and stays as it is.
    }
  }
}

function budgetExhausted(tool: string): ToolError {
  return new ToolError('budget_exhausted', `"${tool}" has used its whole call budget`);
}

/** The store's failure, told without its stack: what was not done, and what the store said (or what is wrong with what it holds). */
function storeUnavailable(what: string, error: unknown): ToolError {
  if (error instanceof StoredRecordError) return new ToolError('store_unavailable', `${what}: ${error.message}`);
  return new ToolError('store_unavailable', `${what}: the runtime's store did not answer (${describeThrown(error)})`);
}

/** A store's answer, or its failure as a `store_unavailable` ToolError. */
async function guardStore<T>(answer: Promise<T>, what: string): Promise<T> {
  try {
    return await answer;
  } catch (error) {
    throw storeUnavailable(what, error);
  }
}

function settledHandle(failure: CallFailure, tool: string): DeferredCall {
  const handle = newHandle(failure.callId, tool);
  handle.settle(failure);
  return handle;
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

/** 128 random bits as 32 hex digits: an id nobody can guess or enumerate. */
function randomToken(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Eight random base-36 characters: enough that two replicas never pick the same by chance. */
function randomReplicaId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) => (byte % 36).toString(36)).join('');
}

/** For parsed JSON only the root can be wrong: a scalar where an object or array belongs. */
function rootProblem(input: unknown): string | undefined {
  return typeof input === 'object' && input !== null ? undefined : `must be a JSON object or array, got ${input === null ? 'null' : typeof input}`;
}

function newHandle(callId: string, tool: string): MutableHandle {
  let settle!: (result: CallResult) => void;
  const result = new Promise<CallResult>((resolve) => (settle = resolve));
  const handle: MutableHandle = {
    callId,
    tool,
    state: 'queued',
    result,
    settle(value) {
      handle.state = 'done';
      settle(value);
    },
  };
  return handle;
}

/** Whatever a handler threw, as a ToolError; reading what it threw can throw too, and is contained. */
function handlerError(error: unknown): ToolError {
  try {
    if (error instanceof ToolError && toolErrorCodes.has(error.code) && typeof error.message === 'string') return error;
  } catch {
    // A revoked proxy or a hostile getter: described below like anything else.
  }
  return new ToolError('handler_failed', `the handler failed: ${describeThrown(error)}`);
}

/** A handler's result, its `then` when it is a thenable, or what it threw. Reading `then` may throw as well. */
function runHandler(call: OpenCall): Settlement | { readonly awaited: () => Promise<unknown> } {
  let output: unknown;
  try {
    output = call.entry.handler!(new HandlerRequest(call));
    if ((typeof output !== 'object' && typeof output !== 'function') || output === null) return { output };
    const then: unknown = (output as { then?: unknown }).then;
    if (typeof then !== 'function') return { output };
    const thenable = output;
    return { awaited: () => new Promise<unknown>((resolve, reject) => (then as (ok: (v: unknown) => void, fail: (e: unknown) => void) => unknown).call(thenable, resolve, reject)) };
  } catch (error) {
    return { error: handlerError(error) };
  }
}

/**
 * Runs the handler through the observer's `runHandler`; an observer that throws before running it
 * does not keep it from running, and one that throws after it ran does not change its outcome.
 */
/** Runs the call's handler (watched where observed); `settle` hears how it ended, now or when its promise settles. */
function runThen(call: OpenCall, settle: (settlement: Settlement) => void): void {
  const outcome = call.watch === undefined ? runHandler(call) : runWatched(call, call.watch);
  if ('awaited' in outcome) settleThenable(outcome.awaited, settle);
  else settle(outcome);
}

/**
 * Cancels the call when the host's signal aborts (at once if it already has: a call of
 * `deferAsync` waited for the store), until `release` is called at the call's end.
 */
function listenForAbort(call: OpenCall, onAbort: () => void): void {
  const hostSignal = call.setting.signal;
  if (hostSignal === undefined) return;
  if (hostSignal.aborted) onAbort();
  hostSignal.addEventListener('abort', onAbort, { once: true });
  call.release = () => hostSignal.removeEventListener('abort', onAbort);
}

function runWatched(call: OpenCall, watch: CallWatch): Settlement | { readonly awaited: () => Promise<unknown> } {
  let outcome: Settlement | { readonly awaited: () => Promise<unknown> } | undefined;
  const run = (): unknown => (outcome = runHandler(call));
  try {
    if (typeof watch.runHandler === 'function') watch.runHandler(run, call.input);
  } catch {
    // The observer's own failure: the handler runs below if it has not run yet.
  }
  return outcome ?? runHandler(call);
}

/** Calls an observer; what it throws is its own failure, never the call's. */
function observe(watch: CallWatch, hear: (watch: CallWatch) => void): void {
  try {
    hear(watch);
  } catch {
    // Ignored, as onRecord's: the call's outcome is decided by the runtime alone.
  }
}

/** Awaits a handler's thenable; whatever it does, `done` runs once and nothing is left unhandled. */
function settleThenable(then: () => Promise<unknown>, done: (settlement: Settlement) => void): void {
  let promise: Promise<unknown>;
  try {
    promise = then();
  } catch (error) {
    promise = Promise.reject(error);
  }
  promise.then(
    (output) => done({ output }),
    (error: unknown) => done({ error: handlerError(error) }),
  );
}

/**
 * What a handler receives. A deferred call's signal is its own, aborted by `cancel` (which the
 * host's signal triggers); a synchronous call's is the host's, since nothing else can run meanwhile.
 */
/**
 * The request a handler gets. A class, so that `signal` is one getter on the prototype rather than
 * a fresh accessor per call (an object literal with a getter costs more than the call's validation).
 */
class HandlerRequest implements ToolRequest<unknown> {
  readonly tool: string;
  readonly callId: string;
  readonly input: unknown;
  readonly context: unknown;
  readonly #call: OpenCall;

  constructor(call: OpenCall) {
    this.#call = call;
    this.tool = call.entry.name;
    this.callId = call.record.callId;
    this.input = call.input;
    this.context = call.setting.context;
  }

  get signal(): AbortSignal {
    const call = this.#call;
    if (!('handle' in call) && call.setting.signal !== undefined) return call.setting.signal;
    call.abort ??= new AbortController();
    return call.abort.signal;
  }
}

/** Reads the options once; a getter that throws or a signal that is not an AbortSignal is a problem to report, never a throw. */
function readCallOptions(options: CallOptions | undefined): CallSetting | string {
  if (options === undefined) return noSetting;
  try {
    if (typeof options !== 'object' || options === null) return `expected an object, got ${describeThrown(options)}`;
    const { signal, context, refusal } = options;
    if (signal !== undefined && !(signal instanceof AbortSignal)) return `signal must be an AbortSignal, got ${describeThrown(signal)}`;
    if (refusal !== undefined && !(refusal instanceof ToolError)) return `refusal must be a ToolError, got ${describeThrown(refusal)}`;
    return refusal === undefined ? { signal, context } : { signal, context, refusal };
  } catch (error) {
    return `they could not be read: ${describeThrown(error)}`;
  }
}

const noSetting: CallSetting = { signal: undefined, context: undefined };
/** Longer than any call id a runtime mints (`call-<replicaId of up to 64>-<n>-<32 hex digits>`). */
export const maxCallIdLength = 160;

function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/** A tool name as records keep it: a name that is not a string is described. */
function toolName(name: unknown): string {
  return typeof name === 'string' ? name : describeThrown(name);
}

/** A name or call id as the caller gave it, quoted; a symbol or object never breaks the message. */
function quoted(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : describeThrown(value);
}

function issuesOf(result: { ok: boolean; issues?: readonly ValidationIssue[] }): readonly ValidationIssue[] {
  return result.issues ?? [];
}

/** A schema as a host takes it (a fresh copy); an exact-mode contract's keeps its digits for the JSON text the runtime writes itself. */
function schemaForHosts(schema: Readonly<Record<string, unknown>>, role: 'input' | 'output', exact: boolean): Record<string, unknown> {
  const shown = hostJsonSchema(schema, role);
  return exact ? standingFor(shown, schema) : shown;
}
