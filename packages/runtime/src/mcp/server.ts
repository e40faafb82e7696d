import type { CallResult, CapabilityRuntime, CatalogEntry, ToolRequest } from '../core/capability-runtime.js';
import type { ContentBlock } from '../core/content.js';
import { describeNames } from '../core/errors.js';
import { describeThrown } from '../support/describe-thrown.js';
import { isObjectRecord } from '../support/is-object-record.js';
import { cacheHint, metaKeys, modernLogRoute, requestRevision, sendUnsent, type McpCacheHint, type McpUnsentLog } from './revision-2026.js';
import { elicitQuestion, rootsQuestion, samplingQuestion, type McpCreateMessageParams, type McpCreateMessageResult, type McpElicitFormParams, type McpElicitUrlParams, type McpRoot } from './input-questions.js';
import { ask, callInRounds, invalidParamsCode, kindOf, McpContextError, McpRequestError, McpRequestRefusal, type InputChannel, type InputRound, type McpAnswer, type McpElicitAnswer, type McpInputRequest, type RoundResult, type StandardSchemaV1 } from './input-rounds.js';
import { declaresTasks, McpTaskService, taskSettings, tasksCapabilityMissing, tasksExtension, type McpCreateTaskResult, type McpGetTaskResult, type McpTasksOptions } from './tasks.js';
import { requestStateSeal, type RequestStateOptions } from './request-state.js';
import { failureText, outputAsDoubles, outputText, shownInputSchema, shownOutputSchema } from '../core/host-results.js';
import { toolErrorMetaKey, type McpLoggingLevel, type McpProtocolVersion } from './protocol.js';

export type { McpCreateMessageParams, McpCreateMessageResult, McpElicitFormParams, McpElicitUrlParams, McpRoot, McpSamplingContent, McpSamplingMessage, McpToolResultBlock, McpToolUseBlock } from './input-questions.js';
export { McpContextError, McpRequestError, type InputRound, type McpAnswer, type McpAnswerInvalid, type McpAnswerIssue, type McpAnswerUnavailable, type McpAnswerValidator, type McpElicitAnswer, type McpInputRequest, type StandardResult, type StandardSchemaV1 } from './input-rounds.js';
export type { RequestStateOptions, RequestStateRefusal } from './request-state.js';
export type { McpUnsentLog } from './revision-2026.js';
export type { McpLoggingLevel, McpProtocolVersion } from './protocol.js';
export { tasksExtension, type McpCreateTaskResult, type McpGetTaskResult, type McpTask, type McpTaskStatus, type McpTaskSupport, type McpTasksOptions } from './tasks.js';

/**
 * Serves a runtime's tools over MCP with the runtime as the only validator: the MCP SDK's own
 * schema handling is bypassed, every call goes through `callAsync` (envelope, contract, budget,
 * records), and an output that breaks its contract never reaches the client. Imports nothing from
 * the MCP SDK, so it works with SDK v1 and v2 and any transport:
 *
 *   const mcp = mcpToolHandlers(runtime);
 *   server.setRequestHandler(ListToolsRequestSchema, (request, extra) => mcp.listTools(request.params, extra));
 *   server.setRequestHandler(CallToolRequestSchema, (request, extra) => mcp.callTool(request.params, extra));
 */

/** How many rounds one 2026-07-28 call may take by default: SDK v2's own legacy shim allows 8. */
const defaultMaxInputRounds = 8;

export interface McpToolHandlersOptions {
  /**
   * The revision each request was negotiated at, read from the request by default: a request of
   * 2026-07-28 or later names it in its `_meta` envelope (SDK v2 lifts it into `ctx.mcpReq.envelope`),
   * every other request is 2025-11-25 (SDK v1 offers nothing later). Set it only for a server
   * that speaks one revision whatever its requests say.
   * `2025-11-25`: `outputSchema` and `structuredContent` only for tools whose output root is an
   * object, as that revision requires; other outputs travel as JSON text only.
   * `2026-07-28`: any output root has both, and the results carry that revision's wire fields.
   */
  readonly protocolVersion?: McpProtocolVersion;
  /**
   * Under 2026-07-28 every `tools/list` result says how long a client may cache it: `ttlMs` (a
   * whole number of milliseconds, default 0) and `cacheScope` (`private`, the default, or
   * `public`), the SDK v2's own defaults. Invalid values throw a RangeError at once.
   */
  readonly toolsListCache?: McpCacheHint;
  /**
   * Whether the client asked not to hear log messages of this level (`logging/setLevel`), for a
   * server that keeps track; the SDK adapters set it. Without it every `mcpLog` message is sent.
   */
  readonly isLogIgnored?: (level: McpLoggingLevel, sessionId: string | undefined) => boolean;
  /**
   * Where `mcpLog` sends a message of a 2026-07-28 request that names no log level
   * (`io.modelcontextprotocol/logLevel`), which the revision forbids sending to the client, or of
   * a call with no channel to its client: by default one JSON line on stderr, as the revision
   * advises; `otelUnsentLog({ loggerProvider })` of `/otel` makes each an OpenTelemetry log record
   * of the call's trace. Pass `() => {}` to drop them.
   */
  readonly unsentLog?: McpUnsentLog;
  /**
   * How the `requestState` of 2026-07-28's `input_required` results is sealed: `key` (at least 32
   * bytes, the same on every server a retry can reach) and `ttlMs` (default ten minutes). Without
   * a key each process seals with a random one of its own and warns once.
   */
  readonly requestState?: RequestStateOptions;
  /** How many rounds one 2026-07-28 call may take, the last included (default 8); a question after that is `unavailable`. */
  readonly maxInputRounds?: number;
  /**
   * Serves the MCP tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28) for the tools it
   * names: `{ tools: { "fleet.sleep": "optional" }, ttlMs, pollIntervalMs }`. A call of such a tool
   * from a client that declares the extension and that outlasts its first turn answers with a task
   * (docs/mcp-servers.md, "Tasks"); the server advertises the extension and serves `tasks/get`,
   * `tasks/update` and `tasks/cancel`. Unset, no tool is ever a task.
   */
  readonly tasks?: McpTasksOptions;
}

/** The SDKs' `AuthInfo`: a validated access token. */
export interface McpAuthInfo {
  readonly token: string;
  readonly clientId: string;
  readonly scopes: readonly string[];
  /** Seconds since the epoch. */
  readonly expiresAt?: number;
  readonly resource?: URL;
  readonly extra?: Readonly<Record<string, unknown>>;
}

interface McpMessage {
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

/**
 * The `tools/call` request a handler serves, the same for SDK v1 (its `extra`), SDK v2 (its
 * `ctx`) and a server wired by hand: `request.context` of every call that came through MCP. Read
 * it with `mcpContext(request)`; the helpers `mcpProgress`, `mcpLog`, `mcpCreateMessage` and
 * `mcpElicit` use it.
 */
export class McpCallContext {
  /** @internal */
  constructor(
    /** The revision this request was negotiated at. */
    readonly protocolVersion: McpProtocolVersion,
    readonly requestId: string | number | undefined,
    readonly sessionId: string | undefined,
    readonly authInfo: McpAuthInfo | undefined,
    /** The request's `_meta`, with `progressToken` when the client asked for progress. */
    readonly meta: Readonly<Record<string, unknown>> | undefined,
    /** The SDK's own object: v1's `RequestHandlerExtra`, v2's `ServerContext`. */
    readonly extra: unknown,
    private readonly notify: (notification: McpMessage) => Promise<void>,
    private readonly request: (request: McpMessage) => Promise<unknown>,
    private readonly log: (level: McpLoggingLevel, data: unknown, logger: string | undefined) => Promise<void>,
    /** 2026-07-28: the round of the call, with the client's answers so far; the helpers ask through it. */
    readonly inputRound?: InputRound,
  ) {}

  get progressToken(): string | number | undefined {
    const token = this.meta?.['progressToken'];
    return typeof token === 'string' || typeof token === 'number' ? token : undefined;
  }

  /** Sends a notification tied to this request (under Streamable HTTP, on its response stream). */
  sendNotification(notification: McpMessage): Promise<void> {
    return this.notify(notification);
  }

  /** Sends a request to the client tied to this request; resolves with its result as sent, unchecked. */
  sendRequest(request: McpMessage): Promise<unknown> {
    return this.request(request);
  }

  /** Sends `notifications/message` unless the client's logging level leaves the level out. */
  sendLog(level: McpLoggingLevel, data: unknown, logger?: string): Promise<void> {
    return this.log(level, data, logger);
  }

  /**
   * @internal The same request for a call that may go on as a task: once `answered` says its
   * `tools/call` has been answered, its notifications and log messages go nowhere (the extension
   * carries neither for a task, and the request's stream is closed).
   */
  untilAnswered(answered: () => boolean): McpCallContext {
    const gated =
      <A extends unknown[]>(send: (...args: A) => Promise<void>) =>
      async (...args: A): Promise<void> => {
        if (!answered()) await send(...args);
      };
    return new McpCallContext(this.protocolVersion, this.requestId, this.sessionId, this.authInfo, this.meta, this.extra, gated(this.notify), this.request, gated(this.log), this.inputRound);
  }
}

export interface McpTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema?: Record<string, unknown>;
}

export interface McpCallToolResult {
  [key: string]: unknown;
  readonly content: ContentBlock[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

export interface McpCallToolParams {
  readonly name?: unknown;
  readonly arguments?: unknown;
  /** 2026-07-28: a retry's answers, by the keys of the `inputRequests` it answers (SDK v2 lifts them into `ctx.mcpReq.inputResponses`). */
  readonly inputResponses?: unknown;
  /** 2026-07-28: a retry's echo of the `requestState` it was given (SDK v2 lifts it into `ctx.mcpReq.requestState()`). */
  readonly requestState?: unknown;
}

/** A 2026-07-28 call that needs the client's input first: the client answers `inputRequests` and calls again with `inputResponses` and `requestState`. */
export interface McpInputRequiredResult {
  [key: string]: unknown;
  readonly resultType: 'input_required';
  readonly inputRequests: Record<string, McpInputRequest>;
  readonly requestState: string;
}

/** The tasks extension's methods; each rejects with `McpRequestError`: -32021 for a request that does not declare the extension, -32602 for a task id that names no live task. */
export interface McpTaskMethods {
  /** `tasks/get`: the task's status, with its open questions, its result or its error. */
  get(params: unknown, extra?: unknown): Promise<McpGetTaskResult>;
  /** `tasks/update`: answers to the questions the task's handler waits on (`inputResponses` by key); an empty acknowledgement. */
  update(params: unknown, extra?: unknown): Promise<{ resultType: 'complete' }>;
  /** `tasks/cancel`: cancels the task's call (its handler's `request.signal` is aborted); an empty acknowledgement, also for a task that has ended. */
  cancel(params: unknown, extra?: unknown): Promise<{ resultType: 'complete' }>;
}

export interface McpToolHandlers {
  /**
   * The `tools/list` result, from the runtime's catalog as it is now (built again only when a tool
   * is registered), by the rules of the revision the request names (`params`, and `extra` as in
   * `callTool`; without them, 2025-11-25 unless `protocolVersion` is set).
   */
  listTools(params?: unknown, extra?: unknown): { tools: McpTool[] };
  /** Whether the runtime has a tool of this name now (without building a listing per request). */
  hasTool(name: string): boolean;
  /**
   * The `tools/call` result: every failure of the call is an `isError` result with readable text.
   * Under 2026-07-28 a handler that asked for input its client has not given yet ends the round
   * with an `McpInputRequiredResult`; a retry whose `requestState` is refused (tampered, expired,
   * foreign, minted for another tool or other arguments) or whose `inputResponses` are no object
   * rejects with `McpRequestError`, which the SDKs send as a JSON-RPC error (-32602). It rejects
   * with nothing else. `extra` is what the SDK hands the request handler (v1's `extra`, v2's
   * `ctx`): its signal cancels the call, and the handler sees it as `mcpContext(request)`.
   */
  callTool(params: McpCallToolParams | undefined, extra?: unknown): Promise<McpCallToolResult | McpInputRequiredResult | McpCreateTaskResult>;
  /** The tasks extension's methods when `tasks` is set; undefined otherwise (no tool is a task, nothing is advertised). */
  readonly tasks: McpTaskMethods | undefined;
}

/** A tool MCP cannot carry: an MCP tool's arguments are an object, so its input schema must describe one. */
export class McpToolError extends Error {
  override readonly name = 'McpToolError';
}

export function mcpToolHandlers(runtime: CapabilityRuntime, options: McpToolHandlersOptions = {}): McpToolHandlers {
  /**
   * Under 2025-11-25 a tool has `outputSchema` and `structuredContent` only when both the schema
   * shown and the contract's own output schema have an object root: a prompt-only schema can say
   * object while the contract lets an array through, and structuredContent must be an object.
   */
  const structured =
    (protocol: McpProtocolVersion) =>
    (entry: CatalogEntry): boolean =>
      protocol !== '2025-11-25' || (shownOutputSchema(entry)['type'] === 'object' && entry.outputSchema['type'] === 'object');
  // 2026-07-28 results say they are complete (not input_required), and cacheable ones how long they keep.
  const listCache = cacheHint(options.toolsListCache);
  const wire = (protocol: McpProtocolVersion) => (protocol === '2026-07-28' ? { resultType: 'complete' } : {});
  const listWire = (protocol: McpProtocolVersion) => (protocol === '2026-07-28' ? { ...wire(protocol), ...listCache } : {});
  const revisionOf = (params: unknown, extra: unknown): McpProtocolVersion => options.protocolVersion ?? requestRevision(params, extra);
  const maxRounds = options.maxInputRounds ?? defaultMaxInputRounds;
  if (!Number.isSafeInteger(maxRounds) || maxRounds < 1) throw new RangeError(`maxInputRounds must be a whole number of at least 1, got ${String(maxRounds)}`);
  const seal = requestStateSeal(options.requestState, runtime.envelopeLimits);
  // The extension is served at 2026-07-28, where a task's result is worded as that revision's tools/call result.
  const taskService = options.tasks === undefined ? undefined : new McpTaskService(runtime, taskSettings(options.tasks), (tool, result) => ({ ...wire('2026-07-28'), ...toolResult(tool, result, '2026-07-28') }));
  const current = (protocol: McpProtocolVersion): McpListing => sharedListing(runtime, protocol, structured(protocol));
  current(options.protocolVersion ?? '2025-11-25');
  return {
    listTools: (params, extra) => {
      const protocol = revisionOf(params, extra);
      return { ...listWire(protocol), tools: current(protocol).tools.map((tool) => ({ ...tool })) };
    },
    hasTool: (name) => current(options.protocolVersion ?? '2025-11-25').structured.has(name),
    callTool: async (params, extra) => {
      const protocol = revisionOf(params, extra);
      const result = await callTool(params, extra, protocol);
      return 'inputRequests' in result ? result : { ...wire(protocol), ...result };
    },
    tasks: taskService === undefined ? undefined : taskMethods(taskService),
  };

  /** Each method answers only a 2026-07-28 request that declares the extension, as the extension says. */
  function taskMethods(service: McpTaskService): McpTaskMethods {
    const served =
      <R>(method: string, serve: (params: Record<string, unknown>, extra: unknown) => Promise<R>) =>
      async (params: unknown, extra?: unknown): Promise<R> => {
        if (revisionOf(params, extra) !== '2026-07-28' || !declaresTasks(requestCapabilities(params, extra))) throw tasksCapabilityMissing(method);
        if (!isObject(params)) throw new McpRequestError(invalidParamsCode, `${method} needs params with a taskId`);
        return serve(params, extra);
      };
    return {
      get: served('tasks/get', (params) => service.get(params['taskId'])),
      // SDK v2 lifts inputResponses out of the params of every request, tasks/update's too.
      update: served('tasks/update', (params, extra) => service.update(params['taskId'], params['inputResponses'] ?? liftedInputResponses(extra))),
      cancel: served('tasks/cancel', (params) => service.cancel(params['taskId'])),
    };
  }

  async function callTool(params: McpCallToolParams | undefined, extra: unknown, protocol: McpProtocolVersion): Promise<McpCallToolResult | McpInputRequiredResult | McpCreateTaskResult> {
    let name: unknown;
    let args: unknown;
    let retry: RetryRead;
    try {
      name = params?.name;
      args = params?.arguments;
      retry = protocol === '2025-11-25' ? { inputResponses: undefined, requestState: undefined, clientCapabilities: {} } : retryParams(params, extra);
    } catch (error) {
      return errorResult(`invalid_params: the tools/call parameters cannot be read: ${describeThrown(error)}`);
    }
    if (typeof name !== 'string') return errorResult('invalid_params: tools/call needs a tool name');
    const signal = signalOf(extra);
    if (protocol === '2025-11-25') return toolResult(name, await runtime.callAsync(name, args ?? {}, { context: mcpCallContext(extra, protocol, options), signal }), protocol);
    const support = taskService?.supportOf(name);
    if (support !== undefined && declaresTasks(retry.clientCapabilities)) return callAsTask(name, args ?? {}, retry, extra, taskService!);
    if (support === 'required') {
      const missing = tasksCapabilityMissing(`"${name}" is served only as a task, and`);
      const refused = await runtime.callAsync(name, args ?? {}, { refusal: new McpRequestRefusal(missing.message, missing), context: mcpCallContext(extra, protocol, options) });
      // An unknown tool is answered as one; the known one is refused as the extension says.
      if (refused.ok || refused.error.code !== 'denied') return toolResult(name, refused, protocol);
      throw missing;
    }
    const round = await callInRounds(runtime, name, args ?? {}, retry, { seal, maxRounds, clientCapabilities: retry.clientCapabilities }, (inputRound) => mcpCallContext(extra, protocol, options, inputRound), signal);
    return roundAnswer(name, round, protocol);
  }

  /**
   * A 2026-07-28 call that may become a task: rounds as any call until it outlasts its first turn
   * with no question out, then a task (a deferred call, its id the task's). From then on the
   * request's signal no longer cancels it (the request has been answered; `tasks/cancel` does), and
   * its later questions wait for `tasks/update`.
   */
  async function callAsTask(name: string, args: unknown, retry: RetryRead, extra: unknown, service: McpTaskService): Promise<McpCallToolResult | McpInputRequiredResult | McpCreateTaskResult> {
    const protocol = '2026-07-28';
    const own = new AbortController();
    const requestSignal = signalOf(extra);
    const forward = (): void => own.abort();
    if (requestSignal?.aborted === true) own.abort();
    else requestSignal?.addEventListener('abort', forward, { once: true });
    let answered = false;
    const context = (inputRound: InputRound | undefined) => mcpCallContext(extra, protocol, options, inputRound)?.untilAnswered(() => answered);
    const round = await callInRounds(runtime, name, args, retry, { seal, maxRounds, clientCapabilities: retry.clientCapabilities }, context, own.signal, {
      start: (callContext, signal) => service.start(name, args, callContext, signal),
      begin: (inputRound, call) => {
        answered = true;
        requestSignal?.removeEventListener('abort', forward);
        const task = service.create(call);
        inputRound.becomeTask(task.questions);
        return task.created;
      },
    });
    requestSignal?.removeEventListener('abort', forward);
    return roundAnswer(name, round, protocol);
  }

  function roundAnswer<T>(name: string, round: RoundResult<T>, protocol: McpProtocolVersion): McpCallToolResult | McpInputRequiredResult | T {
    if ('task' in round) return round.task;
    return 'inputRequired' in round ? { resultType: 'input_required', ...round.inputRequired } : toolResult(name, round.result, protocol);
  }

  function toolResult(name: string, result: CallResult, protocol: McpProtocolVersion): McpCallToolResult {
    if (!result.ok) return errorResult(failureText(result));
    // The text keeps every digit; structuredContent holds doubles, as every MCP client reads JSON numbers.
    const { value, fits } = outputAsDoubles(result.output);
    // The text copy first: a client that reads only the first block still gets the output. An output that is its own doubles holds no exact-mode number: JSON.stringify writes it, with no second walk.
    const content: ContentBlock[] = [{ type: 'text', text: value === result.output ? JSON.stringify(value) : outputText(result.output) }, ...(result.content ?? [])];
    if (current(protocol).structured.get(name) !== true) return { content };
    if (!fits) return errorResult(`invalid_output: the output of "${name}" holds a number beyond the range of a 64-bit float, which structuredContent cannot carry (an MCP client reads it as a double; JSON.stringify would write null)`);
    return { content, structuredContent: value as Record<string, unknown> };
  }
}

interface RetryRead {
  readonly inputResponses: unknown;
  readonly requestState: unknown;
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
}

/** What a 2026-07-28 request carries for its rounds: from SDK v2's `ctx.mcpReq`, which lifts them out of the parameters, or the parameters themselves. */
function retryParams(params: McpCallToolParams | undefined, extra: unknown): RetryRead {
  const v2 = isObject(extra) && isObject(extra['mcpReq']) ? extra['mcpReq'] : undefined;
  const lifted = typeof v2?.['requestState'] === 'function';
  return {
    inputResponses: lifted ? liftedInputResponses(extra) : params?.inputResponses,
    requestState: lifted ? (v2!['requestState'] as () => unknown)() : params?.requestState,
    clientCapabilities: requestCapabilities(params, extra),
  };
}

/** The `inputResponses` SDK v2 lifted out of a request's params into `ctx.mcpReq`. */
function liftedInputResponses(extra: unknown): unknown {
  const v2 = isObject(extra) && isObject(extra['mcpReq']) ? extra['mcpReq'] : undefined;
  const dropped = v2?.['droppedInputResponseKeys'];
  const notAnObject = Array.isArray(dropped) ? dropped.find((key): key is string => typeof key === 'string' && key.startsWith(notAnObjectKey)) : undefined;
  return notAnObject === undefined ? v2?.['inputResponses'] : ofKind[notAnObject.slice(notAnObjectKey.length)];
}

/** The client capabilities a 2026-07-28 request declares in its `_meta` envelope (SDK v2 lifts it into `ctx.mcpReq.envelope`). */
function requestCapabilities(params: unknown, extra: unknown): Readonly<Record<string, unknown>> {
  const v2 = isObject(extra) && isObject(extra['mcpReq']) ? extra['mcpReq'] : undefined;
  const envelope = isObject(v2?.['envelope']) ? v2['envelope'] : isObject(params) && isObject(params['_meta']) ? params['_meta'] : undefined;
  const capabilities = envelope?.[metaKeys.clientCapabilities];
  return isObject(capabilities) ? capabilities : {};
}

interface McpListing {
  readonly revision: number;
  /** Frozen all the way down: every `tools/list` result shares these. */
  readonly tools: readonly McpTool[];
  /** Per tool: does a successful call answer structuredContent? */
  readonly structured: ReadonlyMap<string, boolean>;
}

/**
 * Each runtime's listings, one per revision, shared by every `mcpToolHandlers` of that runtime: SDK
 * v2's `createMcpHandler` makes a server (and so handlers) per request, and `catalog()` copies every
 * schema, so a request must find the listing built, whatever the number of tools. Rebuilt when the
 * catalog changes; frozen, so no host can change what the next request lists.
 */
const listingsByRuntime = new WeakMap<CapabilityRuntime, Map<McpProtocolVersion, McpListing>>();

function sharedListing(runtime: CapabilityRuntime, protocol: McpProtocolVersion, structured: (entry: CatalogEntry) => boolean): McpListing {
  const listings = listingsByRuntime.get(runtime) ?? new Map<McpProtocolVersion, McpListing>();
  listingsByRuntime.set(runtime, listings);
  const listing = listings.get(protocol);
  if (listing?.revision === runtime.catalogRevision) return listing;
  const fresh = mcpListing(runtime, structured);
  listings.set(protocol, fresh);
  return fresh;
}

function mcpListing(runtime: CapabilityRuntime, structured: (entry: CatalogEntry) => boolean): McpListing {
  const revision = runtime.catalogRevision;
  // catalog() is by name, whatever the order of registration: every instance of a fleet lists alike (2026-07-28 asks for a deterministic order).
  const catalog = runtime.catalog();
  return {
    revision,
    tools: catalog.map((entry) => deepFreeze(mcpTool(entry, structured(entry)))),
    structured: new Map(catalog.map((entry) => [entry.name, structured(entry)])),
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

function mcpTool(entry: CatalogEntry, withOutputSchema: boolean): McpTool {
  const input = shownInputSchema(entry);
  // A root without "type" accepts any JSON value; MCP arguments are always an object.
  if (input['type'] !== undefined && input['type'] !== 'object') {
    throw new McpToolError(`tool "${entry.name}" takes a ${String(input['type'])} as input; an MCP tool's arguments are an object, so give the contract an object input`);
  }
  const inputSchema = input['type'] === undefined ? { type: 'object', ...input } : input;
  return withOutputSchema ? { name: entry.name, description: entry.description, inputSchema, outputSchema: shownOutputSchema(entry) } : { name: entry.name, description: entry.description, inputSchema };
}

/** An error result in the runtime's words (`code: message`), marked as the runtime's for the typed client. */
function errorResult(text: string): McpCallToolResult {
  const code = /^([a-z_]+): /.exec(text)?.[1];
  return { content: [{ type: 'text', text }], isError: true, ...(code === undefined ? {} : { _meta: { [toolErrorMetaKey]: { code } } }) };
}

/** What `serveToolsOnMcpServer` needs of an MCP SDK v2 low-level `Server`. */
export interface McpServerV2 extends SdkServer {
  registerCapabilities(capabilities: { tools: Record<string, never> } | { extensions: Record<string, Record<string, never>> }): void;
  setRequestHandler(method: 'tools/list', handler: (request: unknown, ctx: unknown) => Promise<{ tools: McpTool[] }>): void;
  setRequestHandler(method: 'tools/call', handler: (request: { params: McpCallToolParams }, ctx: unknown) => Promise<McpCallToolResult | McpInputRequiredResult | McpCreateTaskResult>): void;
  /** An extension's method (the tasks extension's), with the Standard Schema its params are read with. */
  setRequestHandler(method: string, schemas: { params: StandardSchemaV1<Record<string, unknown>> }, handler: (params: Record<string, unknown>, ctx: unknown) => Promise<unknown>): void;
}

/** What both SDKs' low-level `Server` has to tell whether a method is answered already. */
export interface SdkServer {
  assertCanSetRequestHandler(method: string): void;
  removeRequestHandler(method: string): void;
}

/** An SDK's high-level `McpServer` (v1 or v2), whose own tools, prompts and resources ours are served beside. */
export interface SdkMcpServer<S extends SdkServer = SdkServer> {
  readonly server: S;
  registerTool(...args: never[]): unknown;
}

type RawHandler = (request: unknown, extra: unknown) => Promise<unknown>;

/** @internal The tools/list and tools/call handlers for an SDK entry point to set, and the low-level server to set them on. */
export interface ToolRequestHandlers<S extends SdkServer> {
  readonly server: S;
  list(request: unknown, extra: unknown): Promise<{ tools: McpTool[] }>;
  call(request: { params: McpCallToolParams }, extra: unknown): Promise<McpCallToolResult | McpInputRequiredResult | McpCreateTaskResult>;
}

const paramsOf = (request: unknown): unknown => (isObject(request) ? request['params'] : undefined);

function isSdkMcpServer<S extends SdkServer>(target: S | SdkMcpServer<S>): target is SdkMcpServer<S> {
  return typeof (target as SdkMcpServer).registerTool === 'function' && typeof (target as SdkMcpServer).server === 'object';
}

/**
 * On a low-level `Server`: our handlers, or an `McpToolError` when the server already answers
 * tools/list or tools/call (an `McpServer` with `registerTool` tools does), since setting ours
 * would silently replace them. On an `McpServer`: handlers that list its tools after ours and
 * send each call to whichever side has the tool (one neither has is the runtime's `unknown_tool`
 * answer); a name on both sides is an `McpToolError`. A server serves one runtime: a second is an
 * `McpToolError` too. The `McpServer`'s own handlers are read from the SDK's request-handler map (`_requestHandlers`,
 * the same in v1 and v2), its tools from `_registeredTools`.
 */
export function toolRequestHandlers<S extends SdkServer>(target: S | SdkMcpServer<S>, mcp: McpToolHandlers): ToolRequestHandlers<S> {
  const handlers = sdkToolRequestHandlers(target, mcp);
  servingRuntime.add(handlers.server);
  return handlers;
}

/**
 * The low-level servers a runtime's tools are served on (directly, or through their McpServer): a
 * second runtime on the same server would list every tool twice and take the calls of the first.
 */
const servingRuntime = new WeakSet<object>();

function sdkToolRequestHandlers<S extends SdkServer>(target: S | SdkMcpServer<S>, mcp: McpToolHandlers): ToolRequestHandlers<S> {
  if (servingRuntime.has(isSdkMcpServer(target) ? target.server : target)) {
    throw new McpToolError("this server already serves a runtime's tools, and a second runtime on it would list every tool twice and take the first one's calls: register all the tools on one runtime, or serve the other runtime on a server of its own");
  }
  if (!isSdkMcpServer(target)) {
    for (const method of ['tools/list', 'tools/call']) {
      try {
        target.assertCanSetRequestHandler(method);
      } catch {
        throw new McpToolError(`this server already answers ${method} and serving the runtime's tools would replace that handler: if it is an McpServer's (its registerTool tools), pass the McpServer itself to serve both side by side`);
      }
    }
    return { server: target, list: async (request, extra) => mcp.listTools(paramsOf(request), extra), call: (request, extra) => mcp.callTool(request.params, extra) };
  }
  const internals = target as unknown as { setToolRequestHandlers?: () => void; _registeredTools?: Record<string, unknown>; server: { _requestHandlers?: Map<string, RawHandler> } };
  internals.setToolRequestHandlers?.();
  const theirList = internals.server._requestHandlers?.get('tools/list');
  const theirCall = internals.server._requestHandlers?.get('tools/call');
  const registered = internals._registeredTools;
  if (typeof theirList !== 'function' || typeof theirCall !== 'function' || typeof registered !== 'object') {
    throw new McpToolError("this McpServer keeps its tools where this version of the runtime does not look (an SDK version it was not tested with): serve the runtime's tools on a low-level Server of their own");
  }
  // By the McpServer's own tools (a handful) against the shared listing: per request, whatever the runtime's tool count.
  const clash = (): string[] =>
    Object.keys(registered)
      .filter((name) => mcp.hasTool(name))
      .sort();
  const refuseClash = (): void => {
    const names = clash();
    if (names.length > 0) throw new McpToolError(`the runtime and the McpServer both have a tool named ${names.map((name) => JSON.stringify(name)).join(', ')}: only one of them can answer; rename or remove one`);
  };
  refuseClash();
  target.server.removeRequestHandler('tools/list');
  target.server.removeRequestHandler('tools/call');
  return {
    server: target.server,
    async list(request, extra) {
      refuseClash();
      const theirs = (await theirList(request, extra)) as { tools: McpTool[] };
      const { tools, ...wire } = mcp.listTools(paramsOf(request), extra);
      return { ...theirs, ...wire, tools: [...tools, ...theirs.tools].sort(byName) };
    },
    async call(request, extra) {
      const name: unknown = request.params?.name;
      if (typeof name !== 'string' || mcp.hasTool(name)) return mcp.callTool(request.params, extra);
      if (Object.hasOwn(registered, name)) return theirCall(request, extra) as Promise<McpCallToolResult>;
      // Neither side has it: answered as the runtime answers an unknown tool, naming the tools of both (the SDKs' own answer names none).
      const { tools, ...wire } = mcp.listTools(paramsOf(request), extra) as { tools: McpTool[]; resultType?: unknown };
      const theirs = Object.entries(registered).filter(([, tool]) => (tool as { enabled?: unknown }).enabled !== false);
      const available = [...tools.map((tool) => tool.name), ...theirs.map(([theirName]) => theirName)].sort();
      return { ...(wire.resultType === undefined ? {} : { resultType: wire.resultType }), ...errorResult(`unknown_tool: no tool named ${JSON.stringify(name)}; available: ${describeNames(available)}`) };
    },
  };
}

/**
 * The one call for the MCP SDK v2 low-level `Server` (`@modelcontextprotocol/server`), which
 * names methods by string. For SDK v1 use `json-tool-contracts/mcp/sdk-v1`.
 */
export function serveToolsOnMcpServer(target: McpServerV2 | SdkMcpServer<McpServerV2>, runtime: CapabilityRuntime, options: McpToolHandlersOptions = {}): McpToolHandlers {
  const mcp = mcpToolHandlers(runtime, options);
  const { server, list, call } = toolRequestHandlers(target, mcp);
  keepMalformedInputResponses(server);
  server.registerCapabilities({ tools: {} });
  server.setRequestHandler('tools/list', list);
  server.setRequestHandler('tools/call', call);
  const tasks = mcp.tasks;
  if (tasks !== undefined) {
    // SDK v2 serves the extension's methods on 2026-07-28 once they have schemas of their own (as extension methods).
    server.registerCapabilities({ extensions: { [tasksExtension]: {} } });
    server.setRequestHandler('tasks/get', { params: taskParams }, (params, ctx) => tasks.get(params, ctx));
    server.setRequestHandler('tasks/update', { params: taskParams }, (params, ctx) => tasks.update(params, ctx));
    server.setRequestHandler('tasks/cancel', { params: taskParams }, (params, ctx) => tasks.cancel(params, ctx));
  }
  return mcp;
}

/**
 * Where a request's `inputResponses` that are no object go through SDK v2: the SDK makes them `{}`
 * before any handler sees them, so a malformed retry would be asked its questions again where
 * `mcpHttpHandler` answers -32602. The server's request intake (`_onrequest`, the same in every 2.x
 * so far) hands the SDK, in their place, one entry under this key and their kind, which the SDK
 * drops as no answer and names in `ctx.mcpReq.droppedInputResponseKeys`, where `liftedInputResponses` reads it.
 */
const notAnObjectKey = 'json-tool-contracts/inputResponses-not-an-object:';

function keepMalformedInputResponses(server: object): void {
  const intake = server as { _onrequest?: (request: unknown, extra: unknown) => unknown };
  const original = intake._onrequest;
  if (typeof original !== 'function') return;
  intake._onrequest = function (this: unknown, request: unknown, extra: unknown) {
    const params = isObject(request) ? request['params'] : undefined;
    if (!isObject(params) || params['inputResponses'] === undefined || isObjectRecord(params['inputResponses'])) return original.call(this, request, extra);
    return original.call(this, { ...(request as object), params: { ...params, inputResponses: { [`${notAnObjectKey}${kindOf(params['inputResponses'])}`]: null } } }, extra);
  };
}

/** A value of the kind `kindOf` named: the inputResponses SDK v2 was sent, as far as a message about them goes. */
const ofKind: Readonly<Record<string, unknown>> = { null: null, 'an array': [], 'a string': '', 'a number': 0, 'a boolean': false };

/** The params of a tasks method as SDK v2 reads them: any object (the handlers check `taskId` and answer -32602 themselves). */
const taskParams: StandardSchemaV1<Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: 'json-tool-contracts',
    validate: (value) => (isObject(value) ? { value } : { issues: [{ message: 'params must be an object' }] }),
  },
};

// ---- the request a handler serves

/** The MCP request of a call that came through `callTool`; undefined for a call from anywhere else. */
export function mcpContext(request: ToolRequest<unknown>): McpCallContext | undefined {
  return request.context instanceof McpCallContext ? request.context : undefined;
}

/** SDK v1's `extra`, SDK v2's `ctx`, or anything else (no context). */
function mcpCallContext(extra: unknown, protocol: McpProtocolVersion, options: McpToolHandlersOptions, inputRound?: InputRound): McpCallContext | undefined {
  const context = sdkCallContext(extra, protocol, options, inputRound);
  if (context !== undefined || inputRound === undefined) return context;
  // A 2026-07-28 call wired by hand without an SDK object: its helpers ask through the round, and nothing travels back before the result.
  const noChannel = async (): Promise<never> => {
    throw new McpContextError(`a ${protocol} request has no channel to its client before its result`);
  };
  return new McpCallContext(
    protocol,
    undefined,
    undefined,
    undefined,
    undefined,
    extra,
    async () => {},
    noChannel,
    // No notifications/message to send: the message goes where unsent ones go.
    async (level, data, logger) => sendUnsent(options.unsentLog, level, data, logger),
    inputRound,
  );
}

function sdkCallContext(extra: unknown, protocol: McpProtocolVersion, options: McpToolHandlersOptions, inputRound: InputRound | undefined): McpCallContext | undefined {
  if (typeof extra !== 'object' || extra === null) return undefined;
  const from = extra as Record<string, unknown>;
  const sessionId = typeof from['sessionId'] === 'string' ? from['sessionId'] : undefined;
  /** 2025-11-25: the session's `logging/setLevel` decides; 2026-07-28: the request's own `logLevel`, and stderr when it names none. */
  const toClient = (meta: unknown, level: McpLoggingLevel, data: unknown, logger: string | undefined): boolean => {
    if (protocol === '2025-11-25') return options.isLogIgnored?.(level, sessionId) !== true;
    const route = modernLogRoute(meta, level);
    if (route === 'elsewhere') sendUnsent(options.unsentLog, level, data, logger);
    return route === 'client';
  };
  const logVia = (notify: (notification: McpMessage) => Promise<void>, meta: unknown) => async (level: McpLoggingLevel, data: unknown, logger: string | undefined) => {
    if (toClient(meta, level, data, logger)) await notify({ method: 'notifications/message', params: { level, data, ...(logger === undefined ? {} : { logger }) } });
  };
  /**
   * A 2025-11-25 request on Streamable HTTP without a session (SDK v2's createMcpHandler serves
   * 2025-era requests so by default): its transport serves that one POST, and the client's answer
   * to a request would be a POST of its own, which nothing here would hear. Its requests are refused
   * at once, so the helpers answer `unavailable` instead of waiting for the SDK's timeout.
   */
  const stateless = protocol === '2025-11-25' && sessionId === undefined && (isObject(from['http']) ? from['http']['req'] : from['requestInfo']) !== undefined;
  const unanswerable = async (request: McpMessage): Promise<never> => {
    throw new McpContextError(`${request.method} cannot be asked: this 2025-11-25 request came without a session (stateless Streamable HTTP, as SDK v2's createMcpHandler serves 2025-era requests by default), so the client's answer could not reach this call; serve 2025-11-25 clients in sessions to ask them mid-call`);
  };
  const v2 = from['mcpReq'] as V2Request | undefined;
  if (typeof v2 === 'object' && v2 !== null) {
    const http = from['http'] as { authInfo?: McpAuthInfo } | undefined;
    const notify = (notification: McpMessage) => v2.notify(notification);
    // v2 lifts a 2026-07-28 envelope out of _meta; its own log knows the client's level in both eras, and drops what no client is to hear.
    const envelope = protocol === '2026-07-28' ? (v2.envelope ?? v2._meta) : v2._meta;
    const v2Log = v2.log;
    const log =
      typeof v2Log === 'function'
        ? async (level: McpLoggingLevel, data: unknown, logger: string | undefined) => {
            if (protocol === '2025-11-25' || toClient(envelope, level, data, logger)) await v2Log.call(v2, level, data, logger);
          }
        : logVia(notify, envelope);
    return new McpCallContext(protocol, v2.id, sessionId, http?.authInfo, v2._meta, extra, notify, stateless ? unanswerable : (request) => v2.send(request), log, inputRound);
  }
  const v1 = from as unknown as V1Extra;
  if (typeof v1.sendNotification !== 'function' || typeof v1.sendRequest !== 'function') return undefined;
  const notify = (notification: McpMessage) => v1.sendNotification(notification);
  return new McpCallContext(protocol, v1.requestId, sessionId, v1.authInfo, v1._meta, extra, notify, stateless ? unanswerable : (request) => v1.sendRequest(request, anyResult), logVia(notify, v1._meta), inputRound);
}

interface V2Request {
  readonly id?: string | number;
  readonly _meta?: Record<string, unknown>;
  /** A 2026-07-28 request's reserved `_meta` keys, lifted out by the SDK. */
  readonly envelope?: Record<string, unknown>;
  readonly signal?: AbortSignal;
  notify(notification: McpMessage): Promise<void>;
  send(request: McpMessage): Promise<unknown>;
  log?(level: McpLoggingLevel, data: unknown, logger: string | undefined): Promise<void>;
}

interface V1Extra {
  readonly requestId?: string | number;
  readonly authInfo?: McpAuthInfo;
  readonly _meta?: Record<string, unknown>;
  readonly signal?: AbortSignal;
  sendNotification(notification: McpMessage): Promise<void>;
  sendRequest(request: McpMessage, resultSchema: unknown): Promise<unknown>;
}

/** SDK v1 checks a request's result with the schema it is given (zod 3's `safeParse`); the helpers check what they read themselves. */
const anyResult = { safeParse: (data: unknown) => ({ success: true, data }) };

function signalOf(extra: unknown): AbortSignal | undefined {
  if (typeof extra !== 'object' || extra === null) return undefined;
  const from = extra as { signal?: unknown; mcpReq?: { signal?: unknown } };
  const signal = from.mcpReq?.signal ?? from.signal;
  return signal instanceof AbortSignal ? signal : undefined;
}

/**
 * Reports progress on the call to the client (`notifications/progress`), if it asked for progress
 * (sent a `progressToken`); resolves false when there is nobody to tell. `progress` should grow
 * with each report; `total` and `message` are optional. Best effort: both SDK clients can drop a
 * report that reaches them in the same read as the result (typescript-sdk#2580), so never make
 * the last report just before returning the thing a client waits for.
 */
export async function mcpProgress(request: ToolRequest<unknown>, progress: number, details: { readonly total?: number; readonly message?: string } = {}): Promise<boolean> {
  const context = mcpContext(request);
  const progressToken = context?.progressToken;
  if (context === undefined || progressToken === undefined) return false;
  await context.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, ...details } });
  return true;
}

/**
 * Sends a log message to the client (`notifications/message`) unless the client's logging level
 * leaves the level out (2025-11-25: the session's `logging/setLevel`; 2026-07-28: the request's own
 * `logLevel`). A 2026-07-28 request that names no level, or a call with no channel to its client,
 * has its messages go to the adapter's `unsentLog` (stderr, or OpenTelemetry with `otelUnsentLog`).
 * Does nothing for a call that did not come through MCP.
 */
export async function mcpLog(request: ToolRequest<unknown>, level: McpLoggingLevel, data: unknown, logger?: string): Promise<void> {
  await mcpContext(request)?.sendLog(level, data, logger);
}

/**
 * Asks the client's model for a message (`sampling/createMessage`); the outcome says what came
 * back: `accepted` with a result that has a message's shape (role, content, model), `invalid`, or
 * `unavailable` (not through MCP, no sampling capability, the client answered with an error).
 * Under 2026-07-28 an unanswered question ends the round (see `mcpElicit`).
 */
export function mcpCreateMessage(request: ToolRequest<unknown>, params: McpCreateMessageParams): Promise<McpAnswer<McpCreateMessageResult>> {
  return ask(request, inputChannel(request), samplingQuestion(params));
}

/**
 * Asks the user through the client (`elicitation/create`), in form mode with the validator of
 * what to ask, or in URL mode. The outcome: `accepted` with the content that passed the
 * validator, typed from it (URL mode: no content), `declined`, `cancelled`, `invalid` (content
 * that breaks the validator, or none), or `unavailable`; it never throws for what the client does.
 * Under 2025-11-25 the request goes to the client at once. Under 2026-07-28 the answer comes from
 * the client's retry: the first time the handler asks, the round ends with `input_required`, and
 * the handler runs again from the top with the answers, so what it does before asking runs again.
 */
export function mcpElicit<T>(request: ToolRequest<unknown>, params: McpElicitFormParams<T>): Promise<McpElicitAnswer<T>>;
export function mcpElicit(request: ToolRequest<unknown>, params: McpElicitUrlParams): Promise<McpElicitAnswer<undefined>>;
export function mcpElicit<T>(request: ToolRequest<unknown>, params: McpElicitFormParams<T> | McpElicitUrlParams): Promise<McpElicitAnswer<T | undefined>> {
  return ask(request, inputChannel(request), elicitQuestion(params));
}

/** Asks the client for its roots (`roots/list`): `accepted` with the roots (file:// URIs), `invalid` or `unavailable`; rounds as `mcpElicit`. */
export function mcpListRoots(request: ToolRequest<unknown>, params: { readonly key?: string; readonly required?: boolean } = {}): Promise<McpAnswer<readonly McpRoot[]>> {
  return ask(request, inputChannel(request), rootsQuestion(params));
}

function inputChannel(request: ToolRequest<unknown>): InputChannel | undefined {
  const context = mcpContext(request);
  return context === undefined ? undefined : { protocolVersion: context.protocolVersion, inputRound: context.inputRound, sendRequest: (message) => context.sendRequest(message) };
}

function byName(a: { readonly name: string }, b: { readonly name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
