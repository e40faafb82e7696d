import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, Server as ServerV2 } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { compileContract, compileSchema } from '../../../../test/support/load-module.js';
import { mcpElicit, serveToolsOnMcpServer, tasksExtension, type McpAnswerValidator, type McpTasksOptions } from '../../src/mcp/server.js';
import { mcpHttpHandler } from '../../src/mcp/http/http-server.js';
import { CapabilityRuntime, memoryStore, ToolError, ToolPolicy, type CallRecord, type ToolRequest } from '../../src/index.js';

/**
 * Deferred calls as MCP tasks (the tasks extension, SEP-2663, at 2026-07-28), served by both hosts
 * from one runtime: SDK v2's `Server` made anew for each request (`createMcpHandler`), and the
 * by-hand `mcpHttpHandler`. The requests are the wire a client of the extension sends; the
 * tasks methods are also sent by a real SDK v2 client. Handlers wait on gates the tests open, so
 * that a call outlasts its first turn (and becomes a task) without any timing.
 */
const job = compileContract(
  JSON.stringify({
    name: 'jobs.run',
    description: 'Runs a job.',
    input: { type: 'object', properties: { mode: { type: 'string' } }, required: ['mode'], additionalProperties: false },
    output: { type: 'object', properties: { done: { type: 'string' } }, required: ['done'], additionalProperties: false },
  }),
);
const quick = compileContract(JSON.stringify({ name: 'jobs.quick', description: 'Answers at once.', input: { type: 'object' }, output: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } }));
const nameAnswer = compileSchema(JSON.stringify({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] })) as unknown as McpAnswerValidator<{ name: string }>;

const declaring = { elicitation: {}, extensions: { [tasksExtension]: {} } };
const requestState = { key: 'a key of at least thirty-two bytes, for the tests' };
const envelope = (clientCapabilities: unknown) => ({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': clientCapabilities });

/** A promise the test resolves: the handler waits on it, so the call is still open when the test looks. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

type Handler = (input: { mode: string }, request: ToolRequest<{ mode: string }>) => unknown;

interface Served {
  readonly runtime: CapabilityRuntime;
  readonly records: CallRecord[];
  readonly fetch: (request: Request) => Promise<Response>;
}

const hosts = {
  'SDK v2 (serveToolsOnMcpServer, a Server per request)': (runtime: CapabilityRuntime, tasks: McpTasksOptions) =>
    createMcpHandler(() => {
      const server = new ServerV2({ name: 'jobs', version: '1.0.0' }, { capabilities: {} });
      serveToolsOnMcpServer(server, runtime, { requestState, tasks });
      return server;
    }),
  'by hand (mcpHttpHandler)': (runtime: CapabilityRuntime, tasks: McpTasksOptions) => mcpHttpHandler(runtime, { serverInfo: { name: 'jobs', version: '1.0.0' }, requestState, tasks }),
};

function serve(host: keyof typeof hosts, handler: Handler, tasks: Partial<McpTasksOptions> = {}): Served {
  const records: CallRecord[] = [];
  const runtime = new CapabilityRuntime({ onRecord: (record) => record.outcome !== 'pending' && records.push(record) });
  runtime.registerTypedJsonTool(ToolPolicy.json('jobs.run'), job as never, handler as never);
  runtime.registerTypedJsonTool(ToolPolicy.json('jobs.quick'), quick as never, (() => ({ ok: true })) as never);
  const http = hosts[host](runtime, { tools: { 'jobs.run': 'optional', 'jobs.quick': 'optional' }, ...tasks });
  return { runtime, records, fetch: (request) => http.fetch(request) };
}

let nextId = 1;
/** One 2026-07-28 request as a client of the extension sends it: the envelope, and the routing headers. */
async function rpc(served: Served, method: string, params: Record<string, unknown>, clientCapabilities: unknown = declaring): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } }> {
  const name = method === 'tools/call' ? params['name'] : params['taskId'];
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method };
  if (typeof name === 'string') headers['mcp-name'] = name;
  const body = JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: envelope(clientCapabilities) } });
  const response = await served.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body }));
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .at(-1)!
        .slice(6)
    : text;
  return JSON.parse(json) as { result?: Record<string, unknown> };
}

const call = (served: Served, mode: string, clientCapabilities: unknown = declaring, tool = 'jobs.run') => rpc(served, 'tools/call', { name: tool, arguments: tool === 'jobs.run' ? { mode } : {} }, clientCapabilities);
const getTask = async (served: Served, taskId: unknown) => (await rpc(served, 'tasks/get', { taskId })).result!;

/** Polls tasks/get until the task has ended (the handler settles in a microtask or two after the test opens its gate). */
async function ended(served: Served, taskId: unknown): Promise<Record<string, unknown>> {
  for (;;) {
    const task = await getTask(served, taskId);
    if (['completed', 'failed', 'cancelled'].includes(task['status'] as string)) return task;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

async function createdTask(served: Served, mode = 'work'): Promise<string> {
  const { result } = await call(served, mode);
  expect(result).toMatchObject({ resultType: 'task', status: 'working', taskId: expect.any(String) });
  return result!['taskId'] as string;
}

afterEach(() => void vi.useRealTimers());

for (const host of Object.keys(hosts) as (keyof typeof hosts)[]) {
  describe(`deferred calls as MCP tasks, ${host}`, () => {
    it('a call that outlasts its first turn answers with a task: working, then completed with the tool result as tools/call would give it', async () => {
      const work = gate();
      const served = serve(host, async ({ mode }) => {
        await work.opened;
        return { done: mode };
      });
      const { result } = await call(served, 'work');
      expect(Object.keys(result!).filter((key) => key !== '_meta')).toEqual(expect.arrayContaining(['resultType', 'taskId', 'status', 'createdAt', 'lastUpdatedAt', 'ttlMs', 'pollIntervalMs']));
      expect(result).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 3_600_000, pollIntervalMs: 1_000 });
      for (const absent of ['task', 'result', 'error', 'inputRequests', 'requestState', 'ttl', 'pollInterval']) expect(result).not.toHaveProperty(absent);
      const taskId = result!['taskId'];
      // Durable at once: tasks/get resolves the id the moment it is answered.
      expect(await getTask(served, taskId)).toMatchObject({ resultType: 'complete', taskId, status: 'working' });
      expect(await getTask(served, taskId)).not.toHaveProperty('result');
      work.open();
      const done = await ended(served, taskId);
      expect(done).toMatchObject({ status: 'completed', result: { resultType: 'complete', content: [{ type: 'text', text: '{"done":"work"}' }], structuredContent: { done: 'work' } } });
      expect(done).not.toHaveProperty('error');
      expect(served.records.map((record) => [record.tool, record.outcome])).toEqual([['jobs.run', 'completed']]);
    });

    it('a completion that breaks the output contract ends the task failed with a JSON-RPC error, recorded, its output never delivered', async () => {
      const work = gate();
      const served = serve(host, async () => {
        await work.opened;
        return { done: 987_654_321 };
      });
      const taskId = await createdTask(served);
      work.open();
      const done = await ended(served, taskId);
      expect(done).toMatchObject({ status: 'failed', error: { code: -32603, message: expect.stringMatching(/^invalid_output: /), data: { code: 'invalid_output' } }, statusMessage: expect.stringMatching(/^invalid_output: /) });
      expect(done).not.toHaveProperty('result');
      expect(JSON.stringify(done)).not.toContain('987654321');
      expect(served.records.map((record) => [record.outcome, record.errorCode])).toEqual([['failed', 'invalid_output']]);
    });

    it("a tool's own error is a completed task with an isError result; a handler that crashes ends it failed", async () => {
      const work = gate();
      const served = serve(host, async ({ mode }) => {
        await work.opened;
        if (mode === 'refuse') throw ToolError.denied('no, not this job');
        throw new Error('the job crashed');
      });
      const refused = await createdTask(served, 'refuse');
      const crashed = await createdTask(served, 'crash');
      work.open();
      expect(await ended(served, refused)).toMatchObject({ status: 'completed', result: { isError: true, content: [{ type: 'text', text: 'denied: no, not this job' }] } });
      expect(await ended(served, crashed)).toMatchObject({ status: 'failed', error: { code: -32603, data: { code: 'handler_failed' }, message: expect.stringContaining('the job crashed') } });
    });

    it("tasks/cancel reaches the handler's request.signal and ends the task cancelled; cancelling it again is the same empty answer", async () => {
      let seen: AbortSignal | undefined;
      const stopped = gate();
      const served = serve(host, (_, request) => {
        seen = request.signal;
        return new Promise((_, reject) => request.signal.addEventListener('abort', () => (stopped.open(), reject(request.signal.reason)), { once: true }));
      });
      const taskId = await createdTask(served);
      const ack = await rpc(served, 'tasks/cancel', { taskId });
      expect(ack.result).toMatchObject({ resultType: 'complete' });
      for (const absent of ['taskId', 'status', 'result', 'error']) expect(ack.result).not.toHaveProperty(absent);
      await stopped.opened;
      expect(seen?.aborted).toBe(true);
      expect((seen!.reason as ToolError).code).toBe('cancelled');
      expect(await ended(served, taskId)).toMatchObject({ status: 'cancelled' });
      expect((await rpc(served, 'tasks/cancel', { taskId })).result).toMatchObject({ resultType: 'complete' });
      expect(served.records.map((record) => record.outcome)).toEqual(['cancelled']);
    });

    it('a question asked after the task began makes it input_required; tasks/update answers it (partly, then wholly) and the handler goes on', async () => {
      const work = gate();
      const served = serve(host, async (_, request) => {
        await work.opened;
        const ask = (key: string) => mcpElicit(request, { key, message: `${key}?`, requestedSchema: { type: 'object', properties: { name: { type: 'string' } } }, validator: nameAnswer });
        const [first, second] = await Promise.all([ask('first'), ask('second')]);
        return { done: [first, second].map((answer) => (answer.status === 'accepted' ? answer.value.name : answer.status)).join(' & ') };
      });
      const taskId = await createdTask(served);
      work.open();
      let task = await getTask(served, taskId);
      while (task['status'] === 'working') task = await getTask(served, taskId);
      expect(task).toMatchObject({ status: 'input_required', inputRequests: { first: { method: 'elicitation/create', params: { message: 'first?' } }, second: { method: 'elicitation/create' } } });
      const answer = (name: string) => ({ action: 'accept', content: { name } });
      expect((await rpc(served, 'tasks/update', { taskId, inputResponses: { first: answer('Ada'), unknown_key: answer('nobody') } })).result).toMatchObject({ resultType: 'complete' });
      task = await getTask(served, taskId);
      expect(task['status']).toBe('input_required');
      expect(Object.keys(task['inputRequests'] as object)).toEqual(['second']);
      await rpc(served, 'tasks/update', { taskId, inputResponses: { second: answer('Grace') } });
      expect(await ended(served, taskId)).toMatchObject({ status: 'completed', result: { structuredContent: { done: 'Ada & Grace' } } });
    });

    it('a question asked in the first turn is an input_required round of the tools/call itself; its retry becomes the task', async () => {
      const work = gate();
      const served = serve(host, async (_, request) => {
        const answer = await mcpElicit(request, { key: 'user_name', message: 'Name?', requestedSchema: { type: 'object' }, validator: z.object({ name: z.string() }) });
        await work.opened;
        return { done: answer.status === 'accepted' ? answer.value.name : answer.status };
      });
      const first = (await call(served, 'work')).result!;
      expect(first).toMatchObject({ resultType: 'input_required', inputRequests: { user_name: { method: 'elicitation/create' } }, requestState: expect.any(String) });
      expect(first).not.toHaveProperty('taskId');
      const retry = (await rpc(served, 'tools/call', { name: 'jobs.run', arguments: { mode: 'work' }, inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } }, requestState: first['requestState'] })).result!;
      expect(retry).toMatchObject({ resultType: 'task', status: 'working' });
      expect(retry).not.toHaveProperty('requestState');
      work.open();
      expect(await ended(served, retry['taskId'])).toMatchObject({ status: 'completed', result: { structuredContent: { done: 'Alice' } } });
    });

    it('a call that ends within its first turn, and any call from a client without the extension, answer with the plain result', async () => {
      const served = serve(host, ({ mode }) => ({ done: mode }));
      expect((await call(served, 'now')).result).toMatchObject({ resultType: 'complete', structuredContent: { done: 'now' } });
      expect((await call(served, 'now', { elicitation: {} }, 'jobs.quick')).result).toMatchObject({ resultType: 'complete', structuredContent: { ok: true } });
      // Answered plainly, the calls' ids were never handed out: the store does not keep them for a task's ttl.
      await new Promise((resolve) => setTimeout(resolve, 5));
      for (const record of served.records) expect(await served.runtime.readCall(record.callId)).toBeUndefined();
      expect(served.records).toHaveLength(2);
    });

    it('a required task tool refuses a client without the extension (-32021, naming it); tasks methods refuse it as well', async () => {
      const served = serve(host, () => ({ done: 'x' }), { tools: { 'jobs.run': 'required' } });
      const refused = await call(served, 'work', {});
      expect(refused.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [tasksExtension]: {} } } } });
      expect(served.records.map((record) => [record.outcome, record.errorCode])).toEqual([['denied', 'denied']]);
      for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
        expect((await rpc(served, method, { taskId: 'any', inputResponses: {} }, {})).error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [tasksExtension]: {} } } } });
      }
    });

    it('an unknown task id is -32602 for every method; tasks/result and tasks/list are not served', async () => {
      const served = serve(host, () => ({ done: 'x' }));
      for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) expect((await rpc(served, method, { taskId: 'no-such-task', inputResponses: {} })).error).toMatchObject({ code: -32602 });
      for (const method of ['tasks/result', 'tasks/list']) expect((await rpc(served, method, { taskId: 'no-such-task' })).error).toMatchObject({ code: -32601 });
    });

    it('an id of any size or type names no task, and the answer does not echo it whole', async () => {
      const served = serve(host, () => ({ done: 'x' }));
      const huge = (await rpc(served, 'tasks/get', { taskId: 'x'.repeat(1_000_000) })).error!;
      expect(huge).toMatchObject({ code: -32602, data: { reason: 'unknown_task' } });
      expect(huge.message.length).toBeLessThan(300);
      for (const [taskId, type] of [
        [42, 'number'],
        [null, 'null'],
        [{ deep: [[[{}]]] }, 'object'],
        [['a'], 'array'],
      ]) {
        expect((await rpc(served, 'tasks/get', { taskId })).error).toMatchObject({ code: -32602, message: `Failed to retrieve task: no task of type ${type} (unknown, or expired)` });
      }
    });

    it('a task is kept for its ttlMs from its creation, and then forgotten (-32602)', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const served = serve(host, () => new Promise(() => {}), { ttlMs: 60_000 });
      const { result } = await call(served, 'work');
      expect(result).toMatchObject({ resultType: 'task', ttlMs: 60_000 });
      const taskId = result!['taskId'];
      vi.setSystemTime(Date.now() + 59_000);
      expect(await getTask(served, taskId)).toMatchObject({ status: 'working' });
      vi.setSystemTime(Date.now() + 2_000);
      expect((await rpc(served, 'tasks/get', { taskId })).error).toMatchObject({ code: -32602, message: expect.stringContaining('expired') });
    });
  });
}

describe.each(Object.keys(hosts) as (keyof typeof hosts)[])('the tasks methods through a real SDK v2 client, %s', (host) => {
  it('server/discover advertises the extension; tasks/get, tasks/update and tasks/cancel travel as extension methods', async () => {
    const work = gate();
    const served = serve(host, async (_, request) => {
      await work.opened;
      const answer = await mcpElicit(request, { key: 'go', message: 'Go on?', requestedSchema: { type: 'object' }, validator: z.object({ go: z.boolean() }) });
      return { done: answer.status === 'accepted' && answer.value.go ? 'went on' : answer.status };
    });
    const client = new ClientV2({ name: 'tasks-client', version: '1.0.0' }, { capabilities: declaring, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: (url, init) => served.fetch(new Request(url, init)) }));
    expect(client.getServerCapabilities()?.extensions).toEqual({ [tasksExtension]: {} });
    // SDK v2's callTool knows no CreateTaskResult (it refuses resultType "task"): the task is created on the wire, then followed through the client.
    await expect(client.callTool({ name: 'jobs.run', arguments: { mode: 'work' } })).rejects.toThrow("Unsupported result type 'task'");
    const taskId = await createdTask(served);
    const task = z.object({ taskId: z.string(), status: z.string(), inputRequests: z.record(z.string(), z.unknown()).optional(), result: z.record(z.string(), z.unknown()).optional() }).passthrough();
    const ack = z.object({}).passthrough();
    expect(await client.request({ method: 'tasks/get', params: { taskId } }, task)).toMatchObject({ taskId, status: 'working' });
    work.open();
    let seen = await client.request({ method: 'tasks/get', params: { taskId } }, task);
    while (seen.status === 'working') seen = await client.request({ method: 'tasks/get', params: { taskId } }, task);
    expect(seen).toMatchObject({ status: 'input_required', inputRequests: { go: { method: 'elicitation/create' } } });
    await client.request({ method: 'tasks/update', params: { taskId, inputResponses: { go: { action: 'accept', content: { go: true } } } } }, ack);
    while (seen.status !== 'completed') seen = await client.request({ method: 'tasks/get', params: { taskId } }, task);
    expect(seen.result).toMatchObject({ structuredContent: { done: 'went on' } });
    await expect(client.request({ method: 'tasks/cancel', params: { taskId } }, ack)).resolves.toMatchObject({});
    await expect(client.request({ method: 'tasks/get', params: { taskId: 'no-such-task' } }, task)).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });
});

describe('a task any replica can follow: two runtimes sharing one store', () => {
  it('created through one, read, answered and cancelled through the other; the cancellation reaches the handler where it runs', async () => {
    const store = memoryStore();
    const work = gate();
    const signals: AbortSignal[] = [];
    const replica = (): Served => {
      const records: CallRecord[] = [];
      const runtime = new CapabilityRuntime({ store, pollMs: 5, onRecord: (record) => record.outcome !== 'pending' && records.push(record) });
      runtime.registerTypedJsonTool(
        ToolPolicy.json('jobs.run'),
        job as never,
        (async ({ mode }: { mode: string }, request: ToolRequest<unknown>) => {
          signals.push(request.signal);
          await work.opened;
          if (mode === 'wait') await new Promise((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true }));
          return { done: mode };
        }) as never,
      );
      runtime.registerTypedJsonTool(ToolPolicy.json('jobs.quick'), quick as never, (() => ({ ok: true })) as never);
      const http = mcpHttpHandler(runtime, { serverInfo: { name: 'jobs', version: '1.0.0' }, requestState, tasks: { tools: { 'jobs.run': 'optional' } } });
      return { runtime, records, fetch: (request) => http.fetch(request) };
    };
    const [first, second] = [replica(), replica()];
    const finished = await createdTask(first, 'finish');
    expect(await getTask(second, finished)).toMatchObject({ taskId: finished, status: 'working' });
    work.open();
    expect(await ended(second, finished)).toMatchObject({ status: 'completed', result: { structuredContent: { done: 'finish' } } });
    const waiting = await createdTask(first, 'wait');
    const seen = signals[1]!;
    expect((await rpc(second, 'tasks/cancel', { taskId: waiting })).result).toMatchObject({ resultType: 'complete' });
    expect(await getTask(first, waiting)).toMatchObject({ status: 'cancelled' });
    // The replica that runs the handler hears of it at its next poll of the store.
    while (!seen.aborted) await new Promise((resolve) => setTimeout(resolve, 1));
    expect((seen.reason as ToolError).code).toBe('cancelled');
    expect(first.records.map((record) => record.outcome)).toEqual(['completed', 'cancelled']);
  });
});

describe('a task that asks once it is a task, followed through two runtimes sharing one store', () => {
  /** A replica of the server: jobs.run waits for the gate, then asks the client for a name (through the store) and finishes with it. */
  function replica(store: ReturnType<typeof memoryStore>, work: ReturnType<typeof gate>): Served {
    const records: CallRecord[] = [];
    const runtime = new CapabilityRuntime({ store, pollMs: 5, onRecord: (record) => record.outcome !== 'pending' && records.push(record) });
    runtime.registerTypedJsonTool(
      ToolPolicy.json('jobs.run'),
      job as never,
      (async (_: unknown, request: ToolRequest<unknown>) => {
        await work.opened;
        const answer = await mcpElicit(request, { key: 'name', message: 'Whose job?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } }, validator: nameAnswer });
        return { done: answer.status === 'accepted' ? answer.value.name : answer.status };
      }) as never,
    );
    const http = mcpHttpHandler(runtime, { serverInfo: { name: 'jobs', version: '1.0.0' }, requestState, tasks: { tools: { 'jobs.run': 'optional' } } });
    return { runtime, records, fetch: (request) => http.fetch(request) };
  }
  const answer = (name: string) => ({ action: 'accept', content: { name } });

  it('is input_required on both with the same question; answered through the other, the handler hears it; an update that delivers nothing is an error', async () => {
    const store = memoryStore();
    const work = gate();
    const [first, second] = [replica(store, work), replica(store, work)];
    const taskId = await createdTask(first);
    work.open();
    let task = await getTask(second, taskId);
    while (task['status'] === 'working') task = await getTask(second, taskId);
    expect(task).toMatchObject({ status: 'input_required', inputRequests: { name: { method: 'elicitation/create', params: { message: 'Whose job?' } } } });
    expect(await getTask(first, taskId)).toMatchObject({ status: 'input_required', inputRequests: task['inputRequests'] as object });
    expect((await rpc(second, 'tasks/update', { taskId, inputResponses: { name: answer('Ada'), unknown_key: answer('nobody') } })).result).toMatchObject({ resultType: 'complete' });
    expect(await ended(second, taskId)).toMatchObject({ status: 'completed', result: { structuredContent: { done: 'Ada' } } });
    expect(first.records.map((record) => record.outcome)).toEqual(['completed']);
    // The same update again (a retry whose acknowledgement was lost) is acknowledged; the first answer stood.
    expect((await rpc(first, 'tasks/update', { taskId, inputResponses: { name: answer('Grace') } })).result).toMatchObject({ resultType: 'complete' });
    // An answer nothing waits for is never acknowledged.
    expect((await rpc(first, 'tasks/update', { taskId, inputResponses: { other: answer('Grace') } })).error).toMatchObject({ code: -32602, message: expect.stringContaining('has ended (completed)'), data: { reason: 'task_ended', status: 'completed' } });
  });

  it('an update under keys the task does not wait on is acknowledged and ignored while it runs, as the extension says; the handler waits on', async () => {
    const store = memoryStore();
    const work = gate();
    const [first, second] = [replica(store, work), replica(store, work)];
    const taskId = await createdTask(first);
    expect((await rpc(second, 'tasks/update', { taskId, inputResponses: { name: answer('early') } })).result).toMatchObject({ resultType: 'complete' });
    work.open();
    while ((await getTask(second, taskId))['status'] !== 'input_required');
    expect((await rpc(second, 'tasks/update', { taskId, inputResponses: { nme: answer('typo') } })).result).toMatchObject({ resultType: 'complete' });
    // Asked after the early answer, the question was not answered by it.
    expect(await getTask(first, taskId)).toMatchObject({ status: 'input_required', inputRequests: { name: { method: 'elicitation/create' } } });
    await rpc(second, 'tasks/update', { taskId, inputResponses: { name: answer('Lin') } });
    expect(await ended(first, taskId)).toMatchObject({ status: 'completed', result: { structuredContent: { done: 'Lin' } } });
  });
});

describe('at 2025-11-25, where the extension is not defined', () => {
  it('a client of a 2025 session gets the plain result of a task tool, and initialize names no extension', async () => {
    const work = gate();
    const served = serve('by hand (mcpHttpHandler)', async ({ mode }) => {
      await work.opened;
      return { done: mode };
    });
    const client = new ClientV2({ name: 'legacy-client', version: '1.0.0' }, { capabilities: declaring, versionNegotiation: { mode: 'legacy' } });
    await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: (url, init) => served.fetch(new Request(url, init)) }));
    expect(client.getServerCapabilities()).not.toHaveProperty('extensions');
    const result = client.callTool({ name: 'jobs.run', arguments: { mode: 'legacy' } });
    work.open();
    expect(await result).toMatchObject({ structuredContent: { done: 'legacy' } });
    expect(await result).not.toHaveProperty('taskId');
    await client.close();
  });
});
