import { UsageError } from '../diagnostics/usage-error.js';

/** What `jtc import`'s MCP client needs of a transport: one request at a time, each answered or failed. */
export interface Transport {
  /**
   * Sends a request and resolves with the text of its JSON-RPC response. `revision`: the request
   * is one of that stateless revision (over HTTP it names it, and its method, in headers, and
   * carries no session).
   */
  request(method: string, params: object, revision?: string): Promise<string>;
  notify(method: string): Promise<void>;
  /** Ends the conversation within a bounded time, whatever the server does. */
  close(): Promise<void>;
  /** Names the server in messages. */
  readonly label: string;
}

export interface TransportOptions {
  /** How long one request may take, in milliseconds. */
  readonly timeoutMs: number;
  /** Extra HTTP headers (`Authorization: …`), for --url. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A JSON-RPC request (with an id) or notification, as one line of JSON. */
export const rpcMessage = (id: number | undefined, method: string, params?: object): string => JSON.stringify({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method, ...(params === undefined ? {} : { params }) });

/** The id and method of a message, read loosely: only to route it (the answer itself is parsed strictly). */
export function routeOf(text: string): { readonly id?: unknown; readonly method?: unknown } {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as { id?: unknown; method?: unknown }) : {};
  } catch {
    return {};
  }
}

/** Seconds as a person reads them in a message (`0.5 s`, `60 s`). */
export const seconds = (ms: number): string => `${ms / 1000} s`;

/** The server answered, and refused the request: a JSON-RPC error, or HTTP 400, 404 or 405. */
export class RefusedRequest extends UsageError {}
