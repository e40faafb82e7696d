import { spawn, type ChildProcess } from 'node:child_process';
import type { Client, Transport } from '@modelcontextprotocol/client';
import { importOptionalPeer, UsageError } from '../diagnostics/usage-error.js';
import { Frames } from '../import/frames.js';
import { isWindows, stopGroup } from '../import/process-group.js';
import { version } from '../version.js';

/**
 * The gateway's upstream: an MCP SDK v2 Client (`@modelcontextprotocol/client`, an optional peer
 * of the CLI that `jtc proxy` alone loads), over a transport that a hostile server cannot use to
 * hang or exhaust the gateway: every message is bounded, a stdio server runs in a process group
 * of its own that is stopped whole, and HTTP bodies are read within a byte limit.
 */
export type UpstreamSource = { readonly kind: 'stdio'; readonly command: string } | { readonly kind: 'url'; readonly url: URL };

export interface UpstreamOptions {
  readonly headers: Readonly<Record<string, string>>;
  /** How long connecting, and each request, may take. */
  readonly timeoutMs: number;
  /** The longest message read (a stdio line, an HTTP body, one server-sent event), in bytes. */
  readonly maxMessageBytes: number;
  /** Called once when the upstream goes away (the process exited, the stream broke). */
  readonly onClose?: () => void;
}

export interface Upstream {
  readonly client: Client;
  readonly label: string;
  close(): Promise<void>;
}

type Sdk = typeof import('@modelcontextprotocol/client');

function loadSdk(): Promise<Sdk> {
  return importOptionalPeer(() => import('@modelcontextprotocol/client'), '@modelcontextprotocol/client', 'jtc proxy talks to the upstream with @modelcontextprotocol/client (MCP SDK v2)');
}

export async function connectUpstream(source: UpstreamSource, options: UpstreamOptions): Promise<Upstream> {
  const sdk = await loadSdk();
  const label = source.kind === 'stdio' ? `upstream "${source.command}"` : `upstream ${source.url.href}`;
  // Declared so that the upstream asks what it needs through the gateway: the call's own client answers.
  const client = new sdk.Client({ name: 'jtc-proxy', version }, { capabilities: { elicitation: { form: {}, url: {} }, sampling: {} }, versionNegotiation: { mode: 'auto' } });
  const transport = source.kind === 'stdio' ? new ProcessTransport(source.command, options.maxMessageBytes) : new sdk.StreamableHTTPClientTransport(source.url, { fetch: boundedFetch(options.maxMessageBytes), requestInit: { headers: { ...options.headers } } });
  let closed = false;
  client.onclose = () => {
    if (closed) return;
    closed = true;
    options.onClose?.();
  };
  try {
    await client.connect(transport, { timeout: options.timeoutMs });
  } catch (error) {
    await client.close().catch(() => undefined);
    const said = transport instanceof ProcessTransport ? transport.said() : [];
    throw new UsageError(`${label}: could not connect: ${(error as Error).message}${said.length === 0 ? '' : '; it said:'}`, said);
  }
  return {
    client,
    label,
    close: async () => {
      closed = true;
      await client.close().catch(() => undefined);
    },
  };
}

/** What stderr said last, for a message about a server that failed. */
const stderrKept = 4096;

/**
 * A server started with `command` through the shell, in a process group of its own, speaking
 * newline-delimited JSON-RPC on its stdin and stdout; a line longer than the bound ends it, and
 * closing stops the whole group without waiting for a helper that holds its output open.
 */
class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  #child: ChildProcess | undefined;
  #stderr = '';
  #ended = false;

  constructor(
    private readonly command: string,
    private readonly maxLineBytes: number,
  ) {}

  said(): string[] {
    return this.#stderr.trim() === '' ? [] : this.#stderr.trim().split(/\r?\n/);
  }

  async start(): Promise<void> {
    const child = spawn(this.command, { shell: true, stdio: ['pipe', 'pipe', 'pipe'], detached: !isWindows });
    this.#child = child;
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const lines = new Frames('\n', this.maxLineBytes, () => new Error(`the upstream sent a message of more than ${this.maxLineBytes} bytes`));
    child.stdout!.on('data', (chunk: Buffer) => {
      let parts: string[];
      try {
        parts = lines.push(decoder.decode(chunk, { stream: true }));
      } catch (error) {
        this.#fail(error instanceof TypeError ? new Error('the upstream sent a message that is not valid UTF-8') : (error as Error));
        return;
      }
      for (const line of parts) {
        if (line.trim() === '') continue;
        let message: unknown;
        try {
          message = JSON.parse(line);
        } catch {
          this.onerror?.(new Error(`the upstream sent a line that is not JSON: ${line.slice(0, 200)}`));
          continue;
        }
        this.onmessage?.(message as never);
      }
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.#stderr = (this.#stderr + chunk).slice(-stderrKept);
    });
    child.stdin!.on('error', () => {
      // A server that exits closes its stdin; the exit ends the transport.
    });
    child.on('error', (error) => this.#fail(new Error(`could not be started: ${error.message}`)));
    // The exit ends it, not the end of the output: a helper the server started may hold that open.
    child.on('exit', () => void this.close());
  }

  async send(message: Parameters<Transport['send']>[0]): Promise<void> {
    if (this.#ended || this.#child === undefined) throw new Error('the upstream is closed');
    this.#child.stdin!.write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    const child = this.#child;
    if (child !== undefined) {
      child.stdout!.removeAllListeners('data');
      child.stdout!.destroy();
    }
    this.onclose?.();
    if (child !== undefined) await stopGroup(child);
  }

  #fail(error: Error): void {
    this.onerror?.(error);
    void this.close();
  }
}

/**
 * `fetch` whose response bodies end in an error past `maxBytes` (an endless body), and whose
 * event streams end when an event runs past `maxBytes` without the blank line that ends it: the
 * stream then ends with an error answer to the request it carried, so the call fails at once
 * (an SDK reading an event stream that broke keeps the request open until its timeout).
 */
export function boundedFetch(maxBytes: number): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.body === null) return response;
    const events = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
    const id = requestId(init?.body);
    let total = 0;
    let sinceSeparator = 0;
    let last = 0;
    const bounded = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (!events) {
            total += chunk.byteLength;
            if (total > maxBytes) return controller.error(new Error(`the upstream sent a body of more than ${maxBytes} bytes`));
            return controller.enqueue(chunk);
          }
          for (const byte of chunk) {
            // A blank line (\n\n, or \r\n\r\n) ends an event.
            sinceSeparator = byte === 0x0a && last === 0x0a ? 0 : sinceSeparator + 1;
            if (byte !== 0x0d) last = byte;
          }
          if (sinceSeparator <= maxBytes) return controller.enqueue(chunk);
          const error = { jsonrpc: '2.0', id, error: { code: -32603, message: `the upstream sent an event of more than ${maxBytes} bytes` } };
          // The event that ran on ends here (unreadable, it is dropped); then the request's answer.
          controller.enqueue(new TextEncoder().encode(`\n\n${id === undefined ? '' : `event: message\ndata: ${JSON.stringify(error)}\n\n`}`));
          controller.terminate();
        },
      }),
    );
    return new Response(bounded, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** The id of the JSON-RPC request a POST carries, when it carries one. */
function requestId(body: unknown): string | number | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const id = (JSON.parse(body) as { id?: unknown }).id;
    return typeof id === 'string' || typeof id === 'number' ? id : undefined;
  } catch {
    return undefined;
  }
}
