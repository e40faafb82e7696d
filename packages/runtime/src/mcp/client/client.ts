import { copyContent, type ContentBlock } from '../../core/content.js';
import type { InputOf, OutputOf, ToolContract } from '../../core/contract.js';
import { copyEnvelope, defaultEnvelopeLimits, whyNotEnvelope } from '../../core/envelope.js';
import { describeNames, inputMismatch, outputMismatch, ToolError, toolErrorCodes, type ToolErrorCode } from '../../core/errors.js';
import type { ContractSet } from '../../core/handler-map.js';
import { parseJson } from '../../core/json.js';
import { jsonEqual } from '../../support/json-equal.default.js';
import { describeThrown } from '../../support/describe-thrown.js';
import { portableName } from '../../targets/tool-names.js';
import { isLoggingLevel, metaKeys } from '../revision-2026.js';
import { toolErrorMetaKey, type McpLoggingLevel } from '../protocol.js';
import { answerRound, type McpClientInput, type McpInputFailure } from './client-input.js';
import { outputAsDoubles } from '../../core/host-results.js';

export type { McpClientInput, McpElicitationRequest, McpElicitationResult, McpInputContext, McpInputFailure, McpSamplingRequest } from './client-input.js';
export type { McpLoggingLevel } from '../protocol.js';
export type { McpCreateMessageResult, McpRoot, McpSamplingContent, McpSamplingMessage, McpToolResultBlock, McpToolUseBlock } from '../input-questions.js';

/**
 * Typed calls to the tools of an MCP server, held to the contracts of a build: the arguments are
 * checked before anything is sent, the result when it arrives, with the runtime's own errors.
 * Imports nothing from the MCP SDK: the client is the SDK's own `Client`, typed by what is used.
 *
 *   const tools = mcpToolClient(client, contracts);            // SDK v2 (@modelcontextprotocol/client)
 *   const tools = mcpToolClientV1(client, contracts);          // SDK v1 (@modelcontextprotocol/sdk)
 *   const result = await tools.call('get-sum', { a: 1, b: 2 }, { timeout: 10_000 });
 *   if (result.ok) result.output;                              // the contract's output type, validated
 *   else result.error;                                         // a ToolError: code, message, issues
 */

/** A `tools/call` result as the server sent it. */
export interface McpReceivedResult {
  readonly content?: readonly unknown[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
  readonly [key: string]: unknown;
}

/**
 * The outcome of one typed call; never a rejected promise. `received` is the server's result as it
 * came, when one came (its content blocks beside the output, or what an invalid output was).
 * A contract whose output is unconstrained (`output: {}`, what `jtc import` writes for a tool
 * listed without an output schema) succeeds with the result's content blocks, checked, and an
 * output only when the result carries JSON: such a tool mostly answers text.
 */
export type McpToolCallResult<O> = McpToolOutput<O> | McpToolCallFailure;

/** A call without an output; `input` says which input round could not be answered, when that was why (2026-07-28). */
export interface McpToolCallFailure {
  readonly ok: false;
  readonly error: ToolError;
  readonly received?: McpReceivedResult;
  readonly input?: McpInputFailure;
}

/**
 * Options of `mcpToolClient`. `input`: the callbacks that answer a 2026-07-28 server's
 * `input_required` results (elicitation, sampling, roots), each answer checked before it is sent;
 * without it, SDK v2's own driver answers them through the handlers registered on the `Client`.
 * `maxInputRounds`: how many `input_required` results one call may answer (default 10, as SDK
 * v2's driver); one more ends the call with a failure. `tracing`: wraps every `tools/call` request
 * (`otelClientTracing()` from `@json-tool-contracts/runtime/otel`: a CLIENT span, and the trace
 * context in the request's `params._meta`). `logLevel`: the least severe log message a 2026-07-28
 * server is to send during a call (`io.modelcontextprotocol/logLevel` in every `tools/call`'s
 * `_meta`; that revision has no `logging/setLevel`, and a request naming no level hears none); the
 * messages reach the `Client`'s `notifications/message` handler. At 2025-11-25 the session's
 * `client.setLoggingLevel(level)` decides instead.
 */
export interface McpToolClientOptions {
  readonly input?: McpClientInput;
  readonly maxInputRounds?: number;
  readonly tracing?: McpClientTracing;
  readonly logLevel?: McpLoggingLevel;
}

/** Options of `mcpToolClientV1`: see `McpToolClientOptions`. */
export interface McpToolClientV1Options {
  readonly tracing?: McpClientTracing;
}

/**
 * Wraps each `tools/call` request the typed client sends (one per input round): `send` takes the
 * entries to add to the request's `params._meta` (`traceparent`, `tracestate`, `baggage`) and
 * resolves to the server's result or rejects as the request did. Structural, so that this module
 * imports nothing of OpenTelemetry; `otelClientTracing()` of `/otel` is the implementation.
 */
export interface McpClientTracing {
  toolCall(tool: string, send: (meta: Readonly<Record<string, string>>) => Promise<unknown>): Promise<unknown>;
}

/** A structured output, validated by its contract. */
export interface McpStructuredOutput<O> {
  readonly ok: true;
  readonly output: O;
  readonly received: McpReceivedResult;
}

/**
 * The result of a tool whose contract leaves its output unconstrained: its content blocks (text,
 * images, resources), each checked to be an MCP content block, and `output` when the result
 * carries JSON (`structuredContent`, or a first text block that is a JSON object or array).
 */
export interface McpContentOutput<O> {
  readonly ok: true;
  readonly output: O | undefined;
  readonly content: readonly ContentBlock[];
  readonly received: McpReceivedResult;
}

/** Any JSON value, as a generated module types an unconstrained output's items. */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * The success of a call, by the contract's output type: an output type that takes any JSON object
 * and array (an unconstrained output) answers content; an untyped contract (`unknown`) either.
 */
export type McpToolOutput<O> = unknown extends O ? McpStructuredOutput<O> | McpContentOutput<O> : [{ [key: string]: unknown } | Json[]] extends [O] ? McpContentOutput<O> : McpStructuredOutput<O>;

/** The contract names of a set. */
export type ToolNameOf<Cs extends ContractSet> = Cs[keyof Cs]['name'];

/** The contract of a set that has a tool name; any of them for a set whose names are only `string` (loaded untyped). */
export type ContractNamed<Cs extends ContractSet, N extends string> = [Extract<Cs[keyof Cs], { readonly name: N }>] extends [never] ? Cs[keyof Cs] : Extract<Cs[keyof Cs], { readonly name: N }>;

/** Typed calls to a server's tools; `Options` are the SDK's own request options (`signal`, `timeout`, `onprogress`, …). */
export interface McpToolClient<Cs extends ContractSet, Options> {
  /**
   * Calls a tool by its contract name. Resolves with the validated output, or with the reason
   * there is none: `invalid_envelope`/`invalid_input` (nothing was sent), `unknown_tool` (the
   * server lists no such tool, nor its portable name), `cancelled` (the signal), `handler_failed`
   * (the request failed, or the tool answered `isError` without one of the runtime's codes),
   * `invalid_output` (the result breaks the contract, carries no JSON output for a contract with a
   * structured output, or blocks that are no content blocks for an unconstrained one), or the code of
   * an `isError` result a runtime-served tool gave (`denied: …`, `budget_exhausted: …`).
   */
  call<N extends ToolNameOf<Cs>>(name: N, args: InputOf<ContractNamed<Cs, N>>, options?: Options): Promise<McpToolCallResult<OutputOf<ContractNamed<Cs, N>>>>;
}

/** A tool as `tools/list` gives it: what the client reads of it. */
interface ListedTool {
  readonly name: string;
  readonly outputSchema?: unknown;
}

interface ToolPage {
  readonly tools: readonly ListedTool[];
  readonly nextCursor?: string | undefined;
  /** 2026-07-28: how long the listing may be kept, in milliseconds (0: stale at once). */
  readonly ttlMs?: unknown;
}

/** A server's tools as listed, and until when the listing may be kept (its `ttlMs`; forever without one). */
interface Listing {
  readonly tools: ReadonlyMap<string, ListedTool>;
  readonly expiresAt: number;
}

/** A type, not an interface: SDK v2's `request` takes the params as a `Record<string, unknown>`. */
type CallParams = {
  name: string;
  arguments: Record<string, unknown>;
  /** A 2026-07-28 retry: the answers to the last round's input requests, and its state as it came. */
  inputResponses?: Record<string, unknown>;
  requestState?: string;
  /** Trace context (`traceparent`, `tracestate`, `baggage`), when the client traces its calls; the log level it asks for. */
  _meta?: Record<string, string>;
};

/**
 * What `mcpToolClient` uses of MCP SDK v2's `Client` (`@modelcontextprotocol/client`). SDK v1's
 * Client would fit the same calls and take the options as its result schema (its second
 * parameter): it is told apart by what only v1 has.
 */
export interface McpClientV2 {
  callTool(params: CallParams, options?: never): Promise<unknown>;
  listTools(params?: { cursor: string }): Promise<ToolPage>;
  /** Sends `tools/call` with `allowInputRequired`, so an `input_required` result comes back to the caller's callbacks (`options.input`). */
  request?(request: { method: 'tools/call'; params: CallParams }, options?: never): Promise<unknown>;
  readonly cacheToolMetadata?: never;
}

/**
 * What `mcpToolClientV1` uses of MCP SDK v1's `Client` (`@modelcontextprotocol/sdk/client/index.js`).
 * SDK v2's Client would fit the same calls and lose the options (its second parameter is them):
 * it is told apart by what only v2 has.
 */
export interface McpClientV1 {
  callTool(params: CallParams, resultSchema?: undefined, options?: never): Promise<unknown>;
  listTools(params?: { cursor: string }): Promise<ToolPage>;
  readonly getNegotiatedProtocolVersion?: never;
}

type V2Options<C> = C extends { callTool(params: never, options?: infer O): unknown } ? O : never;
type V1Options<C> = C extends { callTool(params: never, resultSchema: never, options?: infer O): unknown } ? O : never;

/** SDK v2's driver answers at most 10 rounds by default: so does the typed client. */
const defaultMaxInputRounds = 10;

/**
 * Typed calls over an MCP SDK v2 `Client`, connected or not yet. With `options.input`, a
 * 2026-07-28 call that ends `input_required` is answered by those callbacks (see McpToolClientOptions).
 */
export function mcpToolClient<Cs extends ContractSet, C extends McpClientV2>(client: C, contracts: Cs, options: McpToolClientOptions = {}): McpToolClient<Cs, V2Options<C>> {
  if (typeof (client as { cacheToolMetadata?: unknown }).cacheToolMetadata === 'function') throw new TypeError('mcpToolClient takes an MCP SDK v2 Client, and this is an SDK v1 Client (@modelcontextprotocol/sdk): use mcpToolClientV1');
  const { input, maxInputRounds = defaultMaxInputRounds, tracing, logLevel } = options;
  if (!Number.isSafeInteger(maxInputRounds) || maxInputRounds < 0) throw new RangeError(`maxInputRounds must be a whole number, got ${String(maxInputRounds)}`);
  if (logLevel !== undefined && !isLoggingLevel(logLevel)) throw new RangeError(`logLevel must be an MCP logging level (debug, info, notice, warning, error, critical, alert, emergency), got ${describeThrown(logLevel)}`);
  const meta = logLevel === undefined ? {} : { [metaKeys.logLevel]: logLevel };
  const list = (cursor: string | undefined) => client.listTools(cursor === undefined ? undefined : { cursor });
  if (input === undefined) return toolClient(contracts, { send: (params, callOptions) => client.callTool(params, callOptions as never), list, tracing, meta });
  if (typeof client.request !== 'function') throw new TypeError('options.input needs an MCP SDK v2 Client with request(): the typed client sends tools/call through it to receive input_required results');
  // Not callTool: with an output schema it refuses an input_required result (no structuredContent); the contract checks the final result instead.
  const send = (params: CallParams, callOptions: unknown) => client.request!({ method: 'tools/call', params }, { ...(callOptions as object), allowInputRequired: true } as never);
  return toolClient(contracts, { send, list, input: { callbacks: input, maxRounds: maxInputRounds }, tracing, meta });
}

/** Typed calls over an MCP SDK v1 `Client`, connected or not yet. */
export function mcpToolClientV1<Cs extends ContractSet, C extends McpClientV1>(client: C, contracts: Cs, options: McpToolClientV1Options = {}): McpToolClient<Cs, V1Options<C>> {
  if (typeof (client as { getNegotiatedProtocolVersion?: unknown }).getNegotiatedProtocolVersion === 'function') throw new TypeError('mcpToolClientV1 takes an MCP SDK v1 Client, and this is an SDK v2 Client (@modelcontextprotocol/client): use mcpToolClient');
  return toolClient(contracts, {
    send: (params, options) => client.callTool(params, undefined, options as never),
    list: (cursor) => client.listTools(cursor === undefined ? undefined : { cursor }),
    tracing: options.tracing,
  });
}

interface Wire {
  send(params: CallParams, options: unknown): Promise<unknown>;
  list(cursor: string | undefined): Promise<ToolPage>;
  /** The caller answers `input_required` results (2026-07-28); without it the SDK does, or the revision has none. */
  readonly input?: { readonly callbacks: McpClientInput; readonly maxRounds: number };
  readonly tracing?: McpClientTracing | undefined;
  /** Entries every `tools/call` carries in its `_meta` (the log level asked for). */
  readonly meta?: Readonly<Record<string, string>>;
}

type AnyContract = ToolContract<unknown, unknown>;
type Failure = McpToolCallFailure;

/** At most this many `tools/list` pages: a server that keeps sending cursors is not listed forever. */
const maxPages = 1_000;

function toolClient<Cs extends ContractSet, Options>(contracts: Cs, wire: Wire): McpToolClient<Cs, Options> {
  const byName = new Map<string, AnyContract>();
  for (const [key, contract] of Object.entries(contracts as Record<string, unknown>)) {
    if (!isContract(contract)) throw new TypeError(`the contract set's "${key}" is not a generated contract (the \`contracts\` record of a generated index is one)`);
    byName.set(contract.name, contract);
  }
  // Listed once and kept for the listing's ttlMs (2026-07-28; without one, until a call names a
  // tool the listing does not have, when the server's tools may have changed).
  let listing: Promise<Listing> | undefined;
  const list = (): Promise<Listing> => {
    const current = listAll(wire);
    listing = current;
    // A failed listing is not kept: the next call asks again.
    current.catch(() => {
      if (listing === current) listing = undefined;
    });
    return current;
  };
  const listed = async (fresh: boolean): Promise<ReadonlyMap<string, ListedTool>> => {
    const kept = listing === undefined || fresh ? undefined : await listing;
    return kept !== undefined && Date.now() < kept.expiresAt ? kept.tools : (await list()).tools;
  };

  return {
    async call(name, args, options) {
      try {
        // The result is read for the contract the name selects: its type is the one `call` declares.
        return (await callChecked(name, args, options)) as never;
      } catch (error) {
        // What the caller passed may throw when read (a getter on the options): a result, never a rejection.
        return failure('handler_failed', `the call could not be made: ${describeThrown(error)}`) as never;
      }
    },
  };

  async function callChecked(name: unknown, args: unknown, options: unknown): Promise<McpToolCallResult<unknown>> {
    const contract = typeof name === 'string' ? byName.get(name) : undefined;
    if (contract === undefined) return failure('unknown_tool', `no contract for a tool named ${JSON.stringify(String(name))} in this set; it has: ${describeNames([...byName.keys()].sort())}`);
    const sent = checkedArguments(contract, args);
    if (sent instanceof ToolError) return { ok: false, error: sent };
    // Read again after each await: the signal may abort while the call waits.
    const aborted = (): boolean => signalOf(options)?.aborted === true;
    if (aborted()) return failure('cancelled', `the call to "${contract.name}" was cancelled before it was sent`);

    let tools: ReadonlyMap<string, ListedTool>;
    let tool: ListedTool | undefined;
    try {
      tools = await listed(false);
      tool = serverTool(tools, contract.name);
      if (tool === undefined) {
        tools = await listed(true);
        tool = serverTool(tools, contract.name);
      }
    } catch (error) {
      return failure(aborted() ? 'cancelled' : 'handler_failed', `listing the server's tools for "${contract.name}" failed: ${describeThrown(error)}`);
    }
    if (tool === undefined) {
      const portable = portableName(contract.name);
      const names = portable === contract.name ? `"${contract.name}"` : `"${contract.name}" (nor "${portable}")`;
      return failure('unknown_tool', `the server lists no tool ${names}; it lists: ${describeNames([...tools.keys()].sort())}`);
    }

    let params: CallParams = { name: tool.name, arguments: sent };
    for (let round = 1; ; round++) {
      let received: unknown;
      try {
        received = await sendTraced(wire, params, options);
      } catch (error) {
        return failure(aborted() ? 'cancelled' : 'handler_failed', `the call to "${contract.name}" failed: ${describeThrown(error)}`);
      }
      if (wire.input === undefined || !isInputRequired(received)) return readResult(contract, tool, received);
      const { maxRounds, callbacks } = wire.input;
      if (round > maxRounds) return { ...failure('handler_failed', `the server asked for input again after ${maxRounds} rounds of "${contract.name}", the most this client answers (maxInputRounds)`), input: { reason: 'round_limit', rounds: maxRounds } };
      const answers = await answerRound(received.inputRequests, callbacks, { tool: contract.name, round, signal: signalOf(options) });
      if (!answers.ok) return { ok: false, error: answers.error, input: answers.input };
      if (aborted()) return failure('cancelled', `the call to "${contract.name}" was cancelled while its input was answered`);
      // The state goes back byte for byte as it came; the arguments are the first round's (a change would make it another call).
      params = { name: tool.name, arguments: sent, inputResponses: answers.inputResponses, ...(typeof received.requestState === 'string' ? { requestState: received.requestState } : {}) };
    }
  }
}

/** One `tools/call` request, inside the client's tracing when it has one, with its trace context and the client's own entries in `_meta`. */
function sendTraced(wire: Wire, params: CallParams, options: unknown): Promise<unknown> {
  const withMeta = (traceMeta: Readonly<Record<string, string>>): CallParams => {
    const meta = { ...wire.meta, ...traceMeta };
    return Object.keys(meta).length === 0 ? params : { ...params, _meta: meta };
  };
  if (wire.tracing === undefined) return wire.send(withMeta({}), options);
  return wire.tracing.toolCall(params.name, (traceMeta) => wire.send(withMeta(traceMeta), options));
}

function isInputRequired(received: unknown): received is { readonly resultType: 'input_required'; readonly inputRequests?: unknown; readonly requestState?: unknown } {
  return typeof received === 'object' && received !== null && (received as { resultType?: unknown }).resultType === 'input_required';
}

function isContract(value: unknown): value is AnyContract {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<AnyContract>;
  return typeof candidate.name === 'string' && typeof candidate.input?.validate === 'function' && typeof candidate.output?.validate === 'function';
}

function failure(code: ToolErrorCode, message: string, received?: McpReceivedResult): Failure {
  return received === undefined ? { ok: false, error: new ToolError(code, message) } : { ok: false, error: new ToolError(code, message), received };
}

/** The arguments as they go on the wire: a checked copy that holds to the contract, or why there is none. */
function checkedArguments(contract: AnyContract, args: unknown): Record<string, unknown> | ToolError {
  const copy = copyEnvelope(args, defaultEnvelopeLimits, contract.exactNumbers);
  if (copy === undefined) return new ToolError('invalid_envelope', `input for "${contract.name}" is not a plain JSON object or array: ${whyNotEnvelope(args, defaultEnvelopeLimits, contract.exactNumbers)}`);
  if (Array.isArray(copy)) return new ToolError('invalid_envelope', `input for "${contract.name}" is an array; an MCP tool's arguments are an object`);
  const checked = contract.input.validate(copy);
  if (!checked.ok) return inputMismatch(contract.name, checked.issues);
  // The SDK writes JSON with JSON.stringify: an exact-mode number must reach the server as the value that was checked.
  const { value, exact } = outputAsDoubles(copy);
  if (!exact) return new ToolError('invalid_input', `input for "${contract.name}" holds a number that a JSON double cannot carry exactly, and an MCP server would receive it rounded`);
  return value as Record<string, unknown>;
}

/** The contract's name as the server lists it, or its portable form (dots as `_`) as the adapters offer it. */
function serverTool(tools: ReadonlyMap<string, ListedTool>, name: string): ListedTool | undefined {
  return tools.get(name) ?? tools.get(portableName(name));
}

async function listAll(wire: Wire): Promise<Listing> {
  const tools = new Map<string, ListedTool>();
  let cursor: string | undefined;
  let expiresAt = Number.POSITIVE_INFINITY;
  for (let page = 0; page < maxPages; page++) {
    const { tools: listed, nextCursor, ttlMs } = await wire.list(cursor);
    // The first page's cache hint is the listing's, counted from when it arrived.
    if (page === 0 && typeof ttlMs === 'number' && Number.isSafeInteger(ttlMs) && ttlMs >= 0) expiresAt = Date.now() + ttlMs;
    for (const tool of listed) tools.set(tool.name, tool);
    if (nextCursor === undefined) return { tools, expiresAt };
    cursor = nextCursor;
  }
  throw new Error(`the server sent more than ${maxPages} pages of tools`);
}

/**
 * The output of a result: its `structuredContent`, or, for a tool listed without an output
 * schema, the JSON in its first text block (where the runtime's servers and most JSON tools
 * write it); then held to the output contract.
 */
function readResult(contract: AnyContract, tool: ListedTool, received: unknown): McpToolCallResult<unknown> {
  const name = contract.name;
  if (typeof received !== 'object' || received === null) return failure('invalid_output', `the server answered the call to "${name}" with no tools/call result: ${describeThrown(received)}`);
  const result = received as McpReceivedResult;
  const content = Array.isArray(result.content) ? result.content : [];
  const text = content.find((block): block is { type: 'text'; text: string } => typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text' && typeof (block as { text?: unknown }).text === 'string')?.text;
  if (result.isError === true) return { ok: false, error: toolErrorOf(name, text, result._meta), received: result };
  return isUnconstrained(contract.outputSchema) ? readContent(contract, text, result) : readOutput(contract, tool, text, result);
}

/** Keywords that validate nothing: an output schema of these alone is `{}` with notes. */
const annotations: ReadonlySet<string> = new Set(['$schema', '$id', '$comment', 'title', 'description', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly']);

function isUnconstrained(schema: Readonly<Record<string, unknown>>): boolean {
  return Object.keys(schema).every((key) => annotations.has(key));
}

/** An unconstrained output: the content blocks, checked, and the JSON the result carries if it carries any. */
function readContent(contract: AnyContract, text: string | undefined, result: McpReceivedResult): McpToolCallResult<unknown> {
  const blocks = copyContent(result.content ?? [], defaultEnvelopeLimits);
  if (!blocks.ok) return failure('invalid_output', `the content of "${contract.name}" is not MCP content blocks: ${blocks.problem}`, result);
  let output: unknown = result.structuredContent;
  if (output === undefined && text !== undefined) {
    try {
      output = contract.exactNumbers ? parseJson(text, { exactNumbers: true }) : (JSON.parse(text) as unknown);
    } catch {
      // Text that is not JSON is the tool's answer, carried as content.
    }
  }
  if (output === undefined) return { ok: true, output: undefined, content: blocks.content, received: result };
  const checked = heldToContract(contract, output, result);
  // A text that is JSON but no object or array (`42`, `"done"`) is content as well.
  if (!checked.ok && result.structuredContent === undefined) return { ok: true, output: undefined, content: blocks.content, received: result };
  return checked.ok ? { ok: true, output: checked.output, content: blocks.content, received: result } : checked;
}

function readOutput(contract: AnyContract, tool: ListedTool, text: string | undefined, result: McpReceivedResult): McpToolCallResult<unknown> {
  const name = contract.name;
  let output: unknown;
  if (result.structuredContent !== undefined) {
    output = exactTwin(contract, text, result.structuredContent) ?? result.structuredContent;
  } else if (tool.outputSchema !== undefined) {
    return failure('invalid_output', `the server lists an output schema for "${name}", but its result carries no structuredContent`, result);
  } else if (text === undefined) {
    return failure('invalid_output', `the result of "${name}" carries neither structuredContent nor a text block to read its output from`, result);
  } else {
    try {
      output = contract.exactNumbers ? parseJson(text, { exactNumbers: true }) : (JSON.parse(text) as unknown);
    } catch (error) {
      return failure('invalid_output', `the result of "${name}" carries no structuredContent, and its text is not JSON (the tool is listed without an output schema, so its output is read from its text): ${describeThrown(error)}`, result);
    }
  }
  return heldToContract(contract, output, result);
}

/** Held to the envelope as the runtime holds outputs (a copy of plain JSON data, read once), then to the output contract. */
function heldToContract(contract: AnyContract, output: unknown, result: McpReceivedResult): McpStructuredOutput<unknown> | Failure {
  const name = contract.name;
  const copy = copyEnvelope(output, defaultEnvelopeLimits, contract.exactNumbers);
  if (copy === undefined) return failure('invalid_output', `output of "${name}" is not a plain JSON object or array: ${whyNotEnvelope(output, defaultEnvelopeLimits, contract.exactNumbers)}`, result);
  const checked = contract.output.validate(copy);
  return checked.ok ? { ok: true, output: checked.value, received: result } : { ok: false, error: outputMismatch(name, checked.issues), received: result };
}

/**
 * For an exact-mode contract, the output with every digit: a server of the runtime sends the exact
 * JSON as its text and the nearest doubles as `structuredContent`. The text is taken when it is
 * that same value read exactly; otherwise undefined, and `structuredContent` stands.
 */
function exactTwin(contract: AnyContract, text: string | undefined, structured: unknown): unknown {
  if (!contract.exactNumbers || text === undefined) return undefined;
  let exact: unknown;
  try {
    exact = parseJson(text, { exactNumbers: true });
  } catch {
    return undefined;
  }
  return jsonEqual(outputAsDoubles(exact).value, structured) ? exact : undefined;
}

/**
 * An `isError` result as a ToolError: a tool the runtime serves words its failures `code: message`
 * (`denied: …`) and marks them as its own in `_meta`; with that mark naming the same code, the
 * code is kept. Any other text, `cancelled: …` from a server that is not the runtime's included,
 * is the tool's own failure.
 */
function toolErrorOf(name: string, text: string | undefined, meta: unknown): ToolError {
  const code = text === undefined ? undefined : /^([a-z_]+): /.exec(text)?.[1];
  if (code !== undefined && toolErrorCodes.has(code) && markedCode(meta) === code) return new ToolError(code as ToolErrorCode, text!.slice(code.length + 2));
  return new ToolError('handler_failed', `"${name}" answered with an error: ${text ?? '(no text)'}`);
}

/** The code a runtime's error result names in its `_meta` mark; read without running a getter. */
function markedCode(meta: unknown): unknown {
  const mark = copyEnvelope(meta, defaultEnvelopeLimits, false);
  if (typeof mark !== 'object' || mark === null || Array.isArray(mark)) return undefined;
  const ours = (mark as Record<string, unknown>)[toolErrorMetaKey];
  return typeof ours === 'object' && ours !== null ? (ours as Record<string, unknown>)['code'] : undefined;
}

function signalOf(options: unknown): AbortSignal | undefined {
  const signal = typeof options === 'object' && options !== null ? (options as { signal?: unknown }).signal : undefined;
  return signal instanceof AbortSignal ? signal : undefined;
}
