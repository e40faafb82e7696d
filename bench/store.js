// A budgeted call through the runtime's store, the price a fleet pays per call: `npm run bench`
// runs this after run.js. Method: bench/README.md ("Budgeted call through a store"). Starts its
// own redis-server on loopback (scripts/redis-server.js) and says so; without one the Redis row is
// skipped with the reason. Writes bench/results/store.json.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CapabilityRuntime, memoryStore } from '@json-tool-contracts/runtime';
import { connectRedisStore } from '@json-tool-contracts/runtime/redis';
import { compileContracts } from '../dist/compiler.js';
import { redisServerProblem, startRedisServer } from '../scripts/redis-server.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'bench', 'results');
const work = join(outDir, 'store');
const quick = process.argv.includes('--quick');
const calls = quick ? 2_000 : 20_000;
const warmUp = quick ? 500 : 2_000;

// fleet.count of examples/fleet: a budgeted tool with an empty input and a one-field output.
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const file = 'fleet_count.contract.json';
const source = { file, text: readFileSync(join(root, 'examples/fleet/contracts', file), 'utf8') };
for (const built of compileContracts([source], { emit: 'js' }).files) writeFileSync(join(work, built.path), built.text);
const { fleetCount } = await import(pathToFileURL(join(work, 'index.mjs')).href);

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

const rows = [
  { store: 'none (the runtime keeps the budget)', ...(await measure(undefined)) },
  { store: 'memoryStore()', ...(await measure(memoryStore())) },
];
if (redisServerProblem === undefined) {
  const redis = await startRedisServer();
  console.log(`started a private redis-server for the benchmark on ${redis.url} (no persistence; stopped at the end)`);
  const connection = await connectRedisStore({ url: redis.url, prefix: 'bench:' });
  try {
    rows.push({ store: 'Redis on loopback (connectRedisStore)', ...(await measure(connection.store)) });
  } finally {
    await connection.close();
    await redis.stop();
  }
} else {
  console.log(`the Redis row is skipped: it needs Debian's redis-server (${redisServerProblem})`);
}

const pad = (text, width) => String(text).padEnd(width);
console.log(`\nbudgeted call (callAsync of fleet.count), one at a time, ${calls.toLocaleString('en')} calls: µs per call\n`);
console.log(`${pad('store', 40)}${pad('p50', 10)}p99`);
for (const row of rows) console.log(`${pad(row.store, 40)}${pad(row.p50Us.toFixed(1), 10)}${row.p99Us.toFixed(1)}`);
writeFileSync(join(outDir, 'store.json'), JSON.stringify({ calls, rows, redis: redisServerProblem ?? 'started' }, null, 2));
console.log(`\nwrote ${join('bench', 'results', 'store.json')}`);
