import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/free-port.js';
import { otlpReceiver } from '../support/otlp-receiver.js';

/**
 * examples/mcp-conformance/server.mjs with the standard OpenTelemetry variables: its spans and
 * metrics reach an OTLP/HTTP receiver on 127.0.0.1 (flushed on SIGTERM), in http/json and
 * http/protobuf; without the variables it sends nothing.
 */

const processTimeout = 120_000;
const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const parentId = '00f067aa0ba902b7';

/** The example server on a free port, with exactly the OTEL_ variables given (none of the test's own). */
async function startExample(otel: Record<string, string>): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));
  const child = spawn(process.execPath, ['examples/mcp-conformance/server.mjs'], { env: { ...env, ...otel, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`MCP server on ${url}`)) resolve();
    });
    child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`the example server exited (${String(code)}): ${output}`)));
  });
  return { url, child, output: () => output };
}

/** One tools/call with a W3C traceparent in its _meta, by SDK v2's client over Streamable HTTP. */
async function callTool(url: string): Promise<void> {
  const client = new Client({ name: 'otel-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const result = (await client.callTool({ name: 'test_simple_text', arguments: {}, _meta: { traceparent: `00-${traceId}-${parentId}-01` } })) as { isError?: boolean };
  expect(result.isError).toBeFalsy();
  await client.close();
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}

beforeAll(() => {
  const build = spawnSync(process.execPath, ['bin/jtc.js', 'build', 'examples/mcp-conformance/contracts', '-o', 'examples/mcp-conformance/generated', '--emit', 'js'], { encoding: 'utf8' });
  expect(build.status, build.stderr).toBe(0);
}, processTimeout);

describe('examples/mcp-conformance exports through the OpenTelemetry SDK when the OTEL_ variables say so', () => {
  it(
    'sends its spans as OTLP/HTTP JSON, flushed on SIGTERM, the server span a child of the request _meta trace context',
    async () => {
      const receiver = await otlpReceiver();
      // The batch and the metric reader would wait ten minutes: what arrives came from the SIGTERM flush.
      const example = await startExample({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'conformance-example', OTEL_BSP_SCHEDULE_DELAY: '600000', OTEL_METRIC_EXPORT_INTERVAL: '600000' });
      try {
        await callTool(example.url);
        expect(receiver.received).toEqual([]);
        expect(await stop(example.child)).toBe(0);
      } finally {
        receiver.server.close();
      }
      const traces = receiver.received.filter((each) => each.path === '/v1/traces');
      expect(traces.map((each) => each.contentType)).toEqual(['application/json']);
      type Span = { name: string; traceId: string; parentSpanId?: string; kind: number };
      type Export = { resourceSpans: { resource: { attributes: { key: string; value: { stringValue?: string } }[] }; scopeSpans: { spans: Span[] }[] }[] };
      const exported = JSON.parse(traces[0]!.body.toString('utf8')) as Export;
      const [resourceSpans] = exported.resourceSpans;
      expect(resourceSpans!.resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'conformance-example' } });
      const spans = resourceSpans!.scopeSpans.flatMap((scope) => scope.spans);
      expect(spans).toContainEqual(expect.objectContaining({ name: 'tools/call test_simple_text', traceId, parentSpanId: parentId, kind: 2 }));
      const metrics = receiver.received.filter((each) => each.path === '/v1/metrics');
      expect(metrics.map((each) => each.body.toString('utf8')).join('')).toContain('mcp.server.operation.duration');
    },
    processTimeout,
  );

  it(
    'sends them as OTLP/HTTP protobuf',
    async () => {
      const receiver = await otlpReceiver();
      const example = await startExample({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_SERVICE_NAME: 'conformance-proto' });
      try {
        await callTool(example.url);
        expect(await stop(example.child)).toBe(0);
      } finally {
        receiver.server.close();
      }
      const traces = receiver.received.filter((each) => each.path === '/v1/traces');
      expect(traces.map((each) => each.contentType)).toEqual(['application/x-protobuf']);
      // Protobuf carries strings as their UTF-8 bytes and ids as raw bytes.
      expect(traces[0]!.body.includes('tools/call test_simple_text')).toBe(true);
      expect(traces[0]!.body.includes('conformance-proto')).toBe(true);
      expect(traces[0]!.body.includes(Buffer.from(traceId, 'hex'))).toBe(true);
    },
    processTimeout,
  );

  it(
    'sends nothing, and says nothing of OpenTelemetry, without the variables',
    async () => {
      // Where an SDK sends by default (http://localhost:4318), when that port is free here.
      const receiver = await otlpReceiver(4318).catch(() => otlpReceiver());
      const example = await startExample({ OTEL_SERVICE_NAME: 'no-endpoint' });
      try {
        await callTool(example.url);
        await stop(example.child);
      } finally {
        receiver.server.close();
      }
      expect(receiver.received).toEqual([]);
      expect(example.output()).not.toContain('OpenTelemetry');
    },
    processTimeout,
  );

  it('is the telemetry.ts that jtc init --template mcp writes, without its types (npm run templates writes it)', async () => {
    // A plain script without declarations, imported by a name TypeScript does not resolve.
    const script = '../../scripts/write-templates.js';
    const { renderExampleTelemetry } = (await import(script)) as { renderExampleTelemetry: () => string };
    expect(readFileSync('examples/mcp-conformance/telemetry.mjs', 'utf8')).toBe(renderExampleTelemetry());
  });

  it(
    'refuses a protocol it cannot export with, with a clear message',
    async () => {
      const receiver = await otlpReceiver();
      receiver.server.close();
      await expect(startExample({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).rejects.toThrow('OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported by this server: use http/protobuf or http/json');
    },
    processTimeout,
  );
});
