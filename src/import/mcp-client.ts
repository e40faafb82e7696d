import { spawn } from 'node:child_process';
import { UsageError } from '../diagnostics/usage-error.js';
import { findMember, type JsonNode } from '../source/json-node.js';
import { version } from '../version.js';
import { maxSourceBytes, parseToolList } from './sources.js';

/**
 * A small, strict MCP client for the two requests `jtc import` needs: `initialize` (then
 * `notifications/initialized`) and `tools/list` with its pages, over stdio or Streamable HTTP.
 * Every wait has a timeout, every read a bound, and every failure becomes a UsageError that says
 * what the server did.
 */
export interface McpClientOptions {
  /** How long one request may take, in milliseconds. */
  readonly timeoutMs: number;
  /** Extra HTTP headers (`Authorization: …`), for --url. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The protocol version asked for; a server may answer with another it supports. */
const protocolVersion = '2025-11-25';
/** A server that pages further than this is not ending its list. */
const maxPages = 1000;

interface Transport {
  /** Sends a request and resolves with the text of its JSON-RPC response. */
  request(method: string, params: object): Promise<string>;
  notify(method: string): Promise<void>;
  close(): Promise<void>;
  /** Names the server in messages. */
  readonly label: string;
}

/** Every tool the server lists, each page's tools in order: the definitions as the server wrote them. */
async function listTools(transport: Transport): Promise<JsonNode[]> {
  try {
    const init = resultOf(await transport.request('initialize', { protocolVersion, capabilities: {}, clientInfo: { name: 'jtc', version } }), 'initialize', transport.label);
    if (findMember(init, 'protocolVersion')?.value.kind !== 'string') throw new UsageError(`${transport.label}: the answer to initialize names no protocolVersion`);
    await transport.notify('notifications/initialized');
    const tools: JsonNode[] = [];
    const cursors = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < maxPages; page++) {
      const result = resultOf(await transport.request('tools/list', cursor === undefined ? {} : { cursor }), 'tools/list', transport.label);
      const list = findMember(result, 'tools')?.value;
      if (list?.kind !== 'array') throw new UsageError(`${transport.label}: the answer to tools/list has no "tools" array`);
      tools.push(...list.items);
      const next = findMember(result, 'nextCursor')?.value;
      if (next === undefined || next.kind === 'null') return tools;
      if (next.kind !== 'string' || cursors.has(next.value)) throw new UsageError(`${transport.label}: tools/list gave ${next.kind === 'string' ? 'a cursor it gave before' : 'a cursor that is not a string'}; the list does not end`);
      cursors.add(next.value);
      cursor = next.value;
    }
    throw new UsageError(`${transport.label}: tools/list gave more than ${maxPages} pages`);
  } finally {
    await transport.close();
  }
}

/** The `result` of a JSON-RPC response, parsed exactly (numbers keep their digits); an error response is the server's message. */
function resultOf(text: string, method: string, label: string): JsonNode & { kind: 'object' } {
  const root = parseToolList(text, `${label}: the answer to ${method}`);
  const error = root.kind === 'object' ? findMember(root, 'error')?.value : undefined;
  if (error !== undefined) {
    const message = error.kind === 'object' ? findMember(error, 'message')?.value : undefined;
    throw new UsageError(`${label}: ${method} failed: ${message?.kind === 'string' ? message.value : 'the server answered with an error'}`);
  }
  const result = root.kind === 'object' ? findMember(root, 'result')?.value : undefined;
  if (result?.kind !== 'object') throw new UsageError(`${label}: the answer to ${method} has no "result" object`);
  return result;
}

const message = (id: number | undefined, method: string, params?: object): string => JSON.stringify({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method, ...(params === undefined ? {} : { params }) });

/** The id and method of a message, read loosely: only to route it (the answer itself is parsed strictly). */
function routeOf(text: string): { readonly id?: unknown; readonly method?: unknown } {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as { id?: unknown; method?: unknown }) : {};
  } catch {
    return {};
  }
}

/** Lists the tools of a server started with `command` (through the shell) that speaks MCP on its stdin and stdout; it is stopped afterwards. */
export function listToolsOverStdio(command: string, options: McpClientOptions): Promise<JsonNode[]> {
  return listTools(stdioTransport(command, options));
}

/** Lists the tools of a Streamable HTTP endpoint. */
export function listToolsOverHttp(url: string, options: McpClientOptions): Promise<JsonNode[]> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--url: not a URL: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`--url: takes an http or https URL, not ${parsed.protocol}`);
  return listTools(httpTransport(parsed, options));
}

/** What stderr said last, for a message about a server that failed. */
const stderrKept = 4096;

function stdioTransport(command: string, options: McpClientOptions): Transport {
  const label = `server "${command}"`;
  // Its own process group, so that closing it stops what the shell started too.
  const child = spawn(command, { shell: true, stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
  let stderr = '';
  let buffered = '';
  let exited: string | undefined;
  const waiting = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  const failAll = (error: Error): void => {
    for (const pending of waiting.values()) pending.reject(error);
    waiting.clear();
  };
  const said = (): string => (stderr.trim() === '' ? '' : `; it said: ${stderr.trim()}`);
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-stderrKept);
  });
  child.on('error', (error) => failAll(new UsageError(`${label}: could not be started: ${error.message}`)));
  // 'close' comes after the output is read to its end, so an answer written just before exiting still counts.
  child.on('close', (code, signal) => {
    exited = signal === null ? `exited with code ${code}` : `was stopped by ${signal}`;
    failAll(new UsageError(`${label} ${exited} before it answered${said()}`));
  });
  child.stdin.on('error', () => {
    // A server that exits closes its stdin; the exit is reported above.
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    if (buffered.length > maxSourceBytes) {
      failAll(new UsageError(`${label}: sent a message of more than ${maxSourceBytes} bytes`));
      stop();
      return;
    }
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end).replace(/\r$/, '');
      buffered = buffered.slice(end + 1);
      if (line.trim() !== '') receive(line);
    }
  });
  const receive = (line: string): void => {
    const { id, method } = routeOf(line);
    if (typeof method === 'string') {
      // A request from the server (ping, roots/list): this client offers nothing.
      if (id !== undefined) child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: `jtc import does not handle ${method}` } })}\n`);
      return;
    }
    const pending = typeof id === 'number' ? waiting.get(id) : undefined;
    if (pending === undefined) return;
    waiting.delete(id as number);
    pending.resolve(line);
  };
  const stop = (): void => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    try {
      process.kill(process.platform === 'win32' ? child.pid : -child.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  };
  let nextId = 1;
  return {
    label,
    request(method, params) {
      if (exited !== undefined) return Promise.reject(new UsageError(`${label} ${exited}${said()}`));
      const id = nextId++;
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new UsageError(`${label}: no answer to ${method} within ${options.timeoutMs / 1000} s${said()} (raise --timeout if it starts slowly)`));
        }, options.timeoutMs);
        waiting.set(id, {
          resolve: (text) => {
            clearTimeout(timer);
            resolve(text);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        });
        child.stdin.write(`${message(id, method, params)}\n`);
      });
    },
    async notify(method) {
      child.stdin.write(`${message(undefined, method)}\n`);
    },
    async close() {
      child.stdin.end();
      if (exited !== undefined) return;
      await new Promise<void>((resolve) => {
        // The spec's shutdown: close stdin, then SIGTERM if it does not exit, then SIGKILL.
        const term = setTimeout(stop, 2000);
        const kill = setTimeout(() => {
          if (child.pid !== undefined && child.exitCode === null) {
            try {
              process.kill(process.platform === 'win32' ? child.pid : -child.pid, 'SIGKILL');
            } catch {
              // Already gone.
            }
          }
        }, 5000);
        child.once('close', () => {
          clearTimeout(term);
          clearTimeout(kill);
          resolve();
        });
      });
    },
  };
}

function httpTransport(url: URL, options: McpClientOptions): Transport {
  const label = `server ${url.href}`;
  let session: string | undefined;
  let negotiated: string | undefined;
  let nextId = 1;
  const post = async (body: string, signal: AbortSignal): Promise<Response> => {
    const headers: Record<string, string> = { ...options.headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (session !== undefined) headers['mcp-session-id'] = session;
    if (negotiated !== undefined) headers['mcp-protocol-version'] = negotiated;
    let response: Response;
    try {
      response = await fetch(url, { method: 'POST', headers, body, signal, redirect: 'error' });
    } catch (error) {
      throw new UsageError(`${label}: ${signal.aborted ? `no answer within ${options.timeoutMs / 1000} s` : `could not be reached: ${causeOf(error)}`}`);
    }
    if (!response.ok) throw new UsageError(`${label}: HTTP ${response.status} ${response.statusText}${await excerpt(response)}`);
    return response;
  };
  return {
    label,
    async request(method, params) {
      const id = nextId++;
      const signal = AbortSignal.timeout(options.timeoutMs);
      const response = await post(message(id, method, params), signal);
      session ??= response.headers.get('mcp-session-id') ?? undefined;
      const type = response.headers.get('content-type') ?? '';
      const text = type.includes('text/event-stream') ? await answerInEvents(response, id, label, signal) : await boundedText(response, label, signal);
      if (method === 'initialize') {
        const result = routeOf(text) as { result?: { protocolVersion?: unknown } };
        if (typeof result.result?.protocolVersion === 'string') negotiated = result.result.protocolVersion;
      }
      return text;
    },
    async notify(method) {
      const response = await post(message(undefined, method), AbortSignal.timeout(options.timeoutMs));
      await response.body?.cancel();
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

const causeOf = (error: unknown): string => {
  const cause = (error as { cause?: { message?: string; code?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
};

async function excerpt(response: Response): Promise<string> {
  const text = (await response.text().catch(() => '')).trim().slice(0, 200);
  return text === '' ? '' : `: ${text}`;
}

/** Reads a body up to `maxSourceBytes`, failing past it instead of holding whatever the server sends. */
async function* chunksOf(response: Response, label: string, signal: AbortSignal): AsyncGenerator<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return;
  const decoder = new TextDecoder('utf-8');
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > maxSourceBytes) throw new UsageError(`${label}: sent more than ${maxSourceBytes} bytes in one answer`);
      yield decoder.decode(value, { stream: true });
    }
    yield decoder.decode();
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${label}: ${signal.aborted ? `no answer within the timeout` : `the answer broke off: ${causeOf(error)}`}`);
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

async function boundedText(response: Response, label: string, signal: AbortSignal): Promise<string> {
  let text = '';
  for await (const chunk of chunksOf(response, label, signal)) text += chunk;
  return text;
}

/** The JSON-RPC response with `id` among the stream's events (others, such as progress notifications, are passed over). */
async function answerInEvents(response: Response, id: number, label: string, signal: AbortSignal): Promise<string> {
  let buffered = '';
  for await (const chunk of chunksOf(response, label, signal)) {
    buffered += chunk.replace(/\r\n?/g, '\n');
    for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
      const event = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
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
