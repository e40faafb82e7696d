// OpenTelemetry for the example server, wired as docs/observability.md tells users to: only when the
// standard variables name an OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT, or ..._TRACES_ENDPOINT),
// the SDK is loaded (a dynamic import, so a server without them loads none of it) and exports
// spans and metrics over OTLP/HTTP, as OTEL_EXPORTER_OTLP_PROTOCOL says (http/protobuf, the
// default, or http/json), named by OTEL_SERVICE_NAME. The SDK reads its own variables too
// (OTEL_BSP_SCHEDULE_DELAY, OTEL_METRIC_EXPORT_INTERVAL, OTEL_RESOURCE_ATTRIBUTES, headers).
// On SIGTERM what is buffered is flushed before the process exits.

/** The runtime's observer when telemetry is configured, otherwise undefined (and nothing loaded). */
export async function telemetryObserver(env = process.env) {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint || env.OTEL_SDK_DISABLED === 'true') return undefined;
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf';
  const exporters = { 'http/json': ['exporter-trace-otlp-http', 'exporter-metrics-otlp-http'], 'http/protobuf': ['exporter-trace-otlp-proto', 'exporter-metrics-otlp-proto'] }[protocol];
  if (exporters === undefined) {
    console.error(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported by this server: use http/protobuf or http/json`);
    process.exit(1);
  }
  const [{ metrics }, { OTLPTraceExporter }, { OTLPMetricExporter }, { MeterProvider, PeriodicExportingMetricReader }, { BatchSpanProcessor, NodeTracerProvider }, { defaultResource, detectResources, envDetector }, { otelCallObserver }] = await Promise.all([
    import('@opentelemetry/api'),
    import(`@opentelemetry/${exporters[0]}`),
    import(`@opentelemetry/${exporters[1]}`),
    import('@opentelemetry/sdk-metrics'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/resources'),
    import('@json-tool-contracts/runtime/otel'),
  ]);
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, over the SDK's own attributes.
  const resource = defaultResource().merge(detectResources({ detectors: [envDetector] }));
  const tracerProvider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  tracerProvider.register(); // the global tracer, the AsyncLocalStorage context and the W3C propagators
  const meterProvider = new MeterProvider({ resource, readers: [new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter() })] });
  metrics.setGlobalMeterProvider(meterProvider);
  process.once('SIGTERM', () => {
    Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]).finally(() => process.exit(0));
  });
  console.error(`OpenTelemetry: spans and metrics to ${endpoint} (${protocol})`);
  return otelCallObserver();
}
