import { createServer, type Server as HttpServer } from 'node:http';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { AddressInfo } from 'node:net';
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTransport as MemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server as ServerV1 } from '@modelcontextprotocol/sdk/server/index.js';
import { createMcpHandler, InMemoryTransport as MemoryV2, Server as ServerV2 } from '@modelcontextprotocol/server';
import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { logs } from '@opentelemetry/api-logs';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { MeterProvider, MetricReader, type HistogramMetricData, type SumMetricData } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mathAdd } from '../../../../examples/generated/index.js';
import { mcpLog, mcpToolHandlers, serveToolsOnMcpServer, type McpLoggingLevel, type McpUnsentLog } from '../../src/mcp/server.js';
import { mcpHttpHandler, mcpNodeListener } from '../../src/mcp/http/http-server.js';
import { serveToolsOnMcpServerV1 } from '../../src/mcp/sdk-v1/sdk-v1-server.js';
import { toAiSdkTools } from '../../src/providers/ai-sdk.js';
import { anthropicTools, geminiTools, openAiChatTools, openAiResponsesTools } from '../../src/providers/provider-tools.js';
import { CapabilityRuntime, ToolError, ToolMetadata, ToolPolicy, type RuntimeOptions, type ToolRequest } from '../../src/index.js';
import { mcpToolClient, mcpToolClientV1 } from '../../src/mcp/client/client.js';
import { otelCallObserver, otelClientTracing, otelUnsentLog, type OtelObserverOptions } from '../../src/otel/telemetry.js';

/**
 * The runtime's calls through the real OpenTelemetry JS SDK: spans in an in-memory exporter,
 * metrics from an in-memory reader, trace context by the W3C propagators.
 */

/** A reader the test collects from whenever it likes. */
class CollectingReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

type Collected = { unit: string; points: { attributes: Attributes; value: unknown }[] };

interface Telemetry {
  readonly spans: () => ReadableSpan[];
  /** A metric as the reader collects it now; undefined when nothing recorded it. */
  readonly metric: (name: string) => Promise<Collected | undefined>;
  readonly options: OtelObserverOptions;
}

const propagator = new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] });

function telemetry(extra: Partial<OtelObserverOptions> = {}, exporter: SpanExporter = new InMemorySpanExporter()): Telemetry {
  const reader = new CollectingReader();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    spans: () => (exporter instanceof InMemorySpanExporter ? exporter.getFinishedSpans() : []),
    metric: async (name) => {
      const { resourceMetrics } = await reader.collect();
      const metric = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics).find((each) => each.descriptor.name === name);
      if (metric === undefined) return undefined;
      return { unit: metric.descriptor.unit, points: (metric as HistogramMetricData | SumMetricData).dataPoints.map((point) => ({ attributes: point.attributes, value: point.value })) };
    },
    options: { tracerProvider, meterProvider, propagator, ...extra },
  };
}

function addRuntime(options: RuntimeOptions, handler: (input: { left: number; right: number }, request: ToolRequest<{ left: number; right: number }>) => unknown = ({ left, right }) => ({ total: left + right }), budget?: number): CapabilityRuntime {
  const runtime = new CapabilityRuntime(options);
  const policy = budget === undefined ? ToolPolicy.json('math.add') : ToolPolicy.json('math.add').withCallBudget(budget);
  runtime.registerTypedJsonTool(policy, mathAdd, handler as never);
  return runtime;
}

const contextManager = new AsyncLocalStorageContextManager();
beforeAll(() => void context.setGlobalContextManager(contextManager.enable()));
afterAll(() => {
  context.disable();
  trace.disable();
  propagation.disable();
});

describe('otelCallObserver: one span per call', () => {
  it('makes an INTERNAL execute_tool span with the GenAI attributes for a completed call, and the duration histogram', async () => {
    const t = telemetry();
    const runtime = addRuntime({ observer: otelCallObserver(t.options) });
    expect(runtime.call('math.add', { left: 2, right: 3 })).toMatchObject({ ok: true, output: { total: 5 } });
    const [span, ...others] = t.spans();
    expect(others).toEqual([]);
    expect(span!.name).toBe('execute_tool math.add');
    expect(span!.kind).toBe(SpanKind.INTERNAL);
    expect(span!.attributes).toEqual({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'math.add', 'jtc.call.id': 'call-1', 'jtc.contract.outcome': 'completed' });
    expect(span!.status.code).toBe(SpanStatusCode.UNSET);
    expect(span!.ended).toBe(true);
    const duration = await t.metric('gen_ai.execute_tool.duration');
    expect(duration!.unit).toBe('s');
    expect(duration!.points.map((point) => [point.attributes, (point.value as { count: number }).count])).toEqual([[{ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'math.add' }, 1]]);
  });

  it('ends every other outcome with status ERROR, error.type the runtime code and jtc.contract.outcome its class', async () => {
    const t = telemetry();
    const runtime = addRuntime(
      { observer: otelCallObserver(t.options) },
      ({ left }) => {
        if (left === 1) throw new Error('boom');
        if (left === 2) throw ToolError.denied('not today');
        if (left === 3) return { total: 'three' };
        return { total: left };
      },
      5,
    );
    const aborted = AbortSignal.abort();
    const outcomes = [
      runtime.call('math.add', { left: 1, right: 0 }),
      runtime.call('math.add', { left: 2, right: 0 }),
      runtime.call('math.add', { left: 3, right: 0 }),
      runtime.call('math.add', { left: 'x', right: 0 }),
      runtime.call('math.add', [1]),
      runtime.callJson('math.add', '{"left":'),
      runtime.call('math.nope', {}),
      runtime.call('math.add', { left: 4, right: 0 }, { signal: aborted }),
      runtime.call('math.add', { left: 4, right: 0 }),
      runtime.call('math.add', { left: 4, right: 0 }),
      runtime.call('math.add', { left: 4, right: 0 }),
    ].map((result) => (result.ok ? 'ok' : result.error.code));
    expect(outcomes).toEqual(['handler_failed', 'denied', 'invalid_output', 'invalid_input', 'invalid_input', 'invalid_json', 'unknown_tool', 'cancelled', 'ok', 'ok', 'budget_exhausted']);
    const spans = t.spans().map((span) => ({ name: span.name, status: span.status, errorType: span.attributes['error.type'], outcome: span.attributes['jtc.call.outcome'], contract: span.attributes['jtc.contract.outcome'] }));
    const error = (code: string) => ({ code: SpanStatusCode.ERROR, message: code });
    expect(spans).toEqual([
      { name: 'execute_tool math.add', status: error('handler_failed'), errorType: 'handler_failed', outcome: 'failed', contract: 'failed' },
      { name: 'execute_tool math.add', status: error('denied'), errorType: 'denied', outcome: 'denied', contract: 'denied' },
      { name: 'execute_tool math.add', status: error('invalid_output'), errorType: 'invalid_output', outcome: 'failed', contract: 'invalid_output' },
      { name: 'execute_tool math.add', status: error('invalid_input'), errorType: 'invalid_input', outcome: 'denied', contract: 'invalid_input' },
      { name: 'execute_tool math.add', status: error('invalid_input'), errorType: 'invalid_input', outcome: 'denied', contract: 'invalid_input' },
      { name: 'execute_tool math.add', status: error('invalid_json'), errorType: 'invalid_json', outcome: 'denied', contract: 'invalid_input' },
      // A made-up name is no span name (the conventions' rule for a target that is not low-cardinality).
      { name: 'execute_tool', status: error('unknown_tool'), errorType: 'unknown_tool', outcome: 'denied', contract: 'unknown_tool' },
      { name: 'execute_tool math.add', status: error('cancelled'), errorType: 'cancelled', outcome: 'cancelled', contract: 'cancelled' },
      { name: 'execute_tool math.add', status: { code: SpanStatusCode.UNSET }, errorType: undefined, outcome: undefined, contract: 'completed' },
      { name: 'execute_tool math.add', status: { code: SpanStatusCode.UNSET }, errorType: undefined, outcome: undefined, contract: 'completed' },
      { name: 'execute_tool math.add', status: error('budget_exhausted'), errorType: 'budget_exhausted', outcome: 'denied', contract: 'budget_exhausted' },
    ]);
    // The unknown name stays on its span, bounded, but never becomes a metric attribute.
    expect(t.spans()[6]!.attributes['gen_ai.tool.name']).toBe('math.nope');
    const duration = await t.metric('gen_ai.execute_tool.duration');
    const counts = Object.fromEntries(duration!.points.map((point) => [`${String(point.attributes['gen_ai.tool.name'])} ${String(point.attributes['error.type'] ?? 'ok')}`, (point.value as { count: number }).count]));
    expect(counts).toEqual({ 'math.add handler_failed': 1, 'math.add denied': 1, 'math.add invalid_output': 1, 'math.add invalid_input': 2, 'math.add invalid_json': 1, '_OTHER unknown_tool': 1, 'math.add cancelled': 1, 'math.add ok': 2, 'math.add budget_exhausted': 1 });
    expect(duration!.points.flatMap((point) => Object.keys(point.attributes)).filter((key) => /id$/.test(key))).toEqual([]);
  });

  it('counts contract violations by tool, side and code', async () => {
    const t = telemetry();
    const runtime = addRuntime({ observer: otelCallObserver(t.options) }, ({ left }) => (left === 0 ? { total: 'zero' } : { total: left }));
    runtime.call('math.add', { left: 'a', right: 1 });
    runtime.call('math.add', { right: 1 });
    runtime.call('math.add', { left: 0, right: 1 });
    runtime.callJson('math.add', 'nope');
    runtime.call('math.add', { left: 1, right: 1 });
    const violations = await t.metric('jtc.contract.violations');
    expect(violations!.unit).toBe('{violation}');
    expect(violations!.points.map((point) => [point.attributes, point.value])).toEqual([
      [{ 'gen_ai.tool.name': 'math.add', 'jtc.contract.side': 'input', 'jtc.error.code': 'invalid_input' }, 2],
      [{ 'gen_ai.tool.name': 'math.add', 'jtc.contract.side': 'output', 'jtc.error.code': 'invalid_output' }, 1],
      [{ 'gen_ai.tool.name': 'math.add', 'jtc.contract.side': 'input', 'jtc.error.code': 'invalid_json' }, 1],
    ]);
  });

  it('makes no metric series and no span name of a made-up tool name, whatever text callJson gets with it', async () => {
    const t = telemetry();
    const runtime = addRuntime({ observer: otelCallObserver(t.options) });
    const madeUp = Array.from({ length: 50 }, (_, index) => `invented.tool_${index}`);
    for (const name of madeUp) {
      expect(runtime.callJson(name, '{"left":')).toMatchObject({ ok: false, error: { code: 'unknown_tool' } });
      expect(runtime.callJson(name, '{"left":1,"right":2}')).toMatchObject({ ok: false, error: { code: 'unknown_tool' } });
    }
    runtime.callJson('math.add', '{"left":');
    const duration = await t.metric('gen_ai.execute_tool.duration');
    expect(duration!.points.map((point) => [point.attributes, (point.value as { count: number }).count])).toEqual([
      [{ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': '_OTHER', 'error.type': 'unknown_tool' }, 100],
      [{ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'math.add', 'error.type': 'invalid_json' }, 1],
    ]);
    // A call to no tool breaks no tool's contract.
    const violations = await t.metric('jtc.contract.violations');
    expect(violations!.points.map((point) => [point.attributes, point.value])).toEqual([[{ 'gen_ai.tool.name': 'math.add', 'jtc.contract.side': 'input', 'jtc.error.code': 'invalid_json' }, 1]]);
    expect(new Set(t.spans().map((span) => span.name))).toEqual(new Set(['execute_tool', 'execute_tool math.add']));
  });

  it('records arguments and results only when asked, from the validated copies, bounded', () => {
    const off = telemetry();
    addRuntime({ observer: otelCallObserver(off.options) }).call('math.add', { left: 2, right: 3 });
    expect(Object.keys(off.spans()[0]!.attributes).filter((key) => key.startsWith('gen_ai.tool.call.'))).toEqual([]);

    const on = telemetry({ recordContent: true, maxContentLength: 16 });
    let handed: { left: number; right: number } | undefined;
    const runtime = addRuntime({ observer: otelCallObserver(on.options) }, (input) => {
      handed = input;
      const total = input.left + input.right;
      // The handler's own copy, changed after it was validated: the span keeps what was validated.
      input.left = 0;
      return { total };
    });
    const input = { left: 2, right: 3 };
    runtime.call('math.add', input);
    runtime.call('math.add', { left: 123456789, right: 987654321 });
    runtime.call('math.add', { left: 'not a number', right: 1 });
    const [small, large, refused] = on.spans().map((span) => span.attributes);
    expect(handed).not.toBe(input);
    expect(input.left).toBe(2);
    expect(small).toMatchObject({ 'gen_ai.tool.call.arguments': '{"left":2,"righ…', 'gen_ai.tool.call.result': '{"total":5}' });
    expect(large!['gen_ai.tool.call.arguments']).toBe('{"left":1234567…');
    expect(large!['gen_ai.tool.call.result']).toBe('{"total":111111…');
    // Refused input was never validated: it is not recorded.
    expect(refused!['gen_ai.tool.call.arguments']).toBeUndefined();
  });
});

describe('otelCallObserver: calls that wait', () => {
  it("keeps a deferred call's span open until complete, with an event at the hand-off", async () => {
    const t = telemetry();
    const runtime = new CapabilityRuntime({ observer: otelCallObserver(t.options) });
    runtime.registerValidatedProtocolJsonTool(ToolPolicy.json('math.add'), ToolMetadata.of('Adds.'), mathAdd);
    const first = runtime.defer('math.add', { left: 1, right: 2 });
    const second = runtime.defer('math.add', { left: 1, right: 2 });
    expect(first.state).toBe('pending');
    expect(t.spans()).toEqual([]);
    runtime.complete(first.callId, { total: 3 });
    await first.result;
    expect(t.spans().map((span) => [span.name, span.status.code, span.events.map((event) => event.name)])).toEqual([['execute_tool math.add', SpanStatusCode.UNSET, ['jtc.call.handed_off']]]);
    runtime.fail(second.callId, 'the worker is gone');
    expect(t.spans()[1]!.attributes['error.type']).toBe('handler_failed');
    expect(t.spans()[1]!.endTime).not.toEqual(t.spans()[1]!.startTime);
  });

  it('ends a suspended round (it asked its client for input) without an error', async () => {
    const t = telemetry();
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => (started = resolve));
    const runtime = addRuntime({ observer: otelCallObserver(t.options) }, async () => {
      started();
      return new Promise(() => {});
    });
    const round = runtime.callAsync('math.add', { left: 1, right: 1 });
    await running;
    runtime.suspend('call-1');
    expect(await round).toMatchObject({ ok: false, error: { code: 'suspended' } });
    const [span] = t.spans();
    expect([span!.status.code, span!.attributes['jtc.call.outcome'], span!.attributes['error.type']]).toEqual([SpanStatusCode.UNSET, 'suspended', undefined]);
    const duration = await t.metric('gen_ai.execute_tool.duration');
    expect(duration!.points.map((point) => point.attributes)).toEqual([{ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'math.add' }]);
  });

  it("makes the call's span the active one while the handler runs, across its awaits", async () => {
    const t = telemetry();
    const appTracer = t.options.tracerProvider!.getTracer('app');
    const runtime = addRuntime({ observer: otelCallObserver(t.options) }, async ({ left, right }) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return appTracer.startActiveSpan('lookup', (child) => {
        child.end();
        return { total: left + right };
      });
    });
    expect(await runtime.callAsync('math.add', { left: 1, right: 1 })).toMatchObject({ ok: true });
    const [child, call] = t.spans();
    expect(child!.name).toBe('lookup');
    expect(call!.name).toBe('execute_tool math.add');
    expect(child!.spanContext().traceId).toBe(call!.spanContext().traceId);
    expect(child!.parentSpanContext?.spanId).toBe(call!.spanContext().spanId);
  });

  it("names the model's tool call id (gen_ai.tool.call.id) for calls from the AI SDK and the provider adapters", async () => {
    const t = telemetry();
    const runtime = addRuntime({ observer: otelCallObserver(t.options) });
    await toAiSdkTools(runtime)['math_add']!.execute!({ left: 1, right: 2 }, { toolCallId: 'ai-call-1', messages: [] });
    await openAiChatTools(runtime).call({ id: 'call_openai', function: { name: 'math_add', arguments: '{"left":1,"right":2}' } });
    await openAiResponsesTools(runtime).call({ call_id: 'call_responses', name: 'math_add', arguments: '{"left":1,"right":2}' });
    await anthropicTools(runtime).call({ id: 'toolu_1', name: 'math_add', input: { left: 1, right: 2 } });
    await geminiTools(runtime).call({ id: 'gemini-1', name: 'math.add', args: { left: 1, right: 2 } });
    runtime.call('math.add', { left: 1, right: 2 }, { context: { toolCallId: 42 } });
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    expect(runtime.call('math.add', { left: 1, right: 2 }, { context: revoked.proxy })).toMatchObject({ ok: true });
    expect(t.spans().map((span) => span.attributes['gen_ai.tool.call.id'])).toEqual(['ai-call-1', 'call_openai', 'call_responses', 'toolu_1', 'gemini-1', undefined, undefined]);
  });

  it('parents the call on the active context of its caller', () => {
    const t = telemetry();
    const runtime = addRuntime({ observer: otelCallObserver(t.options) });
    const appTracer = t.options.tracerProvider!.getTracer('app');
    appTracer.startActiveSpan('agent turn', (turn) => {
      runtime.call('math.add', { left: 1, right: 1 });
      turn.end();
    });
    const [call, turn] = t.spans();
    expect(call!.parentSpanContext?.spanId).toBe(turn!.spanContext().spanId);
  });
});

describe('otelCallObserver over MCP', () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const parentId = '00f067aa0ba902b7';
  const traceparent = `00-${traceId}-${parentId}-01`;

  /** The SDK's own client, connected in memory to the SDK's low-level server wired by our adapter. */
  async function clientOf(sdk: 'v1' | 'v2', runtime: CapabilityRuntime): Promise<ClientV1 | ClientV2> {
    const info = { name: 'otel-test', version: '1.0.0' };
    const [clientSide, serverSide] = sdk === 'v1' ? MemoryV1.createLinkedPair() : MemoryV2.createLinkedPair();
    const server = sdk === 'v1' ? new ServerV1(info, { capabilities: {} }) : new ServerV2(info, { capabilities: {} });
    if (server instanceof ServerV1) serveToolsOnMcpServerV1(server, runtime);
    else serveToolsOnMcpServer(server, runtime);
    await server.connect(serverSide as never);
    const client = sdk === 'v1' ? new ClientV1(info) : new ClientV2(info);
    await client.connect(clientSide as never);
    return client;
  }

  it.each(['v1', 'v2'] as const)("makes a SERVER span tools/call {tool} whose parent is the request's _meta trace context, through SDK %s", async (sdk) => {
    const t = telemetry();
    let baggage: string | undefined;
    const runtime = addRuntime({ observer: otelCallObserver(t.options) }, ({ left, right }) => {
      baggage = propagation.getBaggage(context.active())?.getEntry('tenant')?.value;
      return { total: left + right };
    });
    const client = await clientOf(sdk, runtime);
    const ok = (await client.callTool({ name: 'math.add', arguments: { left: 2, right: 3 }, _meta: { traceparent, tracestate: 'vendor=1', baggage: 'tenant=acme' } })) as { isError?: boolean };
    const unknown = (await client.callTool({ name: 'math.nope', arguments: {} })) as { isError?: boolean };
    await client.close();
    expect([ok.isError, unknown.isError]).toEqual([undefined, true]);
    expect(baggage).toBe('acme');
    const [span, failed] = t.spans();
    expect(span!.name).toBe('tools/call math.add');
    expect(span!.kind).toBe(SpanKind.SERVER);
    expect(span!.spanContext().traceId).toBe(traceId);
    expect(span!.parentSpanContext).toMatchObject({ traceId, spanId: parentId, isRemote: true });
    expect(span!.parentSpanContext?.traceState?.get('vendor')).toBe('1');
    expect(span!.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'mcp.protocol.version': '2025-11-25', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'math.add', 'jsonrpc.request.id': expect.any(String) });
    expect(failed!.name).toBe('tools/call');
    expect(failed!.parentSpanContext).toBeUndefined();
    expect(failed!.attributes).toMatchObject({ 'error.type': 'tool_error', 'jtc.error.code': 'unknown_tool' });
    expect(failed!.status.code).toBe(SpanStatusCode.ERROR);
    const duration = await t.metric('mcp.server.operation.duration');
    expect(duration!.unit).toBe('s');
    expect(duration!.points.map((point) => [point.attributes, (point.value as { count: number }).count])).toEqual([
      [{ 'mcp.method.name': 'tools/call', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'math.add', 'mcp.protocol.version': '2025-11-25' }, 1],
      [{ 'mcp.method.name': 'tools/call', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': '_OTHER', 'mcp.protocol.version': '2025-11-25', 'error.type': 'tool_error' }, 1],
    ]);
  });

  it.each(['v1', 'v2'] as const)('carries the trace context of a typed client call (SDK %s) in _meta: client span, server span and handler span in one trace', async (sdk) => {
    const t = telemetry();
    const tracer = t.options.tracerProvider!.getTracer('test');
    let baggage: string | undefined;
    const runtime = addRuntime({ observer: otelCallObserver(t.options) }, ({ left, right }) => {
      baggage = propagation.getBaggage(context.active())?.getEntry('tenant')?.value;
      tracer.startSpan('handler work').end();
      return left === 0 ? Promise.reject(ToolError.denied('no zero')) : { total: left + right };
    });
    const client = await clientOf(sdk, runtime);
    const tracing = otelClientTracing({ tracerProvider: t.options.tracerProvider!, meterProvider: t.options.meterProvider!, propagator });
    const tools = client instanceof ClientV1 ? mcpToolClientV1(client, { mathAdd }, { tracing }) : mcpToolClient(client, { mathAdd }, { tracing });
    const withBaggage = propagation.setBaggage(context.active(), propagation.createBaggage({ tenant: { value: 'acme' } }));
    const [ok, refused] = await context.with(withBaggage, () =>
      tracer.startActiveSpan('agent turn', async (turn) => {
        const results = [await tools.call('math.add', { left: 2, right: 3 }), await tools.call('math.add', { left: 0, right: 3 })];
        turn.end();
        return results;
      }),
    );
    await client.close();
    expect(ok).toMatchObject({ ok: true, output: { total: 5 } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'denied' } });
    expect(baggage).toBe('acme');
    const spans = t.spans();
    const turn = spans.find((span) => span.name === 'agent turn')!;
    const clients = spans.filter((span) => span.kind === SpanKind.CLIENT);
    const servers = spans.filter((span) => span.kind === SpanKind.SERVER);
    expect(clients.map((span) => span.name)).toEqual(['tools/call math.add', 'tools/call math.add']);
    expect(clients[0]!.attributes).toEqual({ 'mcp.method.name': 'tools/call', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'math.add' });
    expect(clients[0]!.status.code).toBe(SpanStatusCode.UNSET);
    expect(clients[1]!.attributes['error.type']).toBe('tool_error');
    expect(clients[1]!.status.code).toBe(SpanStatusCode.ERROR);
    expect(new Set(spans.map((span) => span.spanContext().traceId))).toEqual(new Set([turn.spanContext().traceId]));
    for (const [index, server] of servers.entries()) {
      expect(clients[index]!.parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
      // Remote: the parent came through the request's _meta, not through the process's own context.
      expect(server.parentSpanContext).toMatchObject({ spanId: clients[index]!.spanContext().spanId, isRemote: true });
    }
    const work = spans.filter((span) => span.name === 'handler work');
    expect(work.map((span) => span.parentSpanContext?.spanId)).toEqual(servers.map((span) => span.spanContext().spanId));
    const duration = await t.metric('mcp.client.operation.duration');
    expect(duration!.unit).toBe('s');
    expect(duration!.points.map((point) => [point.attributes, (point.value as { count: number }).count])).toEqual([
      [{ 'mcp.method.name': 'tools/call', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'math.add' }, 1],
      [{ 'mcp.method.name': 'tools/call', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'math.add', 'error.type': 'tool_error' }, 1],
    ]);
  });

  it('records a JSON-RPC error of a typed client call as its code on the CLIENT span', async () => {
    const t = telemetry();
    const tracing = otelClientTracing({ tracerProvider: t.options.tracerProvider!, propagator });
    const sent: unknown[] = [];
    const client = {
      listTools: async () => ({ tools: [{ name: 'math.add' }] }),
      callTool: async (params: unknown) => {
        sent.push(params);
        throw Object.assign(new Error('Request timed out'), { code: -32001 });
      },
    };
    const result = await mcpToolClientV1(client, { mathAdd }, { tracing }).call('math.add', { left: 1, right: 2 });
    expect(result).toMatchObject({ ok: false, error: { code: 'handler_failed' } });
    const [span] = t.spans();
    expect(span!.attributes).toMatchObject({ 'error.type': '-32001', 'rpc.response.status_code': '-32001' });
    expect(span!.status).toEqual({ code: SpanStatusCode.ERROR, message: '-32001' });
    expect(sent).toEqual([{ name: 'math.add', arguments: { left: 1, right: 2 }, _meta: { traceparent: `00-${span!.spanContext().traceId}-${span!.spanContext().spanId}-01` } }]);
  });

  it("leaves a request answered with a caller's JSON-RPC error (-32602, a refused requestState) no span error, and marks a server's (-32021)", async () => {
    const t = telemetry();
    const runtime = addRuntime({ observer: otelCallObserver(t.options) });
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const extra = { requestId: 9, _meta: meta, sendNotification: async () => {}, sendRequest: async () => ({}) };
    const params = { name: 'math.add', arguments: { left: 1, right: 1 }, _meta: meta };
    const sealed = mcpToolHandlers(runtime, { requestState: { key: 'a key of at least thirty-two bytes' } });
    await expect(sealed.callTool({ ...params, requestState: 'forged' } as never, extra)).rejects.toMatchObject({ code: -32602 });
    // MissingRequiredClientCapabilityError: in the range of server errors, which the conventions count as errors.
    const tasksOnly = mcpToolHandlers(runtime, { tasks: { tools: { 'math.add': 'required' } } });
    await expect(tasksOnly.callTool(params as never, extra)).rejects.toMatchObject({ code: -32021 });
    const [refusedState, missingCapability] = t.spans();
    expect(refusedState).toMatchObject({ name: 'tools/call math.add', kind: SpanKind.SERVER, status: { code: SpanStatusCode.UNSET } });
    expect(refusedState!.attributes).toMatchObject({ 'rpc.response.status_code': '-32602', 'jsonrpc.request.id': '9', 'mcp.protocol.version': '2026-07-28', 'jtc.error.code': 'denied', 'jtc.contract.outcome': 'denied' });
    expect(refusedState!.attributes['error.type']).toBeUndefined();
    expect(missingCapability).toMatchObject({ name: 'tools/call math.add', kind: SpanKind.SERVER, status: { code: SpanStatusCode.ERROR, message: '-32021' } });
    expect(missingCapability!.attributes).toMatchObject({ 'rpc.response.status_code': '-32021', 'error.type': '-32021', 'jtc.contract.outcome': 'denied' });
    const duration = await t.metric('mcp.server.operation.duration');
    expect(duration!.points.map((point) => point.attributes)).toEqual([
      { 'mcp.method.name': 'tools/call', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'math.add', 'mcp.protocol.version': '2026-07-28', 'rpc.response.status_code': '-32602' },
      { 'mcp.method.name': 'tools/call', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'math.add', 'mcp.protocol.version': '2026-07-28', 'rpc.response.status_code': '-32021', 'error.type': '-32021' },
    ]);
  });

  it('links the ambient span (the HTTP request) when _meta names the parent, and parents on it when _meta names none', async () => {
    const t = telemetry();
    const runtime = addRuntime({ observer: otelCallObserver(t.options) });
    const mcp = mcpToolHandlers(runtime);
    const extra = (meta: Record<string, unknown>) => ({ requestId: 7, sessionId: 'session-1', _meta: meta, sendNotification: async () => {}, sendRequest: async () => ({}) });
    const http = t.options.tracerProvider!.getTracer('http');
    await http.startActiveSpan('POST /mcp', async (request) => {
      await mcp.callTool({ name: 'math.add', arguments: { left: 1, right: 1 } }, extra({ traceparent }));
      await mcp.callTool({ name: 'math.add', arguments: { left: 1, right: 1 } }, extra({}));
      request.end();
    });
    // A 2026-07-28 request names its revision in the same _meta as its trace context.
    const modern = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', traceparent };
    await mcp.callTool({ name: 'math.add', arguments: { left: 1, right: 1 }, _meta: modern } as never, extra(modern));
    const [fromMeta, fromAmbient, ambient, fromModern] = t.spans();
    expect(fromModern!.attributes['mcp.protocol.version']).toBe('2026-07-28');
    expect(fromModern!.parentSpanContext?.spanId).toBe(parentId);
    expect(fromMeta!.parentSpanContext?.spanId).toBe(parentId);
    expect(fromMeta!.links.map((link) => link.context.spanId)).toEqual([ambient!.spanContext().spanId]);
    expect(fromMeta!.attributes).toMatchObject({ 'jsonrpc.request.id': '7', 'mcp.session.id': 'session-1' });
    expect(fromAmbient!.parentSpanContext?.spanId).toBe(ambient!.spanContext().spanId);
    expect(fromAmbient!.links).toEqual([]);
  });
});

describe('a typed MCP client, a Streamable HTTP server on 127.0.0.1 and its handler in one trace', () => {
  const info = { name: 'otel-http', version: '1.0.0' };
  /** The two servers mcpNodeListener puts on node:http: the runtime's own handler, and SDK v2's Streamable HTTP serving (a server per request). */
  const servers = {
    mcpHttpHandler: (runtime: CapabilityRuntime, unsentLog: McpUnsentLog) => mcpHttpHandler(runtime, { serverInfo: info, unsentLog }),
    createMcpHandler: (runtime: CapabilityRuntime, unsentLog: McpUnsentLog) =>
      createMcpHandler(() => {
        const server = new ServerV2(info, { capabilities: { logging: {} }, supportedProtocolVersions: ['2026-07-28', '2025-11-25'] });
        serveToolsOnMcpServer(server, runtime, { unsentLog });
        return server;
      }),
  };

  it.each([
    ['mcpHttpHandler', 'v1', '2025-11-25'],
    ['mcpHttpHandler', 'v2', '2025-11-25'],
    ['mcpHttpHandler', 'v2', '2026-07-28'],
    ['createMcpHandler', 'v1', '2025-11-25'],
    ['createMcpHandler', 'v2', '2025-11-25'],
    ['createMcpHandler', 'v2', '2026-07-28'],
  ] as const)('%s, a client of SDK %s at %s: the client span, the server span, the handler span and its mcpLog', async (serving, sdk, revision) => {
    const t = telemetry();
    const logExporter = new InMemoryLogRecordExporter();
    const loggerProvider = new LoggerProvider({ processors: [new SimpleLogRecordProcessor({ exporter: logExporter })] });
    const tracer = t.options.tracerProvider!.getTracer('test');
    const runtime = addRuntime({ observer: otelCallObserver(t.options) }, async ({ left, right }, request) => {
      await mcpLog(request, 'warning', { adding: [left, right] }, 'math');
      await new Promise((resolve) => setTimeout(resolve, 1));
      tracer.startSpan('handler work').end();
      return { total: left + right };
    });
    const handler = servers[serving](runtime, otelUnsentLog({ loggerProvider }));
    const server: HttpServer = createServer(mcpNodeListener(handler));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
    const heard: unknown[] = [];
    const tracing = otelClientTracing({ tracerProvider: t.options.tracerProvider!, meterProvider: t.options.meterProvider!, propagator });
    let client: ClientV1 | ClientV2;
    if (sdk === 'v1') {
      const v1 = new ClientV1(info);
      v1.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void heard.push(notification.params.data));
      await v1.connect(new HttpV1(url));
      client = v1;
    } else {
      const v2 = new ClientV2(info, revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: revision } } } : {});
      v2.setNotificationHandler('notifications/message', (notification) => void heard.push(notification.params.data));
      await v2.connect(new StreamableHTTPClientTransport(url));
      client = v2;
    }
    try {
      const tools = client instanceof ClientV1 ? mcpToolClientV1(client, { mathAdd }, { tracing }) : mcpToolClient(client, { mathAdd }, { tracing });
      const result = await tracer.startActiveSpan('agent turn', async (turn) => {
        const called = await tools.call('math.add', { left: 2, right: 3 });
        turn.end();
        return called;
      });
      expect(result).toMatchObject({ ok: true, output: { total: 5 } });
    } finally {
      await client.close();
      if ('close' in handler) handler.close();
      await new Promise((resolve) => server.close(resolve));
    }
    const spans = t.spans();
    const turn = spans.find((span) => span.name === 'agent turn')!;
    const [clientSpan] = spans.filter((span) => span.kind === SpanKind.CLIENT);
    const [serverSpan] = spans.filter((span) => span.kind === SpanKind.SERVER);
    const work = spans.find((span) => span.name === 'handler work')!;
    expect(new Set(spans.map((span) => span.spanContext().traceId))).toEqual(new Set([turn.spanContext().traceId]));
    expect(clientSpan!.parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
    expect(serverSpan!.parentSpanContext).toMatchObject({ spanId: clientSpan!.spanContext().spanId, isRemote: true });
    expect(serverSpan!.attributes).toMatchObject({ 'mcp.protocol.version': revision, 'gen_ai.tool.name': 'math.add' });
    expect(work.parentSpanContext?.spanId).toBe(serverSpan!.spanContext().spanId);
    const records = logExporter.getFinishedLogRecords();
    if (revision === '2025-11-25') {
      // The session has notifications/message: the client hears the message, and no record is made.
      expect(heard).toEqual([{ adding: [2, 3] }]);
      expect(records).toEqual([]);
    } else {
      // The request named no log level: nothing reaches the client, the record carries the call's span.
      expect(heard).toEqual([]);
      expect(records.map((record) => [record.severityNumber, record.severityText, record.body, record.attributes])).toEqual([[13, 'warning', { adding: [2, 3] }, { 'jtc.mcp.logger': 'math' }]]);
      expect(records[0]!.spanContext).toMatchObject({ traceId: serverSpan!.spanContext().traceId, spanId: serverSpan!.spanContext().spanId });
    }
  });
});

describe('otelUnsentLog: the log messages no MCP client is to hear, as OpenTelemetry log records', () => {
  function logsTo(): { loggerProvider: LoggerProvider; records: () => ReturnType<InMemoryLogRecordExporter['getFinishedLogRecords']> } {
    const exporter = new InMemoryLogRecordExporter();
    return { loggerProvider: new LoggerProvider({ processors: [new SimpleLogRecordProcessor({ exporter })] }), records: () => exporter.getFinishedLogRecords() };
  }

  it('maps each MCP level to the severity of the logs data model, its text the level itself', () => {
    const { loggerProvider, records } = logsTo();
    const log = otelUnsentLog({ loggerProvider });
    const levels: McpLoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
    for (const level of levels) log(level, `${level} message`, undefined);
    const emitted = records();
    expect(emitted.map((record) => [record.severityText, record.severityNumber, record.body])).toEqual([
      ['debug', 5, 'debug message'],
      ['info', 9, 'info message'],
      ['notice', 10, 'notice message'],
      ['warning', 13, 'warning message'],
      ['error', 17, 'error message'],
      ['critical', 21, 'critical message'],
      ['alert', 22, 'alert message'],
      ['emergency', 23, 'emergency message'],
    ]);
    expect(emitted[0]!.attributes).toEqual({});
    expect(emitted[0]!.instrumentationScope.name).toBe('@json-tool-contracts/runtime');
  });

  it("takes the logs API's global provider too (@opentelemetry/api-logs)", () => {
    const { loggerProvider, records } = logsTo();
    logs.setGlobalLoggerProvider(loggerProvider);
    try {
      otelUnsentLog({ loggerProvider: logs.getLoggerProvider() })('notice', 'through the global provider', undefined);
    } finally {
      logs.disable();
    }
    expect(records().map((record) => record.body)).toEqual(['through the global provider']);
  });

  it('writes a JSON line on stderr without a logger provider, or when the logger throws', () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      otelUnsentLog()('error', 'no provider', 'db');
      otelUnsentLog({ loggerProvider: undefined })('debug', 'none either', undefined);
      const broken = {
        getLogger: () => ({
          emit: () => {
            throw new Error('collector down');
          },
        }),
      };
      otelUnsentLog({ loggerProvider: broken })('info', { still: 'written' }, undefined);
      expect(write.mock.calls.map(([line]) => line)).toEqual(['{"mcpLog":"error","logger":"db","data":"no provider"}\n', '{"mcpLog":"debug","data":"none either"}\n', '{"mcpLog":"info","data":{"still":"written"}}\n']);
    } finally {
      write.mockRestore();
    }
  });

  it('takes the message of a 2026-07-28 call wired by hand (no channel to its client), with the call span as its context', async () => {
    const t = telemetry();
    const { loggerProvider, records } = logsTo();
    const runtime = addRuntime({ observer: otelCallObserver(t.options) }, async ({ left, right }, request) => {
      await mcpLog(request, 'error', 'by hand');
      return { total: left + right };
    });
    const mcp = mcpToolHandlers(runtime, { unsentLog: otelUnsentLog({ loggerProvider }) });
    const result = await mcp.callTool({ name: 'math.add', arguments: { left: 1, right: 1 }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } as never);
    expect(result).toMatchObject({ structuredContent: { total: 2 } });
    const [span] = t.spans();
    expect(records().map((record) => [record.severityText, record.body, record.spanContext?.spanId])).toEqual([['error', 'by hand', span!.spanContext().spanId]]);
  });
});

describe("otelCallObserver under the AI SDK's own spans (experimental_telemetry)", () => {
  it("makes the execute_tool span a child of the AI SDK's ai.toolCall span, with its toolCallId", async () => {
    const t = telemetry();
    const runtime = addRuntime({ observer: otelCallObserver(t.options) });
    const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
    let steps = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () =>
        ++steps === 1
          ? { content: [{ type: 'tool-call', toolCallId: 'call-ai-7', toolName: 'math_add', input: '{"left":2,"right":3}' }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] }
          : { content: [{ type: 'text', text: '5' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] },
    });
    const result = await generateText({ model, tools: toAiSdkTools(runtime), prompt: 'add 2 and 3', stopWhen: stepCountIs(2), experimental_telemetry: { isEnabled: true, tracer: t.options.tracerProvider!.getTracer('ai') } });
    expect(result.text).toBe('5');
    expect(result.steps[0]!.toolResults).toMatchObject([{ toolCallId: 'call-ai-7', output: { total: 5 } }]);
    const spans = t.spans();
    const byName = (name: string) => spans.find((span) => span.name === name)!;
    const generate = byName('ai.generateText');
    const toolCall = byName('ai.toolCall');
    const execute = byName('execute_tool math.add');
    expect(new Set(spans.map((span) => span.spanContext().traceId))).toEqual(new Set([generate.spanContext().traceId]));
    expect(toolCall.attributes['ai.toolCall.id']).toBe('call-ai-7');
    expect(execute.parentSpanContext?.spanId).toBe(toolCall.spanContext().spanId);
    expect(execute.kind).toBe(SpanKind.INTERNAL);
    expect(execute.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'math.add', 'gen_ai.tool.call.id': 'call-ai-7' });
    // The AI SDK's tool span sits in its own tree, under generateText.
    const ancestors: string[] = [];
    for (let parent = toolCall.parentSpanContext?.spanId; parent !== undefined; ) {
      const span = spans.find((each) => each.spanContext().spanId === parent)!;
      ancestors.push(span.name);
      parent = span.parentSpanContext?.spanId;
    }
    expect(ancestors.at(-1)).toBe('ai.generateText');
  });
});

describe('otelCallObserver keeps of a request no more than it records', () => {
  /** The heap in use after full collections (`gc` as `--expose-gc` gives it, taken from a fresh context). */
  function heapAfterCollection(): number {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    gc();
    return getHeapStatistics().used_heap_size;
  }

  it('holds spans waiting for export small, however long the tool names, ids, traceparent and tracestate the callers sent', async () => {
    // Every finished span stays in the in-memory exporter, as spans wait in a queue while the collector is down.
    const t = telemetry();
    // No records kept: what is measured is what the spans keep.
    const runtime = addRuntime({ observer: otelCallObserver(t.options), maxRecords: 0 });
    const mcp = mcpToolHandlers(runtime);
    const textLength = 256 * 1024;
    /** A fresh, flat text each time, as a request body's parser makes it (`'x'.repeat` would be a rope of a few cells). */
    const long = (what: string, index: number) => `${what}-${index}-${Buffer.alloc(textLength, 'x').toString('latin1')}`;
    const warmUp = 5;
    const calls = 45;
    let sent = 0;
    let before = 0;
    for (let index = 0; index < calls; index++) {
      // The first calls compile code and make the metric series: they are not what a span keeps.
      if (index === warmUp) before = heapAfterCollection();
      // A future version of traceparent may carry more fields after the flags, and W3C's propagator reads them.
      const meta = { traceparent: `01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-${long('future', index)}`, tracestate: `vendor=1,${long('junk', index)}` };
      const name = long('tool', index);
      const extra = { requestId: long('request', index), sessionId: long('session', index), _meta: meta, sendNotification: async () => {}, sendRequest: async () => ({}) };
      expect(await mcp.callTool({ name, arguments: {}, _meta: meta } as never, extra)).toMatchObject({ isError: true });
      // The AI SDK's tool call id, on a call of its own.
      expect(runtime.call(long('made.up', index), {}, { context: { toolCallId: long('call', index) } })).toMatchObject({ ok: false });
      if (index >= warmUp) sent += 7 * textLength;
    }
    const kept = heapAfterCollection() - before;
    const spans = t.spans();
    expect(spans).toHaveLength(2 * calls);
    expect(spans[0]!.attributes['gen_ai.tool.name']).toMatch(/^tool-0-x+…$/);
    expect(spans[0]!.parentSpanContext).toMatchObject({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' });
    expect(spans[0]!.parentSpanContext?.traceState?.get('vendor')).toBe('1');
    // Kept whole, the texts would be about 70 MB (sent); a span keeps its bounded attributes, a few kilobytes.
    expect(kept).toBeLessThan(sent / 20);
  });
});

describe('otelCallObserver never costs a call its outcome', () => {
  it('keeps every result, and waits for nothing, when the exporter throws or hangs, or the tracer or the meter throws', async () => {
    const throwing: SpanExporter = {
      export: () => {
        throw new Error('collector down');
      },
      shutdown: async () => {},
    };
    const broken = telemetry({}, throwing);
    // An exporter that never answers (a collector that hangs): nothing waits for it.
    const hanging = telemetry({}, { export: () => {}, shutdown: async () => {} });
    const tracerThrows = telemetry({
      tracerProvider: {
        getTracer: () => ({
          startSpan: () => {
            throw new Error('no span');
          },
          startActiveSpan: () => {
            throw new Error('no span');
          },
        }),
      },
    });
    const meterThrows = telemetry({
      meterProvider: {
        getMeter: () => {
          throw new Error('no meter');
        },
      },
    });
    for (const t of [broken, hanging, tracerThrows, meterThrows]) {
      const runtime = addRuntime({ observer: otelCallObserver(t.options) });
      expect(runtime.call('math.add', { left: 2, right: 3 })).toEqual({ ok: true, callId: 'call-1', output: { total: 5 } });
      expect(await runtime.callAsync('math.add', { left: 2, right: 'x' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
      expect(runtime.records().map((record) => record.outcome)).toEqual(['completed', 'denied']);
    }
  });

  it('makes no span and no error when nothing is configured', () => {
    const exporter = new InMemorySpanExporter();
    const global = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    // No observer: nothing is emitted, even with an SDK registered.
    trace.setGlobalTracerProvider(global);
    const plain = addRuntime({});
    expect(plain.call('math.add', { left: 2, right: 3 })).toMatchObject({ ok: true });
    expect(exporter.getFinishedSpans()).toEqual([]);
    trace.disable();
    // An observer with no SDK registered: the API's no-op tracer and meter, and the calls as ever.
    const unconfigured = addRuntime({ observer: otelCallObserver() });
    expect(unconfigured.call('math.add', { left: 2, right: 3 })).toMatchObject({ ok: true, output: { total: 5 } });
    expect(unconfigured.call('math.add', {})).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('names a span by its operation alone when {operation} {tool} is longer than maxSpanNameBytes, counted in UTF-8 bytes', async () => {
    const t = telemetry();
    // "execute_tool math.add" is 21 bytes.
    addRuntime({ observer: otelCallObserver({ ...t.options, maxSpanNameBytes: 21 }) }).call('math.add', { left: 1, right: 1 });
    addRuntime({ observer: otelCallObserver({ ...t.options, maxSpanNameBytes: 20 }) }).call('math.add', { left: 1, right: 1 });
    const tracing = otelClientTracing({ tracerProvider: t.options.tracerProvider!, meterProvider: t.options.meterProvider!, propagator, maxSpanNameBytes: 64 });
    // "tools/call " and 26 two-byte letters are 63 bytes (37 UTF-16 code units); one letter more is 65.
    await tracing.toolCall('é'.repeat(26), async () => ({}));
    await tracing.toolCall('é'.repeat(27), async () => ({}));
    expect(t.spans().map((span) => [span.name, span.attributes['gen_ai.tool.name']])).toEqual([
      ['execute_tool math.add', 'math.add'],
      ['execute_tool', 'math.add'],
      [`tools/call ${'é'.repeat(26)}`, 'é'.repeat(26)],
      ['tools/call', 'é'.repeat(27)],
    ]);
    expect(() => otelCallObserver({ maxSpanNameBytes: 11 })).toThrow('maxSpanNameBytes must be a whole number of at least 12 (the bytes of "execute_tool"), got 11');
    expect(() => otelClientTracing({ maxSpanNameBytes: 64.5 })).toThrow(RangeError);
  });

  it('refuses a maxContentLength that is not a whole number of at least 1', () => {
    expect(() => otelCallObserver({ maxContentLength: 0 })).toThrow(RangeError);
    expect(() => otelCallObserver({ maxContentLength: 1.5 })).toThrow('maxContentLength must be a whole number of at least 1, got 1.5');
  });
});
