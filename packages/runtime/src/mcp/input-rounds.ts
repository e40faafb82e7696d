import type { CallResult, CapabilityRuntime, DeferredCall, ToolRequest } from '../core/capability-runtime.js';
import type { ContractValidator, PathSegment } from '../core/contract.js';
import { ToolError } from '../core/errors.js';
import { describeThrown } from '../support/describe-thrown.js';
import { isObjectRecord } from '../support/is-object-record.js';
import { maxStateLength, type OpenResult, type RequestStateBinding, type RequestStateSeal } from './request-state.js';

/**
 * A handler asks the client for input (elicitation, sampling, roots) with one call that works on
 * both MCP revisions, and gets back a typed outcome, never a thrown surprise:
 *
 * - 2025-11-25: the helper sends the request to the client from inside the call and awaits it.
 * - 2026-07-28 (multi-round-trip requests, SEP-2322/2577): a request carries no channel back, so
 *   a question without an answer ends the round: the call answers `input_required` with the
 *   questions (`inputRequests`) and a sealed `requestState`, the client asks its user or model and
 *   calls again with `inputResponses`, and the handler runs again from the top. This time the
 *   helper finds the answer and returns it. Everything a handler does before its last question
 *   therefore runs once per round: it must not have effects that would happen twice.
 *
 * Every answer is untrusted input: a helper returns one only after it has the shape its method
 * gives and passed the validator that came with the question (a generated contract's validator
 * or any Standard Schema), typed from it.
 */

/** A Standard Schema (zod, valibot, arktype, …): what `validate` gives back. */
export type StandardResult<Output> = { readonly value: Output; readonly issues?: undefined } | { readonly issues: readonly { readonly message: string; readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined }[] };

/** A Standard Schema v1 (https://standardschema.dev), as far as an answer's check needs it. */
export interface StandardSchemaV1<Output = unknown> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
  };
}

/** What checks an answer: a generated contract's validator (`contract.input`, or a module of its own), or any Standard Schema. */
export type McpAnswerValidator<T> = ContractValidator<T> | StandardSchemaV1<T>;

/** One thing wrong with an answer: where (a path into the answer) and what. */
export interface McpAnswerIssue {
  readonly path: readonly PathSegment[];
  readonly message: string;
}

/**
 * What a question came back with. `accepted`: the answer, checked; `invalid`: the client answered
 * something that breaks the question's validator or its method's result shape (the issues say
 * how); `unavailable`: nobody could be asked (the call did not come through MCP, the client did not
 * declare the capability, it answered with an error, or the call ran out of rounds).
 */
export type McpAnswer<T> = { readonly status: 'accepted'; readonly value: T } | McpAnswerInvalid | McpAnswerUnavailable;

export interface McpAnswerInvalid {
  readonly status: 'invalid';
  readonly message: string;
  readonly issues: readonly McpAnswerIssue[];
}

export interface McpAnswerUnavailable {
  readonly status: 'unavailable';
  readonly message: string;
}

/** An elicitation may also be declined (the user said no) or cancelled (dismissed without a choice). */
export type McpElicitAnswer<T> = McpAnswer<T> | { readonly status: 'declined' } | { readonly status: 'cancelled' };

/** A request the client answers for a tool: embedded in `inputRequests` under 2026-07-28, sent as it is under 2025-11-25. */
export interface McpInputRequest {
  readonly method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  readonly params: Readonly<Record<string, unknown>>;
}

/**
 * A JSON-RPC error for the client rather than a tool result: `callTool` rejects with it for a
 * request no tool should see (a refused `requestState`, `inputResponses` that are no object). Both
 * SDKs answer a handler's thrown error with its `code`, `message` and `data`; a server wired by
 * hand writes them into the error response.
 */
export class McpRequestError extends Error {
  override readonly name = 'McpRequestError';

  constructor(
    readonly code: number,
    message: string,
    readonly data?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }
}

/**
 * The refusal of a call whose request is answered with a JSON-RPC error instead of a tool result:
 * the error goes with it, so that an observer can tell (`otelCallObserver` records its code).
 */
export class McpRequestRefusal extends ToolError {
  constructor(
    message: string,
    readonly answer: McpRequestError,
  ) {
    super('denied', message);
  }
}

/**
 * A request to the client that cannot be sent: a 2026-07-28 request has no channel back before its
 * result (its tools ask through `input_required`), and a 2025-11-25 request served without a
 * session cannot hear the answer. The helpers answer `unavailable` with its message.
 */
export class McpContextError extends Error {
  override readonly name = 'McpContextError';
}

/** JSON-RPC's invalid params, which the revision answers a refused `requestState` with. */
export const invalidParamsCode = -32602;
/** MCP's MissingRequiredClientCapabilityError (2026-07-28): the call needs what the client did not declare. */
export const missingCapabilityCode = -32021;

/** A question as a helper asks it. */
export interface Question<A> {
  /** The key its answer comes back under (2026-07-28); undefined numbers it by its kind and order. */
  readonly key: string | undefined;
  readonly kind: 'elicitation' | 'sampling' | 'roots';
  readonly request: McpInputRequest;
  /** The client capability answering needs, as `requiredCapabilities` names it (`{ sampling: {} }`). */
  readonly capability: Readonly<Record<string, unknown>>;
  /** The call cannot go on without the answer: a 2026-07-28 client that did not declare the capability gets -32021 instead of an `unavailable` outcome. */
  readonly required: boolean;
  /** The parameters as 2025-11-25 sends them, where they differ (a URL elicitation's id). */
  readonly legacyParams?: () => Readonly<Record<string, unknown>>;
  /** Did the client declare what answering needs? `capabilities` as the request's envelope names them. */
  supportedBy(capabilities: Readonly<Record<string, unknown>>): boolean;
  /** The outcome of what the client answered, or undefined when it is no answer to this method at all. */
  read(answer: unknown): Promise<A | undefined>;
}

/** What a handler's MCP context gives the helpers: its revision, and the way to ask. */
export interface InputChannel {
  readonly protocolVersion: string;
  /** 2026-07-28: the round the call is in (its answers so far); undefined for 2025-11-25. */
  readonly inputRound: InputRound | undefined;
  sendRequest(request: { method: string; params?: Record<string, unknown> }): Promise<unknown>;
}

/** What kind of value a value is, for a message about one of the wrong kind: `null`, `an array`, `a string`, … */
export const kindOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`);

export const unavailable = (message: string): McpAnswerUnavailable => ({ status: 'unavailable', message });
export const invalid = (message: string, issues: readonly McpAnswerIssue[] = []): McpAnswerInvalid => ({ status: 'invalid', message, issues });

/**
 * Asks one question on whichever revision the call came at; `channel` is undefined for a call that
 * did not come through MCP. What the helpers `mcpElicit`, `mcpCreateMessage` and `mcpListRoots` do.
 */
export async function ask<A>(request: ToolRequest<unknown>, channel: InputChannel | undefined, question: Question<A>): Promise<A | McpAnswerUnavailable | McpAnswerInvalid> {
  const method = question.request.method;
  if (channel === undefined) return unavailable(`${method} needs an MCP client, and call ${request.callId} to "${request.tool}" did not come through MCP`);
  const round = channel.inputRound;
  if (round !== undefined) return round.ask(request, question);
  if (channel.protocolVersion !== '2025-11-25') return unavailable(`${method} at ${channel.protocolVersion} is asked through an input_required result, and call ${request.callId} to "${request.tool}" was not served by mcpToolHandlers, which sends it`);
  let answer: unknown;
  try {
    answer = await channel.sendRequest({ method, params: { ...(question.legacyParams?.() ?? question.request.params) } });
  } catch (error) {
    return unavailable(error instanceof McpContextError ? error.message : `the client did not answer ${method}: ${describeThrown(error)}`);
  }
  return (await question.read(answer)) ?? invalid(`the client answered ${method} with something that is no ${method} result: ${describeAnswer(answer)}`);
}

/** The answer checked by the question's validator: the typed value, or what is wrong with it. A validator that throws is an invalid answer too. */
export async function validateAnswer<T>(validator: McpAnswerValidator<T>, value: unknown, what: string): Promise<{ readonly status: 'accepted'; readonly value: T } | McpAnswerInvalid> {
  try {
    if ('~standard' in validator) {
      const result = await validator['~standard'].validate(value);
      if (result.issues === undefined) return { status: 'accepted', value: result.value };
      const issues = result.issues.map((issue) => ({ path: (issue.path ?? []).map((segment) => pathSegment(typeof segment === 'object' ? segment.key : segment)), message: issue.message }));
      return invalid(`${what} does not pass its validator: ${describeIssues(issues)}`, issues);
    }
    const result = validator.validate(value);
    if (result.ok) return { status: 'accepted', value: result.value };
    const issues = result.issues.map((issue) => ({ path: issue.path, message: issue.message }));
    return invalid(`${what} does not pass its validator: ${describeIssues(issues)}`, issues);
  } catch (error) {
    return invalid(`${what} could not be checked: its validator threw ${describeThrown(error)}`);
  }
}

function pathSegment(segment: PropertyKey): PathSegment {
  return typeof segment === 'number' ? segment : String(segment);
}

function describeIssues(issues: readonly McpAnswerIssue[]): string {
  const shown = issues.slice(0, 5).map((issue) => `${issue.path.length === 0 ? '(the answer)' : `/${issue.path.join('/')}`}: ${issue.message}`);
  return `${shown.join('; ')}${issues.length > shown.length ? `; and ${issues.length - shown.length} more` : ''}`;
}

function describeAnswer(answer: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(answer) ?? String(answer);
  } catch {
    text = describeThrown(answer);
  }
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/**
 * One round of a 2026-07-28 call: the answers the client has given so far (those the sealed state
 * carries from earlier rounds, and this retry's `inputResponses`), the questions still open, and
 * the answers the handler read, which the next state carries.
 */
export class InputRound {
  /** Questions asked this round that have no answer yet, by key: the round's `inputRequests`. */
  readonly asked = new Map<string, McpInputRequest>();
  /** Answers the handler read this round, by key: what the next round's state carries. */
  readonly used = new Map<string, unknown>();
  /** Capabilities a required question needs that the client did not declare: the call ends with -32021. */
  missing: Record<string, unknown> | undefined;
  private readonly counters = new Map<string, number>();
  /** A question is out and the round's end is scheduled: the call is answering `input_required`. */
  private suspending = false;
  /** Once the call became an MCP task: its questions wait there for `tasks/update` instead of ending the round. */
  private task: TaskQuestions | undefined;

  constructor(
    /** 1 for a call's first request, n + 1 for the retry of a state minted in round n. */
    readonly round: number,
    readonly maxRounds: number,
    private readonly answers: Map<string, unknown>,
    private readonly clientCapabilities: Readonly<Record<string, unknown>>,
    /** Ends the call's round: the questions asked so far go out. */
    private readonly suspend: (callId: string) => void,
  ) {}

  async ask<A>(request: ToolRequest<unknown>, question: Question<A>): Promise<A | McpAnswerUnavailable> {
    const method = question.request.method;
    const key = question.key ?? this.nextKey(question.kind);
    if (!question.supportedBy(this.clientCapabilities)) {
      // A task has answered its tools/call already: the -32021 error can no longer be the answer.
      if (!question.required || this.task !== undefined) return unavailable(`the client did not declare the capability ${method} needs (its request's io.modelcontextprotocol/clientCapabilities)`);
      this.missing = { ...this.missing, ...question.capability };
      return this.endRound(request);
    }
    if (this.answers.has(key)) {
      const answer = this.answers.get(key);
      const outcome = await question.read(answer);
      // An answer of another shape (a number, another method's result) answers nothing: asked again.
      if (outcome !== undefined) {
        this.used.set(key, answer);
        return outcome;
      }
    }
    if (this.task !== undefined) {
      // Asked again under the same key, the question gets the same answer: a key is never reused for another question.
      let answer: unknown;
      try {
        answer = await this.task.ask(key, question.request);
      } catch (error) {
        // The call was cancelled or ended elsewhere: the handler sees that, as it sees its signal.
        if (request.signal.aborted) throw error;
        return unavailable(`${method} could not be asked through the task: ${describeThrown(error)}`);
      }
      this.answers.set(key, answer);
      return (await question.read(answer)) ?? unavailable(`the client answered ${method} with something that is no ${method} result: ${describeAnswer(answer)}`);
    }
    if (this.round >= this.maxRounds) return unavailable(`call ${request.callId} to "${request.tool}" asked for input in ${this.maxRounds} rounds, the most a call may take (maxInputRounds)`);
    this.asked.set(key, question.request);
    return this.endRound(request);
  }

  /** The round ends once the questions asked together are in; the handler's promise settles only then, with the round's end. */
  private endRound(request: ToolRequest<unknown>): Promise<never> {
    const { signal } = request;
    if (!this.suspending) {
      this.suspending = true;
      // Questions asked together (Promise.all, or one after another without awaiting anything else) go out in one round.
      setTimeout(() => this.suspend(request.callId), 0);
    }
    // Settles only when the round ends: the handler's finally blocks run, whatever it returns is dropped.
    return new Promise<never>((_, reject) => {
      if (signal.aborted) reject(signal.reason);
      else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  }

  /** Whether a question of this round is out, so that the call is about to answer `input_required`. */
  get asking(): boolean {
    return this.suspending;
  }

  /** The call has become an MCP task: from now on a question without an answer waits for the client's `tasks/update`. */
  becomeTask(questions: TaskQuestions): void {
    this.task = questions;
  }

  private nextKey(kind: string): string {
    const count = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, count);
    return `${kind}-${count}`;
  }
}

/** Where the questions of a call that became an MCP task wait: surfaced by `tasks/get`, answered by `tasks/update`, on any replica. */
export interface TaskQuestions {
  /** Resolves with the client's answer under `key`; rejects with why the call ended when it ends first. */
  ask(key: string, request: McpInputRequest): Promise<unknown>;
}

/** What a retry of 2026-07-28 carries besides its arguments. */
export interface RetryParams {
  readonly inputResponses: unknown;
  readonly requestState: unknown;
}

export interface InputRoundsOptions {
  readonly seal: RequestStateSeal;
  readonly maxRounds: number;
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
}

/** A round's end: the call's result, the questions that went out with the state to echo, or the MCP task the call became. */
export type RoundResult<T = never> = { readonly result: CallResult } | { readonly inputRequired: { readonly inputRequests: Record<string, McpInputRequest>; readonly requestState: string } } | { readonly task: T };

/** How a call that may be served as an MCP task starts, and becomes one. */
export interface Escalation<T> {
  /** Starts the call as a deferred call (`deferAsync`): its id is the task's. */
  start(context: unknown, signal: AbortSignal | undefined): Promise<DeferredCall>;
  /**
   * The call outlasted its first turn (a macrotask) without settling and without a question out:
   * it goes on as a task; returns what the `tools/call` answers (its CreateTaskResult).
   */
  begin(round: InputRound, call: DeferredCall): T;
}

/**
 * One request of a 2026-07-28 `tools/call`: opens its state (a refused one is recorded as a denied
 * call and rejects with `McpRequestError`), runs the call with the answers so far, and ends it
 * either with its result or, when the handler asked what nobody has answered yet, with the open
 * questions and a new sealed state. Every round is a call of its own through the runtime, so the
 * input contract holds in every round; a round that ends with questions gives its reserved call
 * back and leaves no record (see `CapabilityRuntime.suspend`).
 */
export async function callInRounds<T = never>(runtime: CapabilityRuntime, name: string, args: unknown, retry: RetryParams, options: InputRoundsOptions, context: (round: InputRound | undefined) => unknown, signal: AbortSignal | undefined, escalation?: Escalation<T>): Promise<RoundResult<T>> {
  const { inputResponses, requestState } = retry;
  if (inputResponses !== undefined && !isObjectRecord(inputResponses)) {
    throw new McpRequestError(invalidParamsCode, `inputResponses must be an object of answers by key, got ${kindOf(inputResponses)}`, { reason: 'invalid_input_responses' });
  }
  const binding = { tool: name, arguments: args };
  let round = 1;
  const answers = new Map<string, unknown>(Object.entries((inputResponses ?? {}) as Record<string, unknown>));
  if (requestState !== undefined) {
    const opened = await openOnce(runtime, options.seal, requestState, binding);
    if (opened instanceof ToolError) return { result: await runtime.callAsync(name, args, { refusal: opened }) };
    if (!opened.ok) {
      const answer = new McpRequestError(invalidParamsCode, 'Invalid or expired requestState', { reason: 'invalid_request_state', refusal: opened.reason, message: opened.message });
      const refusal = new McpRequestRefusal(`its requestState was refused (${opened.reason}): ${opened.message}`, answer);
      const result = await runtime.callAsync(name, args, { refusal, context: context(undefined) });
      // An unknown tool is answered as one; any known tool's call is refused as the revision says.
      if (result.ok || result.error !== refusal) return { result };
      throw answer;
    }
    round = opened.state.round + 1;
    // What the handler already acted on stands: a retry cannot change an earlier round's answer.
    for (const [key, answer] of Object.entries(opened.state.answers)) answers.set(key, answer);
  }
  const inputRound = new InputRound(round, options.maxRounds, answers, options.clientCapabilities, (callId) => {
    try {
      runtime.suspend(callId);
    } catch {
      // The call ended meanwhile (the handler went on without the answer): its result stands.
    }
  });
  const deferred = escalation === undefined ? undefined : await escalation.start(context(inputRound), signal);
  // A call that settles or asks within its first turn is answered at once (its result, or an input_required round); a longer one becomes a task.
  if (deferred !== undefined && (await outlastsFirstTurn(deferred.result)) && !inputRound.asking) return { task: escalation!.begin(inputRound, deferred) };
  const result = await (deferred?.result ?? runtime.callAsync(name, args, { context: context(inputRound), signal }));
  // Answered with its plain result, the call's id was never handed out: the store need not keep it, output and all, for a task's ttl.
  if (deferred !== undefined && (result.ok || result.error.code !== 'suspended')) await runtime.forgetCall(deferred.callId).catch(() => undefined);
  if (!result.ok && result.error.code === 'suspended' && inputRound.missing !== undefined) {
    const message = `the call needs client capabilities its request did not declare: ${JSON.stringify(inputRound.missing)}`;
    await runtime.callAsync(name, args, { refusal: ToolError.denied(message) });
    throw new McpRequestError(missingCapabilityCode, `Missing required client capability: ${message}`, { requiredCapabilities: inputRound.missing });
  }
  if (result.ok || result.error.code !== 'suspended' || inputRound.asked.size === 0) return { result };
  const sealed = await options.seal.seal(binding, round, Object.fromEntries(inputRound.used));
  if (sealed.length > maxStateLength) {
    // A state no retry could bring back is never handed out: the answers that swelled it are refused now, with the call.
    const message = `the answers this call carries into its next round make a requestState of ${sealed.length} characters, more than the ${maxStateLength} a retry may bring back: answer with less`;
    const answer = new McpRequestError(invalidParamsCode, `inputResponses too large: ${message}`, { reason: 'input_responses_too_large', maxRequestStateLength: maxStateLength });
    await runtime.callAsync(name, args, { refusal: new McpRequestRefusal(message, answer) });
    throw answer;
  }
  return { inputRequired: { inputRequests: Object.fromEntries(inputRound.asked), requestState: sealed } };
}

/** Whether the call is still open after one macrotask: by then a question it asked has scheduled its round's end (setTimeout 0). */
function outlastsFirstTurn(call: Promise<CallResult>): Promise<boolean> {
  return new Promise((resolve) => {
    const turn = setTimeout(() => resolve(true), 0);
    void call.then(() => {
      clearTimeout(turn);
      resolve(false);
    });
  });
}

/**
 * Opens a retry's state and claims it once through the runtime's store, so that a state continues
 * one retry on whichever replica it reaches (without a store every claim is granted, as before). A
 * store that cannot answer refuses the retry with its `store_unavailable` error.
 */
async function openOnce(runtime: CapabilityRuntime, seal: RequestStateSeal, token: unknown, binding: RequestStateBinding): Promise<OpenResult | ToolError> {
  const opened = await seal.open(token, binding);
  if (!opened.ok) return opened;
  try {
    if (await runtime.claimOnce(`requestState:${opened.state.id}`, opened.state.expiresAt)) return opened;
  } catch (error) {
    return error as ToolError;
  }
  return { ok: false, reason: 'replayed', message: 'it was used already: a requestState continues one retry; start the call again without it' };
}
