// A budgeted call through the runtime's store, the price a fleet pays per call, and what a replica
// pays to hold deferred calls open (an MCP task each): `npm run bench` runs this after run.js.
// Method: bench/README.md ("Budgeted call through a store", "Open deferred calls"). Starts its own
// redis-server on loopback (scripts/redis-server.js) and says so; without one the Redis rows are
// skipped with the reason. Writes bench/results/store.json.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { settledHeap } from './heap.js';
import { CapabilityRuntime, memoryStore } from '@json-tool-contracts/runtime';
import { connectRedisStore, redisStore } from '@json-tool-contracts/runtime/redis';
import { compileContracts } from '../dist/compiler.js';
import { redisServerProblem, startRedisServer } from '../scripts/redis-server.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'bench', 'results');
const work = join(outDir, 'store');
const quick = process.argv.includes('--quick');
const calls = quick ? 2_000 : 20_000;
const warmUp = quick ? 500 : 2_000;

// fleet.count of examples/fleet: a budgeted tool with an empty input and a one-field output; fleet.sleep, a task.
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const sources = ['fleet_count.contract.json', 'fleet_sleep.contract.json'].map((file) => ({ file, text: readFileSync(join(root, 'examples/fleet/contracts', file), 'utf8') }));
for (const built of compileContracts(sources, { emit: 'js' }).files) writeFileSync(join(work, built.path), built.text);
const { fleetCount, fleetSleep } = await import(pathToFileURL(join(work, 'index.mjs')).href);

/** Per-call latency of `callAsync` of the budgeted tool, one call at a time: p50 and p99 in µs. */
async function measure(store) {
  const runtime = new CapabilityRuntime(store === undefined ? {} : { store });
  // A budget the run never uses up: every call is reserved, none refused.
  runtime.registerAll({ fleetCount }, { fleetCount: { budget: Number.MAX_SAFE_INTEGER, handler: () => ({ n: 1 }) } });
  for (let i = 0; i < warmUp; i++) await runtime.callAsync('fleet.count', {});
  const times = new Float64Array(calls);
  for (let i = 0; i < calls; i++) {
    const start = process.hrtime.bigint();
    const result = await runtime.callAsync('fleet.count', {});
    times[i] = Number(process.hrtime.bigint() - start) / 1_000;
    if (!result.ok) throw new Error(`the budgeted call failed: ${result.error.code}: ${result.error.message}`);
  }
  times.sort();
  return { p50Us: times[Math.floor(calls * 0.5)], p99Us: times[Math.floor(calls * 0.99)] };
}

const openCalls = quick ? 2_000 : 20_000;
const idleMs = quick ? 2_000 : 5_000;

/**
 * `openCalls` deferred calls of fleet.sleep held open (their handlers wait), made through one
 * runtime on the store: the heap each costs, the CPU the runtime spends per idle second polling
 * them (renewing its lease, hearing of changes), and how many commands that sends per second.
 */
async function holdOpen(store, counted) {
  let finish;
  const finishing = new Promise((resolve) => (finish = resolve));
  const runtime = new CapabilityRuntime({ ...(store === undefined ? {} : { store }), maxDeferredCalls: openCalls });
  runtime.registerAll(
    { fleetSleep },
    {
      fleetSleep: async ({ ms }) => {
        await finishing;
        return { slept: ms };
      },
    },
  );
  const before = await settledHeap();
  const handles = [];
  for (let start = 0; start < openCalls; start += 500) handles.push(...(await Promise.all(Array.from({ length: 500 }, () => runtime.deferAsync('fleet.sleep', { ms: 0 })))));
  const heldBytes = (await settledHeap()) - before;
  const commands = counted?.sent ?? 0;
  const cpu = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, idleMs));
  const used = process.cpuUsage(cpu);
  const row = { bytesPerCall: Math.round(heldBytes / openCalls), cpuMsPerIdleSecond: (used.user + used.system) / 1_000 / (idleMs / 1_000), commandsPerIdleSecond: counted === undefined ? undefined : ((counted.sent - commands) * 1_000) / idleMs };
  finish();
  await Promise.all(handles.map((handle) => handle.result));
  return row;
}

const rows = [
  { store: 'none (the runtime keeps the budget)', ...(await measure(undefined)) },
  { store: 'memoryStore()', ...(await measure(memoryStore())) },
];
const held = [
  { store: 'none (the runtime keeps them)', ...(await holdOpen(undefined)) },
  { store: 'memoryStore()', ...(await holdOpen(memoryStore())) },
];
if (redisServerProblem === undefined) {
  const redis = await startRedisServer();
  console.log(`started a private redis-server for the benchmark on ${redis.url} (no persistence; stopped at the end)`);
  const connection = await connectRedisStore({ url: redis.url, prefix: 'bench:' });
  const counted = { sent: 0 };
  const client = connection.client;
  try {
    rows.push({ store: 'Redis on loopback (connectRedisStore)', ...(await measure(connection.store)) });
    const countingStore = redisStore(
      {
        sendCommand(args) {
          counted.sent++;
          return client.sendCommand(args);
        },
      },
      { prefix: 'bench-open:' },
    );
    held.push({ store: 'Redis on loopback (connectRedisStore)', ...(await holdOpen(countingStore, counted)) });
  } finally {
    await connection.close();
    await redis.stop();
  }
} else {
  console.log(`the Redis rows are skipped: they need Debian's redis-server (${redisServerProblem})`);
}

const pad = (text, width) => String(text).padEnd(width);
console.log(`\nbudgeted call (callAsync of fleet.count), one at a time, ${calls.toLocaleString('en')} calls: µs per call\n`);
console.log(`${pad('store', 40)}${pad('p50', 10)}p99`);
for (const row of rows) console.log(`${pad(row.store, 40)}${pad(row.p50Us.toFixed(1), 10)}${row.p99Us.toFixed(1)}`);
console.log(`\n${openCalls.toLocaleString('en')} open deferred calls (deferAsync of fleet.sleep, handlers waiting), idle for ${idleMs / 1_000} s\n`);
console.log(`${pad('store', 40)}${pad('bytes/call', 12)}${pad('CPU ms/s', 10)}commands/s`);
for (const row of held) console.log(`${pad(row.store, 40)}${pad(row.bytesPerCall, 12)}${pad(row.cpuMsPerIdleSecond.toFixed(1), 10)}${row.commandsPerIdleSecond ?? '-'}`);
writeFileSync(join(outDir, 'store.json'), JSON.stringify({ calls, rows, openCalls, held, redis: redisServerProblem ?? 'started' }, null, 2));
console.log(`\nwrote ${join('bench', 'results', 'store.json')}`);
