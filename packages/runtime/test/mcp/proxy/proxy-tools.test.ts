import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileContract } from '../../../../../test/support/load-module.js';
import { mcpHttpHandler } from '../../../src/mcp/http/http-server.js';
import { mcpElicit } from '../../../src/mcp/server.js';
import { CapabilityRuntime, ToolPolicy, type ToolContract, type ToolRequest } from '../../../src/index.js';
import { proxyTools, type McpProxy, type OutputSample, type ProxyToolsOptions } from '../../../src/mcp/proxy/index.js';

/**
 * The gateway in front of a real server: @modelcontextprotocol/server-everything over stdio, its
 * contracts those `jtc import` wrote (fixtures/import/server-everything/contracts), served through
 * the runtime's HTTP handler to SDK v1 (2025-11-25) and SDK v2 (pinned to 2026-07-28) clients.
 */
const everything = 'node_modules/@modelcontextprotocol/server-everything/dist/index.js';
const contractsDir = 'fixtures/import/server-everything/contracts';
const slow = 60_000;

type AnyContract = ToolContract<unknown, unknown>;
function contractsOf(dir: string, change: (contract: Record<string, unknown>) => void = () => {}): Record<string, AnyContract> {
  const set: Record<string, AnyContract> = {};
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.contract.json'))) {
    const source = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
    change(source);
    set[file] = compileContract(JSON.stringify(source), file) as unknown as AnyContract;
  }
  return set;
}

interface Gateway {
  readonly runtime: CapabilityRuntime;
  readonly proxy: McpProxy;
  readonly upstream: ClientV2;
  readonly fetch: (url: string | URL, init?: RequestInit) => Promise<Response>;
  /** The tools/call requests the upstream received (through the proxy). */
  readonly forwarded: string[];
}

async function gateway(contracts: Record<string, AnyContract>, options: ProxyToolsOptions = {}): Promise<Gateway> {
  const upstream = new ClientV2({ name: 'gateway', version: '1.0.0' }, { capabilities: { elicitation: { form: {}, url: {} }, sampling: {} } });
  await upstream.connect(new StdioV2({ command: process.execPath, args: [everything], stderr: 'ignore' }));
  const forwarded: string[] = [];
  const request = upstream.request.bind(upstream);
  // What reaches the upstream: a call refused at the door never does.
  (upstream as { request: unknown }).request = (message: { method: string; params: { name: string } }, options: never) => {
    if (message.method === 'tools/call') forwarded.push(message.params.name);
    return request(message as never, options);
  };
  const runtime = new CapabilityRuntime();
  const proxy = await proxyTools(runtime, upstream as never, contracts, options);
  const handler = mcpHttpHandler(runtime, { serverInfo: { name: 'gateway', version: '1.0.0' } });
  return { runtime, proxy, upstream, forwarded, fetch: (url, init) => handler.fetch(new Request(url, init)) };
}

async function clientV1(gate: Gateway): Promise<ClientV1> {
  const client = new ClientV1({ name: 'agent', version: '1.0.0' }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, (request) => ({ role: 'assistant', model: 'echo', content: { type: 'text', text: `heard: ${(request.params.messages[0]!.content as { text: string }).text}` } }));
  await client.connect(new HttpV1(new URL('http://127.0.0.1/mcp'), { fetch: gate.fetch }));
  return client;
}

async function clientV2(gate: Gateway): Promise<ClientV2> {
  const client = new ClientV2({ name: 'agent', version: '1.0.0' }, { capabilities: { sampling: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  client.setRequestHandler('sampling/createMessage', (request) => ({ role: 'assistant', model: 'echo', content: { type: 'text', text: `heard: ${(request.params.messages[0]!.content as { text: string }).text}` } }));
  await client.connect(new HttpV2(new URL('http://127.0.0.1/mcp'), { fetch: gate.fetch }));
  expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  return client;
}

const textOf = (result: unknown): string =>
  ((result as { content: { type: string; text?: string }[] }).content ?? [])
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('\n');

describe('proxyTools in front of server-everything', () => {
  let gate: Gateway;
  const samples: OutputSample[] = [];
  beforeAll(async () => {
    gate = await gateway(contractsOf(contractsDir), { uncontracted: 'pass', budgets: { 'get-env': 1 }, onSample: (sample) => samples.push(sample) });
  }, slow);
  afterAll(async () => {
    await gate.upstream.close();
  });

  it('reports every contract served, and the tools the upstream lists without one served unchecked by the explicit flag', () => {
    const byStatus = (status: string) =>
      gate.proxy.report.tools
        .filter((tool) => tool.status === status)
        .map((tool) => tool.name)
        .sort();
    expect(byStatus('served')).toContain('get-sum');
    expect(byStatus('served')).toHaveLength(readdirSync(contractsDir).length);
    // The contracts were imported without client capabilities: the tools that need them are uncontracted.
    expect(byStatus('unchecked')).toEqual(expect.arrayContaining(['trigger-elicitation-request', 'trigger-sampling-request']));
  });

  for (const sdk of ['v1', 'v2'] as const) {
    describe(`to an SDK ${sdk} client (${sdk === 'v1' ? '2025-11-25' : '2026-07-28'})`, () => {
      let client: ClientV1 | ClientV2;
      beforeAll(async () => {
        client = sdk === 'v1' ? await clientV1(gate) : await clientV2(gate);
      }, slow);
      afterAll(async () => {
        await client.close();
      });
      const call = (name: string, args: Record<string, unknown>, options: Record<string, unknown> = {}) => (client as ClientV1).callTool({ name, arguments: args }, undefined, options as never);
      const callAny = (name: string, args: Record<string, unknown>, options: Record<string, unknown> = {}) => (sdk === 'v1' ? call(name, args, options) : (client as ClientV2).callTool({ name, arguments: args }, options as never));

      it('forwards a call whose input holds to its contract, and answers with the upstream content', async () => {
        const result = await callAny('get-sum', { a: 2, b: 40 });
        expect(result.isError).not.toBe(true);
        expect(textOf(result)).toContain('42');
      });

      it('refuses an input that breaks the contract before anything is forwarded', async () => {
        const before = gate.forwarded.length;
        const result = await callAny('get-sum', { a: 'two', b: 40 });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/^invalid_input: input for "get-sum" does not match its contract: \/a/);
        expect(gate.forwarded.length).toBe(before);
      });

      it('returns a structured output that holds to its contract', async () => {
        const result = await callAny('get-structured-content', { location: 'Chicago' });
        expect(result.isError).not.toBe(true);
        expect(result.structuredContent).toEqual({ temperature: expect.any(Number), conditions: expect.any(String), humidity: expect.any(Number) });
      });

      it('passes the upstream progress on', async () => {
        const seen: number[] = [];
        // Reports half a second apart, so that a busy machine does not read two of them as one.
        const result = await callAny('trigger-long-running-operation', { duration: 1.5, steps: 3 }, { onprogress: (progress: { progress: number }) => seen.push(progress.progress) });
        expect(result.isError).not.toBe(true);
        // The last report may reach the client in the same read as the result, which both SDKs then drop (typescript-sdk#2580).
        expect(seen.slice(0, 2)).toEqual([1, 2]);
      });

      it("passes the upstream's sampling request to the client and its answer back", async () => {
        const result = await callAny('trigger-sampling-request', { prompt: 'ping', maxTokens: 5 });
        expect(result.isError).not.toBe(true);
        expect(textOf(result)).toContain('heard: Resource trigger-sampling-request context: ping');
      });
    });
  }

  it('holds the budget of a tool across clients, and records every call', async () => {
    const client = await clientV1(gate);
    try {
      expect((await client.callTool({ name: 'get-env', arguments: {} })).isError).not.toBe(true);
      const second = await client.callTool({ name: 'get-env', arguments: {} });
      expect(textOf(second)).toMatch(/^budget_exhausted: /);
    } finally {
      await client.close();
    }
    expect(
      gate.runtime
        .records()
        .filter((record) => record.tool === 'get-env')
        .map((record) => record.outcome),
    ).toEqual(['completed', 'denied']);
  });

  it('hands the outputs of tools whose contract accepts any output to onSample', () => {
    expect(samples.find((sample) => sample.tool === 'get-sum')).toMatchObject({ arguments: { a: 2, b: 40 }, content: [{ type: 'text' }] });
    expect(samples.some((sample) => sample.tool === 'get-structured-content')).toBe(false);
  });
});

describe('proxyTools holds the upstream to its contracts', () => {
  it(
    'refuses an output that breaks its contract with invalid_output, never passing it on',
    async () => {
      // A contract the upstream no longer keeps (as a bug would break it): humidity is at most 1.
      const gate = await gateway(
        contractsOf(contractsDir, (contract) => {
          if (contract['name'] === 'get-structured-content') (contract['output'] as { properties: Record<string, Record<string, unknown>> }).properties['humidity']!['maximum'] = 1;
        }),
      );
      try {
        const client = await clientV1(gate);
        const result = await client.callTool({ name: 'get-structured-content', arguments: { location: 'Chicago' } });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/^invalid_output: output of "get-structured-content" does not match its contract: \/humidity/);
        expect(result.structuredContent).toBeUndefined();
        await client.close();
      } finally {
        await gate.upstream.close();
      }
    },
    slow,
  );

  it(
    'refuses a tool the drift comparison finds broken, and serves it with a warning under the warn policy',
    async () => {
      const drift = () => [{ name: 'echo', breaking: true, message: 'input: "message" now has maxLength 3' }];
      for (const onDrift of ['refuse', 'warn'] as const) {
        const gate = await gateway(contractsOf(contractsDir), { drift, onDrift });
        try {
          expect(gate.proxy.report.tools.find((tool) => tool.name === 'echo')).toEqual({ name: 'echo', status: onDrift === 'refuse' ? 'refused' : 'drifted', message: 'input: "message" now has maxLength 3' });
          const client = await clientV1(gate);
          const result = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
          if (onDrift === 'refuse') expect(textOf(result)).toMatch(/^denied: the upstream's "echo" no longer holds to its contract, and the gateway refuses it: input: "message" now has maxLength 3/);
          else expect(textOf(result)).toBe('{}\nEcho: hi');
          await client.close();
        } finally {
          await gate.upstream.close();
        }
      }
    },
    slow,
  );

  it(
    'refuses a tool the upstream lists without a contract, unless told to pass it',
    async () => {
      const gate = await gateway(contractsOf(contractsDir));
      try {
        expect(gate.proxy.report.tools.find((tool) => tool.name === 'trigger-sampling-request')?.status).toBe('uncontracted');
        const client = await clientV1(gate);
        expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('trigger-sampling-request');
        const result = await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'x', maxTokens: 5 } });
        expect(textOf(result)).toMatch(/^unknown_tool: /);
        await client.close();
      } finally {
        await gate.upstream.close();
      }
    },
    slow,
  );

  it(
    'denies a contract the upstream lists no tool for',
    async () => {
      const gone = compileContract(JSON.stringify({ name: 'gone.tool', description: 'Not on the upstream.', input: { type: 'object' }, output: {} })) as unknown as AnyContract;
      const gate = await gateway({ ...contractsOf(contractsDir), gone });
      try {
        expect(gate.proxy.report.tools.find((tool) => tool.name === 'gone.tool')).toMatchObject({ status: 'missing' });
        expect(gate.runtime.catalog().some((entry) => entry.name === 'gone.tool')).toBe(true);
        const result = await gate.runtime.callAsync('gone.tool', {});
        expect(result.ok ? undefined : result.error.message).toBe('the upstream lists no tool "gone.tool" (nor "gone_tool")');
      } finally {
        await gate.upstream.close();
      }
    },
    slow,
  );
});

describe('proxyTools in front of a 2026-07-28 upstream', () => {
  // The upstream is the runtime's own HTTP handler; its tool asks its client a question through
  // input_required, which the gateway asks its own client (at either revision) and answers.
  const ask = compileContract(
    JSON.stringify({ name: 'people.ask', description: 'Asks a name.', input: { type: 'object', properties: { greeting: { type: 'string' } }, required: ['greeting'], additionalProperties: false }, output: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false } }),
  ) as unknown as AnyContract;
  const nameSchema = { type: 'object', properties: { name: { type: 'string', minLength: 1 } }, required: ['name'] };
  const nameAnswer = compileContract(JSON.stringify({ name: 'name.answer', description: 'A name.', input: nameSchema, output: {} })).input as never;

  async function modernUpstream(): Promise<{ client: ClientV2; calls: () => number }> {
    const runtime = new CapabilityRuntime();
    let calls = 0;
    runtime.registerTypedJsonTool(
      ToolPolicy.json('people.ask'),
      ask as never,
      (async (input: { greeting: string }, request: ToolRequest<unknown>) => {
        calls++;
        const answer = await mcpElicit(request, { key: 'who', message: 'Your name?', requestedSchema: nameSchema, validator: nameAnswer });
        return { text: answer.status === 'accepted' ? `${input.greeting}, ${(answer.value as { name: string }).name}` : answer.status };
      }) as never,
    );
    const handler = mcpHttpHandler(runtime, { serverInfo: { name: 'modern', version: '1.0.0' }, requestState: { key: 'a key of at least thirty-two bytes, for the tests' } });
    const client = new ClientV2({ name: 'gateway', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new HttpV2(new URL('http://127.0.0.1/mcp'), { fetch: (url, init) => handler.fetch(new Request(url, init)) }));
    return { client, calls: () => calls };
  }

  for (const sdk of ['v1', 'v2'] as const) {
    it(
      `passes the upstream's input_required rounds to an SDK ${sdk} client and its answers back`,
      async () => {
        const upstream = await modernUpstream();
        const runtime = new CapabilityRuntime();
        await proxyTools(runtime, upstream.client as never, { ask });
        const handler = mcpHttpHandler(runtime, { serverInfo: { name: 'gateway', version: '1.0.0' }, requestState: { key: 'another key of at least thirty-two bytes' } });
        const fetch = (url: string | URL, init?: RequestInit) => handler.fetch(new Request(url, init));
        let result: unknown;
        if (sdk === 'v1') {
          const client = new ClientV1({ name: 'agent', version: '1.0.0' }, { capabilities: { elicitation: {} } });
          client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Ada' } }));
          await client.connect(new HttpV1(new URL('http://127.0.0.1/mcp'), { fetch }));
          result = await client.callTool({ name: 'people.ask', arguments: { greeting: 'Hello' } });
          await client.close();
        } else {
          const client = new ClientV2({ name: 'agent', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
          client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'Ada' } }));
          await client.connect(new HttpV2(new URL('http://127.0.0.1/mcp'), { fetch }));
          result = await client.callTool({ name: 'people.ask', arguments: { greeting: 'Hello' } });
          await client.close();
        }
        expect((result as { structuredContent: unknown }).structuredContent).toEqual({ text: 'Hello, Ada' });
        // The upstream's tool ran once per upstream round: asked, then answered.
        expect(upstream.calls()).toBeGreaterThanOrEqual(2);
        await upstream.client.close();
      },
      slow,
    );
  }
});
