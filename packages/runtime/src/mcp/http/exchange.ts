import type { IncomingMessage, ServerResponse } from 'node:http';
import { describeThrown } from '../../support/describe-thrown.js';
import { mcpErrorCodes } from '../revision-2026.js';

/**
 * How a request reaches `mcpHttpHandler` and how its answer leaves: as a Web `Request` and
 * `Response` (`fetch`: Workers, Deno, Bun, Hono), or straight from and to `node:http`
 * (`mcpNodeListener`), which then makes neither. The handler serves both from one `serve` that
 * sees only a `RequestView` and returns an `HttpAnswer`. On node:http the Web objects were most
 * of a small call's cost (bench/server.js: the Headers, the Request with a stream for its body,
 * the Response and the stream its body is read through); read as Buffers and written as one
 * string, the request costs what node:http does.
 */

/** What serving reads of a request. */
export interface RequestView {
  readonly method: string;
  /** A header's value (names in lower case), or null. */
  header(name: string): string | null;
  /** The host the request was sent to (its `Host` header, else its URL's). */
  host(): string;
  /** The body as text, unless it is longer than `limit` bytes. */
  text(limit: number): Promise<{ text: string } | { tooLarge: true }>;
  /** Calls `listener` once if the client goes away before its answer has been written. */
  onLeave(listener: () => void): void;
  /** The request as a Web `Request`, for `authInfo` (on node:http made only when asked, without its body, which has been read). */
  webRequest(): Request;
}

/** An answer: its status, its headers, and a body that is JSON text, nothing, or an event stream the call writes as it runs. */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | null | EventStream;
}

/** Where an event stream's frames go once its answer is being written. */
interface FrameSink {
  write(frame: string): void;
  end(): void;
}

/**
 * A call's event stream: frames written before its answer is read are kept until it is. Once
 * ended, or left by its client (`leave`), nothing more is written, and `left` is told once.
 */
export class EventStream {
  private readonly early: string[] = [];
  private sink: FrameSink | undefined;
  private open = true;

  constructor(private readonly left: () => void) {}

  write(frame: string): void {
    if (!this.open) return;
    if (this.sink === undefined) this.early.push(frame);
    else this.sink.write(frame);
  }

  /** The last frame, and the end of the stream. */
  end(frame: string): void {
    if (!this.open) return;
    this.write(frame);
    this.open = false;
    this.sink?.end();
  }

  /** Writes to `sink` what was written so far, then everything after. */
  pipeTo(sink: FrameSink): void {
    this.sink = sink;
    for (const frame of this.early.splice(0)) sink.write(frame);
    if (!this.open) sink.end();
  }

  /** The client left: the stream stays as it is and its writer is told. */
  leave(): void {
    if (!this.open) return;
    this.open = false;
    this.left();
  }
}

export const jsonHeaders = { 'content-type': 'application/json' };

/** The answer of a request that could not be served at all. */
export function internalErrorAnswer(error: unknown): HttpAnswer {
  return { status: 500, headers: jsonHeaders, body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: mcpErrorCodes.internalError, message: `the request could not be served: ${describeThrown(error)}` } }) };
}

const utf8 = new TextDecoder();

/** The request of a Web host. */
export function webRequestView(request: Request): RequestView {
  return {
    method: request.method,
    header: (name) => request.headers.get(name),
    host: () => request.headers.get('host') ?? new URL(request.url).host,
    text: (limit) => readWebBody(request, limit),
    onLeave: (listener) => request.signal.addEventListener('abort', listener, { once: true }),
    webRequest: () => request,
  };
}

async function readWebBody(request: Request, limit: number): Promise<{ text: string } | { tooLarge: true }> {
  const declared = Number(request.headers.get('content-length') ?? 'NaN');
  if (declared > limit) return { tooLarge: true };
  if (request.body === null) return { text: '' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return { tooLarge: true };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { text: utf8.decode(bytes) };
}

/** The answer as a Web `Response`; a client that cancels an event stream's body leaves it. */
export function webResponse({ status, headers, body }: HttpAnswer): Response {
  if (!(body instanceof EventStream)) return new Response(body, { status, headers });
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      body.pipeTo({ write: (frame) => controller.enqueue(encoder.encode(frame)), end: () => controller.close() });
    },
    cancel() {
      body.leave();
    },
  });
  return new Response(stream, { status, headers });
}

/** A header of node:http's request as a Web host reads it: repeated ones joined. */
function nodeHeader(incoming: IncomingMessage, name: string): string | null {
  const value = incoming.headers[name];
  return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
}

function webHeaders(incoming: IncomingMessage): Headers {
  const headers = new Headers();
  for (const name of Object.keys(incoming.headers)) headers.set(name, nodeHeader(incoming, name)!);
  return headers;
}

const nodeUrl = (incoming: IncomingMessage): string => `http://${incoming.headers.host ?? 'localhost'}${incoming.url ?? '/'}`;

/**
 * Whether the client went away before its answer was written. node:http closes every response,
 * answered or not, and Node 20 makes each AbortSignal transferable at a cost: only a call is told,
 * and only when its client left.
 */
function whenLeft(outgoing: ServerResponse, listener: () => void): void {
  if (outgoing.destroyed && !outgoing.writableFinished) listener();
  else outgoing.once('close', () => !outgoing.writableFinished && listener());
}

/** The request of node:http, read without a Web `Request`. */
function nodeRequestView(incoming: IncomingMessage, outgoing: ServerResponse): RequestView {
  return {
    method: incoming.method ?? 'GET',
    header: (name) => nodeHeader(incoming, name),
    host: () => incoming.headers.host ?? 'localhost',
    text: (limit) => readNodeBody(incoming, limit),
    onLeave: (listener) => whenLeft(outgoing, listener),
    webRequest: () => new Request(nodeUrl(incoming), { method: incoming.method ?? 'GET', headers: webHeaders(incoming) }),
  };
}

/**
 * The body as it arrives, in Buffers. Past `limit` it stops reading and leaves the connection to
 * close after the answer (`connection: close`), so the answer still reaches the client.
 */
function readNodeBody(incoming: IncomingMessage, limit: number): Promise<{ text: string } | { tooLarge: true }> {
  if (Number(incoming.headers['content-length'] ?? 'NaN') > limit) return Promise.resolve({ tooLarge: true });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      incoming.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= limit) return void chunks.push(chunk);
      stop();
      incoming.pause();
      resolve({ tooLarge: true });
    };
    const onEnd = () => {
      stop();
      resolve({ text: utf8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)) });
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    const onClose = () => onError(new Error('the client closed the request before its body ended'));
    incoming.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

function writeNodeAnswer({ status, headers, body }: HttpAnswer, incoming: IncomingMessage, outgoing: ServerResponse): void {
  // A body left unread (too large) would be read by the next request of the connection: it ends with this answer.
  const unread = !incoming.complete ? { connection: 'close' } : {};
  if (!(body instanceof EventStream)) {
    outgoing.writeHead(status, body === null ? { ...headers, ...unread } : { ...headers, ...unread, 'content-length': String(Buffer.byteLength(body)) });
    outgoing.end(body ?? undefined);
    return;
  }
  // A client that goes away cancels the call (`onLeave`); node:http drops what is written after.
  outgoing.writeHead(status, headers);
  body.pipeTo({ write: (frame) => outgoing.write(frame), end: () => outgoing.end() });
}

type NodeListener = (incoming: IncomingMessage, outgoing: ServerResponse) => void;

/** The handlers that serve node:http directly (mcpHttpHandler's), and how. */
const nodeServed = new WeakMap<object, (request: RequestView) => Promise<HttpAnswer>>();

/** Lets `mcpNodeListener` serve `handler` through `serve` without making Web objects. */
export function serveOnNodeDirectly(handler: object, serve: (request: RequestView) => Promise<HttpAnswer>): void {
  nodeServed.set(handler, serve);
}

/**
 * A `node:http` request listener for a Web handler (`mcpHttpHandler`'s, or SDK v2's
 * `createMcpHandler`): `createServer(mcpNodeListener(handler)).listen(3000, '127.0.0.1')`. The
 * response streams as the handler writes it; a client that goes away aborts the request's signal.
 * `mcpHttpHandler`'s own handler is served without Web `Request` and `Response` objects.
 */
export function mcpNodeListener(handler: { fetch(request: Request): Promise<Response> }): NodeListener {
  const serve = nodeServed.get(handler);
  return serve === undefined ? (incoming, outgoing) => void serveWebHandler(handler, incoming, outgoing) : (incoming, outgoing) => void serveDirectly(serve, incoming, outgoing);
}

async function serveDirectly(serve: (request: RequestView) => Promise<HttpAnswer>, incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  let answer: HttpAnswer;
  try {
    answer = await serve(nodeRequestView(incoming, outgoing));
  } catch (error) {
    answer = internalErrorAnswer(error);
  }
  if (!outgoing.destroyed) writeNodeAnswer(answer, incoming, outgoing);
  else if (answer.body instanceof EventStream) answer.body.leave();
}

async function serveWebHandler(handler: { fetch(request: Request): Promise<Response> }, incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  const gone = new AbortController();
  whenLeft(outgoing, () => gone.abort());
  try {
    const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD';
    const body = hasBody ? readableOf(incoming) : undefined;
    const request = new Request(nodeUrl(incoming), { method: incoming.method, headers: webHeaders(incoming), body, signal: gone.signal, ...(hasBody ? { duplex: 'half' } : {}) } as RequestInit);
    const response = await handler.fetch(request);
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body !== null) for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) outgoing.write(chunk);
    outgoing.end();
  } catch (error) {
    if (!outgoing.headersSent) {
      const { status, headers, body } = internalErrorAnswer(error);
      outgoing.writeHead(status, headers).end(body);
    } else outgoing.destroy();
  }
}

/** A Node stream as a Web ReadableStream of its bytes. */
function readableOf(incoming: IncomingMessage): ReadableStream<Uint8Array> {
  const chunks = incoming[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await chunks.next();
      if (done) controller.close();
      else controller.enqueue(typeof value === 'string' ? new TextEncoder().encode(value) : new Uint8Array(value as Buffer));
    },
    async cancel() {
      await chunks.return?.();
    },
  });
}
