/**
 * The runtime's calls as OpenTelemetry spans and metrics (`@json-tool-contracts/runtime/otel`),
 * named by the semantic conventions for GenAI tool execution and MCP (status Development):
 *
 *   const runtime = new CapabilityRuntime({ observer: otelCallObserver() });
 *
 * The only module of the runtime that knows OpenTelemetry: it needs `@opentelemetry/api` (an
 * optional peer dependency), and exports through whatever SDK the application registered. Log
 * records go to a logger provider the application passes in, read structurally (see `otelUnsentLog`).
 */
import { context, createTraceState, metrics, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Counter, type Histogram, type Link, type MeterProvider, type Span, type TextMapGetter, type TextMapPropagator, type TextMapSetter, type TracerProvider } from '@opentelemetry/api';
import type { CallEnd, CallObserver, CallRecord, CallWatch, ToolRequest } from '../core/capability-runtime.js';
import { contractOutcome } from '../core/contract-outcome.js';
import { McpRequestRefusal } from '../mcp/input-rounds.js';
import { McpCallContext, type McpLoggingLevel } from '../mcp/server.js';
import { logToStderr, type McpUnsentLog } from '../mcp/revision-2026.js';
import type { McpClientTracing } from '../mcp/client/client.js';
import { providerToolCall, type ProviderToolCall } from '../providers/provider-tools.js';
import { stringifyJson } from '../core/json.js';

export interface OtelObserverOptions {
  /** Where spans go; by default the global one (`trace.setGlobalTracerProvider`, what an SDK's `register()` sets). */
  readonly tracerProvider?: TracerProvider;
  /** Where metrics go; by default the global one, as it is at the first call. */
  readonly meterProvider?: MeterProvider;
  /** Reads `traceparent`, `tracestate` and `baggage` from an MCP request's `_meta`; by default the global propagator. */
  readonly propagator?: TextMapPropagator;
  /**
   * Record `gen_ai.tool.call.arguments` and `gen_ai.tool.call.result`, the JSON text of the
   * validated input and output (off by default: they can hold anything a user typed).
   */
  readonly recordContent?: boolean;
  /** The longest those two attributes get, in UTF-16 code units (default 2,048); longer text is cut and ends with `…`. */
  readonly maxContentLength?: number;
  /**
   * The longest span name, in UTF-8 bytes (Workers Observability keeps 64): a name
   * `{operation} {tool}` longer than that is the operation alone (`tools/call`, `execute_tool`),
   * the tool still in `gen_ai.tool.name`. At least 12; unset, names are not limited.
   */
  readonly maxSpanNameBytes?: number;
}

/** The instrumentation scope of every span and metric. */
export const instrumentationScope = '@json-tool-contracts/runtime';

/** How many UTF-16 code units a tool name, session id or request id keeps on a span. */
const maxIdentifierLength = 256;

/** The conventions' advice for `mcp.server.operation.duration`, used for both histograms. */
const durationBuckets = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/**
 * The JSON-RPC codes of a caller's mistake (a malformed request, an unknown method, invalid params,
 * a resource not found), which the MCP conventions do not count as errors of the server span.
 */
const callerErrorCodes: ReadonlySet<number> = new Set([-32700, -32600, -32601, -32602, -32002]);

/** The longest operation name, in UTF-8 bytes: `execute_tool`. */
const minSpanNameBytes = 12;

/** The error codes that are a contract violation, by the side of the contract that was broken. */
const violationSide: Readonly<Record<string, 'input' | 'output'>> = { invalid_json: 'input', invalid_envelope: 'input', invalid_input: 'input', invalid_output: 'output' };

interface Instruments {
  readonly toolDuration: Histogram;
  readonly mcpDuration: Histogram;
  readonly violations: Counter;
}

/** Reads trace context from an MCP `_meta` object: only string values, only its own keys. */
const metaGetter: TextMapGetter<Readonly<Record<string, unknown>>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = Object.hasOwn(carrier, key) ? carrier[key] : undefined;
    return typeof value === 'string' ? value : undefined;
  },
};

/** Writes trace context into the entries of an MCP request's `_meta`. */
const metaSetter: TextMapSetter<Record<string, string>> = {
  set: (carrier, key, value) => {
    carrier[key] = value;
  },
};

export interface OtelClientTracingOptions {
  /** Where the CLIENT spans go; by default the global one. */
  readonly tracerProvider?: TracerProvider;
  /** Where `mcp.client.operation.duration` goes; by default the global one, as it is at the first request. */
  readonly meterProvider?: MeterProvider;
  /** Writes `traceparent`, `tracestate` and `baggage` into the request's `_meta`; by default the global propagator. */
  readonly propagator?: TextMapPropagator;
  /** The longest span name, in UTF-8 bytes, as for `otelCallObserver`: a longer `tools/call {tool}` is `tools/call`. */
  readonly maxSpanNameBytes?: number;
}

/**
 * The typed MCP client's tracing (`mcpToolClient(client, contracts, { tracing: otelClientTracing() })`):
 * each `tools/call` request is a CLIENT span `tools/call {tool}` under the active context, and
 * carries that span's context in `params._meta`, where a server (the runtime's, with
 * `otelCallObserver`) takes it as its span's parent. An `isError` result is `error.type`
 * `tool_error`; a JSON-RPC error is its code. Each request's duration goes to the histogram
 * `mcp.client.operation.duration`.
 */
export function otelClientTracing(options: OtelClientTracingOptions = {}): McpClientTracing {
  const maxSpanNameBytes = spanNameLimit(options.maxSpanNameBytes);
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(instrumentationScope);
  const propagator = options.propagator ?? propagation;
  let duration: Histogram | undefined;
  const record = (seconds: number, attributes: Attributes): void => {
    duration ??= (options.meterProvider ?? metrics.getMeterProvider())
      .getMeter(instrumentationScope)
      .createHistogram('mcp.client.operation.duration', { unit: 's', description: 'The duration of the MCP request or notification as observed on the sender from the time it was sent until the response or ack is received.', advice: { explicitBucketBoundaries: durationBuckets } });
    duration.record(seconds, attributes);
  };
  return {
    async toolCall(name, send) {
      const tool = bounded(name, maxIdentifierLength);
      const attributes: Attributes = { 'mcp.method.name': 'tools/call', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': tool };
      const span = tracer.startSpan(spanName('tools/call', tool, maxSpanNameBytes), { kind: SpanKind.CLIENT, attributes });
      const startedAt = performance.now();
      const spanContext = trace.setSpan(context.active(), span);
      const meta: Record<string, string> = {};
      try {
        propagator.inject(spanContext, meta, metaSetter);
      } catch {
        // A propagator that throws costs the request its trace context, never the request.
      }
      try {
        const received = await context.with(spanContext, () => send(meta));
        if (typeof received === 'object' && received !== null && (received as { isError?: unknown }).isError === true) {
          attributes['error.type'] = 'tool_error';
          span.setAttribute('error.type', 'tool_error');
          span.setStatus({ code: SpanStatusCode.ERROR, message: 'tool_error' });
        }
        return received;
      } catch (error) {
        const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
        const type = typeof code === 'number' && Number.isSafeInteger(code) ? String(code) : '_OTHER';
        attributes['error.type'] = type;
        span.setAttributes(typeof code === 'number' ? { 'error.type': type, 'rpc.response.status_code': type } : { 'error.type': type });
        // The code, never the message: it can quote what was sent.
        span.setStatus({ code: SpanStatusCode.ERROR, message: type });
        throw error;
      } finally {
        span.end();
        try {
          record((performance.now() - startedAt) / 1000, attributes);
        } catch {
          // A meter that throws costs the request its data point, never the request.
        }
      }
    },
  };
}

/**
 * A logger provider of the OpenTelemetry logs API, read structurally: the SDK's `LoggerProvider`
 * (`@opentelemetry/sdk-logs`), or `logs.getLoggerProvider()` of `@opentelemetry/api-logs`. The logs
 * API is still 0.x, free to change between minor versions, and emitting needs one method of it, so
 * the runtime takes no dependency on it.
 */
export interface OtelLoggerProvider {
  getLogger(name: string, version?: string): OtelLogger;
}

export interface OtelLogger {
  emit(record: OtelLogRecord): void;
}

/** What `otelUnsentLog` emits: the fields of the logs API's `LogRecord` it sets. */
export interface OtelLogRecord {
  readonly severityNumber?: number;
  readonly severityText?: string;
  readonly body?: unknown;
  readonly attributes?: Readonly<Record<string, unknown>>;
  readonly context?: Context;
}

export interface OtelUnsentLogOptions {
  /** Where the log records go; without one, each message is a JSON line on stderr, as without `otelUnsentLog`. */
  readonly loggerProvider?: OtelLoggerProvider | undefined;
}

/**
 * The logs data model's severity of each MCP (syslog) level, by its mapping of syslog: critical,
 * alert and emergency are all FATAL, one step apart so that they keep their order.
 */
const severityNumbers: Readonly<Record<McpLoggingLevel, number>> = { debug: 5, info: 9, notice: 10, warning: 13, error: 17, critical: 21, alert: 22, emergency: 23 };

/**
 * Where `mcpLog` sends what no MCP client is to hear (`unsentLog` of the MCP adapters): a
 * 2026-07-28 request that names no log level, or a call with no channel to its client. Each
 * message is an OpenTelemetry log record: severity from its level (`severityText` the level
 * itself), the message as its body, its logger as `jtc.mcp.logger`, and the active context, which
 * inside a handler is its call's span, so that the record carries the call's trace and span ids.
 * Without a logger provider, or when the logger throws, the message goes to stderr as before.
 *
 *   serveToolsOnMcpServer(server, runtime, { unsentLog: otelUnsentLog({ loggerProvider }) });
 */
export function otelUnsentLog(options: OtelUnsentLogOptions = {}): McpUnsentLog {
  if (options.loggerProvider === undefined) return logToStderr;
  const logger = options.loggerProvider.getLogger(instrumentationScope);
  return (level, data, loggerName) => {
    try {
      logger.emit({ severityNumber: severityNumbers[level], severityText: level, body: data, ...(loggerName === undefined ? {} : { attributes: { 'jtc.mcp.logger': loggerName } }), context: context.active() });
    } catch {
      // A logger that throws costs the message its record, never the message or the call.
      logToStderr(level, data, loggerName);
    }
  };
}

/**
 * A `CallObserver` that makes one span per call and records the duration histograms and the
 * counter of contract violations. A call that came through the MCP adapter is a SERVER span
 * `tools/call {tool}`, whose parent is the trace context of the request's `_meta` when it has one
 * (the span active at the call, usually the HTTP server's, is then linked); any other call is an
 * INTERNAL span `execute_tool {tool}` under the active context. The span is ended when the
 * call's record is final and is the active span while the handler runs.
 */
export function otelCallObserver(options: OtelObserverOptions = {}): CallObserver {
  const maxContentLength = options.maxContentLength ?? 2048;
  if (!Number.isSafeInteger(maxContentLength) || maxContentLength < 1) throw new RangeError(`maxContentLength must be a whole number of at least 1, got ${String(options.maxContentLength)}`);
  const recordContent = options.recordContent === true;
  const maxSpanNameBytes = spanNameLimit(options.maxSpanNameBytes);
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(instrumentationScope);
  // Made at the first call, so that an SDK registered after the runtime was made is the one used.
  let instruments: Instruments | undefined;
  const instrumentsNow = (): Instruments => {
    if (instruments !== undefined) return instruments;
    const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(instrumentationScope);
    const advice = { explicitBucketBoundaries: durationBuckets };
    instruments = {
      toolDuration: meter.createHistogram('gen_ai.execute_tool.duration', { unit: 's', description: 'Duration of tool executions.', advice }),
      mcpDuration: meter.createHistogram('mcp.server.operation.duration', { unit: 's', description: 'MCP request duration as observed on the receiver, from the time it was received until the result is sent.', advice }),
      violations: meter.createCounter('jtc.contract.violations', { unit: '{violation}', description: 'Calls refused because their input or output broke the tool contract.' }),
    };
    return instruments;
  };
  const extract = (carrier: Readonly<Record<string, unknown>>, into: Context): Context => (options.propagator === undefined ? propagation.extract(into, carrier, metaGetter) : options.propagator.extract(into, carrier, metaGetter));

  return {
    callStarted(record, callContext) {
      const mcp = mcpCallContextOf(callContext);
      const active = context.active();
      const tool = bounded(record.tool, maxIdentifierLength);
      const attributes: Attributes = { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': tool, 'jtc.call.id': record.callId };
      let parent = active;
      let links: Link[] | undefined;
      if (mcp !== undefined) {
        attributes['mcp.method.name'] = 'tools/call';
        attributes['mcp.protocol.version'] = mcp.protocolVersion;
        if (mcp.sessionId !== undefined) attributes['mcp.session.id'] = bounded(mcp.sessionId, maxIdentifierLength);
        if (mcp.requestId !== undefined) attributes['jsonrpc.request.id'] = bounded(String(mcp.requestId), maxIdentifierLength);
        if (mcp.meta !== undefined) parent = detachedRemoteParent(extract(mcp.meta, active), active);
        // The request's own context is the parent; the ambient span (the HTTP request's) is kept as a link.
        const ambient = trace.getSpanContext(active);
        if (ambient !== undefined && trace.getSpanContext(parent) !== ambient) links = [{ context: ambient }];
      } else {
        const toolCallId = toolCallIdOf(callContext);
        if (toolCallId !== undefined) attributes['gen_ai.tool.call.id'] = bounded(toolCallId, maxIdentifierLength);
      }
      const span = tracer.startSpan(spanName(mcp === undefined ? 'execute_tool' : 'tools/call', tool, maxSpanNameBytes), { kind: mcp === undefined ? SpanKind.INTERNAL : SpanKind.SERVER, attributes, ...(links === undefined ? {} : { links }) }, parent);
      const startedAt = performance.now();
      const spanContext = trace.setSpan(parent, span);
      // The input as the handler gets it, written before the handler can change its copy.
      let handedInput: string | undefined;
      const watch: CallWatch = {
        runHandler: (run, input) => {
          if (recordContent) handedInput = boundedJson(input, maxContentLength);
          return context.with(spanContext, run);
        },
        handedOff: () => void span.addEvent('jtc.call.handed_off'),
        ended: (final, end) => {
          const input = handedInput ?? (recordContent && end.input !== undefined ? boundedJson(end.input, maxContentLength) : undefined);
          if (input !== undefined) span.setAttribute('gen_ai.tool.call.arguments', input);
          const answer = mcp === undefined ? undefined : requestErrorOf(end);
          endSpan(span, final, end, mcp !== undefined, answer, recordContent, maxContentLength);
          recordMetrics(instrumentsNow(), final, mcp, answer, (performance.now() - startedAt) / 1000);
        },
      };
      return watch;
    },
  };
}

/** A JSON-RPC error code as the conventions write it (`-32602`), and whether it is an error of the server. */
type RequestError = { readonly status: string; readonly isError: boolean };

/** The JSON-RPC error an MCP request of the call is answered with instead of a result (a refused `requestState`, a missing capability); undefined for a result. */
function requestErrorOf(end: CallEnd): RequestError | undefined {
  if (!(end.error instanceof McpRequestRefusal)) return undefined;
  const code = end.error.answer.code;
  return { status: String(code), isError: !callerErrorCodes.has(code) };
}

function endSpan(span: Span, record: CallRecord, end: CallEnd, overMcp: boolean, answer: RequestError | undefined, recordContent: boolean, maxContentLength: number): void {
  // A name the caller made up is no target: the span is named by its operation alone, as the conventions ask for unknown targets.
  if (record.errorCode === 'unknown_tool') span.updateName(overMcp ? 'tools/call' : 'execute_tool');
  if (recordContent && end.output !== undefined) span.setAttribute('gen_ai.tool.call.result', boundedJson(end.output, maxContentLength));
  const outcome = contractOutcome(record);
  if (outcome !== undefined) span.setAttribute('jtc.contract.outcome', outcome);
  if (record.errorCode === 'suspended') {
    // A round that asked its client for input (MCP 2026-07-28 input_required): an answer, not a failure; the next round is a call of its own.
    span.setAttribute('jtc.call.outcome', 'suspended');
  } else if (record.outcome !== 'completed') {
    const code = record.errorCode ?? record.outcome;
    span.setAttributes({ 'jtc.call.outcome': record.outcome, 'jtc.error.code': code });
    if (answer !== undefined) {
      // Answered with a JSON-RPC error: its code; a caller's mistake is no error of the server (status unset, no error.type).
      span.setAttribute('rpc.response.status_code', answer.status);
      if (answer.isError) {
        span.setAttribute('error.type', answer.status);
        span.setStatus({ code: SpanStatusCode.ERROR, message: answer.status });
      }
    } else {
      // An MCP client sees an isError result, which the conventions call tool_error; the runtime's code is kept beside it.
      span.setAttribute('error.type', overMcp ? 'tool_error' : code);
      // The code, never the message: a message can quote what the caller sent.
      span.setStatus({ code: SpanStatusCode.ERROR, message: code });
    }
  }
  span.end();
}

function recordMetrics(instruments: Instruments, record: CallRecord, mcp: McpCallContext | undefined, answer: RequestError | undefined, seconds: number): void {
  // Metric attributes stay few: a made-up tool name is `_OTHER`, and no call, request or session id is ever one.
  const tool = record.errorCode === 'unknown_tool' ? '_OTHER' : bounded(record.tool, maxIdentifierLength);
  const code = record.outcome === 'completed' || record.errorCode === 'suspended' ? undefined : (record.errorCode ?? record.outcome);
  const attributes: Attributes = { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': tool };
  if (code !== undefined) attributes['error.type'] = code;
  instruments.toolDuration.record(seconds, attributes);
  if (mcp !== undefined) {
    const mcpAttributes: Attributes = { 'mcp.method.name': 'tools/call', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': tool, 'mcp.protocol.version': mcp.protocolVersion };
    if (answer !== undefined) {
      mcpAttributes['rpc.response.status_code'] = answer.status;
      if (answer.isError) mcpAttributes['error.type'] = answer.status;
    } else if (code !== undefined) {
      mcpAttributes['error.type'] = 'tool_error';
    }
    instruments.mcpDuration.record(seconds, mcpAttributes);
  }
  const side = code === undefined ? undefined : violationSide[code];
  if (side !== undefined) instruments.violations.add(1, { 'gen_ai.tool.name': tool, 'jtc.contract.side': side, 'jtc.error.code': code });
}

/**
 * The model's id for the tool call, where the host that made the call has one: a provider
 * adapter's tool call (OpenAI, Anthropic, Gemini, the Agents SDK), or the AI SDK's `toolCallId`
 * (read structurally: the AI SDK's adapter imports the `ai` package, which this entry point must not).
 */
function toolCallIdOf(callContext: unknown): string | undefined {
  if (typeof callContext !== 'object' || callContext === null) return undefined;
  try {
    const provider = providerToolCall({ context: callContext } as ToolRequest<unknown>);
    if (provider !== undefined) return providerCallId(provider);
    const id: unknown = (callContext as { readonly toolCallId?: unknown }).toolCallId;
    return typeof id === 'string' ? id : undefined;
  } catch {
    // A context of the caller's own that throws when read (a revoked proxy): the span goes without the id.
    return undefined;
  }
}

/** The MCP request of a call that came through the MCP adapter; a context that throws when looked at is none. */
function mcpCallContextOf(callContext: unknown): McpCallContext | undefined {
  try {
    return callContext instanceof McpCallContext ? callContext : undefined;
  } catch {
    return undefined;
  }
}

function providerCallId(toolCall: ProviderToolCall): string | undefined {
  switch (toolCall.provider) {
    case 'openai-chat':
      return toolCall.call.id;
    case 'openai-responses':
      return toolCall.call.call_id;
    case 'anthropic':
      return toolCall.call.id;
    case 'gemini':
      return toolCall.call.id;
    case 'openai-agents':
      return toolCall.call.callId;
  }
}

/**
 * At most `max` UTF-16 code units, never cut inside a surrogate pair; a cut value ends with `…`.
 * Always a copy of its own (see `detached`): what a span keeps must not keep the caller's text alive.
 */
function bounded(value: string, max: number): string {
  if (value.length <= max) return detached(value);
  let cut = max - 1;
  const last = value.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--;
  return `${detached(value.slice(0, cut))}…`;
}

/** The `maxSpanNameBytes` option, checked: undefined for no limit. */
function spanNameLimit(max: number | undefined): number | undefined {
  if (max === undefined) return undefined;
  if (!Number.isSafeInteger(max) || max < minSpanNameBytes) throw new RangeError(`maxSpanNameBytes must be a whole number of at least ${minSpanNameBytes} (the bytes of "execute_tool"), got ${String(max)}`);
  return max;
}

/** `{operation} {tool}`, or the operation alone when that is longer than `maxBytes` UTF-8 bytes (as Cloudflare's agents name spans). */
function spanName(operation: string, tool: string, maxBytes: number | undefined): string {
  const name = `${operation} ${tool}`;
  return maxBytes === undefined || utf8Length(name) <= maxBytes ? name : operation;
}

/** The UTF-8 bytes of the text (a lone surrogate as the three of U+FFFD, which encoders write for it). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let at = 0; at < text.length; at++) {
    const unit = text.charCodeAt(at);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && (text.charCodeAt(at + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      at++;
    } else bytes += 3;
  }
  return bytes;
}

/** How many code units `detached` copies with one `String.fromCharCode` (well within any engine's argument limit). */
const copyChunkLength = 4096;

/**
 * The same text in memory of its own. V8 makes a slice of a string (and a regular expression's
 * match) a view into the string it came from, so 256 characters kept on a span waiting for export
 * would keep a caller's 4 MB tool name alive with it; `String.fromCharCode` always writes new text.
 */
function detached(value: string): string {
  let copy = '';
  for (let start = 0; start < value.length; start += copyChunkLength) {
    const units: number[] = [];
    const end = Math.min(start + copyChunkLength, value.length);
    for (let at = start; at < end; at++) units.push(value.charCodeAt(at));
    copy += String.fromCharCode(...units);
  }
  return copy;
}

/**
 * The parent a propagator read from `_meta`, with its ids and trace state copied: the W3C
 * propagator keeps the trace id as a view into the `traceparent` text (which may go on for
 * megabytes after a future version's fields) and the trace state as the whole `tracestate` text,
 * and every span of the trace would hold them.
 */
function detachedRemoteParent(parent: Context, active: Context): Context {
  const remote = trace.getSpanContext(parent);
  if (remote === undefined || remote === trace.getSpanContext(active) || !trace.isSpanContextValid(remote)) return parent;
  const traceState = remote.traceState === undefined ? undefined : createTraceState(detached(remote.traceState.serialize()));
  return trace.setSpanContext(parent, { traceId: detached(remote.traceId), spanId: detached(remote.spanId), traceFlags: remote.traceFlags, ...(remote.isRemote === undefined ? {} : { isRemote: remote.isRemote }), ...(traceState === undefined ? {} : { traceState }) });
}

/** The JSON text of a validated copy (exact numbers kept), bounded. */
function boundedJson(value: unknown, max: number): string {
  return bounded(stringifyJson(value), max);
}
