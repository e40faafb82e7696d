import { metaKeys } from '../revision-2026.js';

/**
 * MCP over stdio for a local agent: newline-delimited JSON-RPC on the process's stdin and stdout,
 * served by an `mcpHttpHandler` (both revisions, as over HTTP). Each message becomes the POST its
 * Streamable HTTP twin would be, its headers taken from the message itself (the 2026-07-28
 * revision, method and name; the 2025-11-25 session of this stdio connection), and every message
 * of the answer (a JSON body, or each event of a stream: progress, the server's requests, the
 * result) is written as one line. Messages are served as they come, not one after another: the
 * answer to a server's request arrives while the call that asked waits.
 */

/** What the server reads: a stream of text chunks (`process.stdin`). */
export interface StdioInput {
  on(event: 'data', listener: (chunk: string | Uint8Array) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
}

/** Where the server writes (`process.stdout`). */
export interface StdioOutput {
  write(line: string): unknown;
}

export interface McpStdioServer {
  /** Resolves once the input has ended and every message read has been answered. */
  readonly closed: Promise<void>;
}

export interface McpStdioServerOptions {
  /** The longest line read, in bytes (default 4 MiB, the HTTP handler's body limit); a longer one is answered with a parse error and skipped. */
  readonly maxLineBytes?: number;
}

const defaultMaxLineBytes = 4 * 1024 * 1024;
const endpoint = 'http://stdio/mcp';

export function mcpStdioServer(handler: { fetch(request: Request): Promise<Response> }, input: StdioInput, output: StdioOutput, options: McpStdioServerOptions = {}): McpStdioServer {
  const maxLineBytes = options.maxLineBytes ?? defaultMaxLineBytes;
  const decoder = new TextDecoder();
  let buffered = '';
  let skipping = false;
  /** The 2025-11-25 session this connection began with `initialize`; later messages wait for it. */
  let session: Promise<string | undefined> = Promise.resolve(undefined);
  const open = new Set<Promise<void>>();
  let ended!: () => void;
  const inputEnded = new Promise<void>((resolve) => {
    ended = resolve;
  });
  const write = (message: unknown): void => void output.write(`${JSON.stringify(message)}\n`);

  const serveLine = (line: string): void => {
    if (line.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      write({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: a line is not JSON' } });
      return;
    }
    const method = typeof message === 'object' && message !== null ? (message as { method?: unknown }).method : undefined;
    const before = session;
    const served = (async () => {
      const sessionId = await before;
      const response = await handler.fetch(new Request(endpoint, { method: 'POST', headers: headersOf(message, sessionId), body: line }));
      await writeAnswer(response, write);
      return method === 'initialize' ? (response.headers.get('mcp-session-id') ?? sessionId) : sessionId;
    })();
    // The messages after `initialize` wait for its session (and its answer, written first).
    if (method === 'initialize') session = served.catch(() => undefined);
    const task: Promise<void> = served.then(
      () => undefined,
      () => undefined,
    );
    open.add(task);
    void task.finally(() => open.delete(task));
  };

  input.on('data', (chunk) => {
    buffered += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (skipping) skipping = false;
      else serveLine(line);
    }
    if (buffered.length > maxLineBytes) {
      buffered = '';
      if (!skipping) write({ jsonrpc: '2.0', id: null, error: { code: -32700, message: `Parse error: a line longer than ${maxLineBytes} bytes` } });
      skipping = true;
    }
  });
  input.on('end', () => {
    if (!skipping) serveLine(buffered);
    buffered = '';
    ended();
  });
  const closed = (async () => {
    await inputEnded;
    while (open.size > 0) await Promise.all(open);
  })();
  return { closed };
}

function headersOf(message: unknown, sessionId: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const { method, params } = (typeof message === 'object' && message !== null ? message : {}) as { method?: unknown; params?: { _meta?: Record<string, unknown>; name?: unknown; taskId?: unknown } };
  const revision = params?._meta?.[metaKeys.protocolVersion];
  if (typeof revision === 'string') {
    headers['mcp-protocol-version'] = revision;
    if (typeof method === 'string') headers['mcp-method'] = method;
    const name = method === 'tools/call' ? params?.name : params?.taskId;
    if (typeof name === 'string') headers['mcp-name'] = `=?base64?${base64(name)}?=`;
  } else if (sessionId !== undefined) {
    headers['mcp-session-id'] = sessionId;
  }
  return headers;
}

/** Each message of an answer as a line: a JSON body, or the `data` of every event of a stream. */
async function writeAnswer(response: Response, write: (message: unknown) => void): Promise<void> {
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('text/event-stream') && response.body !== null) {
    const decoder = new TextDecoder();
    let pending = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      pending += decoder.decode(chunk, { stream: true });
      for (let end = pending.indexOf('\n\n'); end >= 0; end = pending.indexOf('\n\n')) {
        const data = pending
          .slice(0, end)
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
          .join('\n');
        pending = pending.slice(end + 2);
        if (data !== '') write(JSON.parse(data));
      }
    }
    return;
  }
  const text = await response.text();
  if (text.trim() !== '') write(JSON.parse(text));
}

function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
