import { type CallPipeline, type HandledCall, listenForAbort, newHandle, type OpenCall, runThen, type Settlement, isAborted, quoted } from './call-pipeline.js';
import { ToolError } from './errors.js';
import type { Ledger } from './ledger.js';
import type { CallResult } from './runtime-types.js';

/**
 * The calls of `callAsync` and `defer` while they are open in this runtime: queued for `pump`,
 * running an asynchronous handler, or pending a protocol peer's `complete` or `fail`; each with the
 * handle its caller waits on, and each cancelled by `cancel` or its host's signal.
 */
export class OpenCalls {
  readonly #queue: HandledCall[] = [];
  readonly #open = new Map<string, HandledCall>();

  readonly #pipeline: CallPipeline;
  readonly #ledger: Ledger;

  constructor(pipeline: CallPipeline, ledger: Ledger) {
    this.#pipeline = pipeline;
    this.#ledger = ledger;
  }

  /** A started call of `callAsync`: reserved through the store first when its budget is kept there, then run now. */
  run(started: OpenCall): Promise<CallResult> {
    if (this.#ledger.reservesThroughStore(started.entry)) return this.#reserveThenRun(started);
    return this.#runNow(started);
  }

  /** A started call of `defer`: a handler tool waits for `pump()`, a protocol tool is pending at once. */
  defer(started: OpenCall): HandledCall['handle'] {
    const handle = newHandle(started.record.callId, started.entry.name);
    const call = this.#keep(started, handle);
    if (call !== undefined) this.#queue.push(call);
    return handle;
  }

  /** Runs queued calls in the order they were deferred, at most `limit` of them; returns how many it started. */
  pump(limit: number): number {
    let started = 0;
    while (started < limit && this.#queue.length > 0) {
      this.#start(this.#queue.shift()!);
      started++;
    }
    return started;
  }

  /** Ends a pending protocol call with a peer's output or error. */
  settlePending(callId: string, settlement: Settlement): CallResult {
    const call = this.#open.get(callId);
    if (call === undefined || call.handle.state !== 'pending') throw new ToolError('unknown_call', `no pending protocol call ${quoted(callId)}: unknown, not a protocol call, or already finished`);
    return this.#settle(call, settlement);
  }

  cancel(callId: string): CallResult {
    const call = this.#open.get(callId);
    if (call === undefined) throw new ToolError('unknown_call', `no open call ${quoted(callId)} to cancel: unknown, already finished, or a synchronous call()`);
    return this.#cancelOpen(call);
  }

  /** `CapabilityRuntime.suspend` for a call running here; undefined when none runs here under `callId`. */
  suspend(callId: string): CallResult | undefined {
    const call = this.#open.get(callId);
    if (call?.handle.state !== 'running') return undefined;
    this.#open.delete(callId);
    return this.#pipeline.suspendRound(call);
  }

  #runNow(started: OpenCall): Promise<CallResult> {
    const handle = newHandle(started.record.callId, started.entry.name);
    const call = this.#keep(started, handle);
    if (call !== undefined) this.#start(call);
    return handle.result;
  }

  /** A budgeted call under a store: one reservation through it (one round trip), then the call runs as any other. */
  async #reserveThenRun(call: OpenCall): Promise<CallResult> {
    const refusal = await this.#ledger.reserveShared(call.entry);
    if (refusal !== undefined) return this.#pipeline.deny(call.record, refusal, call.watch, call.input);
    if (isAborted(call.setting.signal)) {
      this.#ledger.giveBack(call.entry.name);
      return this.#pipeline.closeCancelled(call, 'before it started');
    }
    return this.#runNow(call);
  }

  /**
   * Keeps a started call open under its handle. A protocol tool is then pending until `complete`,
   * `fail` or `cancel`; a handler tool is returned for the caller to run now or queue.
   */
  #keep(started: OpenCall, handle: HandledCall['handle']): HandledCall | undefined {
    // Written out: a spread of the started call costs more than the rest of callAsync together (V8's generic copy of properties).
    const call: HandledCall = { entry: started.entry, record: started.record, input: started.input, setting: started.setting, watch: started.watch, handle };
    this.#open.set(handle.callId, call);
    listenForAbort(call, () => void (this.#open.get(handle.callId) === call && this.#cancelOpen(call)));
    if (call.entry.handler !== undefined) return call;
    this.#pipeline.handOff(call);
    return undefined;
  }

  /** Runs an open call's handler; a promise it returns settles the call when it settles. */
  #start(call: HandledCall): void {
    // A call cancelled while its handler ran is already settled: what the handler gives later is dropped.
    runThen(call, (settlement) => void (this.#open.get(call.record.callId) === call && this.#settle(call, settlement)));
  }

  #settle(call: HandledCall, settlement: Settlement): CallResult {
    this.#open.delete(call.record.callId);
    call.release?.();
    const result = this.#pipeline.finish(call, settlement);
    call.handle.settle(result);
    return result;
  }

  #cancelOpen(call: HandledCall): CallResult {
    this.#open.delete(call.record.callId);
    call.release?.();
    if (call.handle.state === 'running') return this.#pipeline.closeCancelled(call, 'while its handler ran');
    const queued = this.#queue.indexOf(call);
    if (queued >= 0) this.#queue.splice(queued, 1);
    this.#ledger.giveBack(call.entry.name);
    return this.#pipeline.closeCancelled(call);
  }
}
