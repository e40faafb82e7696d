// One replica of a fleet (docs/fleet.md): the tools of contracts/ (compiled by `jtc build --emit js`
// into generated/) on a runtime whose store is Redis, served over Streamable HTTP at both MCP
// revisions by the runtime's own mcpHttpHandler. Every replica started on the same Redis (and key
// prefix) is the same server: fleet.count's budget is one budget for all of them, and a task
// (fleet.sleep, fleet.ask, fleet.approve) created through one replica is read, answered (tasks/update,
// fleet.answer) and cancelled through any other.
//   REDIS_URL=redis://127.0.0.1:6379 PORT=3001 npm run example:fleet   ->  http://127.0.0.1:3001/mcp
// (`example:fleet` builds the contracts, then serves; for several replicas build once with
// `npm run example:fleet:build` and start each with `npm run example:fleet:serve`: docs/fleet.md.)
// Environment:
//   REDIS_URL              the fleet's Redis (default redis://127.0.0.1:6379)
//   PORT                   the loopback port to serve on (default 3000)
//   FLEET_BUDGET           the calls fleet.count may complete, across the fleet (default 50)
//   FLEET_KEY_PREFIX       what every key of this fleet starts with (default jtc:fleet:)
//   FLEET_LEASE_MS         how long a task whose replica died reads as working before it fails (default the runtime's 30,000)
//   MCP_REQUEST_STATE_KEY  the key every replica seals 2026-07-28 requestState with (at least 32
//                          bytes); without it each replica makes its own and a retry must reach the same one
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { CapabilityRuntime } from '@json-tool-contracts/runtime';
import { mcpElicit } from '@json-tool-contracts/runtime/mcp';
import { mcpHttpHandler, mcpNodeListener } from '@json-tool-contracts/runtime/mcp/http';
import { connectRedisStore } from '@json-tool-contracts/runtime/redis';
import { z } from 'zod';
import { contracts } from './generated/index.mjs';

/** A whole number from the environment, or the default when the variable is unset. */
function wholeNumber(name, fallback, minimum = 0) {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < minimum) throw new RangeError(`${name} must be a whole number of at least ${minimum}, got ${JSON.stringify(text)}`);
  return value;
}

const port = wholeNumber('PORT', 3000, 1);
const budget = wholeNumber('FLEET_BUDGET', 50);
const leaseMs = wholeNumber('FLEET_LEASE_MS', undefined, 1);

// One line per outage, not one per reconnection attempt: the calls' store_unavailable denials say the rest.
let outage = false;
const redis = await connectRedisStore({
  prefix: process.env.FLEET_KEY_PREFIX || 'jtc:fleet:',
  onError: (error) => {
    if (!outage) console.error(`Redis is unreachable (${error.message}): budgeted calls and tasks are denied with store_unavailable until it is back`);
    outage = true;
  },
});
redis.client.on('ready', () => {
  if (outage) console.error('Redis is back');
  outage = false;
});

const runtime = new CapabilityRuntime({ store: redis.store, ...(leaseMs === undefined ? {} : { leaseMs }) });
runtime.registerAll(contracts, {
  // The budget is reserved in Redis before the handler runs; n reads how much of it the fleet has taken.
  fleetCount: { budget, handler: async () => ({ n: budget - (await runtime.remainingCallsAsync('fleet.count')) }) },
  // Aborted when the task is cancelled: the timer goes with it.
  fleetSleep: async ({ ms }, request) => {
    await sleep(ms, undefined, { signal: request.signal });
    return { slept: ms };
  },
  // Asks once it is a task: the question waits in Redis, where tasks/update through any replica answers it.
  fleetApprove: async ({ item, afterMs }, request) => {
    await sleep(afterMs, undefined, { signal: request.signal });
    const answer = await mcpElicit(request, {
      key: 'approve',
      message: `Approve ${item}?`,
      requestedSchema: { type: 'object', properties: { approve: { type: 'boolean' } }, required: ['approve'] },
      validator: z.object({ approve: z.boolean() }),
    });
    return { item, approved: answer.status === 'accepted' && answer.value.approve };
  },
  // Served outside the process: the call waits in Redis, pending, for whoever answers it.
  fleetAsk: { protocol: true },
  // The outside, as a tool: completes a fleet.ask task (its id is the call's) on whichever replica this call reaches.
  // What cannot complete it (no such pending task, Redis away) is this call's error, for the completer to hear.
  fleetAnswer: async ({ taskId, answer }) => {
    const result = await runtime.completeAsync(taskId, { answer });
    return result.ok ? { status: 'completed' } : { status: 'failed', reason: `${result.error.code}: ${result.error.message}` };
  },
});

// One handler for the process: the requestState key is derived once, not per request.
const requestState = process.env.MCP_REQUEST_STATE_KEY === undefined ? {} : { key: process.env.MCP_REQUEST_STATE_KEY };
const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
// fleet.sleep and fleet.approve become tasks for a 2026-07-28 client that declares the tasks extension,
// once they outlast their first turn; fleet.ask is only ever a task (a client that does not declare the extension is refused).
const tasks = { tools: { 'fleet.sleep': 'optional', 'fleet.approve': 'optional', 'fleet.ask': 'required' } };
const handler = mcpHttpHandler(runtime, { serverInfo: { name: 'jtc-fleet', version: '1.0.0' }, allowedHosts, requestState, tasks });
createServer(mcpNodeListener(handler)).listen(port, '127.0.0.1', () => console.log(`MCP server on http://127.0.0.1:${port}/mcp`));
