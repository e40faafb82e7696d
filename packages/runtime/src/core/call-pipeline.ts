import { copyContent, splitContent, type ContentBlock } from './content.js';
import type { ValidationIssue } from './contract.js';
import { copyEnvelope, readJsonText, whyNotEnvelope, type EnvelopeLimits } from './envelope.js';
import { describeNames, inputMismatch, outputMismatch, ToolError, toolErrorCodes } from './errors.js';
import { stringifyJson } from './json.js';
import { observe, type Ledger, type MutableRecord } from './ledger.js';
import type { CallFailure, CallOptions, CallResult, CallWatch, DeferredCall, DeferredState, ToolRequest } from './runtime-types.js';
import { toolName, type ToolEntry, type ToolRegistry } from './tool-registry.js';
import { describeThrown } from '../support/describe-thrown.js';

/**
 * The one path every call takes, whichever method made it (`call`, `callJson`, `callAsync`,
 * `defer`, `deferAsync`), in this order:
 *
 * 1. `start`: the record opens (and the observer hears of the call) → the tool is looked up → the
 *    call options are read → the input's JSON envelope is copied → the input contract checks the
 *    copy → a call is reserved from the budget (`Ledger.reserve`; through the store, the asynchronous
 *    callers reserve it themselves, `Ledger.reserveShared`).
 * 2. `runHandler`: the handler runs (through the observer's `runHandler` when watched) on the
 *    validated copy; a promise it returns is awaited by the asynchronous callers only.
 * 3. `verdict`: the output's envelope is copied → the output contract checks the copy → the caller's
 *    result.
 * 4. `close`: the record takes its outcome (`Ledger.close`), and the call's handle settles.
 *
 * A refusal at any step records the call (denied before the handler ran, failed after) and ends it
 * there: rejected input reserves nothing; a failing handler or an invalid output uses up the
 * reserved call. `call` is the synchronous path through all four steps at once; the open calls
 * (`open-calls.ts`) and the deferred calls kept in the store (`deferred-calls.ts`) run the same
 * steps with a wait between 1 and 2 or between 2 and 3.
 */

/** How a handler or a protocol peer ended a call. */
export type Settlement = { readonly output: unknown } | { readonly error: ToolError };
/** The call's options as read once at its start; reading a hostile options object never throws out of a call. */
export type CallSetting = { readonly signal: AbortSignal | undefined; readonly context: unknown; readonly refusal?: ToolError | undefined };

/** A call past `start`: its input passed and its call is reserved. */
export interface OpenCall {
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

/** A call that outlives the method that started it, with the handle its caller waits on. */
export interface HandledCall extends OpenCall {
  readonly handle: CallHandle;
}

export interface CallHandle extends DeferredCall {
  state: DeferredState;
  settle(result: CallResult): void;
}

/**
 * Which method started the call, for what it can do that others cannot. `call` and `callJson` end
 * the call before they return, so they refuse a protocol tool and an asynchronous handler (the
 * others leave the call open); `callJson`'s input is what `parseJson` built, a JSON envelope by
 * construction, so only its root is checked. `callAsync` and `deferAsync` reserve a budgeted call
 * through the store themselves (the others refuse a budgeted tool under a store); `deferAsync` also
 * gives the call an unguessable id, since it is handed to others (an MCP task's id, a completer on
 * another replica) and whoever holds it can read, answer or cancel the call.
 */
export type Caller = 'call' | 'callJson' | 'callAsync' | 'defer' | 'deferAsync';

export type Started = { readonly ok: true; readonly call: OpenCall } | CallFailure;

export class CallPipeline {
  readonly #tools: ToolRegistry;
  readonly #ledger: Ledger;
  readonly limits: EnvelopeLimits;

  constructor(tools: ToolRegistry, ledger: Ledger, limits: EnvelopeLimits) {
    this.#tools = tools;
    this.#ledger = ledger;
    this.limits = limits;
  }

  // ---- 1. start: record, tool, options, input envelope, input contract, reservation

  start(name: string, input: unknown, options: CallOptions | undefined, caller: Caller): Started {
    const tool = toolName(name);
    const record = this.#ledger.open(tool, caller === 'deferAsync');
    // Read before the tool is looked up, so that the observer sees every call with its context (an unknown tool's too).
    const setting = readCallOptions(options);
    const watch = this.#ledger.watch(record, contextOf(setting));
    const entry = this.#tools.get(name);
    if (entry === undefined) return this.deny(record, new ToolError('unknown_tool', `no tool named ${quoted(name)}; available: ${describeNames(this.#tools.names())}`), watch);
    if (typeof setting === 'string') return this.deny(record, new ToolError('denied', `the call options for "${tool}" are wrong: ${setting}`), watch);
    if (setting.refusal !== undefined) return this.deny(record, setting.refusal, watch);
    if (isAborted(setting.signal)) {
      const error = cancelledError(record.callId, tool, 'before it started');
      this.#ledger.close(record, 'cancelled', 'cancelled', watch, error);
      return callFailure(record.callId, error);
    }
    const endsAtOnce = caller === 'call' || caller === 'callJson';
    if (endsAtOnce && entry.handler === undefined) return this.deny(record, new ToolError('handler_failed', `"${tool}" is served outside the process: call it with callAsync(), or defer() and complete()`), watch);
    if (endsAtOnce && entry.asynchronous) return this.deny(record, new ToolError('asynchronous_handler', `the handler of "${tool}" is asynchronous: call it with callAsync()`), watch);
    // The handler receives the copy that was validated, never the caller's object (parsed JSON is ours alone).
    const parsed = caller === 'callJson';
    const value = parsed ? input : copyEnvelope(input, this.limits, entry.contract.exactNumbers);
    const problem = parsed ? rootProblem(input) : value === undefined ? whyNotEnvelope(input, this.limits, entry.contract.exactNumbers) : undefined;
    if (problem !== undefined) return this.deny(record, new ToolError('invalid_envelope', `input for "${tool}" is not a plain JSON object or array: ${problem}`), watch);
    if (!entry.contract.input.is(value)) return this.deny(record, inputMismatch(tool, issuesOf(entry.contract.input.validate(value))), watch);
    if (this.#ledger.reservesThroughStore(entry)) {
      if (caller !== 'callAsync' && caller !== 'deferAsync') return this.deny(record, new ToolError('asynchronous_store', `the call budget of "${tool}" is kept in the runtime's store: call it with callAsync() or deferAsync()`), watch, value);
    } else {
      const exhausted = this.#ledger.reserve(entry);
      if (exhausted !== undefined) return this.deny(record, exhausted, watch, value);
    }
    return { ok: true, call: { entry, record, input: value, setting, watch } };
  }

  // ---- the synchronous path: 1 → 2 → 3 → 4 at once

  call<O>(name: string, input: unknown, caller: 'call' | 'callJson', options: CallOptions | undefined): CallResult<O> {
    const started = this.start(name, input, options, caller);
    if (!started.ok) return started;
    const call = started.call;
    const outcome = call.watch === undefined ? runHandler(call) : runWatched(call, call.watch);
    // Only the handler itself can abort the host's signal while a synchronous call runs; it ran, so its call stays used.
    if (isAborted(call.setting.signal)) {
      if ('awaited' in outcome) settleThenable(outcome.awaited, () => undefined);
      return this.closeCancelled(call, 'while its handler ran') as CallResult<O>;
    }
    if ('awaited' in outcome) {
      // It ran, so the reserved call stays used; from now on `call` refuses it before it runs.
      call.entry.asynchronous = true;
      settleThenable(outcome.awaited, () => undefined);
      return this.finish(call, { error: new ToolError('handler_failed', `the handler of "${call.entry.name}" returned a promise: call it with callAsync()`) }) as CallResult<O>;
    }
    return this.finish(call, outcome) as CallResult<O>;
  }

  /** JSON text in, JSON text out: the text is parsed within the envelope limits, then the call takes the synchronous path. */
  callJson(name: string, inputJson: string, callOptions: CallOptions | undefined): CallResult<string> {
    const entry = this.#tools.get(name);
    // No tool, no text to read: `unknown_tool` as with `call`, so a made-up name never passes for a tool's (in records, spans, metrics).
    if (entry === undefined) return this.call<string>(name, undefined, 'callJson', callOptions);
    const exactNumbers = entry.contract.exactNumbers;
    let input: unknown;
    try {
      // Never JSON.parse of a non-string: it would run the value's own toString.
      if (typeof inputJson !== 'string') throw new TypeError(`expected JSON text (a string), got ${inputJson === null ? 'null' : typeof inputJson}`);
      input = readJsonText(inputJson, exactNumbers, this.limits);
    } catch (error) {
      const record = this.#ledger.open(toolName(name));
      // The options are read for the observer only: the call ends here.
      const watch = this.#ledger.observed ? this.#ledger.watch(record, contextOf(readCallOptions(callOptions))) : undefined;
      return this.deny(record, new ToolError('invalid_json', `input for ${quoted(name)} is not valid JSON: ${describeThrown(error)}`), watch);
    }
    // What parseJson builds is a JSON envelope by construction (plain objects and arrays of data
    // properties, finite numbers, within the same limits), so the envelope walk is not repeated.
    const result = this.call(name, input, 'callJson', callOptions);
    return result.ok ? { ...result, output: exactNumbers ? stringifyJson(result.output) : JSON.stringify(result.output) } : result;
  }

  // ---- 3. verdict: output envelope, output contract

  /** What a call's caller gets for a settlement: the output envelope and contract decide. */
  verdict(entry: ToolEntry, callId: string, settlement: Settlement): CallResult {
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
        return callSuccess(callId, copy, blocks?.content);
      }
    }
    return callFailure(callId, error);
  }

  // ---- 4. close: the record's outcome

  /** Output envelope → output contract → result, and the record closed with it; or the handler's error. The reserved call stays used. */
  finish(call: OpenCall, settlement: Settlement): CallResult {
    const result = this.verdict(call.entry, call.record.callId, settlement);
    this.closeResult(call, result);
    return result;
  }

  /** Makes a call's record final with the result its caller gets; `outcome` only for a result that was stored cancelled. */
  closeResult(call: OpenCall, result: CallResult, outcome?: 'cancelled'): void {
    if (result.ok) this.#ledger.close(call.record, 'completed', undefined, call.watch, undefined, call.input, result.output);
    else if (outcome === 'cancelled') this.#ledger.close(call.record, 'cancelled', 'cancelled', call.watch, result.error);
    else this.#ledger.close(call.record, result.error.code === 'denied' ? 'denied' : 'failed', result.error.code, call.watch, result.error, call.input);
  }

  /** `input`: the validated copy, when the input passed its contract and something else refused the call. */
  deny(record: MutableRecord, error: ToolError, watch: CallWatch | undefined, input?: unknown): CallFailure {
    this.#ledger.close(record, 'denied', error.code, watch, error, input);
    return callFailure(record.callId, error);
  }

  /** A protocol call is handed to the outside: pending until a peer ends it. */
  handOff(call: HandledCall): void {
    call.handle.state = 'pending';
    this.#ledger.handOff(call.record, call.watch);
  }

  /** Records the call as cancelled, settles its handle, then aborts its signal: the handler's listeners see a finished call. */
  closeCancelled(call: OpenCall, when?: CancelledWhen): CallFailure {
    const error = cancelledError(call.record.callId, call.entry.name, when);
    const result = callFailure(call.record.callId, error);
    this.#ledger.close(call.record, 'cancelled', 'cancelled', call.watch, error);
    if ('handle' in call) (call as HandledCall).handle.settle(result);
    call.abort?.abort(error);
    return result;
  }

  /**
   * Ends a running call's round without an output (its handler waits for something its host must
   * fetch first): its reserved call given back and its record taken back, since the round that ends
   * the logical call pays for it; the observer hears the round end; its handle settles as
   * `suspended`, then its signal aborts. `beforeHeard` is told the error first.
   */
  suspendRound(call: HandledCall, beforeHeard?: (error: ToolError) => void): CallFailure {
    const error = new ToolError('suspended', `call ${call.record.callId} to "${call.entry.name}" was suspended: its host calls again with what the handler asked for`);
    call.release?.();
    this.#ledger.giveBack(call.entry.name);
    this.#ledger.drop(call.record);
    beforeHeard?.(error);
    // The observer hears the round end (its handler ran), with the record as it stood (pending, error code suspended), which records() does not keep.
    const finishedAt = Date.now();
    const watch = call.watch;
    if (watch !== undefined) observe(watch, (watching) => watching.ended({ ...call.record, finishedAt, durationMs: finishedAt - call.record.startedAt, errorCode: 'suspended' }, { error, input: call.input }));
    const result = callFailure(call.record.callId, error);
    call.handle.settle(result);
    call.abort?.abort(error);
    return result;
  }
}

// ---- 2. the handler

/** Runs an open call's handler, its handle running meanwhile (watched where observed); `settle` hears how it ended, now or when its promise settles. */
export function runThen(call: HandledCall, settle: (settlement: Settlement) => void): void {
  call.handle.state = 'running';
  const outcome = call.watch === undefined ? runHandler(call) : runWatched(call, call.watch);
  if ('awaited' in outcome) settleThenable(outcome.awaited, settle);
  else settle(outcome);
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

/** The error a protocol peer ends a call with (`fail`, `failAsync`): its message alone is a `handler_failed` error. */
export function peerFailure(error: ToolError | string): Settlement {
  return { error: typeof error === 'string' ? new ToolError('handler_failed', error) : handlerError(error) };
}

/** Whatever a handler threw (or a protocol peer failed with), as a ToolError; reading what it threw can throw too, and is contained. */
export function handlerError(error: unknown): ToolError {
  try {
    if (error instanceof ToolError && toolErrorCodes.has(error.code) && typeof error.message === 'string') return error;
  } catch {
    // A revoked proxy or a hostile getter: described below like anything else.
  }
  return new ToolError('handler_failed', `the handler failed: ${describeThrown(error)}`);
}

/**
 * The request a handler gets. A class, so that `signal` is one getter on the prototype rather than
 * a fresh accessor per call (an object literal with a getter costs more than the call's validation).
 * A call with a handle has its own signal, aborted by `cancel` (which the host's signal triggers); a
 * synchronous call's is the host's, since nothing else can run meanwhile.
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

// ---- results, handles and signals

/** When a call was cancelled, if not while it waited (queued, pending, or for the store). */
export type CancelledWhen = 'before it started' | 'while its handler ran';

export function cancelledError(callId: string, tool: string, when?: CancelledWhen): ToolError {
  return new ToolError('cancelled', `call ${callId} to "${tool}" was cancelled${when === undefined ? '' : ` ${when}`}`);
}

export function callFailure(callId: string, error: ToolError): CallFailure {
  return { ok: false, callId, error };
}

/** `content` only when the handler returned blocks beside its output. */
export function callSuccess(callId: string, output: unknown, content: readonly ContentBlock[] | undefined): CallResult {
  return content === undefined ? { ok: true, callId, output } : { ok: true, callId, output, content };
}

export function newHandle(callId: string, tool: string): CallHandle {
  let settle!: (result: CallResult) => void;
  const result = new Promise<CallResult>((resolve) => (settle = resolve));
  const handle: CallHandle = {
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

export function settledHandle(failure: CallFailure, tool: string): DeferredCall {
  const handle = newHandle(failure.callId, tool);
  handle.settle(failure);
  return handle;
}

/**
 * Cancels the call when the host's signal aborts (at once if it already has: a call of
 * `deferAsync` waited for the store), until `release` is called at the call's end.
 */
export function listenForAbort(call: OpenCall, onAbort: () => void): void {
  const hostSignal = call.setting.signal;
  if (hostSignal === undefined) return;
  if (hostSignal.aborted) onAbort();
  hostSignal.addEventListener('abort', onAbort, { once: true });
  call.release = () => hostSignal.removeEventListener('abort', onAbort);
}

export function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
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

/** What the observer is told the host handed over: nothing, when the options could not be read. */
function contextOf(setting: CallSetting | string): unknown {
  return typeof setting === 'string' ? undefined : setting.context;
}

/** For parsed JSON only the root can be wrong: a scalar where an object or array belongs. */
function rootProblem(input: unknown): string | undefined {
  return typeof input === 'object' && input !== null ? undefined : `must be a JSON object or array, got ${input === null ? 'null' : typeof input}`;
}

/** A name or call id as the caller gave it, quoted; a symbol or object never breaks the message. */
export function quoted(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : describeThrown(value);
}

function issuesOf(result: { ok: boolean; issues?: readonly ValidationIssue[] }): readonly ValidationIssue[] {
  return result.issues ?? [];
}
