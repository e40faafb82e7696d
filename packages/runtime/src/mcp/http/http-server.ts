import { maxCallIdLength, type CapabilityRuntime } from '../../core/capability-runtime.js';
import { shortened } from '../../core/errors.js';
import { envelopeProblem } from '../../core/envelope.js';
import { exactJsonText, parseJson } from '../../core/json.js';
import { describeThrown } from '../../support/describe-thrown.js';
import { cacheHint, isLoggingLevel, isModernRevision, isLevelShown, legacyRevisions, metaKeys, mcpErrorCodes, modernRevision } from '../revision-2026.js';
import { tasksExtension } from '../tasks.js';
import { McpRequestError, mcpToolHandlers, type McpAuthInfo, type McpLoggingLevel, type McpTaskMethods, type McpToolHandlers, type McpToolHandlersOptions } from '../server.js';
import { EventStream, internalErrorAnswer, jsonHeaders, serveOnNodeDirectly, webRequestView, webResponse, type HttpAnswer, type RequestView } from './exchange.js';

/**
 * The runtime's tools over MCP Streamable HTTP without an SDK, both revisions from one endpoint,
 * as a Web `Request` -> `Response` handler (Workers, Deno, Bun, serverless) and, through
 * `mcpNodeListener`, on plain `node:http` (without Web objects: ./exchange.ts). Each request is served by the revision it names
 * (mcp/revision-2026.ts): one that carries the 2026-07-28 `_meta` envelope, or names a 2026-07-28 or later
 * revision in its `MCP-Protocol-Version` header, is stateless (`server/discover`, `tools/list`,
 * `tools/call`, checked headers, and with `tasks` the tasks extension's `tasks/get`, `tasks/update`
 * and `tasks/cancel`); any other is 2025-11-25, in a session begun by `initialize`
 * (`ping`, `logging/setLevel`, `tools/list`, `tools/call`, cancellation, and the handler's requests
 * to the client, answered by POSTs of the session). Tools only: a server with prompts or resources
 * uses an SDK (`serveToolsOnMcpServer`).
 */

export interface McpHttpHandlerOptions extends McpToolHandlersOptions {
  /** The `serverInfo` of `initialize` and `server/discover`. */
  readonly serverInfo: { readonly name: string; readonly version: string };
  /**
   * The `Host` header values served (`127.0.0.1:3000`); any other is refused with 403, against DNS
   * rebinding. Without it every host is served: put the handler behind a proxy that checks.
   */
  readonly allowedHosts?: readonly string[];
  /** Who is calling, from a token the host already checked (the handler sees it as `authInfo`). */
  readonly authInfo?: (request: Request) => McpAuthInfo | undefined;
  /** The largest request body read, in bytes (default 4 MiB); a larger one is answered 413. */
  readonly maxBodyBytes?: number;
  /** How long a handler's request to a 2025 client waits for its answer (default 60 s). */
  readonly clientRequestTimeoutMs?: number;
  /**
   * How long a 2025-11-25 session is kept with no request and no call running, in milliseconds
   * (default 1,800,000: half an hour); then it ends, and its client is told to initialize again
   * (404, -32001) when it comes back.
   */
  readonly sessionIdleMs?: number;
  /** The most 2025-11-25 sessions open at once (default 10,000); one more `initialize` is refused (HTTP 503) until one ends. */
  readonly maxSessions?: number;
}

export interface McpHttpHandler {
  /** Answers one HTTP request; never rejects. */
  fetch(request: Request): Promise<Response>;
  /** The tool handlers it serves with (`listTools`, `callTool`). */
  readonly tools: McpToolHandlers;
  /** The 2025-11-25 sessions open now. */
  readonly sessionCount: number;
  /** Ends every 2025-11-25 session: their running calls are cancelled and their requests to the client rejected. */
  close(): void;
}

type JsonRpcId = string | number;
interface JsonRpcMessage {
  readonly jsonrpc?: unknown;
  readonly id?: unknown;
  readonly method?: unknown;
  readonly params?: unknown;
  readonly result?: unknown;
  readonly error?: unknown;
}

/** A 2025-11-25 session: its logging level, its running calls (by request id), its requests to the client awaiting answers. */
interface Session {
  level: McpLoggingLevel | undefined;
  /** When it last had a request, or was last seen with a call running (ms since the epoch). */
  seenAt: number;
  readonly calls: Map<JsonRpcId, AbortController>;
  readonly pending: Map<JsonRpcId, { resolve(result: unknown): void; reject(error: Error): void }>;
}

const defaultMaxBodyBytes = 4 * 1024 * 1024;
const defaultSessionIdleMs = 30 * 60_000;
const defaultMaxSessions = 10_000;
/** JSON-RPC's implementation-defined server error: the server cannot take the request now. */
const serverBusyCode = -32000;

function positiveWhole(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a whole number of at least 1, got ${String(value)}`);
  return value;
}
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isId = (value: unknown): value is JsonRpcId => typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

function rpcError(id: unknown, code: number, message: string, status: number, data?: unknown, headers: Record<string, string> = {}): HttpAnswer {
  const error = { code, message, ...(data === undefined ? {} : { data }) };
  return { status, headers: { ...jsonHeaders, ...headers }, body: JSON.stringify({ jsonrpc: '2.0', id: isId(id) ? id : null, error }) };
}

/** An answer with no body: an accepted notification or response (202), an ended session (200). */
const empty = (status: number, headers: Record<string, string> = {}): HttpAnswer => ({ status, headers, body: null });

/**
 * How a response's JSON is written: `JSON.stringify`, or for a result that may hold an exact-mode
 * tool's schemas or output, `exactJsonText`, which writes their numbers with every digit (about
 * five times slower, so only there).
 */
type JsonWriter = (message: unknown) => string;

function rpcResult(id: JsonRpcId, result: unknown, headers: Record<string, string> = {}, write: JsonWriter = JSON.stringify): HttpAnswer {
  return { status: 200, headers: { ...jsonHeaders, ...headers }, body: write({ jsonrpc: '2.0', id, result }) };
}

function sseFrame(message: unknown, write: JsonWriter = JSON.stringify): string {
  return `event: message\ndata: ${write(message)}\n\n`;
}

/**
 * An answer that stays a single JSON body unless the call sends something before its result,
 * which upgrades it to an event stream of that request (notifications, and for 2025-11-25 the
 * handler's requests to the client), ended by the result. A client that leaves the stream (a
 * Web-standard host cancels the body when its client goes away) is gone: `cancelled` is told once,
 * and nothing more is written to the stream.
 */
function streamedCall(id: JsonRpcId, run: (send: (message: unknown) => void) => Promise<unknown>, headers: Record<string, string>, write: JsonWriter, cancelled: () => void): Promise<HttpAnswer> {
  return new Promise((resolve) => {
    let stream: EventStream | undefined;
    const send = (message: unknown) => {
      if (stream === undefined) {
        stream = new EventStream(cancelled);
        resolve({ status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers }, body: stream });
      }
      stream.write(sseFrame(message));
    };
    const end = (message: Record<string, unknown>, plain: () => HttpAnswer) => {
      if (stream === undefined) resolve(plain());
      else stream.end(sseFrame(message, write));
    };
    void run(send).then(
      (result) => end({ jsonrpc: '2.0', id, result }, () => rpcResult(id, result, headers, write)),
      (error: unknown) => {
        const { code, message, data } = requestError(error);
        end({ jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } }, () => rpcError(id, code, message, errorStatus(code), data, headers));
      },
    );
  });
}

/** The handlers reject only with McpRequestError (a refused requestState, a capability the call requires, an unknown task); anything else is an internal error. */
function requestError(error: unknown): { readonly code: number; readonly message: string; readonly data?: unknown } {
  return error instanceof McpRequestError ? error : { code: mcpErrorCodes.internalError, message: describeThrown(error) };
}

/** HTTP 400 for -32021, as the revision says; the JSON-RPC error says the rest. */
const errorStatus = (code: number): number => (code === mcpErrorCodes.missingRequiredClientCapability ? 400 : 200);

/** A tasks method's answer: its result, or its JSON-RPC error. */
async function taskAnswer(id: JsonRpcId, answer: () => Promise<unknown>, write: JsonWriter): Promise<HttpAnswer> {
  try {
    return rpcResult(id, await answer(), {}, write);
  } catch (error) {
    const { code, message, data } = requestError(error);
    return rpcError(id, code, message, errorStatus(code), data);
  }
}

/** The body field the `Mcp-Name` header mirrors, by method: the tool's name, and the task's id (the tasks extension's routing header). */
const mcpNameSource: Readonly<Record<string, string>> = { 'tools/call': 'name', 'tasks/get': 'taskId', 'tasks/update': 'taskId', 'tasks/cancel': 'taskId' };

/** The `Mcp-Name` header's value: plain, or `=?base64?…?=` for a name that is not plain ASCII. */
function headerName(value: string | null): string | undefined {
  if (value === null) return undefined;
  const encoded = /^=\?base64\?(.*)\?=$/i.exec(value.trim());
  if (encoded === null) return value.trim();
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(encoded[1]!), (char) => char.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

export function mcpHttpHandler(runtime: CapabilityRuntime, options: McpHttpHandlerOptions): McpHttpHandler {
  /** By when each was last seen, oldest first: a session seen again moves to the end. */
  const sessions = new Map<string, Session>();
  const sessionIdleMs = positiveWhole('sessionIdleMs', options.sessionIdleMs ?? defaultSessionIdleMs);
  const maxSessions = positiveWhole('maxSessions', options.maxSessions ?? defaultMaxSessions);
  const maxBodyBytes = options.maxBodyBytes ?? defaultMaxBodyBytes;
  const clientRequestTimeoutMs = options.clientRequestTimeoutMs ?? 60_000;
  const tools = mcpToolHandlers(runtime, {
    ...options,
    // A session's logging/setLevel: messages below it are not sent (2025-11-25; 2026-07-28 requests name their own level).
    isLogIgnored: (level, sessionId) => {
      if (options.isLogIgnored?.(level, sessionId) === true) return true;
      const minimum = sessionId === undefined ? undefined : sessions.get(sessionId)?.level;
      return minimum !== undefined && !isLevelShown(level, minimum);
    },
  });
  const capabilities = { tools: { listChanged: false }, logging: {} };
  // The tasks extension is served at 2026-07-28 only, so only server/discover names it.
  const modernCapabilities = tools.tasks === undefined ? capabilities : { ...capabilities, extensions: { [tasksExtension]: {} } };
  const taskMethodsServed = tools.tasks === undefined ? undefined : taskMethods(tools.tasks);
  // What server/discover answers holds as long as the tool listing does.
  const discoverCache = cacheHint(options.toolsListCache);
  let nextClientRequest = 0;
  // The tools whose contracts keep every digit (--exact-numbers), as of the catalog's revision.
  let exactTools = { revision: Number.NaN, names: new Set<string>() as ReadonlySet<string> };
  const exactToolNames = (): ReadonlySet<string> => {
    if (exactTools.revision !== runtime.catalogRevision) exactTools = { revision: runtime.catalogRevision, names: new Set(runtime.catalog().flatMap((entry) => (entry.exactNumbers ? [entry.name] : []))) };
    return exactTools.names;
  };
  /** A result that may hold an exact-mode tool's schemas or output is written with their digits. */
  const writerFor = (exact: boolean): JsonWriter => (exact ? exactJsonText : JSON.stringify);
  const isExactCall = (params: Record<string, unknown>): boolean => typeof params['name'] === 'string' && exactToolNames().has(params['name']);
  const listingWriter = (): JsonWriter => writerFor(exactToolNames().size > 0);

  /**
   * A tools/call of an exact-mode tool with its arguments read again from the body's text by the
   * lossless parser, as callJson reads its text: JSON.parse rounded each number to a double, and
   * the contract judges the digits the client sent. Only the arguments: the id, `_meta` and a
   * retry's `inputResponses` stay as JSON.parse read them. Arguments nesting deeper than the
   * envelope allows are left as they are, for the envelope to refuse as for any tool; undefined
   * for a body that nests that deep elsewhere, which the parser will not read.
   */
  function withExactArguments(message: Record<string, unknown>, text: string): Record<string, unknown> | undefined {
    const params = message['params'];
    if (message['method'] !== 'tools/call' || !isObject(params) || !Object.hasOwn(params, 'arguments') || !isExactCall(params)) return message;
    let exact: unknown;
    try {
      // The arguments' root is the third level of the message (message, params, arguments).
      exact = parseJson(text, { exactNumbers: true, maxDepth: runtime.envelopeLimits.maxDepth + 3 });
    } catch {
      return envelopeProblem(params['arguments'], runtime.envelopeLimits) === undefined ? undefined : message;
    }
    return { ...message, params: { ...params, arguments: ((exact as Record<string, unknown>)['params'] as Record<string, unknown>)['arguments'] } };
  }

  /**
   * What the handler's `extra` is: the shape `mcpToolHandlers` reads (SDK v1's), for a call of
   * either revision, and `hangUp`, which cuts it from the call's response once the `tools/call`
   * is answered: a call that goes on as a task then holds none of the request and its stream for
   * its whole TTL (nothing more can go out on them).
   */
  function callExtra(id: JsonRpcId, params: Record<string, unknown>, authInfo: McpAuthInfo | undefined, signal: AbortSignal, send: (message: unknown) => void, sessionId: string | undefined) {
    let line: { readonly send: (message: unknown) => void; readonly session: Session | undefined } | undefined = { send, session: sessionId === undefined ? undefined : sessions.get(sessionId) };
    const extra = {
      requestId: id,
      sessionId,
      authInfo,
      _meta: isObject(params['_meta']) ? params['_meta'] : undefined,
      signal,
      sendNotification: async (notification: { method: string; params?: Record<string, unknown> }) => line?.send({ jsonrpc: '2.0', ...notification }),
      sendRequest: (message: { method: string; params?: Record<string, unknown> }) => {
        const session = line?.session;
        // 2026-07-28 has no server-to-client requests; the helpers ask through input_required there and never get here.
        if (line === undefined || session === undefined) return Promise.reject(new Error(`${message.method}: ${line === undefined ? 'the call has been answered' : 'MCP 2026-07-28 has no requests from the server to the client'}`));
        const { send: sendOnStream } = line;
        const requestId = `jtc-${++nextClientRequest}`;
        return new Promise<unknown>((resolve, reject) => {
          const timer = setTimeout(() => {
            session.pending.delete(requestId);
            reject(new Error(`the client did not answer ${message.method} within ${clientRequestTimeoutMs} ms`));
          }, clientRequestTimeoutMs);
          const settle = (then: () => void) => {
            clearTimeout(timer);
            session.pending.delete(requestId);
            then();
          };
          session.pending.set(requestId, { resolve: (result) => settle(() => resolve(result)), reject: (error) => settle(() => reject(error)) });
          signal.addEventListener('abort', () => session.pending.get(requestId)?.reject(new Error(`${message.method} was abandoned: the call was cancelled`)), { once: true });
          sendOnStream({ jsonrpc: '2.0', id: requestId, ...message });
        });
      },
    };
    const hangUp = (): void => {
      line = undefined;
    };
    return { extra, hangUp };
  }

  function serveCall(id: JsonRpcId, params: Record<string, unknown>, request: RequestView, sessionId: string | undefined, headers: Record<string, string>): Promise<HttpAnswer> {
    const abort = new AbortController();
    request.onLeave(() => abort.abort());
    // Read now, so that no closure here keeps the request.
    const authInfo = options.authInfo?.(request.webRequest());
    const session = sessionId === undefined ? undefined : sessions.get(sessionId);
    session?.calls.set(id, abort);
    return streamedCall(
      id,
      async (send) => {
        const { extra, hangUp } = callExtra(id, params, authInfo, abort.signal, send, sessionId);
        try {
          return await tools.callTool(params, extra);
        } finally {
          hangUp();
          session?.calls.delete(id);
          // Its idle time counts from the end of its last call.
          if (session !== undefined && sessions.get(sessionId!) === session) seen(sessionId!, session);
        }
      },
      headers,
      writerFor(isExactCall(params)),
      // A client that left its call's stream has left the call, as one whose connection closed (mcpNodeListener) has.
      () => abort.abort(),
    );
  }

  /** 2026-07-28: the headers and envelope checked in the revision's order, then the method. */
  async function modern(message: JsonRpcMessage, request: RequestView): Promise<HttpAnswer> {
    const { id, method } = message;
    const params = isObject(message.params) ? message.params : {};
    const meta = isObject(params['_meta']) ? params['_meta'] : undefined;
    const named = meta?.[metaKeys.protocolVersion];
    const header = request.header('mcp-protocol-version');
    if (!isId(id)) return empty(202); // a notification: nothing of 2026-07-28 needs one from the client
    if (header === null) return rpcError(id, mcpErrorCodes.headerMismatch, 'the MCP-Protocol-Version header is missing: a 2026-07-28 request names its revision in the header and in _meta', 400);
    if (meta === undefined || typeof named !== 'string' || !isObject(meta[metaKeys.clientCapabilities])) {
      return rpcError(id, mcpErrorCodes.invalidParams, `a 2026-07-28 request carries _meta with "${metaKeys.protocolVersion}" and "${metaKeys.clientCapabilities}"`, 400);
    }
    if (header.trim() !== named) return rpcError(id, mcpErrorCodes.headerMismatch, `the MCP-Protocol-Version header says ${header.trim()} and _meta says ${named}`, 400);
    if (named !== modernRevision) {
      return rpcError(id, mcpErrorCodes.unsupportedProtocolVersion, `protocol version ${named} is not served here`, 400, { supported: [modernRevision, ...legacyRevisions], requested: named });
    }
    const methodHeader = request.header('mcp-method');
    if (methodHeader === null || methodHeader.trim() !== method) return rpcError(id, mcpErrorCodes.headerMismatch, `the Mcp-Method header ${methodHeader === null ? 'is missing' : `says ${methodHeader.trim()}`}; the body's method is ${String(method)}`, 400);
    const mirrored = typeof method === 'string' && Object.hasOwn(mcpNameSource, method) ? mcpNameSource[method]! : undefined;
    if (mirrored !== undefined && typeof params[mirrored] === 'string' && headerName(request.header('mcp-name')) !== params[mirrored]) {
      return rpcError(id, mcpErrorCodes.headerMismatch, `the Mcp-Name header does not name what the body's ${mirrored} does (${JSON.stringify(shortened(params[mirrored] as string, maxCallIdLength))})`, 400);
    }
    const taskMethod = taskMethodsServed?.get(method as string);
    if (taskMethod !== undefined) return taskAnswer(id, () => taskMethod(params), listingWriter());
    switch (method) {
      case 'server/discover':
        return rpcResult(id, { resultType: 'complete', ...discoverCache, supportedVersions: [modernRevision, ...legacyRevisions], capabilities: modernCapabilities, _meta: { [metaKeys.serverInfo]: options.serverInfo } });
      case 'tools/list':
        return rpcResult(id, tools.listTools(params), {}, listingWriter());
      case 'tools/call':
        return serveCall(id, params, request, undefined, {});
      default:
        return rpcError(id, mcpErrorCodes.methodNotFound, `method ${JSON.stringify(method)} is not served at 2026-07-28 (this server serves server/discover, tools/list, tools/call${tools.tasks === undefined ? '' : ', tasks/get, tasks/update and tasks/cancel'})`, 404);
    }
  }

  /** 2025-11-25: `initialize` begins a session; everything else belongs to one. */
  async function legacy(message: JsonRpcMessage, request: RequestView): Promise<HttpAnswer> {
    const { id, method } = message;
    const params = isObject(message.params) ? message.params : {};
    const sessionId = request.header('mcp-session-id');
    if (method === 'initialize' && isId(id)) {
      if (sessionId !== null) return rpcError(id, mcpErrorCodes.invalidRequest, 'initialize begins a session: send it without an Mcp-Session-Id header', 400);
      const asked = params['protocolVersion'];
      const protocolVersion = typeof asked === 'string' && legacyRevisions.includes(asked) ? asked : legacyRevisions[0]!;
      if (sessions.size >= maxSessions) {
        return rpcError(id, serverBusyCode, `this server has the most 2025-11-25 sessions it keeps open (maxSessions ${maxSessions}): initialize again once one has ended (an idle one ends after ${sessionIdleMs} ms), or send 2026-07-28 requests, which need no session`, 503);
      }
      const newSessionId = crypto.randomUUID();
      sessions.set(newSessionId, { level: undefined, seenAt: Date.now(), calls: new Map(), pending: new Map() });
      return rpcResult(id, { protocolVersion, capabilities, serverInfo: options.serverInfo }, { 'mcp-session-id': newSessionId });
    }
    if (sessionId === null) return rpcError(id, mcpErrorCodes.invalidRequest, 'no Mcp-Session-Id header: begin a session with initialize (or send a 2026-07-28 request, which needs none)', 400);
    const session = sessions.get(sessionId);
    if (session === undefined) return rpcError(id, mcpErrorCodes.sessionNotFound, 'session not found: it ended or never began; initialize again', 404);
    seen(sessionId, session);
    // The client's answer to a request the handler sent it.
    if (method === undefined && isId(id) && ('result' in message || 'error' in message)) {
      const pending = session.pending.get(id);
      if (pending !== undefined) {
        if ('result' in message) pending.resolve(message.result);
        else pending.reject(new Error(`the client answered with an error: ${JSON.stringify(message.error)}`));
      }
      return empty(202);
    }
    if (!isId(id)) {
      if (method === 'notifications/cancelled') session.calls.get(params['requestId'] as JsonRpcId)?.abort();
      return empty(202);
    }
    const headers = { 'mcp-session-id': sessionId };
    switch (method) {
      case 'ping':
        return rpcResult(id, {}, headers);
      case 'logging/setLevel':
        if (!isLoggingLevel(params['level'])) return rpcError(id, mcpErrorCodes.invalidParams, `logging/setLevel needs a level (debug, info, notice, warning, error, critical, alert, emergency), got ${JSON.stringify(params['level'])}`, 200, undefined, headers);
        session.level = params['level'];
        return rpcResult(id, {}, headers);
      case 'tools/list':
        return rpcResult(id, tools.listTools(params), headers, listingWriter());
      case 'tools/call':
        return serveCall(id, params, request, sessionId, headers);
      default:
        return rpcError(id, mcpErrorCodes.methodNotFound, `method ${JSON.stringify(method)} is not served (this server serves tools)`, 200, undefined, headers);
    }
  }

  function seen(sessionId: string, session: Session): void {
    session.seenAt = Date.now();
    sessions.delete(sessionId);
    sessions.set(sessionId, session);
  }

  /** Ends the sessions idle for longer than `sessionIdleMs`, oldest first; one with a call running or a request out is not idle. */
  function endIdleSessions(): void {
    const since = Date.now() - sessionIdleMs;
    for (let looked = sessions.size; looked > 0; looked--) {
      const [sessionId, session] = sessions.entries().next().value as [string, Session];
      if (session.seenAt > since) return;
      if (session.calls.size > 0 || session.pending.size > 0) seen(sessionId, session);
      else {
        sessions.delete(sessionId);
        endSession(session);
      }
    }
  }

  function endSession(session: Session): void {
    for (const call of session.calls.values()) call.abort();
    for (const pending of session.pending.values()) pending.reject(new Error('the session ended'));
  }

  /** Whether a request is 2026-07-28's: its `_meta` names a revision, or its header names a modern one. */
  function isModernRequest(message: JsonRpcMessage, request: RequestView): boolean {
    const meta = isObject(message.params) ? message.params['_meta'] : undefined;
    if (isObject(meta) && meta[metaKeys.protocolVersion] !== undefined) return true;
    return request.header('mcp-session-id') === null && isModernRevision(request.header('mcp-protocol-version')?.trim());
  }

  async function serve(request: RequestView): Promise<HttpAnswer> {
    // Swept as requests come (no timer, which Workers would not keep): each sweep stops at the first session seen within the idle time.
    endIdleSessions();
    if (options.allowedHosts !== undefined && !options.allowedHosts.includes(request.host())) {
      return rpcError(null, mcpErrorCodes.invalidRequest, 'this Host is not served (DNS rebinding protection)', 403);
    }
    if (request.method === 'DELETE') {
      const sessionId = request.header('mcp-session-id');
      const session = sessionId === null ? undefined : sessions.get(sessionId);
      if (session === undefined) return rpcError(null, mcpErrorCodes.sessionNotFound, 'session not found', 404);
      sessions.delete(sessionId!);
      endSession(session);
      return empty(200);
    }
    // No stream of server-initiated messages (GET): this server sends nothing outside a request.
    if (request.method !== 'POST') return empty(405, { allow: 'POST, DELETE' });
    const type = request.header('content-type')?.split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') return rpcError(null, mcpErrorCodes.invalidRequest, 'a request body is application/json', 415);
    const body = await request.text(maxBodyBytes);
    if ('tooLarge' in body) return rpcError(null, mcpErrorCodes.invalidRequest, `the request body is larger than ${maxBodyBytes} bytes`, 413);
    let message: unknown;
    try {
      message = JSON.parse(body.text);
    } catch (error) {
      return rpcError(null, mcpErrorCodes.parseError, `the request body is not JSON: ${describeThrown(error)}`, 400);
    }
    if (Array.isArray(message)) return rpcError(null, mcpErrorCodes.invalidRequest, 'JSON-RPC batches are not served (MCP 2025-11-25 removed them): send one message per request', 400);
    if (!isObject(message) || message['jsonrpc'] !== '2.0') return rpcError(isObject(message) ? message['id'] : null, mcpErrorCodes.invalidRequest, 'not a JSON-RPC 2.0 message', 400);
    const lossless = withExactArguments(message, body.text);
    if (lossless === undefined) return rpcError(message['id'], mcpErrorCodes.invalidRequest, `the request body nests deeper than the ${runtime.envelopeLimits.maxDepth} levels the tool's arguments may take`, 400);
    return isModernRequest(lossless, request) ? modern(lossless, request) : legacy(lossless, request);
  }

  const served = async (request: RequestView): Promise<HttpAnswer> => {
    try {
      return await serve(request);
    } catch (error) {
      return internalErrorAnswer(error);
    }
  };
  const handler: McpHttpHandler = {
    tools,
    get sessionCount() {
      return sessions.size;
    },
    fetch: async (request) => webResponse(await served(webRequestView(request))),
    close() {
      for (const session of sessions.values()) endSession(session);
      sessions.clear();
    },
  };
  serveOnNodeDirectly(handler, served);
  return handler;
}

export { mcpNodeListener } from './exchange.js';
export { legacyRevisions, mcpErrorCodes, metaKeys, modernRevision } from '../revision-2026.js';

function taskMethods(tasks: McpTaskMethods): ReadonlyMap<string, (params: Record<string, unknown>) => Promise<unknown>> {
  return new Map([
    ['tasks/get', tasks.get],
    ['tasks/update', tasks.update],
    ['tasks/cancel', tasks.cancel],
  ]);
}
