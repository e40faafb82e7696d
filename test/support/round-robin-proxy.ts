import { Agent, type IncomingHttpHeaders, type IncomingMessage, request as forward, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A load balancer for tests, on a free port of 127.0.0.1: each request goes to the next replica in
 * turn, as a plain round-robin balancer sends it, except a 2025-11-25 session's requests, which go
 * to the replica that began the session (its `Mcp-Session-Id`), as a balancer must route them: the
 * session lives in that replica. A replica that refuses the connection (it died) is skipped for
 * the next one, as a balancer's health check would; a request that reached a replica is never sent again.
 */
export interface RoundRobinProxy {
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** How many requests each replica answered, in the order of the ports given. */
  readonly answered: readonly number[];
  close(): Promise<void>;
}

/** Hop-by-hop headers (RFC 9110 §7.6.1): a proxy does not pass them on. */
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !hopByHop.has(name)));
}

export async function startRoundRobinProxy(replicaPorts: readonly number[]): Promise<RoundRobinProxy> {
  // A pool per replica, as a balancer keeps: a thousand requests at once queue for 64 connections each.
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const answered = replicaPorts.map(() => 0);
  const sessions = new Map<string, number>();
  let next = 0;

  /** Sends the request to a replica; resolves its response, or rejects with the connection's error. */
  const send = (replica: number, incoming: IncomingMessage, body: Buffer) =>
    new Promise<IncomingMessage>((resolve, reject) => {
      const port = replicaPorts[replica]!;
      // The Host a replica checks against DNS rebinding is its own, as nginx's proxy_pass sets it by default.
      const headers = { ...endToEnd(incoming.headers), host: `127.0.0.1:${port}`, 'content-length': String(body.length) };
      const outgoing = forward({ host: '127.0.0.1', port, method: incoming.method, path: incoming.url, headers, agent }, resolve);
      outgoing.on('error', reject);
      outgoing.end(body);
    });

  const server = createServer((incoming, reply) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        const session = incoming.headers['mcp-session-id'];
        const pinned = typeof session === 'string' ? sessions.get(session) : undefined;
        // A session's replica, or each replica once from the next in turn until one takes the connection.
        const order = pinned !== undefined ? [pinned] : replicaPorts.map((_, offset) => (next + offset) % replicaPorts.length);
        if (pinned === undefined) next = (next + 1) % replicaPorts.length;
        let lastError: unknown;
        for (const replica of order) {
          let response: IncomingMessage;
          try {
            response = await send(replica, incoming, body);
          } catch (error) {
            lastError = error;
            if ((error as NodeJS.ErrnoException).code === 'ECONNREFUSED') continue;
            break;
          }
          answered[replica]!++;
          const begun = response.headers['mcp-session-id'];
          if (typeof begun === 'string') sessions.set(begun, replica);
          reply.writeHead(response.statusCode ?? 502, endToEnd(response.headers));
          response.pipe(reply);
          response.on('error', () => reply.destroy());
          return;
        }
        reply.writeHead(502, { 'content-type': 'text/plain' }).end(`no replica answered: ${String(lastError)}`);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    answered,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    },
  };
}
