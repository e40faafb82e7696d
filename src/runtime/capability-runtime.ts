import type { ToolContract, ValidationIssue } from './contract.js';
import { defaultEnvelopeLimits, envelopeProblem, parsedWithinLimits, type EnvelopeLimits } from './envelope.js';
import { describeIssues, RegistrationError, ToolError, type ToolErrorCode } from './errors.js';
import { copyJsonValue, parseJson, stringifyJson } from './json.js';
import { ToolMetadata, type ToolPolicy } from './policy.js';

export interface ToolRequest<I> {
  readonly tool: string;
  readonly callId: string;
  readonly input: I;
}

export type CallFailure = { readonly ok: false; readonly callId: string; readonly error: ToolError };
export type CallResult<O = unknown> = { readonly ok: true; readonly callId: string; readonly output: O } | CallFailure;

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
  /** Prompt-only schemas from `ToolMetadata`: shown to models, never used to validate. */
  readonly promptInputSchema?: Record<string, unknown>;
  readonly promptOutputSchema?: Record<string, unknown>;
}

export interface RuntimeOptions {
  readonly envelope?: Partial<EnvelopeLimits>;
  /** How many of the latest records `records()` keeps (default 1,000); `onRecord` hears them all. */
  readonly maxRecords?: number;
  /** Called with every record as it is created or reaches its outcome. */
  readonly onRecord?: (record: CallRecord) => void;
}

type AnyContract = ToolContract<unknown, unknown>;
/** How a handler or a protocol peer ended a call. */
type Settlement = { readonly output: unknown } | { readonly error: ToolError };
type Handler = (request: ToolRequest<unknown>) => unknown;

interface ToolEntry {
  readonly name: string;
  readonly metadata: ToolMetadata;
  readonly contract: AnyContract;
  /** Absent for protocol tools, which are completed from outside. */
  readonly handler?: Handler;
  /** Calls left; undefined is unlimited. */
  remaining: number | undefined;
}

type MutableRecord = { -readonly [K in keyof CallRecord]: CallRecord[K] };

interface OpenCall {
  readonly entry: ToolEntry;
  readonly record: MutableRecord;
  readonly input: unknown;
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
  private nextCallId = 1;

  constructor(private readonly options: RuntimeOptions = {}) {
    this.limits = { ...defaultEnvelopeLimits, ...options.envelope };
    this.maxRecords = options.maxRecords ?? 1_000;
  }

  // ---- registration

  /** The handler gets `{ tool, callId, input }` and returns the output, or throws `ToolError.denied(…)`. */
  registerValidatedJsonTool<I, O, N extends string>(policy: ToolPolicy, metadata: ToolMetadata, contract: ToolContract<I, O, N>, handler: (request: ToolRequest<I>) => NoInfer<O> | Promise<NoInfer<O>>): void {
    this.register(policy, metadata, contract, handler as Handler);
  }

  /** A tool served outside the process: calls go through `defer` and end with `complete` or `fail`. */
  registerValidatedProtocolJsonTool<I, O, N extends string>(policy: ToolPolicy, metadata: ToolMetadata, contract: ToolContract<I, O, N>): void {
    this.register(policy, metadata, contract, undefined);
  }

  /** The handler takes the typed input and returns the typed output; TypeScript checks both against the contract. */
  registerTypedJsonTool<I, O, N extends string>(policy: ToolPolicy, contract: ToolContract<I, O, N>, handler: (input: I) => NoInfer<O> | Promise<NoInfer<O>>): void {
    this.registerTypedJsonToolWithMetadata(policy, ToolMetadata.of(contract.description), contract, handler);
  }

  registerTypedJsonToolWithMetadata<I, O, N extends string>(policy: ToolPolicy, metadata: ToolMetadata, contract: ToolContract<I, O, N>, handler: (input: I) => NoInfer<O> | Promise<NoInfer<O>>): void {
    this.register(policy, metadata, contract, (request) => handler(request.input as I));
  }

  private register(policy: ToolPolicy, metadata: ToolMetadata, contract: AnyContract, handler: Handler | undefined): void {
    if (policy.name !== contract.name) throw new RegistrationError(`policy names the tool "${policy.name}" but its contract is for "${contract.name}"`);
    if (this.tools.has(policy.name)) throw new RegistrationError(`tool "${policy.name}" is already registered`);
    const entry: ToolEntry = { name: policy.name, metadata, contract, remaining: policy.callBudget };
    this.tools.set(policy.name, handler === undefined ? entry : { ...entry, handler });
  }

  // ---- calls

  /** A synchronous call. Never throws for a caller's mistake: every failure is a `ToolError` result. */
  call<O = unknown>(name: string, input: unknown): CallResult<O> {
    return this.callWith(name, input, false);
  }

  private callWith<O>(name: string, input: unknown, parsedFromJson: boolean): CallResult<O> {
    const started = this.start(name, input, false, parsedFromJson);
    if (!started.ok) return started;
    const call = started.call;
    let output: unknown;
    try {
      output = call.entry.handler!({ tool: name, callId: call.record.callId, input });
    } catch (error) {
      return this.finish(call, { error: handlerError(error) }) as CallResult<O>;
    }
    if (isPromiseLike(output)) {
      output.then(undefined, () => undefined);
      return this.finish(call, { error: new ToolError('handler_failed', `the handler of "${name}" is asynchronous: call it with defer() and pump()`) }) as CallResult<O>;
    }
    return this.finish(call, { output }) as CallResult<O>;
  }

  /** A call with JSON text in and JSON text out. Malformed JSON is denied as `invalid_json`. */
  callJson(name: string, inputJson: string): CallResult<string> {
    const exactNumbers = this.tools.get(name)?.contract.exactNumbers ?? false;
    const options = { exactNumbers, maxDepth: this.limits.maxDepth, maxNodes: this.limits.maxNodes };
    let input: unknown;
    try {
      // The default mode takes the native parser and checks its result; a result it rejects is
      // parsed again by parseJson, whose error names the offending number or the limit.
      input = exactNumbers ? parseJson(inputJson, options) : JSON.parse(inputJson);
      if (!exactNumbers && !parsedWithinLimits(input, this.limits)) input = parseJson(inputJson, options);
    } catch (error) {
      return this.deny(this.openRecord(name), new ToolError('invalid_json', `input for "${name}" is not valid JSON: ${(error as Error).message}`));
    }
    // What parseJson builds is a JSON envelope by construction (plain objects and arrays of data
    // properties, finite numbers, within the same limits), so the envelope walk is not repeated.
    const result = this.callWith(name, input, true);
    return result.ok ? { ...result, output: exactNumbers ? stringifyJson(result.output) : JSON.stringify(result.output) } : result;
  }

  /**
   * A deferred call. The input is checked and a call reserved at once; a handler tool then waits
   * for `pump()`, a protocol tool for `complete()` or `fail()`. A rejected call settles at once.
   */
  defer<O = unknown>(name: string, input: unknown): DeferredCall<O> {
    const started = this.start(name, input, true);
    const handle = newHandle(started.ok ? started.call.record.callId : started.callId, name);
    if (!started.ok) {
      handle.settle(started);
      return handle as DeferredCall<O>;
    }
    const call: DeferredOpenCall = { ...started.call, handle };
    this.open.set(handle.callId, call);
    if (call.entry.handler === undefined) {
      handle.state = 'pending';
      this.options.onRecord?.({ ...call.record });
    } else {
      this.queue.push(call);
    }
    return handle as DeferredCall<O>;
  }

  /**
   * Runs queued calls in the order they were deferred, at most `limit` of them (default: until
   * the queue is empty, including calls deferred meanwhile). Synchronous handlers finish within
   * `pump`; asynchronous ones settle their handle later. Returns how many calls it started.
   */
  pump(limit = Number.POSITIVE_INFINITY): number {
    let started = 0;
    while (started < limit && this.queue.length > 0) {
      const call = this.queue.shift()!;
      started++;
      call.handle.state = 'running';
      let output: unknown;
      try {
        output = call.entry.handler!({ tool: call.entry.name, callId: call.record.callId, input: call.input });
      } catch (error) {
        this.settle(call, { error: handlerError(error) });
        continue;
      }
      if (isPromiseLike(output)) {
        Promise.resolve(output).then(
          (value) => this.settle(call, { output: value }),
          (error: unknown) => this.settle(call, { error: handlerError(error) }),
        );
      } else {
        this.settle(call, { output });
      }
    }
    return started;
  }

  /** Completes a pending protocol call; its output is held to the envelope and the output contract. */
  complete(callId: string, output: unknown): CallResult {
    const call = this.takePending(callId);
    return this.settle(call, { output });
  }

  /** Ends a pending protocol call with an error (a `denied` error is recorded as denied). */
  fail(callId: string, error: ToolError | string): CallResult {
    const call = this.takePending(callId);
    return this.settle(call, { error: typeof error === 'string' ? new ToolError('handler_failed', error) : error });
  }

  /** Cancels a queued or pending call and gives its reserved call back to the budget. */
  cancel(callId: string): CallResult {
    const call = this.open.get(callId);
    if (call === undefined || call.handle.state === 'running') throw new ToolError('unknown_call', `no queued or pending call "${callId}" to cancel`);
    this.open.delete(callId);
    const queued = this.queue.indexOf(call);
    if (queued >= 0) this.queue.splice(queued, 1);
    if (call.entry.remaining !== undefined) call.entry.remaining++;
    const result: CallResult = { ok: false, callId, error: new ToolError('cancelled', `call ${callId} to "${call.entry.name}" was cancelled`) };
    this.closeRecord(call.record, 'cancelled', 'cancelled');
    call.handle.settle(result);
    return result;
  }

  // ---- what the host can see

  records(): CallRecord[] {
    return this.callRecords.slice(-this.maxRecords).map((record) => ({ ...record }));
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
          ...(promptInputSchema === undefined ? {} : { promptInputSchema: copyJson(promptInputSchema) }),
          ...(promptOutputSchema === undefined ? {} : { promptOutputSchema: copyJson(promptOutputSchema) }),
        };
      });
  }

  /** How many more calls a tool may complete; undefined when unlimited. */
  remainingCalls(name: string): number | undefined {
    return this.tools.get(name)?.remaining;
  }

  // ---- the one call path

  private start(name: string, input: unknown, deferred: boolean, parsedFromJson = false): { ok: true; call: OpenCall } | CallFailure {
    const record = this.openRecord(name);
    const entry = this.tools.get(name);
    if (entry === undefined) return this.deny(record, new ToolError('unknown_tool', `no tool named "${name}"; available: ${[...this.tools.keys()].sort().join(', ') || 'none'}`));
    if (!deferred && entry.handler === undefined) return this.deny(record, new ToolError('handler_failed', `"${name}" is served outside the process: call it with defer() and complete()`));
    const problem = parsedFromJson ? rootProblem(input) : envelopeProblem(input, this.limits, entry.contract.exactNumbers);
    if (problem !== undefined) return this.deny(record, new ToolError('invalid_envelope', `input for "${name}" is not a plain JSON object or array: ${problem}`));
    if (!entry.contract.input.is(input)) {
      const issues = issuesOf(entry.contract.input.validate(input));
      return this.deny(record, new ToolError('invalid_input', `input for "${name}" does not match its contract: ${describeIssues(issues)}`, issues));
    }
    if (entry.remaining === 0) return this.deny(record, new ToolError('budget_exhausted', `"${name}" has used its whole call budget`));
    if (entry.remaining !== undefined) entry.remaining--;
    return { ok: true, call: { entry, record, input } };
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
      const output = settlement.output;
      const problem = envelopeProblem(output, this.limits, entry.contract.exactNumbers);
      if (problem !== undefined) {
        error = new ToolError('invalid_output', `output of "${name}" is not a plain JSON object or array: ${problem}`);
      } else if (!entry.contract.output.is(output)) {
        const issues = issuesOf(entry.contract.output.validate(output));
        error = new ToolError('invalid_output', `output of "${name}" does not match its contract: ${describeIssues(issues)}`, issues);
      }
    }
    if (error === undefined) {
      this.closeRecord(call.record, 'completed');
      return { ok: true, callId, output: (settlement as { output: unknown }).output };
    }
    this.closeRecord(call.record, error.code === 'denied' ? 'denied' : 'failed', error.code);
    return { ok: false, callId, error };
  }

  private settle(call: DeferredOpenCall, settlement: Settlement): CallResult {
    this.open.delete(call.record.callId);
    const result = this.finish(call, settlement);
    call.handle.settle(result);
    return result;
  }

  private takePending(callId: string): DeferredOpenCall {
    const call = this.open.get(callId);
    if (call === undefined || call.handle.state !== 'pending') throw new ToolError('unknown_call', `no pending protocol call "${callId}": unknown, not a protocol call, or already finished`);
    return call;
  }

  private deny(record: MutableRecord, error: ToolError): CallFailure {
    this.closeRecord(record, 'denied', error.code);
    return { ok: false, callId: record.callId, error };
  }

  private openRecord(tool: string): MutableRecord {
    const record: MutableRecord = { tool, callId: `call-${this.nextCallId++}`, outcome: 'pending', startedAt: Date.now() };
    this.callRecords.push(record);
    // Trimmed in halves, so keeping a bounded log costs O(1) per call.
    if (this.callRecords.length >= 2 * this.maxRecords) this.callRecords = this.callRecords.slice(-this.maxRecords);
    return record;
  }

  private closeRecord(record: MutableRecord, outcome: CallOutcome, errorCode?: ToolErrorCode): void {
    record.outcome = outcome;
    record.finishedAt = Date.now();
    record.durationMs = record.finishedAt - record.startedAt;
    if (errorCode !== undefined) record.errorCode = errorCode;
    this.options.onRecord?.({ ...record });
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

function handlerError(error: unknown): ToolError {
  return error instanceof ToolError ? error : new ToolError('handler_failed', `the handler failed: ${error instanceof Error ? error.message : String(error)}`);
}

function issuesOf(result: { ok: boolean; issues?: readonly ValidationIssue[] }): readonly ValidationIssue[] {
  return result.issues ?? [];
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function copyJson(value: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return copyJsonValue(value) as Record<string, unknown>;
}
