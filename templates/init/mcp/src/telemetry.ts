import type { CallObserver } from '@json-tool-contracts/runtime';

/**
 * OpenTelemetry, off unless the standard variables name an OTLP endpoint
 * (OTEL_EXPORTER_OTLP_ENDPOINT, or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT): only then is the SDK loaded
 * (dynamic imports, so a server without them loads none of it) and every call's span and metrics
 * go over OTLP/HTTP as OTEL_EXPORTER_OTLP_PROTOCOL says (http/protobuf, the default, or http/json),
 * under OTEL_SERVICE_NAME. The SDK reads its own variables too (OTEL_BSP_SCHEDULE_DELAY,
 * OTEL_METRIC_EXPORT_INTERVAL, OTEL_RESOURCE_ATTRIBUTES, OTEL_EXPORTER_OTLP_HEADERS). On SIGTERM
 * what is buffered is flushed before the process exits. It writes to stderr only (a stdio server's stdout is MCP's).
 */
export async function telemetryObserver(env = process.env): Promise<CallObserver | undefined> {
  const endpoint = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] || env['OTEL_EXPORTER_OTLP_ENDPOINT'];
  if (!endpoint || env['OTEL_SDK_DISABLED'] === 'true') return undefined;
  const protocol = env['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'] || env['OTEL_EXPORTER_OTLP_PROTOCOL'] || 'http/protobuf';
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') {
    console.error(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported by this server: use http/protobuf or http/json`);
    process.exit(1);
  }
  const [{ metrics }, { MeterProvider, PeriodicExportingMetricReader }, { BatchSpanProcessor, NodeTracerProvider }, { defaultResource, detectResources, envDetector }, { otelCallObserver }] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-metrics'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/resources'),
    import('@json-tool-contracts/runtime/otel'),
  ]);
  const [{ OTLPTraceExporter }, { OTLPMetricExporter }] =
    protocol === 'http/json'
      ? await Promise.all([import('@opentelemetry/exporter-trace-otlp-http'), import('@opentelemetry/exporter-metrics-otlp-http')])
      : await Promise.all([import('@opentelemetry/exporter-trace-otlp-proto'), import('@opentelemetry/exporter-metrics-otlp-proto')]);
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, over the SDK's own attributes.
  const resource = defaultResource().merge(detectResources({ detectors: [envDetector] }));
  const tracerProvider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  tracerProvider.register(); // the global tracer, the AsyncLocalStorage context and the W3C propagators
  const meterProvider = new MeterProvider({ resource, readers: [new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter() })] });
  metrics.setGlobalMeterProvider(meterProvider);
  process.once('SIGTERM', () => {
    void Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]).finally(() => process.exit(0));
  });
  console.error(`OpenTelemetry: spans and metrics to ${endpoint} (${protocol})`);
  return otelCallObserver();
}
