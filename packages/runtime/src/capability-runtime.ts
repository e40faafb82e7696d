import { copyContent, splitContent, type ContentBlock, type OutputWithContent } from './content.js';
import type { ToolContract, ValidationIssue } from './contract.js';
import { copyEnvelope, defaultEnvelopeLimits, readJsonText, whyNotEnvelope, type EnvelopeLimits } from './envelope.js';
import { describeThrown } from './support/describe-thrown.js';
import { describeNames, inputMismatch, outputMismatch, RegistrationError, ToolError, toolErrorCodes, type ToolErrorCode } from './errors.js';
import { isAsyncFunction, planHandlerMap, type ContractSet, type HandlerMap } from './handler-map.js';
import { copyJsonValue, stringifyJson } from './json.js';
import { ToolMetadata, type ToolPolicy } from './policy.js';

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
  /** Calls left; undefined is unlimited. */
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
    const entry: ToolEntry = { name: policy.name, metadata, contract, asynchronous, remaining: policy.callBudget };
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
    const started = this.start(name, input, true, false, options);
    if (!started.ok) return Promise.resolve(started);
    const handle = newHandle(started.call.record.callId, started.call.entry.name);
    const call = this.openDeferred(started.call, handle);
    if (call !== undefined) this.run(call);
    return handle.result as Promise<CallResult<O>>;
  }

  /**
   * A call with JSON text in and JSON text out. Malformed JSON, or anything but a string, is denied
   * as `invalid_json`; like `call`, it never throws.
   */
  callJson(name: string, inputJson: string, callOptions?: CallOptions): CallResult<string> {
    const exactNumbers = (typeof name === 'string' && this.tools.get(name)?.contract.exactNumbers) || false;
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
    const handle = newHandle(started.ok ? started.call.record.callId : started.callId, name);
    if (!started.ok) {
      handle.settle(started);
      return handle as DeferredCall<O>;
    }
    const call = this.openDeferred(started.call, handle);
    if (call !== undefined) this.queue.push(call);
    return handle as DeferredCall<O>;
  }

  /**
   * Keeps a started call open under its handle. A protocol tool is then pending until `complete`,
   * `fail` or `cancel`; a handler tool is returned for the caller to run now or queue.
   */
  private openDeferred(started: OpenCall, handle: DeferredOpenCall['handle']): DeferredOpenCall | undefined {
    const call: DeferredOpenCall = { ...started, handle };
    this.open.set(handle.callId, call);
    const hostSignal = call.setting.signal;
    if (hostSignal !== undefined) {
      const onAbort = (): void => void (this.open.get(handle.callId) === call && this.cancelOpen(call));
      hostSignal.addEventListener('abort', onAbort, { once: true });
      call.release = () => hostSignal.removeEventListener('abort', onAbort);
    }
    if (call.entry.handler !== undefined) return call;
    handle.state = 'pending';
    this.notify(call.record);
    if (call.watch !== undefined) observe(call.watch, (watch) => watch.handedOff?.({ ...call.record }));
    return undefined;
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
    const outcome = call.watch === undefined ? runHandler(call) : runWatched(call, call.watch);
    // A call cancelled while its handler ran is already settled: what the handler gives later is dropped.
    const settleIfOpen = (settlement: Settlement): void => void (this.open.get(call.record.callId) === call && this.settle(call, settlement));
    if ('awaited' in outcome) settleThenable(outcome.awaited, settleIfOpen);
    else settleIfOpen(outcome);
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
    if (call.entry.remaining !== undefined) call.entry.remaining++;
    return this.closeCancelled(call, `call ${callId} to "${call.entry.name}" was cancelled`);
  }

  /**
   * Ends a running call of `callAsync` or `defer` without an output because its handler waits for
   * something its host must fetch first and will call again with (MCP 2026-07-28's
   * `input_required`: the client answers, retries, and the handler runs again from the top). The
   * call gives its reserved call back and leaves no record: the round that ends the logical call
   * pays for it and records it, so one logical call costs one call of the budget and one record
   * however many rounds it takes. Its handle settles as `suspended`; then the handler's signal is
   * aborted with that error, and whatever it returns later is dropped. Throws `unknown_call` for a
   * call that is not running.
   */
  suspend(callId: string): CallResult {
    const call = this.open.get(callId);
    if (call === undefined || call.handle.state !== 'running') throw new ToolError('unknown_call', `no running call ${quoted(callId)} to suspend: unknown, not started, or already finished`);
    this.open.delete(callId);
    call.release?.();
    if (call.entry.remaining !== undefined) call.entry.remaining++;
    this.dropRecord(call.record);
    const error = new ToolError('suspended', `call ${callId} to "${call.entry.name}" was suspended: its host calls again with what the handler asked for`);
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

  /** Every tool with its contract's schemas (copies, never shared objects), sorted by name. */
  catalog(): CatalogEntry[] {
    return [...this.tools.values()]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((entry) => {
        const { promptInputSchema, promptOutputSchema } = entry.metadata;
        return {
          name: entry.name,
          description: entry.metadata.description,
          inputSchema: copyJson(entry.contract.inputSchema),
          outputSchema: copyJson(entry.contract.outputSchema),
          exactNumbers: entry.contract.exactNumbers === true,
          ...(promptInputSchema === undefined ? {} : { promptInputSchema: copyJson(promptInputSchema) }),
          ...(promptOutputSchema === undefined ? {} : { promptOutputSchema: copyJson(promptOutputSchema) }),
        };
      });
  }

  /** The envelope limits every call is held to (`RuntimeOptions.envelope` over the defaults): adapters parse arguments within them. */
  get envelopeLimits(): EnvelopeLimits {
    return { ...this.limits };
  }

  /** How many more calls a tool may complete; undefined when unlimited. */
  remainingCalls(name: string): number | undefined {
    return this.tools.get(name)?.remaining;
  }

  // ---- the one call path

  private start(name: string, input: unknown, deferred: boolean, parsedFromJson: boolean, options: CallOptions | undefined): { ok: true; call: OpenCall } | CallFailure {
    const tool = toolName(name);
    const record = this.openRecord(tool);
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
    if (entry.remaining === 0) return this.deny(record, new ToolError('budget_exhausted', `"${tool}" has used its whole call budget`), watch, value);
    if (entry.remaining !== undefined) entry.remaining--;
    return { ok: true, call: { entry, record, input: value, setting, watch } };
  }

  /** Output envelope → output contract → result; or the handler's error. The reserved call stays used. */
  private finish(call: OpenCall, settlement: Settlement): CallResult {
    const { entry } = call;
    const callId = call.record.callId;
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
        this.closeRecord(call.record, 'completed', undefined, call.watch, undefined, call.input, copy);
        return blocks === undefined ? { ok: true, callId, output: copy } : { ok: true, callId, output: copy, content: blocks.content };
      }
    }
    this.closeRecord(call.record, error.code === 'denied' ? 'denied' : 'failed', error.code, call.watch, error, call.input);
    return { ok: false, callId, error };
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

  private openRecord(tool: string): MutableRecord {
    const record: MutableRecord = { tool, callId: `call-${this.nextCallId++}`, outcome: 'pending', startedAt: Date.now() };
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

function copyJson(value: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return copyJsonValue(value) as Record<string, unknown>;
}
