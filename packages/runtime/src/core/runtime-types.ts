import type { ContentBlock, OutputWithContent } from './content.js';
import type { EnvelopeLimits } from './envelope.js';
import type { ToolError, ToolErrorCode } from './errors.js';
import type { AnswerOutcome, RuntimeStore, StoredCallState, StoredOutcome } from './store.js';

/** What the runtime's callers, handlers, observers and hosts see of a call: the public types of `CapabilityRuntime`. */

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
