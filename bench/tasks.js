// What an open MCP task costs a server, by the layer that holds it: `npm run bench` runs it after
// store.js (`node bench/tasks.js` after `npm run build`; never part of `npm test`). Method: bench/README.md ("Open MCP tasks").
// 5,000 calls of fleet.sleep whose handlers wait, made three ways on a runtime of their own: as
// deferred calls (`deferAsync`, the core's share), as tasks through `mcpToolHandlers(…).callTool`
// with a bare 2026-07-28 request (the MCP layer's), and as tasks through `mcpHttpHandler`'s `fetch`
// (the HTTP layer's, each response read to its end as a client does). Prints the heap each open
// call holds after a full collection, and the CPU per idle second over 2 s; writes nothing.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { settledHeap } from './heap.js';
import { CapabilityRuntime } from '@json-tool-contracts/runtime';
import { mcpToolHandlers } from '@json-tool-contracts/runtime/mcp';
import { mcpHttpHandler } from '@json-tool-contracts/runtime/mcp/http';
import { compileContracts } from '../dist/compiler.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = join(root, 'bench', 'results', 'tasks');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const text = readFileSync(join(root, 'examples/fleet/contracts/fleet_sleep.contract.json'), 'utf8');
for (const built of compileContracts([{ file: 'fleet_sleep.contract.json', text }], { emit: 'js' }).files) writeFileSync(join(work, built.path), built.text);
const { fleetSleep } = await import(pathToFileURL(join(work, 'index.mjs')).href);

const openCalls = 5_000;
const idleMs = 2_000;
const tasks = { tools: { 'fleet.sleep': 'optional' } };
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } };

/** A runtime whose fleet.sleep waits until `finish` is called; `open(i)` opens call i one way. */
async function hold(way, open) {
  let finish;
  const finishing = new Promise((resolve) => (finish = resolve));
  const runtime = new CapabilityRuntime({ maxDeferredCalls: openCalls });
  runtime.registerAll(
    { fleetSleep },
    {
      fleetSleep: async ({ ms }) => {
        await finishing;
        return { slept: ms };
      },
    },
  );
  const opener = open(runtime);
  const before = await settledHeap();
  for (let start = 0; start < openCalls; start += 500) await Promise.all(Array.from({ length: 500 }, (_, i) => opener(start + i)));
  const held = (await settledHeap()) - before;
  const cpu = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, idleMs));
  const used = process.cpuUsage(cpu);
  finish();
  await new Promise((resolve) => setTimeout(resolve, 100));
  return { way, bytesPerTask: Math.round(held / openCalls), cpuMsPerIdleSecond: (used.user + used.system) / 1_000 / (idleMs / 1_000) };
}

const checkTask = (result) => {
  if (result.resultType !== 'task') throw new Error(`expected a task, got ${JSON.stringify(result).slice(0, 200)}`);
};

const rows = [
  await hold('deferAsync (the core)', (runtime) => (i) => runtime.deferAsync('fleet.sleep', { ms: i })),
  await hold('mcpToolHandlers().callTool (the MCP layer)', (runtime) => {
    const mcp = mcpToolHandlers(runtime, { tasks, requestState: { key: 'a key of at least thirty-two bytes, for the bench' } });
    return async (i) => checkTask(await mcp.callTool({ name: 'fleet.sleep', arguments: { ms: i }, _meta: meta }));
  }),
  await hold('mcpHttpHandler().fetch (the HTTP layer)', (runtime) => {
    const http = mcpHttpHandler(runtime, { serverInfo: { name: 'bench', version: '1' }, tasks, requestState: { key: 'a key of at least thirty-two bytes, for the bench' } });
    return async (i) => {
      const response = await http.fetch(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'fleet.sleep' },
          body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'fleet.sleep', arguments: { ms: i }, _meta: meta } }),
        }),
      );
      checkTask((await response.json()).result);
    };
  }),
];

const pad = (value, width) => String(value).padEnd(width);
console.log(`\n${openCalls.toLocaleString('en')} open calls of fleet.sleep (handlers waiting), idle ${idleMs / 1_000} s\n`);
console.log(`${pad('made through', 46)}${pad('bytes per open call', 22)}CPU ms per idle second`);
for (const row of rows) console.log(`${pad(row.way, 46)}${pad(row.bytesPerTask.toLocaleString('en'), 22)}${row.cpuMsPerIdleSecond.toFixed(1)}`);
rmSync(work, { recursive: true, force: true });
