import { budgetExhausted, type ToolError, type ToolErrorCode } from './errors.js';
import type { CallObserver, CallOutcome, CallRecord, CallWatch } from './runtime-types.js';
import { guardStore, storeUnavailable, type RuntimeStore } from './store.js';
import type { ToolEntry, ToolRegistry } from './tool-registry.js';

export type MutableRecord = { -readonly [K in keyof CallRecord]: CallRecord[K] };

/** Longer than any call id a runtime mints (`call-<replicaId of up to 64>-<n>-<32 hex digits>`). */
export const maxCallIdLength = 160;

/** What the ledger is told at construction (the runtime's options, checked). */
export interface LedgerOptions {
  readonly maxRecords: number;
  readonly onRecord: ((record: CallRecord) => void) | undefined;
  readonly observer: CallObserver | undefined;
  readonly callIdPrefix: string;
  /** The fleet's store, where budgets are kept when there is one. */
  readonly shared: RuntimeStore | undefined;
}

/**
 * What a runtime keeps of its calls: each call's record, from its start (`open`) to its outcome
 * (`close`), told to `onRecord` and the observer; and each tool's budget, reserved before its handler
 * runs and given back when a call ends without running it, in this runtime or through the store.
 */
export class Ledger {
  #kept: MutableRecord[] = [];
  #nextCallId = 1;

  readonly #tools: ToolRegistry;
  readonly #options: LedgerOptions;

  constructor(tools: ToolRegistry, options: LedgerOptions) {
    this.#tools = tools;
    this.#options = options;
  }

  // ---- records

  /** A new call's record, pending, under a fresh call id (`unguessable` adds 128 random bits). */
  open(tool: string, unguessable = false): MutableRecord {
    const callId = `${this.#options.callIdPrefix}${this.#nextCallId++}${unguessable ? `-${randomToken()}` : ''}`;
    const record: MutableRecord = { tool, callId, outcome: 'pending', startedAt: Date.now() };
    const { maxRecords } = this.#options;
    if (maxRecords === 0) return record;
    this.#kept.push(record);
    // Trimmed in halves, so keeping a bounded log costs O(1) per call.
    if (this.#kept.length >= 2 * maxRecords) this.#kept = this.#kept.slice(-maxRecords);
    return record;
  }

  /** Whether an observer watches the calls. */
  get observed(): boolean {
    return this.#options.observer !== undefined;
  }

  /** The observer's watch over a call that has just started; an observer that throws or answers nothing watches nothing. */
  watch(record: MutableRecord, context: unknown): CallWatch | undefined {
    const { observer } = this.#options;
    if (observer === undefined) return undefined;
    try {
      const watch = observer.callStarted({ ...record }, context);
      return typeof watch === 'object' && watch !== null && typeof watch.ended === 'function' ? watch : undefined;
    } catch {
      return undefined;
    }
  }

  /** Makes the record final; a watched call's observer hears how it ended (`error`, and the validated copies it went through). */
  close(record: MutableRecord, outcome: CallOutcome, errorCode?: ToolErrorCode, watch?: CallWatch, error?: ToolError, input?: unknown, output?: unknown): void {
    record.outcome = outcome;
    record.finishedAt = Date.now();
    record.durationMs = record.finishedAt - record.startedAt;
    if (errorCode !== undefined) record.errorCode = errorCode;
    this.#notify(record);
    if (watch !== undefined) observe(watch, (watching) => watching.ended({ ...record }, { error, input, output }));
  }

  /** Tells `onRecord` of a record as it stands. What the listener throws is its own failure; the call's outcome stays as it is. */
  #notify(record: MutableRecord): void {
    const listener = this.#options.onRecord;
    if (listener === undefined) return;
    try {
      listener({ ...record });
    } catch {
      // Ignored: the call's outcome is already decided.
    }
  }

  /** A protocol call is handed to the outside: `onRecord` hears it pending, the observer that it was handed off. */
  handOff(record: MutableRecord, watch: CallWatch | undefined): void {
    this.#notify(record);
    if (watch !== undefined) observe(watch, (watching) => watching.handedOff?.({ ...record }));
  }

  /** Takes back an open record that was never heard (a suspended call's): found from the end, where the latest calls are. */
  drop(record: MutableRecord): void {
    const at = this.#kept.lastIndexOf(record);
    if (at >= 0) this.#kept.splice(at, 1);
  }

  /** Copies of the latest `maxRecords` records. */
  records(): CallRecord[] {
    const { maxRecords } = this.#options;
    const kept = this.#kept.length > maxRecords ? this.#kept.slice(-maxRecords) : this.#kept;
    return kept.map((record) => ({ ...record }));
  }

  // ---- budgets

  /** Whether a call of this tool is reserved through the store (one round trip), which only an asynchronous call can wait for. */
  reservesThroughStore(entry: ToolEntry): boolean {
    return this.#options.shared !== undefined && entry.budget !== undefined;
  }

  /** Reserves a call of a budgeted tool in this runtime: undefined when reserved (or unlimited), else why not. */
  reserve(entry: ToolEntry): ToolError | undefined {
    if (entry.remaining === undefined) return undefined;
    if (entry.remaining === 0) return budgetExhausted(entry.name);
    entry.remaining--;
    return undefined;
  }

  /** Reserves a call of a budgeted tool through the store: undefined when reserved, else why not. */
  async reserveShared(entry: ToolEntry): Promise<ToolError | undefined> {
    try {
      return (await this.#options.shared!.reserve(entry.name, entry.budget!)) ? undefined : budgetExhausted(entry.name);
    } catch (error) {
      return storeUnavailable(`no call of "${entry.name}"'s budget could be reserved`, error);
    }
  }

  /** Gives a reserved call back; through a store it is best effort: a release that does not reach it leaves the call used (fail closed). */
  giveBack(tool: string): void {
    const entry = this.#tools.get(tool);
    const { shared } = this.#options;
    if (shared === undefined) {
      if (entry?.remaining !== undefined) entry.remaining++;
    } else if (entry === undefined || entry.budget !== undefined) {
      shared.release(tool).catch(() => undefined);
    }
  }

  /** How many more calls a tool may complete, through the store when there is one. Rejects with `store_unavailable`. */
  async remainingShared(name: string): Promise<number | undefined> {
    const entry = this.#tools.get(name);
    const { shared } = this.#options;
    if (entry?.budget === undefined || shared === undefined) return entry?.remaining;
    const used = await guardStore(shared.used(name), `the store could not say how much of "${name}"'s budget is used`);
    return Math.max(0, entry.budget - used);
  }
}

/** Calls an observer; what it throws is its own failure, never the call's. */
export function observe(watch: CallWatch, hear: (watch: CallWatch) => void): void {
  try {
    hear(watch);
  } catch {
    // Ignored, as onRecord's: the call's outcome is decided by the runtime alone.
  }
}

/** 128 random bits as 32 hex digits: an id nobody can guess or enumerate. */
function randomToken(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
