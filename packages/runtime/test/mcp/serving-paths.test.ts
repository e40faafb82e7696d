import { randomUUID } from 'node:crypto';
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, isLegacyRequest, Server as ServerV2, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server as ServerV1 } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport as WebHttpV1 } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { CapabilityRuntime, ToolPolicy, type CallRecord } from '@json-tool-contracts/runtime';
import { mcpLog, serveToolsOnMcpServer, type McpLoggingLevel } from '@json-tool-contracts/runtime/mcp';
import { mcpHttpHandler } from '@json-tool-contracts/runtime/mcp/http';
import { serveToolsOnMcpServerV1 } from '@json-tool-contracts/runtime/mcp/sdk-v1';
import { describe, expect, it } from 'vitest';
import { compileContract } from '../../../../test/support/load-module.js';

/**
 * What `logging/setLevel` and a client's cancellation do on each serving path docs/mcp-revisions.md
 * lists (its table "What a 2025-11-25 client gets on each SDK v2 path", and the methods row of the
 * revisions table for 2026-07-28), with SDK clients we did not write against servers wired as the
 * docs say. Every request goes through `fetch` with no socket.
 */
const tool = (name: string) =>
  compileContract(
    JSON.stringify({
      name,
      description: `The ${name} tool.`,
      input: { type: 'object', additionalProperties: false },
      output: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
    }),
  );

/** The handler's side of a call that waits: what its signal said, and the gate that lets it end on its own. */
interface Waiting {
  started: Promise<void>;
  signal: Promise<AbortSignal>;
  release(): void;
}

function toolRuntime() {
  const records: CallRecord[] = [];
  const unsent: unknown[] = [];
  const unsentLog = (_level: McpLoggingLevel, data: unknown) => void unsent.push(data);
  const runtime = new CapabilityRuntime({ onRecord: (record) => records.push(record) });
  runtime.registerTypedJsonTool(
    ToolPolicy.json('logs.every'),
    tool('logs.every') as never,
    (async (_input: unknown, request: never) => {
      for (const level of ['debug', 'info', 'error'] as const) await mcpLog(request, level, level);
      return { text: 'logged' };
    }) as never,
  );
  let startedNow: () => void = () => {};
  let signalSeen: (signal: AbortSignal) => void = () => {};
  let released: () => void = () => {};
  const waiting: Waiting = {
    started: new Promise((resolve) => void (startedNow = resolve)),
    signal: new Promise((resolve) => void (signalSeen = resolve)),
    release: () => released(),
  };
  const gate = new Promise<void>((resolve) => void (released = resolve));
  runtime.registerTypedJsonTool(
    ToolPolicy.json('work.wait'),
    tool('work.wait') as never,
    (async (_input: unknown, request: { signal: AbortSignal }) => {
      signalSeen(request.signal);
      startedNow();
      await Promise.race([gate, new Promise((resolve) => request.signal.addEventListener('abort', resolve, { once: true }))]);
      return { text: request.signal.aborted ? 'aborted' : 'ran to its end' };
    }) as never,
  );
  return { runtime, records, waiting, unsent, options: { unsentLog } };
}

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

interface Served {
  records: CallRecord[];
  /** The data of each mcpLog message no client was sent. */
  unsent: unknown[];
  waiting: Waiting;
  fetch: Fetch;
}

const serverInfo = { name: 'tools', version: '1.0.0' };

/** The serving paths, each wired as docs/mcp-revisions.md says. */
const paths = {
  mcpHttpHandler: (): Served => {
    const { runtime, records, waiting, unsent, options } = toolRuntime();
    const handler = mcpHttpHandler(runtime, { serverInfo, ...options });
    return { records, waiting, unsent, fetch: (url, init) => handler.fetch(new Request(url, init)) };
  },
  "SDK v2 createMcpHandler's default (stateless)": (): Served => {
    const { runtime, records, waiting, unsent, options } = toolRuntime();
    const handler = createMcpHandler(() => {
      const server = new ServerV2(serverInfo, { capabilities: { logging: {} } });
      serveToolsOnMcpServer(server, runtime, options);
      return server;
    });
    return { records, waiting, unsent, fetch: (url, init) => handler.fetch(new Request(url, init)) };
  },
  'SDK v2 sessions (isLegacyRequest to a transport with sessionIdGenerator)': (): Served => {
    const { runtime, records, waiting, unsent, options } = toolRuntime();
    const server = () => {
      const made = new ServerV2(serverInfo, { capabilities: { logging: {} } });
      serveToolsOnMcpServer(made, runtime, options);
      return made;
    };
    const modern = createMcpHandler(server, { legacy: 'reject' });
    const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
    const legacy = async (request: Request) => {
      const known = sessions.get(request.headers.get('mcp-session-id') ?? '');
      if (known !== undefined) return known.handleRequest(request);
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (id) => void sessions.set(id, transport) });
      await server().connect(transport);
      return transport.handleRequest(request);
    };
    return { records, waiting, unsent, fetch: async (url, init) => (async (request) => ((await isLegacyRequest(request)) ? legacy(request) : modern.fetch(request)))(new Request(url, init)) };
  },
  'SDK v1 sessions (sessionIdGenerator)': (): Served => {
    const { runtime, records, waiting, unsent, options } = toolRuntime();
    const sessions = new Map<string, WebHttpV1>();
    const fetch: Fetch = async (url, init) => {
      const request = new Request(url, init);
      const known = sessions.get(request.headers.get('mcp-session-id') ?? '');
      if (known !== undefined) return known.handleRequest(request);
      const server = new ServerV1(serverInfo, { capabilities: { logging: {} } });
      serveToolsOnMcpServerV1(server, runtime, options);
      const transport = new WebHttpV1({ sessionIdGenerator: randomUUID, onsessioninitialized: (id) => void sessions.set(id, transport) });
      await server.connect(transport);
      return transport.handleRequest(request);
    };
    return { records, waiting, unsent, fetch };
  },
  'SDK v1 stateless (a server and transport per POST)': (): Served => {
    const { runtime, records, waiting, unsent, options } = toolRuntime();
    const fetch: Fetch = async (url, init) => {
      const server = new ServerV1(serverInfo, { capabilities: { logging: {} } });
      serveToolsOnMcpServerV1(server, runtime, options);
      const transport = new WebHttpV1({});
      await server.connect(transport);
      return transport.handleRequest(new Request(url, init));
    };
    return { records, waiting, unsent, fetch };
  },
};
type Path = keyof typeof paths;

/** A connected client: the log messages it received, and the POSTs it made (each settled once its response came). */
interface Connected {
  version: string | undefined;
  logged: unknown[];
  posted: { method: unknown; answered: Promise<unknown> }[];
  setLevel(level: McpLoggingLevel): Promise<unknown>;
  call(name: string, signal?: AbortSignal): Promise<unknown>;
}

function watching(fetch: Fetch, posted: Connected['posted']): Fetch {
  return (url, init) => {
    const response = fetch(url, init);
    if (init?.method === 'POST' && typeof init.body === 'string') posted.push({ method: (JSON.parse(init.body) as { method?: unknown }).method, answered: response.catch(() => undefined) });
    return response;
  };
}

/** The signal of a call nobody cancels. */
const neverAborted = new AbortController().signal;

const clients = {
  'SDK 2.4 at 2025-11-25': async (served: Served): Promise<Connected> => {
    const logged: unknown[] = [];
    const posted: Connected['posted'] = [];
    const client = new ClientV2({ name: 'v2', version: '1.0.0' }, { capabilities: {} });
    client.setNotificationHandler('notifications/message', (notification) => void logged.push(notification.params.data));
    await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:9/mcp'), { fetch: watching(served.fetch, posted) }));
    return { version: client.getNegotiatedProtocolVersion(), logged, posted, setLevel: (level) => client.setLoggingLevel(level), call: (name, signal = neverAborted) => client.callTool({ name, arguments: {} }, { signal, timeout: 30_000 }) };
  },
  'SDK 2.4 pinned to 2026-07-28': async (served: Served): Promise<Connected> => {
    const logged: unknown[] = [];
    const posted: Connected['posted'] = [];
    const client = new ClientV2({ name: 'v2', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    client.setNotificationHandler('notifications/message', (notification) => void logged.push(notification.params.data));
    await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:9/mcp'), { fetch: watching(served.fetch, posted) }));
    return { version: client.getNegotiatedProtocolVersion(), logged, posted, setLevel: (level) => client.setLoggingLevel(level), call: (name, signal = neverAborted) => client.callTool({ name, arguments: {} }, { signal, timeout: 30_000 }) };
  },
  'SDK 1.32': async (served: Served): Promise<Connected> => {
    const logged: unknown[] = [];
    const posted: Connected['posted'] = [];
    const client = new ClientV1({ name: 'v1', version: '1.0.0' }, { capabilities: {} });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logged.push(notification.params.data));
    const transport = new HttpV1(new URL('http://127.0.0.1:9/mcp'), { fetch: watching(served.fetch, posted) });
    await client.connect(transport);
    return { version: transport.protocolVersion, logged, posted, setLevel: (level) => client.setLoggingLevel(level), call: (name, signal = neverAborted) => client.callTool({ name, arguments: {} }, undefined, { signal, timeout: 30_000 }) };
  },
};
type ClientKind = keyof typeof clients;

/** Every wait below is bounded by this, a safety net only: a call that never starts fails the test instead of hanging it. */
const safetyNet = 30_000;

/** Each 2025-11-25 row of the docs' table, and the path and client that hold it. */
const legacyRows: [Path, ClientKind][] = [
  ['mcpHttpHandler', 'SDK 2.4 at 2025-11-25'],
  ['mcpHttpHandler', 'SDK 1.32'],
  ["SDK v2 createMcpHandler's default (stateless)", 'SDK 2.4 at 2025-11-25'],
  ["SDK v2 createMcpHandler's default (stateless)", 'SDK 1.32'],
  ['SDK v2 sessions (isLegacyRequest to a transport with sessionIdGenerator)', 'SDK 2.4 at 2025-11-25'],
  ['SDK v2 sessions (isLegacyRequest to a transport with sessionIdGenerator)', 'SDK 1.32'],
  ['SDK v1 sessions (sessionIdGenerator)', 'SDK 1.32'],
  ['SDK v1 stateless (a server and transport per POST)', 'SDK 1.32'],
];
const stateless = new Set<Path>(["SDK v2 createMcpHandler's default (stateless)", 'SDK v1 stateless (a server and transport per POST)']);

describe('logging/setLevel from a 2025-11-25 client', () => {
  it.each(legacyRows)(
    '%s, %s client: the level holds in sessions; a stateless server forgets it',
    async (path, kind) => {
      const served = paths[path]();
      const client = await clients[kind](served);
      expect(client.version).toBe('2025-11-25');
      await client.setLevel('info');
      expect(await client.call('logs.every')).toMatchObject({ structuredContent: { text: 'logged' } });
      expect(client.logged).toEqual(stateless.has(path) ? ['debug', 'info', 'error'] : ['info', 'error']);
    },
    safetyNet,
  );
});

describe('a 2025-11-25 client that cancels a call (its AbortSignal on callTool: notifications/cancelled)', () => {
  it.each(legacyRows)(
    '%s, %s client: in sessions the handler is aborted and the call recorded cancelled; stateless, it runs to its end',
    async (path, kind) => {
      const served = paths[path]();
      const client = await clients[kind](served);
      const abort = new AbortController();
      const call = client.call('work.wait', abort.signal);
      await served.waiting.started;
      abort.abort(new Error('the user stopped it'));
      await expect(call).rejects.toThrow('the user stopped it');
      const cancelled = client.posted.find((post) => post.method === 'notifications/cancelled');
      expect(cancelled).toBeDefined();
      await cancelled!.answered;
      const signal = await served.waiting.signal;
      if (stateless.has(path)) {
        // The notification was answered by a server of its own: the call's handler never heard it.
        expect(signal.aborted).toBe(false);
        expect(served.records).toEqual([]);
        served.waiting.release();
        await expect.poll(() => served.records.map((record) => record.outcome), { timeout: 10_000 }).toEqual(['completed']);
      } else {
        await expect.poll(() => served.records.map((record) => record.outcome), { timeout: 10_000 }).toEqual(['cancelled']);
        expect(signal.aborted).toBe(true);
      }
    },
    safetyNet,
  );
});

const modernPaths: Path[] = ['mcpHttpHandler', "SDK v2 createMcpHandler's default (stateless)"];

describe('at 2026-07-28 (SDK 2.4 client pinned to it)', () => {
  it.each(modernPaths)(
    '%s: logging/setLevel is a method the revision removed: the SDK client refuses to send it, and a call that names no logLevel is sent none (they go to unsentLog)',
    async (path) => {
      const served = paths[path]();
      const client = await clients['SDK 2.4 pinned to 2026-07-28'](served);
      expect(client.version).toBe('2026-07-28');
      // Sent by hand it is HTTP 404 with -32601 (mcp-http.test.ts); SDK 2.4 stops it before the wire.
      await expect(client.setLevel('info')).rejects.toMatchObject({ code: 'METHOD_NOT_SUPPORTED_BY_PROTOCOL_VERSION' });
      expect(client.posted.map((post) => post.method)).not.toContain('logging/setLevel');
      expect(await client.call('logs.every')).toMatchObject({ structuredContent: { text: 'logged' } });
      expect(client.logged).toEqual([]);
      expect(served.unsent).toEqual(['debug', 'info', 'error']);
    },
    safetyNet,
  );

  it.each(modernPaths)(
    "%s: the client's AbortSignal leaves the call's stream (no notifications/cancelled): the handler is aborted and the call recorded cancelled",
    async (path) => {
      const served = paths[path]();
      const client = await clients['SDK 2.4 pinned to 2026-07-28'](served);
      const abort = new AbortController();
      const call = client.call('work.wait', abort.signal);
      await served.waiting.started;
      abort.abort(new Error('the user stopped it'));
      await expect(call).rejects.toThrow('the user stopped it');
      await expect.poll(() => served.records.map((record) => record.outcome), { timeout: 10_000 }).toEqual(['cancelled']);
      expect((await served.waiting.signal).aborted).toBe(true);
      expect(client.posted.map((post) => post.method)).not.toContain('notifications/cancelled');
    },
    safetyNet,
  );
});
