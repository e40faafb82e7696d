import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One OTLP/HTTP export as it arrived: `/v1/traces`, `/v1/metrics` or `/v1/logs`, and its body. */
export interface OtlpExport {
  readonly path: string;
  readonly contentType: string;
  readonly body: Buffer;
}

export interface OtlpReceiver {
  readonly server: Server;
  /** `http://127.0.0.1:<port>`, what OTEL_EXPORTER_OTLP_ENDPOINT names. */
  readonly url: string;
  readonly received: OtlpExport[];
}

/** An OTLP/HTTP receiver on 127.0.0.1 (port 0: the OS's pick) that answers every export with success and keeps what came. */
export async function otlpReceiver(port = 0): Promise<OtlpReceiver> {
  const received: OtlpExport[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const contentType = request.headers['content-type'] ?? '';
      received.push({ path: request.url ?? '', contentType, body: Buffer.concat(chunks) });
      response.writeHead(200, { 'content-type': contentType }).end(contentType.includes('json') ? '{}' : '');
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}
