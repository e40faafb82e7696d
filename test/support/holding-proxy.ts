import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy on a free port of 127.0.0.1 in front of a server (a Redis), the slow or stalled
 * network a store meets: what the client sends reaches the server at once (so a command is
 * applied), while the server's replies can be held until `release()` (a command times out although
 * Redis did what it said) or each delayed by `delayMs` (a longer round trip). Order is kept.
 */
export interface HoldingProxy {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  /** Replies wait from now until `release()`; given `from`, from the first request whose bytes hold that text (the write a test means, not the read before it). */
  hold(from?: string): void;
  /** Passes the replies held, in order, and every later one. */
  release(): void;
  /** Delays each reply this much from now on (0: none). */
  delay(ms: number): void;
  close(): Promise<void>;
}

export async function startHoldingProxy(serverPort: number): Promise<HoldingProxy> {
  let held = false;
  let holdFrom: string | undefined;
  let delayMs = 0;
  const connections = new Set<{ readonly client: Socket; readonly upstream: Socket; flush(): void }>();
  const server = createServer((client) => {
    const upstream = connect(serverPort, '127.0.0.1');
    const waiting: Buffer[] = [];
    // When the latest delayed reply goes out: a later one never overtakes it.
    let lastDue = 0;
    const pass = (chunk: Buffer): void => {
      if (delayMs === 0 && lastDue <= Date.now()) {
        client.write(chunk);
        return;
      }
      lastDue = Math.max(lastDue, Date.now() + delayMs);
      setTimeout(() => client.writable && client.write(chunk), lastDue - Date.now());
    };
    const connection = {
      client,
      upstream,
      flush: () => {
        for (const chunk of waiting.splice(0)) pass(chunk);
      },
    };
    connections.add(connection);
    client.on('data', (chunk: Buffer) => {
      if (holdFrom !== undefined && chunk.includes(holdFrom)) {
        held = true;
        holdFrom = undefined;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => (held ? waiting.push(chunk) : pass(chunk)));
    const end = () => {
      connections.delete(connection);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    hold(from) {
      if (from === undefined) held = true;
      else holdFrom = from;
    },
    release() {
      held = false;
      holdFrom = undefined;
      for (const connection of connections) connection.flush();
    },
    delay: (ms) => void (delayMs = ms),
    async close() {
      for (const { client, upstream } of connections) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
