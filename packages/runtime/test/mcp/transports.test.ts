import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The MCP call context over real transports: each SDK's client talks to a child process (built
 * dist, fixtures/mcp-wire-server.mjs) over stdio and over Streamable HTTP on 127.0.0.1.
 */
const script = fileURLToPath(new URL('./fixtures/mcp-wire-server.mjs', import.meta.url));
const token = 'wire-token-7';
const slow = 60_000;

type Sdk = 'v1' | 'v2';
type Wire = 'stdio' | 'http';

interface CallOptions {
  signal?: AbortSignal;
  onprogress?: (progress: Record<string, unknown>) => void;
}

interface Connected {
  call(name: string, options?: CallOptions): Promise<Record<string, unknown>>;
  setLevel(level: 'info'): Promise<void>;
  readonly log: unknown[];
  close(): Promise<void>;
}

/** Answers sampling with the prompt reversed and elicitation with a name and the question; records log messages. */
const reversed = (request: { params: { messages: { content: unknown }[] } }) => ({
  role: 'assistant' as const,
  model: 'echo',
  content: { type: 'text' as const, text: [...(request.params.messages[0]!.content as { text: string }).text].reverse().join('') },
});
const elicited = (request: { params: { message: string } }) => ({ action: 'accept' as const, content: { name: `Ada, asked "${request.params.message}"` } });
const capabilities = { capabilities: { sampling: {}, elicitation: { form: {} } } };

async function startHttpServer(sdk: Sdk): Promise<{ url: URL; child: ChildProcess }> {
  const child = spawn(process.execPath, [script, sdk, 'http'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const [line] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => [])])) as string[];
  if (line === undefined) throw new Error(`the ${sdk} HTTP server exited before listening`);
  return { url: new URL(`http://127.0.0.1:${/^listening (\d+)$/.exec(line)![1]}/mcp`), child };
}

function transport(sdk: Sdk, wire: Wire, url: URL | undefined) {
  const requestInit = { headers: { authorization: `Bearer ${token}` } };
  if (wire === 'http') return sdk === 'v1' ? new HttpV1(url!, { requestInit }) : new HttpV2(url!, { requestInit });
  const server = { command: process.execPath, args: [script, sdk, 'stdio'], stderr: 'inherit' as const };
  return sdk === 'v1' ? new StdioV1(server) : new StdioV2(server);
}

async function connect(sdk: Sdk, wire: Wire, url: URL | undefined): Promise<Connected> {
  const log: unknown[] = [];
  const args = (name: string) => ({ name, arguments: {} });
  if (sdk === 'v1') {
    const client = new ClientV1({ name: 'wire-test', version: '1.0.0' }, capabilities);
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void log.push(n.params.data));
    client.setRequestHandler(CreateMessageRequestSchema, reversed);
    client.setRequestHandler(ElicitRequestSchema, elicited);
    await client.connect(transport(sdk, wire, url) as StdioV1);
    return {
      log,
      call: (name, options = {}) => client.callTool(args(name), undefined, { ...options, timeout: slow }) as Promise<Record<string, unknown>>,
      setLevel: async (level) => void (await client.setLoggingLevel(level)),
      close: () => client.close(),
    };
  }
  const client = new ClientV2({ name: 'wire-test', version: '1.0.0' }, capabilities);
  client.setNotificationHandler('notifications/message', (n) => void log.push(n.params.data));
  client.setRequestHandler('sampling/createMessage', reversed);
  client.setRequestHandler('elicitation/create', elicited);
  await client.connect(transport(sdk, wire, url) as StdioV2);
  return {
    log,
    call: (name, options = {}) => client.callTool(args(name), { ...options, timeout: slow }) as Promise<Record<string, unknown>>,
    setLevel: async (level) => void (await client.setLoggingLevel(level)),
    close: () => client.close(),
  };
}

const reportOf = (result: Record<string, unknown>): unknown => JSON.parse((result['structuredContent'] as { report: string }).report);

describe.each([
  ['v1', 'stdio'],
  ['v2', 'stdio'],
  ['v1', 'http'],
  ['v2', 'http'],
] as const)('MCP SDK %s client and server over %s', (sdk, wire) => {
  let client: Connected;
  let httpServer: ChildProcess | undefined;

  beforeAll(async () => {
    const http = wire === 'http' ? await startHttpServer(sdk) : undefined;
    httpServer = http?.child;
    client = await connect(sdk, wire, http?.url);
  }, slow);

  afterAll(async () => {
    await client?.close();
    httpServer?.kill();
  });

  it(
    "the client's cancellation aborts the handler's signal and the call is recorded cancelled",
    async () => {
      const controller = new AbortController();
      let running!: () => void;
      const handlerRuns = new Promise<void>((resolve) => (running = resolve));
      const call = client.call('wire.wait', { signal: controller.signal, onprogress: () => running() });
      await handlerRuns;
      controller.abort('user pressed stop');
      await expect(call).rejects.toThrow();
      // The cancellation travels on its own (over HTTP, its own request): ask until it has arrived.
      let report: unknown;
      for (let attempt = 0; attempt < 200; attempt++) {
        report = reportOf(await client.call('wire.records'));
        if ((report as { abortReasons: unknown[] }).abortReasons.length > 0) break;
      }
      expect(report).toEqual({ outcomes: [['cancelled', 'cancelled']], abortReasons: ['cancelled'] });
    },
    slow,
  );

  it(
    'progress and log notifications arrive in order; the log honours the level the client set',
    async () => {
      await client.setLevel('info');
      const progress: unknown[] = [];
      let allSteps!: () => void;
      const stepsSeen = new Promise<void>((resolve) => (allSteps = resolve));
      const result = client.call('wire.steps', { onprogress: (p) => progress.push(p) === 3 && allSteps() });
      await stepsSeen;
      expect(reportOf(await client.call('wire.release'))).toBe(true);
      expect(reportOf(await result)).toBe('done');
      expect(progress).toEqual([1, 2, 3].map((step) => ({ progress: step, total: 3, message: `step ${step}` })));
      expect(client.log).toEqual(['step 1', 'step 3']);
    },
    slow,
  );

  it(
    'a sampling and an elicitation round trip reach the client and come back to the handler',
    async () => {
      expect(reportOf(await client.call('wire.ask'))).toEqual({ sampled: { type: 'text', text: 'cba' }, elicited: { action: 'accept', content: { name: 'Ada, asked "Your name?"' } } });
    },
    slow,
  );

  it(
    wire === 'http' ? "the HTTP server's authInfo reaches the handler" : 'stdio carries no authInfo',
    async () => {
      const expected = wire === 'http' ? { token, clientId: 'wire-client', scopes: ['notes:read'] } : null;
      expect(reportOf(await client.call('wire.whoami'))).toEqual(expected);
    },
    slow,
  );

  it(
    'an image arrives after the text copy, beside structuredContent',
    async () => {
      expect(await client.call('wire.picture')).toMatchObject({
        structuredContent: { report: '"a picture"' },
        content: [
          { type: 'text', text: '{"report":"\\"a picture\\""}' },
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        ],
      });
    },
    slow,
  );
});
