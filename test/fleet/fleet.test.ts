import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ExampleServer, startExample } from '../support/example-server.js';
import { type RedisServer, skipWithoutRedis, startRedisServer } from '../support/redis-server.js';
import { type RoundRobinProxy, startRoundRobinProxy } from '../support/round-robin-proxy.js';

/**
 * examples/fleet as a user runs it: three replicas (`REDIS_URL=… PORT=… npm run example:fleet`) on
 * one private redis-server, behind a round-robin balancer on loopback, driven by SDK v2's client
 * at both revisions (2026-07-28 stateless, 2025-11-25 in sessions the balancer keeps on their
 * replica). Slow (processes, a thousand calls): `npm run test:fleet`, which .ci/run runs after
 * `npm test`. Nothing here waits for a time to pass: every wait is for a state, polled.
 */

const tasksExtension = 'io.modelcontextprotocol/tasks';
/** The shape of any result: the tasks extension's answers are outside the SDK's typed methods. */
const anyResult = z.looseObject({});
type Result = Record<string, unknown>;

interface Fleet {
  readonly redis: RedisServer;
  readonly replicas: ExampleServer[];
  readonly proxy: RoundRobinProxy;
  /** Starts replica `index` again, on its port, after it died. */
  restart(index: number): Promise<void>;
  close(): Promise<void>;
}

/** `count` replicas (three unless given) on a private Redis, as docs/fleet.md starts them: the contracts built once, then every replica at once; a balancer in front. */
async function startFleet(env: Record<string, string>, count = 3): Promise<Fleet> {
  const redis = await startRedisServer();
  const fleetEnv = { REDIS_URL: redis.url, MCP_REQUEST_STATE_KEY: randomBytes(32).toString('base64'), ...env };
  const built = spawnSync('npm', ['run', '--silent', 'example:fleet:build'], { encoding: 'utf8' });
  expect(built.status, built.stderr).toBe(0);
  const replicas = await Promise.all(Array.from({ length: count }, () => startExample('example:fleet:serve', fleetEnv)));
  const proxy = await startRoundRobinProxy(replicas.map((replica) => replica.port));
  return {
    redis,
    replicas,
    proxy,
    async restart(index) {
      replicas[index] = await startExample('example:fleet:serve', fleetEnv, replicas[index]!.port);
    },
    async close() {
      await proxy.close();
      await Promise.all(replicas.map((replica) => replica.stop()));
      await redis.stop();
    },
  };
}

const opened: Client[] = [];
afterAll(() => Promise.all(opened.map((client) => client.close().catch(() => undefined))));

/** SDK v2's client at 2026-07-28 (stateless), declaring the tasks extension. */
async function modernClient(url: string): Promise<Client> {
  const client = new Client({ name: 'fleet-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { extensions: { [tasksExtension]: {} } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  opened.push(client);
  return client;
}

/** SDK v2's client at 2025-11-25: one session, which the balancer keeps on the replica that began it. */
async function legacyClient(url: string): Promise<Client> {
  const client = new Client({ name: 'fleet-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  opened.push(client);
  return client;
}

function textOf(result: Result): string {
  const [first] = result['content'] as { type: string; text?: string }[];
  return first?.text ?? '';
}

const count = (client: Client) => client.callTool({ name: 'fleet.count', arguments: {} }) as Promise<Result>;
const request = (client: Client, method: string, params: Record<string, unknown>) => client.request({ method, params } as never, anyResult) as Promise<Result>;

/** tasks/get until the task has ended (completed, failed or cancelled). */
async function untilEnded(client: Client, taskId: string): Promise<Result> {
  for (;;) {
    const task = await request(client, 'tasks/get', { taskId });
    if (task['status'] === 'completed' || task['status'] === 'failed' || task['status'] === 'cancelled') return task;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** tasks/get until the task is no longer `working` (it asks, or it has ended). */
async function untilAsked(client: Client, taskId: string): Promise<Result> {
  for (;;) {
    const task = await request(client, 'tasks/get', { taskId });
    if (task['status'] !== 'working') return task;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The answer an elicitation of fleet.approve takes. Its handler works `afterMs` before it asks: long
 * enough (half a second and more) that the call has become a task by then, however busy the replica.
 */
const approval = (approve: boolean) => ({ approve: { action: 'accept', content: { approve } } });

/**
 * A tools/call on the wire at `url` as a 2026-07-28 client declaring the tasks extension (and elicitation) sends it
 * (SDK v2's callTool knows no CreateTaskResult: it refuses resultType "task"): its result.
 */
async function callOnTheWire(url: string, name: string, args: Record<string, unknown>): Promise<Result> {
  // It can answer elicitations too: fleet.approve asks one once it is a task.
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: { [tasksExtension]: {} } } };
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: meta } }),
  });
  return ((await response.json()) as { result: Result }).result;
}

/** A tools/call that answers with a task, made through `url`: the task's id. */
async function createTask(url: string, name: string, args: Record<string, unknown>): Promise<string> {
  const created = await callOnTheWire(url, name, args);
  expect(created, `${name} answers with a task`).toMatchObject({ resultType: 'task', status: 'working', taskId: expect.any(String) });
  return created['taskId'] as string;
}

const sleepTask = (url: string, ms: number) => createTask(url, 'fleet.sleep', { ms });

describe.skipIf(skipWithoutRedis)('examples/fleet: one server of three replicas on one Redis', () => {
  describe('a budget shared by every replica', () => {
    let fleet: Fleet | undefined;
    beforeAll(async () => {
      fleet = await startFleet({ FLEET_BUDGET: '50' });
    });
    afterAll(() => fleet?.close());

    it('completes exactly 50 of 1,000 concurrent calls spread over the replicas and denies the other 950 with budget_exhausted', async () => {
      // A thousand calls at once are a thousand sockets, each end of them in this process: about 2,200 files open.
      const openFiles = Number(spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).stdout.trim());
      expect(Number.isNaN(openFiles) || openFiles >= 4_096, `this test holds 1,000 calls at once: raise the limit of open files (ulimit -n 4096; it is ${openFiles}), as .ci/run does`).toBe(true);
      const { proxy } = fleet!;
      // Three sessions begun in turn land on the three replicas; the stateless calls go round the replicas one by one.
      const clients = [await legacyClient(proxy.url), await legacyClient(proxy.url), await legacyClient(proxy.url), await modernClient(proxy.url), await modernClient(proxy.url)];
      const before = [...proxy.answered];
      const results = await Promise.all(Array.from({ length: 1_000 }, (_, index) => count(clients[index % clients.length]!)));
      const completed = results.filter((result) => result['isError'] !== true);
      const denied = results.filter((result) => result['isError'] === true);
      expect({ completed: completed.length, denied: denied.length }).toEqual({ completed: 50, denied: 950 });
      expect(denied.filter((result) => !textOf(result).startsWith('budget_exhausted: ')).map(textOf)).toEqual([]);
      // Each completed call says how many of the fleet's budget were taken when it ran: never more than the budget, and the last one taken is the 50th.
      const taken = completed.map((result) => (result['structuredContent'] as { n: number }).n);
      expect(taken.every((n) => Number.isInteger(n) && n >= 1 && n <= 50)).toBe(true);
      expect(Math.max(...taken)).toBe(50);
      expect(proxy.answered.map((answered, replica) => answered - before[replica]!).every((answered) => answered > 0)).toBe(true);
    });
  });

  describe('tasks any replica can read', () => {
    let fleet: Fleet | undefined;
    beforeAll(async () => {
      // A lease of a few renewals (every second): a killed replica's task fails soon, a live one's never.
      fleet = await startFleet({ FLEET_LEASE_MS: '5000' });
    });
    afterAll(() => fleet?.close());

    it('a task created through one replica is followed through a second and its result read through a third', async () => {
      const [, b, c] = await Promise.all(fleet!.replicas.map((replica) => modernClient(replica.url)));
      const taskId = await sleepTask(fleet!.replicas[0]!.url, 500);
      const seen = await request(b!, 'tasks/get', { taskId });
      expect(seen).toMatchObject({ taskId, status: expect.stringMatching(/^(working|completed)$/) });
      const ended = await untilEnded(c!, taskId);
      expect(ended).toMatchObject({ taskId, status: 'completed', result: { structuredContent: { slept: 500 } } });
      expect(ended['result']).not.toHaveProperty('isError', true);
    });

    it('a task created through one replica is completed from outside through a second and read through a third; an answer that breaks the contract ends its task failed, never delivered', async () => {
      const [a, b, c] = fleet!.replicas;
      // The completer is any client of any replica: here a 2025-11-25 session on b.
      const [completer, reader] = [await legacyClient(b!.url), await modernClient(c!.url)];
      const answer = async (taskId: string, text: string) => (await completer.callTool({ name: 'fleet.answer', arguments: { taskId, answer: text } })) as Result;
      const asked = await createTask(a!.url, 'fleet.ask', { question: 'Ship it?' });
      expect(await request(reader, 'tasks/get', { taskId: asked })).toMatchObject({ status: 'working' });
      expect((await answer(asked, 'yes'))['structuredContent']).toEqual({ status: 'completed' });
      expect(await request(reader, 'tasks/get', { taskId: asked })).toMatchObject({ status: 'completed', result: { structuredContent: { answer: 'yes' } } });
      // Answered once: a second answer finds no pending task, and its completer hears so.
      const again = await answer(asked, 'no');
      expect(again['isError']).toBe(true);
      expect(textOf(again)).toMatch(/^unknown_call: /);

      const breached = await createTask(a!.url, 'fleet.ask', { question: 'Say it at length?' });
      const refused = await answer(breached, 'x'.repeat(101));
      expect(refused['structuredContent']).toMatchObject({ status: 'failed', reason: expect.stringMatching(/^invalid_output: /) });
      const failed = await request(reader, 'tasks/get', { taskId: breached });
      expect(failed).toMatchObject({ status: 'failed', error: { code: expect.any(Number), data: { code: 'invalid_output' } } });
      expect(failed).not.toHaveProperty('result');
    });

    it('a task that asks once it is a task is input_required through every replica; answered through another, its result is read through a third', async () => {
      const { replicas, proxy } = fleet!;
      const [a, b, c] = await Promise.all(replicas.map((replica) => modernClient(replica.url)));
      const balanced = await modernClient(proxy.url);
      const taskId = await createTask(replicas[0]!.url, 'fleet.approve', { item: 'release 1.2', afterMs: 500 });
      const asked = await untilAsked(b!, taskId);
      expect(asked).toMatchObject({ taskId, status: 'input_required', inputRequests: { approve: { method: 'elicitation/create', params: { message: 'Approve release 1.2?' } } } });
      // The same question through each replica, and through the balancer to whichever it picks, three times.
      for (const client of [a!, c!, balanced, balanced, balanced]) expect(await request(client, 'tasks/get', { taskId })).toMatchObject({ status: 'input_required', inputRequests: asked['inputRequests'] as object });
      // Acknowledged (the SDK hands over the empty result without its resultType).
      expect(await request(b!, 'tasks/update', { taskId, inputResponses: approval(true) })).toEqual({});
      expect(await untilEnded(c!, taskId)).toMatchObject({ status: 'completed', result: { structuredContent: { item: 'release 1.2', approved: true } } });
      // Answered again through the balancer (a retry): acknowledged, the first answer stands; an answer for a question never asked is refused.
      expect(await request(balanced, 'tasks/update', { taskId, inputResponses: approval(false) })).toEqual({});
      await expect(request(balanced, 'tasks/update', { taskId, inputResponses: { other: {} } })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('has ended (completed)') });
    });

    it('a replica killed mid-task loses nothing acknowledged, and its running task ends failed once its lease expires, never forever working', async () => {
      const [, b, c] = await Promise.all(fleet!.replicas.map((replica) => modernClient(replica.url)));
      const a = fleet!.replicas[0]!.url;
      // Long enough to outlast the call's first turn, which a call must to become a task.
      const finished = await sleepTask(a, 50);
      const acknowledged = await untilEnded(b!, finished);
      expect(acknowledged).toMatchObject({ status: 'completed', result: { structuredContent: { slept: 50 } } });
      const asked = await createTask(a, 'fleet.ask', { question: 'Still there?' });
      const running = await sleepTask(a, 60_000);
      expect(await request(b!, 'tasks/get', { taskId: running })).toMatchObject({ status: 'working' });
      const approving = await createTask(a, 'fleet.approve', { item: 'the last release', afterMs: 500 });
      expect(await untilAsked(c!, approving)).toMatchObject({ status: 'input_required' });
      await fleet!.replicas[0]!.kill();
      // A task the dead replica created waits in Redis, and is answered through another.
      expect(await b!.callTool({ name: 'fleet.answer', arguments: { taskId: asked, answer: 'yes' } })).toMatchObject({ structuredContent: { status: 'completed' } });
      expect(await request(c!, 'tasks/get', { taskId: asked })).toMatchObject({ status: 'completed', result: { structuredContent: { answer: 'yes' } } });
      const orphaned = await untilEnded(b!, running);
      expect(orphaned).toMatchObject({ taskId: running, status: 'failed', error: { code: expect.any(Number), data: { code: 'lease_expired' } } });
      // The task that asked, its replica gone, ends the same way, never waiting for its TTL; an answer then is refused, not acknowledged.
      expect(await untilEnded(b!, approving)).toMatchObject({ status: 'failed', error: { data: { code: 'lease_expired' } } });
      await expect(request(c!, 'tasks/update', { taskId: approving, inputResponses: approval(true) })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('has ended (failed)') });
      expect(await request(c!, 'tasks/get', { taskId: finished })).toMatchObject({ status: 'completed', result: acknowledged['result'] });
      // The replica comes back on its port and serves the fleet again.
      await fleet!.restart(0);
      expect(await untilEnded(c!, await sleepTask(fleet!.replicas[0]!.url, 50))).toMatchObject({ status: 'completed' });
    });
  });

  describe('eight replicas on one Redis, thousands of open tasks and calls', () => {
    const leaseMs = 5_000;
    let fleet: Fleet | undefined;
    beforeAll(async () => {
      fleet = await startFleet({ FLEET_BUDGET: '100', FLEET_LEASE_MS: String(leaseMs) }, 8);
    });
    afterAll(() => fleet?.close());

    /** `act(0)` … `act(count - 1)`, at most 200 at a time: the results in order. */
    async function inBatches<T>(count: number, act: (index: number) => Promise<T>): Promise<T[]> {
      const results: T[] = [];
      for (let start = 0; start < count; start += 200) results.push(...(await Promise.all(Array.from({ length: Math.min(200, count - start) }, (_, offset) => act(start + offset)))));
      return results;
    }

    it('keeps the budget exact, and every task readable and answerable through any replica, its lease held while it waits', async () => {
      const { replicas } = fleet!;
      const clients = await Promise.all(replicas.map((replica) => modernClient(replica.url)));
      // Each step goes through another replica than the one before: `at(i + k)` is the k-th after the one that made task i.
      const at = (index: number) => clients[index % clients.length]!;
      const tasks = 1_600;
      const opened = Date.now();
      const approving = await inBatches(tasks, (i) => createTask(replicas[i % replicas.length]!.url, 'fleet.approve', { item: `item ${i}`, afterMs: 1_000 }));
      const asking = await inBatches(tasks, (i) => createTask(replicas[i % replicas.length]!.url, 'fleet.ask', { question: `question ${i}?` }));
      // While all of them are open: 1,000 budgeted calls at once over the eight, exactly 100 complete.
      const counted = await Promise.all(Array.from({ length: 1_000 }, (_, i) => count(at(i))));
      expect(counted.filter((result) => result['isError'] !== true)).toHaveLength(100);
      expect(counted.filter((result) => result['isError'] === true && !textOf(result).startsWith('budget_exhausted: ')).map(textOf)).toEqual([]);
      // Every task read through another replica than made it: the approvals ask, the questions wait.
      await inBatches(tasks, async (i) => expect(await untilAsked(at(i + 1), approving[i]!)).toMatchObject({ status: 'input_required', inputRequests: { approve: { params: { message: `Approve item ${i}?` } } } }));
      await inBatches(tasks, async (i) => expect(await request(at(i + 3), 'tasks/get', { taskId: asking[i] })).toMatchObject({ status: 'working' }));
      // Held open for two leases, renewed all the while by the replicas that run them.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, opened + 2 * leaseMs - Date.now())));
      await inBatches(tasks, (i) => request(at(i + 2), 'tasks/update', { taskId: approving[i], inputResponses: approval(i % 2 === 0) }));
      await inBatches(tasks, async (i) => expect((await at(i + 5).callTool({ name: 'fleet.answer', arguments: { taskId: asking[i], answer: `answer ${i}` } }))['structuredContent']).toEqual({ status: 'completed' }));
      await inBatches(tasks, async (i) => expect(await untilEnded(at(i + 4), approving[i]!)).toMatchObject({ status: 'completed', result: { structuredContent: { item: `item ${i}`, approved: i % 2 === 0 } } }));
      await inBatches(tasks, async (i) => expect(await request(at(i + 6), 'tasks/get', { taskId: asking[i] })).toMatchObject({ status: 'completed', result: { structuredContent: { answer: `answer ${i}` } } }));
      expect(textOf(await count(at(7)))).toMatch(/^budget_exhausted: /);
    });
  });

  describe('Redis stopped and restarted mid-run', () => {
    let fleet: Fleet | undefined;
    beforeAll(async () => {
      fleet = await startFleet({ FLEET_BUDGET: '20' });
    });
    afterAll(() => fleet?.close());

    it('denies every budgeted call with store_unavailable while Redis is down, allows none past the budget, and serves again once it is back', async () => {
      const { proxy, redis } = fleet!;
      const clients = [await modernClient(proxy.url), await legacyClient(proxy.url)];
      const first = await Promise.all(Array.from({ length: 10 }, (_, index) => count(clients[index % 2]!)));
      expect(first.filter((result) => result['isError'] === true).map(textOf)).toEqual([]);
      const asked = await createTask(proxy.url, 'fleet.ask', { question: 'Through an outage?' });
      await redis.stop();
      const down = await Promise.all(Array.from({ length: 60 }, (_, index) => count(clients[index % 2]!)));
      expect(down.filter((result) => result['isError'] !== true)).toEqual([]);
      expect(down.filter((result) => !textOf(result).startsWith('store_unavailable: ')).map(textOf)).toEqual([]);
      // A task cannot be created without the store to keep it: refused at once, never a task nobody can read.
      const task = await callOnTheWire(proxy.url, 'fleet.sleep', { ms: 100 });
      expect(task).toMatchObject({ isError: true });
      expect(textOf(task)).toMatch(/^store_unavailable: /);
      // A task cannot be read, and an answer not stored: each says why, and the answer's completer hears it.
      await expect(request(clients[0]!, 'tasks/get', { taskId: asked })).rejects.toMatchObject({ code: -32603, message: expect.stringContaining('store') });
      const unanswered = (await clients[1]!.callTool({ name: 'fleet.answer', arguments: { taskId: asked, answer: 'yes' } })) as Result;
      expect(unanswered['isError']).toBe(true);
      expect(textOf(unanswered)).toMatch(/^store_unavailable: /);
      // Back, empty (the test's Redis keeps nothing on disk): the fleet's budget starts again from 0, and holds.
      await redis.restart();
      let resumed = await count(clients[0]!);
      while (textOf(resumed).startsWith('store_unavailable: ')) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        resumed = await count(clients[0]!);
      }
      const after = [resumed, ...(await Promise.all(Array.from({ length: 100 }, (_, index) => count(clients[index % 2]!))))];
      const completed = after.filter((result) => result['isError'] !== true);
      expect(completed).toHaveLength(20);
      expect(after.filter((result) => result['isError'] === true && !textOf(result).startsWith('budget_exhausted: ')).map(textOf)).toEqual([]);
    });
  });
});
