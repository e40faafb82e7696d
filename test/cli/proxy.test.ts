import { mkdtempSync, rmSync } from 'node:fs';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { otlpReceiver } from '../support/otlp-receiver.js';
import { bin, jtc } from './jtc-process.js';
import { startGateway, type GatewayProcess } from './proxy-process.js';

/**
 * `jtc proxy` as a user runs it: contracts written by `jtc import` from the upstream, the gateway
 * started on them in front of that upstream, and SDK v1 (2025-11-25) and SDK v2 (2026-07-28)
 * clients calling through it over HTTP and over stdio.
 * The upstream is fixtures/proxy/shifting-server.mjs: a tool that changes its schema, a planted
 * bug, and tools that misbehave.
 */
const shifting = (version: 'before' | 'after' = 'before'): string => `"${process.execPath}" fixtures/proxy/shifting-server.mjs ${version}`;
const folders: string[] = [];
const slow = 120_000;

/** A contracts folder as `jtc import` writes it from the upstream. */
function imported(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'jtc-proxy-')), 'contracts');
  folders.push(join(dir, '..'));
  const run = jtc(['import', '--stdio', shifting('before'), '-o', dir]);
  expect(run.code).toBe(0);
  return dir;
}

afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

type Call = (name: string, args?: Record<string, unknown>, options?: Record<string, unknown>) => Promise<Record<string, unknown>>;

async function connect(sdk: 'v1' | 'v2', url: URL): Promise<{ call: Call; list: () => Promise<string[]>; close: () => Promise<void> }> {
  if (sdk === 'v1') {
    const client = new ClientV1({ name: 'agent', version: '1.0.0' });
    await client.connect(new HttpV1(url));
    return { call: (name, args = {}, options = {}) => client.callTool({ name, arguments: args }, undefined, options) as never, list: async () => (await client.listTools()).tools.map((tool) => tool.name), close: () => client.close() };
  }
  const client = new ClientV2({ name: 'agent', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new HttpV2(url));
  expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  return { call: (name, args = {}, options = {}) => client.callTool({ name, arguments: args }, options) as never, list: async () => (await client.listTools()).tools.map((tool) => tool.name), close: () => client.close() };
}

const textOf = (result: Record<string, unknown>): string => (result['content'] as { text?: string }[]).map((block) => block.text ?? '').join('\n');

describe('jtc proxy in front of a server, from jtc import', () => {
  let dir: string;
  let gateway: GatewayProcess;
  beforeAll(async () => {
    dir = imported();
    gateway = await startGateway([dir, '--stdio', shifting('before'), '--timeout', '5']);
  }, slow);
  afterAll(async () => {
    await gateway.stop();
  });

  it('reports the listing at start: every contract served', () => {
    expect(gateway.stderr()).toContain('jtc proxy: 7 tools: 7 served, 0 drifted (served with a warning), 0 refused, 0 missing upstream, 0 unchecked, 0 without a contract (not served)\n');
  });

  for (const sdk of ['v1', 'v2'] as const) {
    describe(`to SDK ${sdk} over HTTP`, () => {
      let client: Awaited<ReturnType<typeof connect>>;
      beforeAll(async () => {
        client = await connect(sdk, gateway.url);
      });
      afterAll(async () => {
        await client.close();
      });

      it('forwards a call that holds to its contract', async () => {
        const result = await client.call('echo', { text: 'hi' });
        expect(result['structuredContent']).toEqual({ said: 'echo: hi' });
      });

      it('refuses an input that breaks its contract', async () => {
        const result = await client.call('echo', { text: 'x'.repeat(101) });
        expect(result['isError']).toBe(true);
        expect(textOf(result)).toMatch(/^invalid_input: input for "echo" does not match its contract: \/text/);
      });

      it("refuses the upstream's output that breaks its contract (the planted bug) with invalid_output", async () => {
        const result = await client.call('buggy');
        expect(result['isError']).toBe(true);
        expect(textOf(result)).toMatch(/^invalid_output: output of "buggy" does not match its contract: \/said/);
        expect(result['structuredContent']).toBeUndefined();
      });

      it('passes progress on', async () => {
        const seen: number[] = [];
        const result = await client.call('progress', {}, { onprogress: (progress: { progress: number }) => seen.push(progress.progress) });
        expect(result['structuredContent']).toEqual({ said: 'done' });
        expect(seen[0]).toBe(1);
      });
    });
  }
});

describe('jtc proxy --otel', () => {
  it(
    "makes each call a span in the process's OpenTelemetry SDK, with the contract's outcome on it",
    async () => {
      const receiver = await otlpReceiver();
      const setup = join(process.cwd(), 'fixtures/proxy/otel-setup.mjs');
      const env = { ...process.env, NODE_OPTIONS: `--import ${setup}`, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url };
      const gateway = await startGateway([imported(), '--stdio', shifting('before'), '--otel', '--timeout', '5'], env);
      const client = await connect('v2', gateway.url);
      try {
        await client.call('echo', { text: 'hi' });
        await client.call('buggy');
        const spans = (): { name: string; attributes: { key: string; value: { stringValue?: string } }[] }[] =>
          receiver.received
            .filter((sent) => sent.path === '/v1/traces')
            .flatMap((sent) => (JSON.parse(sent.body.toString('utf8')) as { resourceSpans: { scopeSpans: { spans: never[] }[] }[] }).resourceSpans)
            .flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans));
        const outcomeOf = (tool: string): string | undefined =>
          spans()
            .find((span) => span.name.endsWith(` ${tool}`) && span.attributes.some((attribute) => attribute.key === 'jtc.contract.outcome'))
            ?.attributes.find((attribute) => attribute.key === 'jtc.contract.outcome')?.value.stringValue;
        await vi.waitFor(() => {
          expect(outcomeOf('echo')).toBe('completed');
          expect(outcomeOf('buggy')).toBe('invalid_output');
        }, 30_000);
      } finally {
        await client.close();
        await gateway.stop();
        receiver.server.close();
      }
    },
    slow,
  );
});

describe('jtc proxy: drift at the door', () => {
  it(
    'refuses a tool whose upstream schema broke its contract at start, naming it; serves it with a warning under --on-drift warn',
    async () => {
      const dir = imported();
      const refusing = await startGateway([dir, '--stdio', shifting('after')]);
      try {
        expect(refusing.stderr()).toMatch(/jtc proxy: "echo": refused \(drifted: .*echo\.contract\.json:\d+:\d+ - error JTC401: /);
        expect(refusing.stderr()).toContain('1 refused');
        const client = await connect('v1', refusing.url);
        const result = await client.call('echo', { text: 'hi' });
        expect(textOf(result)).toMatch(/^denied: the upstream's "echo" no longer holds to its contract, and the gateway refuses it: drifted: /);
        expect((await client.call('buggy'))['isError']).toBe(true);
        await client.close();
      } finally {
        await refusing.stop();
      }
      const warning = await startGateway([dir, '--stdio', shifting('after'), '--on-drift', 'warn']);
      try {
        expect(warning.stderr()).toMatch(/jtc proxy: "echo": drifted \(drifted: .* JTC401: /);
        const client = await connect('v2', warning.url);
        expect((await client.call('echo', { text: 'hi' }))['structuredContent']).toEqual({ said: 'echo: hi' });
        await client.close();
      } finally {
        await warning.stop();
      }
    },
    slow,
  );

  it(
    'compares again on tools/list_changed and refuses the tool from then on',
    async () => {
      const gateway = await startGateway([imported(), '--stdio', shifting('before')]);
      try {
        const client = await connect('v1', gateway.url);
        expect((await client.call('echo', { text: 'hi' }))['structuredContent']).toEqual({ said: 'echo: hi' });
        await client.call('shift');
        await gateway.said('"echo": refused');
        expect(textOf(await client.call('echo', { text: 'hi' }))).toMatch(/^denied: the upstream's "echo" no longer holds to its contract/);
        await client.close();
      } finally {
        await gateway.stop();
      }
    },
    slow,
  );

  it(
    'says so when the listing after tools/list_changed fails, and keeps the last listing',
    async () => {
      const gateway = await startGateway([imported(), '--stdio', shifting('before')]);
      try {
        const client = await connect('v2', gateway.url);
        await client.call('unlist');
        await gateway.said(/jtc proxy: listing upstream .* again after tools\/list_changed failed \(the last listing's policies stay\): .*the listing is down/);
        expect((await client.call('echo', { text: 'hi' }))['structuredContent']).toEqual({ said: 'echo: hi' });
        await client.close();
      } finally {
        await gateway.stop();
      }
    },
    slow,
  );

  it(
    'refuses a tool listed without a contract unless --uncontracted pass',
    async () => {
      const dir = imported();
      rmSync(join(dir, 'shift.contract.json'));
      const refusing = await startGateway([dir, '--stdio', shifting('before')]);
      try {
        expect(refusing.stderr()).toContain('jtc proxy: "shift": uncontracted (the upstream lists "shift", which has no contract: not served)\n');
        const client = await connect('v1', refusing.url);
        expect(await client.list()).not.toContain('shift');
        await client.close();
      } finally {
        await refusing.stop();
      }
      const passing = await startGateway([dir, '--stdio', shifting('before'), '--uncontracted', 'pass']);
      try {
        expect(passing.stderr()).toContain('jtc proxy: "shift": unchecked (the upstream lists "shift", which has no contract: served unchecked)\n');
        const client = await connect('v1', passing.url);
        expect(textOf(await client.call('shift'))).toContain('shifted');
        await client.close();
      } finally {
        await passing.stop();
      }
    },
    slow,
  );
});

describe('jtc proxy among hostile upstreams', () => {
  it(
    'answers a call the upstream never answers (its helper holding stdout) within --timeout, and stops on SIGTERM all the same',
    async () => {
      const gateway = await startGateway([imported(), '--stdio', shifting('before'), '--timeout', '2']);
      const client = await connect('v1', gateway.url);
      const result = await client.call('hold');
      expect(textOf(result)).toMatch(/^handler_failed: the upstream's "hold" failed: .*timed out/i);
      // Still serving.
      expect((await client.call('echo', { text: 'hi' }))['structuredContent']).toEqual({ said: 'echo: hi' });
      await client.close();
      expect(await gateway.stop()).toBe(0);
    },
    slow,
  );

  it(
    'ends a call whose upstream writes one endless line, and keeps serving',
    async () => {
      const gateway = await startGateway([imported(), '--stdio', shifting('before')]);
      const client = await connect('v2', gateway.url);
      const result = await client.call('flood');
      expect(result['isError']).toBe(true);
      expect(textOf(result)).toMatch(/^handler_failed: the upstream's "flood" failed: /);
      await gateway.said("closed: its tools' calls fail until the gateway is started again");
      expect(await client.list()).toContain('echo');
      await client.close();
      expect(await gateway.stop()).toBe(0);
    },
    slow,
  );

  describe('an HTTP upstream whose answers never end', () => {
    // Its own process: the test's synchronous `jtc import` would otherwise block the server it asks.
    let server: ChildProcess;
    let url: string;
    beforeAll(async () => {
      server = spawn(process.execPath, ['fixtures/proxy/endless-http-server.mjs'], { stdio: ['ignore', 'pipe', 'inherit'] });
      const [line] = (await once(createInterface({ input: server.stdout! }), 'line')) as [string];
      url = line;
    });
    afterAll(async () => {
      server.kill();
      if (server.exitCode === null) await once(server, 'exit');
    });

    it(
      'ends each such call with handler_failed, and keeps serving',
      async () => {
        const dir = join(mkdtempSync(join(tmpdir(), 'jtc-proxy-')), 'contracts');
        folders.push(join(dir, '..'));
        expect(jtc(['import', '--url', url, '-o', dir]).code).toBe(0);
        const gateway = await startGateway([dir, '--url', url]);
        try {
          const client = await connect('v1', gateway.url);
          expect(textOf(await client.call('endless-events'))).toMatch(/^handler_failed: the upstream's "endless-events" failed: .*an event of more than 16777216 bytes/);
          expect(textOf(await client.call('endless-body'))).toMatch(/^handler_failed: the upstream's "endless-body" failed: .*a body of more than 16777216 bytes/);
          expect(await client.list()).toEqual(['endless-body', 'endless-events']);
          await client.close();
        } finally {
          expect(await gateway.stop()).toBe(0);
        }
      },
      slow,
    );
  });
});

describe('jtc proxy over stdio, for a local agent', () => {
  for (const sdk of ['v1', 'v2'] as const) {
    it(
      `serves SDK ${sdk} (${sdk === 'v1' ? '2025-11-25' : '2026-07-28'}) on its stdin and stdout`,
      async () => {
        const dir = imported();
        const args = [bin, 'proxy', dir, '--stdio', shifting('before')];
        if (sdk === 'v1') {
          const client = new ClientV1({ name: 'agent', version: '1.0.0' });
          await client.connect(new StdioV1({ command: process.execPath, args, stderr: 'ignore' }));
          expect((await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).structuredContent).toEqual({ said: 'echo: hi' });
          expect(textOf((await client.callTool({ name: 'buggy', arguments: {} })) as never)).toMatch(/^invalid_output: /);
          await client.close();
        } else {
          const client = new ClientV2({ name: 'agent', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
          await client.connect(new StdioV2({ command: process.execPath, args, stderr: 'ignore' }));
          expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
          expect((await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).structuredContent).toEqual({ said: 'echo: hi' });
          expect(textOf((await client.callTool({ name: 'echo', arguments: { text: 'x'.repeat(101) } })) as never)).toMatch(/^invalid_input: /);
          await client.close();
        }
      },
      slow,
    );
  }
});

describe('jtc proxy: usage', () => {
  it(
    'says what is missing, with exit 2',
    () => {
      const dir = imported();
      expect(jtc(['proxy', dir])).toMatchObject({ code: 2, stderr: 'jtc: proxy: name the upstream: --stdio "<command>" or --url <endpoint> (jtc proxy --help)\n' });
      expect(jtc(['proxy', 'fixtures/import/sources', '--stdio', 'true'])).toMatchObject({ code: 2, stderr: 'jtc: proxy: no *.contract.json in fixtures/import/sources; write them with jtc import -o fixtures/import/sources\n' });
      expect(jtc(['proxy', dir, '--stdio', shifting(), '--budget', 'echo'])).toMatchObject({ code: 2, stderr: 'jtc: --budget takes <tool>=<calls>, not "echo"\n' });
      expect(jtc(['proxy', dir, '--stdio', shifting(), '--budget', 'nope=1'])).toMatchObject({ code: 2, stderr: 'jtc: budgets names "nope", which no contract of the set is for\n' });
      expect(jtc(['proxy', dir, '--stdio', `"${process.execPath}" -e "process.exit(3)"`, '--timeout', '5'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^jtc: upstream ".*": could not connect: /) });
    },
    slow,
  );
});
