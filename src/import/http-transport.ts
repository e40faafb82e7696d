import { UsageError } from '../diagnostics/usage-error.js';
import { Frames } from './frames.js';
import { RefusedRequest, routeOf, rpcMessage, seconds, type Transport, type TransportOptions } from './json-rpc.js';
import { maxSourceBytes } from './sources.js';

/** Of an error response's body, this much is quoted; no more than `errorBodyBytes` of it is read. */
const quotedChars = 200;
const errorBodyBytes = 4096;

/**
 * A Streamable HTTP endpoint. Every request, its answer and its body share one deadline
 * (`--timeout`): nothing the server sends or withholds, an endless error body or an event stream
 * that never separates its events, keeps the import past it.
 */
export function httpTransport(url: URL, options: TransportOptions): Transport {
  const label = `server ${url.href}`;
  let session: string | undefined;
  let negotiated: string | undefined;
  let nextId = 1;
  const post = async (body: string, deadline: Deadline, stateless?: { readonly revision: string; readonly method: string }): Promise<Response> => {
    const headers: Record<string, string> = { ...options.headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (stateless !== undefined) {
      headers['mcp-protocol-version'] = stateless.revision;
      headers['mcp-method'] = stateless.method;
    } else {
      if (session !== undefined) headers['mcp-session-id'] = session;
      if (negotiated !== undefined) headers['mcp-protocol-version'] = negotiated;
    }
    let response: Response;
    try {
      response = await fetch(url, { method: 'POST', headers, body, signal: deadline.signal, redirect: 'error' });
    } catch (error) {
      throw new UsageError(`${label}: ${deadline.signal.aborted ? deadline.message : `could not be reached: ${causeOf(error)}`}`);
    }
    if (!response.ok) {
      const message = `${label}: HTTP ${response.status} ${response.statusText}${await excerpt(response, deadline)}`;
      // What a server of another revision answers to a request it does not take (a missing session, an unknown method); not a refused token.
      throw [400, 404, 405].includes(response.status) ? new RefusedRequest(message) : new UsageError(message);
    }
    return response;
  };
  return {
    label,
    async request(method, params, revision) {
      const id = nextId++;
      const deadline = deadlineOf(options.timeoutMs);
      const response = await post(rpcMessage(id, method, params), deadline, revision === undefined ? undefined : { revision, method });
      if (revision === undefined) session ??= response.headers.get('mcp-session-id') ?? undefined;
      const type = response.headers.get('content-type') ?? '';
      const reader = new BodyReader(response, label, deadline);
      const text = type.includes('text/event-stream') ? await answerInEvents(reader, id, label) : await reader.text();
      if (method === 'initialize') {
        const result = routeOf(text) as { result?: { protocolVersion?: unknown } };
        if (typeof result.result?.protocolVersion === 'string') negotiated = result.result.protocolVersion;
      }
      return text;
    },
    async notify(method) {
      const response = await post(rpcMessage(undefined, method), deadlineOf(options.timeoutMs));
      await response.body?.cancel().catch(() => undefined);
    },
    async close() {
      if (session === undefined) return;
      // Ends the session; a server that does not allow it answers 405, which changes nothing here.
      await fetch(url, { method: 'DELETE', headers: { ...options.headers, 'mcp-session-id': session }, signal: AbortSignal.timeout(options.timeoutMs) }).then(
        (response) => response.body?.cancel(),
        () => undefined,
      );
    },
  };
}

interface Deadline {
  readonly signal: AbortSignal;
  /** What to say when it passed. */
  readonly message: string;
}

const deadlineOf = (ms: number): Deadline => ({ signal: AbortSignal.timeout(ms), message: `no answer within ${seconds(ms)}` });

const causeOf = (error: unknown): string => {
  const cause = (error as { cause?: { message?: string; code?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
};

/** The start of an error response's body, for the message: at most `errorBodyBytes` are read, whatever the server sends. */
async function excerpt(response: Response, deadline: Deadline): Promise<string> {
  let text = '';
  try {
    for await (const chunk of new BodyReader(response, 'the error body', deadline, { fatal: false, maxBytes: errorBodyBytes, truncate: true }).chunks()) text += chunk;
  } catch {
    // The status says what went wrong; a body that breaks off or comes too slowly adds nothing.
  }
  const quoted = text.trim().slice(0, quotedChars).trimEnd();
  return quoted === '' ? '' : `: ${quoted}`;
}

/**
 * A response body read chunk by chunk against the request's deadline: up to `maxSourceBytes`
 * (an answer longer than that fails), as UTF-8 (invalid bytes fail), and cancelled when reading
 * stops, so that the server's connection is not left open.
 */
class BodyReader {
  readonly #response: Response;
  readonly #label: string;
  readonly #deadline: Deadline;
  readonly #decoder: InstanceType<typeof TextDecoder>;
  readonly #maxBytes: number;
  /** Stop quietly at `maxBytes` instead of failing (an excerpt). */
  readonly #truncate: boolean;

  constructor(response: Response, label: string, deadline: Deadline, { fatal = true, maxBytes = maxSourceBytes, truncate = false } = {}) {
    this.#response = response;
    this.#label = label;
    this.#deadline = deadline;
    this.#decoder = new TextDecoder('utf-8', { fatal });
    this.#maxBytes = maxBytes;
    this.#truncate = truncate;
  }

  async *chunks(): AsyncGenerator<string> {
    const reader = this.#response.body?.getReader();
    if (reader === undefined) return;
    const { signal, message } = this.#deadline;
    // The deadline ends a read that waits, whether or not the body stream itself heeds the signal.
    let onAbort = (): void => undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(new UsageError(`${this.#label}: ${message}`));
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    aborted.catch(() => undefined);
    let bytes = 0;
    try {
      for (;;) {
        const { done, value } = await Promise.race([reader.read(), aborted]);
        if (done) break;
        if (signal.aborted) throw new UsageError(`${this.#label}: ${message}`);
        bytes += value.byteLength;
        if (bytes > this.#maxBytes) {
          if (this.#truncate) {
            yield this.#decoder.decode(value.subarray(0, value.byteLength - (bytes - this.#maxBytes)), { stream: true });
            return;
          }
          throw new UsageError(`${this.#label}: sent more than ${this.#maxBytes} bytes in one answer`);
        }
        yield this.#decode(value, true);
      }
      yield this.#decode(undefined, false);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`${this.#label}: ${signal.aborted ? message : `the answer broke off: ${causeOf(error)}`}`);
    } finally {
      signal.removeEventListener('abort', onAbort);
      await reader.cancel().catch(() => undefined);
    }
  }

  async text(): Promise<string> {
    const parts: string[] = [];
    for await (const chunk of this.chunks()) parts.push(chunk);
    return parts.join('');
  }

  #decode(bytes: Uint8Array | undefined, stream: boolean): string {
    try {
      return this.#decoder.decode(bytes, { stream });
    } catch {
      throw new UsageError(`${this.#label}: sent an answer that is not valid UTF-8; MCP messages are UTF-8`);
    }
  }
}

/** The JSON-RPC response with `id` among the stream's events (others, such as progress notifications, are passed over). */
async function answerInEvents(reader: BodyReader, id: number, label: string): Promise<string> {
  const events = new Frames('\n\n', maxSourceBytes, () => new UsageError(`${label}: sent an event of more than ${maxSourceBytes} bytes`));
  // A CR at a chunk's end may be the first half of a CRLF: it is held back until the next chunk.
  let heldCr = '';
  for await (const chunk of reader.chunks()) {
    const text = heldCr + chunk;
    heldCr = text.endsWith('\r') ? '\r' : '';
    for (const event of events.push((heldCr === '' ? text : text.slice(0, -1)).replace(/\r\n?/g, '\n'))) {
      const data = event
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
        .join('\n');
      if (data !== '' && routeOf(data).id === id) return data;
    }
  }
  throw new UsageError(`${label}: the event stream ended without the answer`);
}
