// MCP servers as users run them: requests/s, latency and CPU per request of four servers over
// node:http, each behind the same listener (`mcpNodeListener`), loaded by autocannon from this process.
// `npm run bench` runs this after store.js. Method: bench/README.md ("MCP servers"). Writes
// bench/results/server.json. `--quick`: one round, shorter loads, profiles of the largest tool set only; `--tools=2,20`: those sets only.
//
// Each server is a child process of this script (`--serve`), so the load generator and the server
// each have a process of their own; the child reports its CPU time (`process.cpuUsage`) when asked.
import { fork } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'bench', 'results');
const work = join(outDir, 'server');
const self = fileURLToPath(import.meta.url);

/** The values of a `--name=a,b` option, or undefined. */
const listOption = (name) =>
  process.argv
    .find((arg) => arg.startsWith(`--${name}=`))
    ?.split('=')[1]
    .split(',');
/** The servers: ours alone, SDK v2 with our runtime, with zod 4, with its own fromJsonSchema, and with no schemas. */
const allVariants = {
  ours: 'our mcpHttpHandler',
  'sdk+ours': 'SDK v2 + serveToolsOnMcpServer',
  'sdk+zod': 'SDK v2 + zod 4',
  'sdk+fromJsonSchema': 'SDK v2 + fromJsonSchema',
  // No validator at all: the most any validator served through SDK v2's McpServer can reach.
  'sdk+none': 'SDK v2, no schemas (ceiling)',
};
/** `--variants=ours,sdk+ours` measures only those (SDK v2 + zod, the anchor, always). */
const chosen = listOption('variants');
const variants = Object.fromEntries(Object.entries(allVariants).filter(([name]) => chosen === undefined || chosen.includes(name) || name === 'sdk+zod'));
const anchor = 'sdk+zod';
/** `--tools=2,20` measures only those tool sets. */
const toolCounts = (listOption('tools') ?? [2, 20, 200]).map(Number);
/** The two tools called: a small one (two numbers in, one out) and a large one (a search with filters, a list of issues out). */
const calledTools = ['everything.get_sum', 'github.list_issues'];
const wires = ['2026-07-28', '2025-11-25'];

if (process.argv[2] === '--serve') await serve(process.argv[3], process.argv[4]);
// `--print`: the tables of the last run again, from bench/results/server.json.
else if (process.argv.includes('--print')) print(JSON.parse(readFileSync(join(outDir, 'server.json'), 'utf8')));
else await main();

// ---- the servers (child processes)

async function serve(variant, dir) {
  const { createServer } = await import('node:http');
  const { mcpNodeListener } = await import('@json-tool-contracts/runtime/mcp/http');
  const { serverHandler } = await import('./server-handlers.js');
  const handler = await serverHandler(variant, dir);

  const server = createServer(mcpNodeListener(handler));
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  // The profile is taken from here while the load runs, so that start-up and module loading stay out of it.
  const { Session } = await import('node:inspector');
  const inspector = new Session();
  const post = (method, params = {}) => new Promise((resolve, reject) => inspector.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
  // Whatever becomes of the script (a failed check, ^C), its servers end with it.
  process.on('disconnect', () => process.exit(0));
  process.on('message', async (message) => {
    if (message === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send({ cpuUs: user + system });
    } else if (message === 'profile') {
      inspector.connect();
      await post('Profiler.enable');
      await post('Profiler.setSamplingInterval', { interval: 250 });
      await post('Profiler.start');
      process.send({ profiling: true });
    } else if (message === 'profiled') {
      const { profile } = await post('Profiler.stop');
      process.send({ profile });
    }
  });
}

// ---- the load, the rounds and the figures (this process)

async function main() {
  const { default: autocannon } = await import('autocannon');
  const { compileContracts } = await import('../dist/compiler.js');
  const { discoverContracts } = await import('../dist/contract/discover.js');
  const quick = process.argv.includes('--quick');
  const rounds = quick ? 1 : 3;
  const seconds = quick ? 1 : 2;
  const profileSeconds = quick ? 2 : 4;
  const connections = 32;

  rmSync(work, { recursive: true, force: true });
  const corpus = discoverContracts([join(root, 'fixtures/corpus')]).map((file) => ({
    source: JSON.parse(readFileSync(file, 'utf8')),
    samples: JSON.parse(readFileSync(file.replace('.contract.json', '.samples.json'), 'utf8')),
  }));
  // The called tools first, so that every tool set serves them.
  corpus.sort((a, b) => Number(calledTools.includes(b.source.name)) - Number(calledTools.includes(a.source.name)));
  /** A richer sample than the first where there is one: what a real call sends and answers. */
  const sample = (samples) => samples.valid[Math.min(1, samples.valid.length - 1)];

  /** N tools: the corpus, repeated under other names beyond 20 (`git.log` → `git.log_3`), compiled by our compiler. */
  function writeToolSet(count) {
    const dir = join(work, `tools-${count}`);
    mkdirSync(join(dir, 'gen'), { recursive: true });
    const tools = Array.from({ length: count }, (_, i) => {
      const { source, samples } = corpus[i % corpus.length];
      const round = Math.floor(i / corpus.length);
      const { $id: _inputId, ...input } = source.input;
      const { $id: _outputId, ...output } = source.output;
      const named = round === 0 ? source : { ...source, name: `${source.name}_${round}`, input, output };
      return { name: named.name, description: named.description, input: named.input, output: named.output, call: sample(samples.input), answer: sample(samples.output) };
    });
    const sources = tools.map((tool) => ({ file: `${tool.name}.contract.json`, text: JSON.stringify({ name: tool.name, description: tool.description, input: tool.input, output: tool.output }) }));
    for (const file of compileContracts(sources, { emit: 'js' }).files) writeFileSync(join(dir, 'gen', file.path), file.text);
    writeFileSync(join(dir, 'tools.json'), JSON.stringify(tools.map(({ name, description, input, output, answer }) => ({ name, description, input, output, answer }))));
    return { dir, calls: new Map(tools.filter((tool) => calledTools.includes(tool.name)).map((tool) => [tool.name, tool])) };
  }

  function start(variant, dir, execArgv = []) {
    const child = fork(self, ['--serve', variant, dir], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`the ${variant} server exited with ${code} before it listened`)));
      child.once('message', ({ port }) => {
        child.removeAllListeners('exit');
        resolve({ child, url: `http://127.0.0.1:${port}/mcp` });
      });
    });
  }
  const ask = (child, message) =>
    new Promise((resolve) => {
      child.once('message', resolve);
      child.send(message);
    });

  const accept = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
  const modernMeta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  /** A 2025-11-25 session as SDK v2's client opens one: initialize, then notifications/initialized. */
  async function openSession(url) {
    const response = await fetch(url, { method: 'POST', headers: accept, body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1.0.0' } } }) });
    const sessionId = response.headers.get('mcp-session-id');
    await response.text();
    if (sessionId === null) throw new Error(`${url}: initialize answered no session`);
    const headers = { ...accept, 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': sessionId };
    await (await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
    return headers;
  }
  /** The request of one cell: its headers and its body around the JSON-RPC id (each request its own id). */
  function callRequest(wire, tool, sessionHeaders) {
    const params = wire === '2026-07-28' ? { name: tool.name, arguments: tool.call, _meta: modernMeta } : { name: tool.name, arguments: tool.call };
    const headers = wire === '2026-07-28' ? { ...accept, 'mcp-method': 'tools/call', 'mcp-name': tool.name, 'mcp-protocol-version': '2026-07-28' } : sessionHeaders;
    const [before, after] = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'tools/call', params }).split('"id":0');
    return { headers, body: (id) => `${before}"id":${id}${after}` };
  }
  /** Before anything is timed: every server answers every call with the tool's output, as structuredContent. */
  async function verify(label, url, request, tool) {
    const response = await fetch(url, { method: 'POST', headers: request.headers, body: request.body(1) });
    const text = await response.text();
    const json = JSON.parse(response.headers.get('content-type')?.includes('event-stream') ? /^data: (.*)$/m.exec(text)[1] : text);
    const result = json.result;
    const expected = JSON.stringify(tool.answer);
    // SDK v2 at 2025-11-25 wraps structuredContent as { result } where the schema it advertises has no object root (zod's conversion).
    const wrapped = JSON.stringify(result?.structuredContent?.result) === expected;
    if (response.status !== 200 || result === undefined || result.isError === true || (JSON.stringify(result.structuredContent) !== expected && !wrapped)) {
      throw new Error(`${label}: the call of ${tool.name} was not answered with its output: ${response.status} ${text.slice(0, 400)}`);
    }
    if (wrapped) notes.add(`${label}: ${tool.name}'s structuredContent arrives wrapped as { result }`);
  }
  const notes = new Set();

  let nextId = 1;
  function load(url, request, duration) {
    return autocannon({
      url,
      connections,
      duration,
      method: 'POST',
      headers: request.headers,
      requests: [{ setupRequest: (req) => ({ ...req, body: request.body(nextId++) }) }],
    });
  }

  console.log(`MCP servers: ${Object.keys(variants).length} variants × ${toolCounts.join('/')} tools × ${wires.join(' and ')} × ${calledTools.join(' and ')}; autocannon, ${connections} connections, ${seconds} s a cell, ${rounds} round(s); load average ${loadavg()[0].toFixed(1)}`);
  const sets = new Map(toolCounts.map((count) => [count, writeToolSet(count)]));
  const cells = [];
  const servers = [];
  for (const count of toolCounts) {
    const { dir, calls } = sets.get(count);
    for (const variant of Object.keys(variants)) {
      const server = await start(variant, dir);
      servers.push(server);
      const session = await openSession(server.url);
      for (const wire of wires) {
        for (const name of calledTools) {
          const tool = calls.get(name);
          const request = callRequest(wire, tool, session);
          await verify(`${variants[variant]}, ${count} tools, ${wire}`, server.url, request, tool);
          cells.push({ variant, count, wire, tool: name, server, request, rounds: [] });
        }
      }
    }
  }
  console.log(`${servers.length} servers answer every call with its output; warming up`);
  for (const note of notes) console.log(`  note: ${note}`);
  const shuffled = (items, seed) => {
    const copy = [...items];
    let state = seed;
    for (let i = copy.length - 1; i > 0; i--) {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      const j = state % (i + 1);
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy;
  };
  // Long enough for V8 to finish compiling each server's path (about 3,000 requests: bench/server-instructions.js), so that the rounds see the steady state.
  for (const cell of cells) await load(cell.server.url, cell.request, quick ? 0.5 : 2);
  const loads = [];
  for (let round = 0; round < rounds; round++) {
    loads.push(loadavg()[0]);
    for (const cell of shuffled(cells, round + 7)) {
      const before = (await ask(cell.server.child, 'cpu')).cpuUs;
      const result = await load(cell.server.url, cell.request, seconds);
      const after = (await ask(cell.server.child, 'cpu')).cpuUs;
      const total = result.requests.total;
      if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) throw new Error(`${variants[cell.variant]}, ${cell.count} tools, ${cell.wire}, ${cell.tool}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
      // A server too slow to answer one request in the cell's time has no CPU figure for that round.
      cell.rounds.push({ rps: total / result.duration, p50Ms: result.latency.p50, p99Ms: result.latency.p99, cpuUsPerRequest: total > 0 ? (after - before) / total : Number.NaN });
    }
    console.log(`round ${round + 1} of ${rounds} done (load average ${loadavg()[0].toFixed(1)})`);
  }
  for (const { child } of servers) child.kill();

  // Ratios to SDK v2 + zod in the same round, for the same tool count, wire and tool.
  const key = (cell) => `${cell.count} ${cell.wire} ${cell.tool}`;
  const anchors = new Map(cells.filter((cell) => cell.variant === anchor).map((cell) => [key(cell), cell]));
  const median = (values) => {
    const known = values.filter(Number.isFinite).sort((a, b) => a - b);
    return known.length === 0 ? Number.NaN : known[Math.floor(known.length / 2)];
  };
  const figures = cells.map((cell) => {
    const ratios = cell.rounds.map((r, i) => r.rps / anchors.get(key(cell)).rounds[i].rps);
    const best = cell.rounds.reduce((a, b) => (b.rps > a.rps ? b : a));
    return { variant: cell.variant, tools: cell.count, wire: cell.wire, tool: cell.tool, rps: best.rps, p50Ms: best.p50Ms, p99Ms: best.p99Ms, cpuUsPerRequest: median(cell.rounds.map((r) => r.cpuUsPerRequest)), ratio: median(ratios), ratioMin: Math.min(...ratios), ratioMax: Math.max(...ratios) };
  });

  // The profile split: one server at a time under load with --cpu-prof, its samples categorised by module URL.
  const profiles = [];
  const profiled = quick ? toolCounts.slice(-1) : toolCounts;
  for (const count of profiled) {
    const { dir, calls } = sets.get(count);
    for (const variant of Object.keys(variants)) {
      for (const name of calledTools) {
        const server = await start(variant, dir);
        const request = callRequest('2026-07-28', calls.get(name), undefined);
        await load(server.url, request, 1);
        await ask(server.child, 'profile');
        await load(server.url, request, profileSeconds);
        const { profile } = await ask(server.child, 'profiled');
        server.child.kill();
        profiles.push({ variant, tools: count, tool: name, wire: '2026-07-28', split: categorised(profile) });
      }
    }
  }

  const machine = { cpus: cpus().length, model: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version };
  const summary = { date: new Date().toISOString(), machine, loadAverages: loads, notes: [...notes], connections, secondsPerCell: seconds, rounds, anchor, variants, figures, profiles, headline: headline(figures) };
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'server.json'), `${JSON.stringify(summary, null, 2)}\n`);
  print(summary);
}

/** Per variant and tool count, the geometric mean over both wires and both tools of the ratio to SDK v2 + zod. */
function headline(figures) {
  const out = {};
  for (const variant of Object.keys(variants)) {
    out[variant] = {};
    for (const count of toolCounts) {
      const ratios = figures.filter((f) => f.variant === variant && f.tools === count).map((f) => f.ratio);
      out[variant][count] = Math.exp(ratios.reduce((sum, r) => sum + Math.log(r), 0) / ratios.length);
    }
  }
  return out;
}

/**
 * Self time by layer, each sample counted where its function's module is: node's own modules (the
 * socket, HTTP parsing, undici's Request and Response) and `mcp/http/exchange.js`, where
 * `mcpNodeListener` reads requests and writes answers for every variant, are HTTP; the MCP SDK; our runtime's MCP adapters (`mcp/`) and its core;
 * validation (the generated modules, zod, ajv); garbage collection; the rest (V8's own work, the
 * bench's handlers). A builtin without a module (JSON.parse, a regular expression) counts where
 * its caller is. Idle time is left out.
 */
function categorised(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  // The McpServer's checks of a tool's arguments and output (zod's or the SDK's ajv) are validation; its own zod schemas of the protocol's messages are MCP.
  const toolChecks = new Set(['validateToolInput', 'validateToolOutput']);
  const checking = new Map();
  const underToolCheck = (id) => {
    if (!checking.has(id)) checking.set(id, toolChecks.has(byId.get(id).callFrame.functionName) || (parent.has(id) && underToolCheck(parent.get(id))));
    return checking.get(id);
  };
  const layerOf = new Map();
  const layer = (id) => {
    if (layerOf.has(id)) return layerOf.get(id);
    const { callFrame } = byId.get(id);
    const { url, functionName } = callFrame;
    let found;
    if (functionName === '(garbage collector)') found = 'gc';
    else if (underToolCheck(id)) found = 'validation';
    else if (/\/@modelcontextprotocol\/server\/dist\/(ajv|cfWorker)Provider-/.test(url)) found = 'validation';
    else if (functionName === '(idle)') found = 'idle';
    else if (functionName === '(program)' || functionName === '(root)') found = 'other';
    else if (url === '') found = parent.has(id) ? layer(parent.get(id)) : 'other';
    else if (url.startsWith('node:')) found = 'http';
    else if (url.includes('/@modelcontextprotocol/')) found = 'mcp';
    else if (url.endsWith('/mcp/http/exchange.js')) found = 'http';
    else if (url.includes('/packages/runtime/dist/mcp/') || url.endsWith('/packages/runtime/dist/core/host-results.js')) found = 'oursMcp';
    else if (url.includes('/packages/runtime/dist/')) found = 'oursRuntime';
    else if (url.includes('/bench/results/server/')) found = 'validation';
    else if (url.includes('/node_modules/zod/')) found = 'mcp';
    else found = 'other';
    layerOf.set(id, found);
    return found;
  };
  const time = {};
  profile.samples.forEach((id, i) => {
    const name = layer(id);
    time[name] = (time[name] ?? 0) + (profile.timeDeltas[i] ?? 0);
  });
  delete time.idle;
  const busy = Object.values(time).reduce((a, b) => a + b, 0);
  return Object.fromEntries(['http', 'mcp', 'oursMcp', 'oursRuntime', 'validation', 'gc', 'other'].map((name) => [name, (time[name] ?? 0) / busy]));
}

function print(summary) {
  const x = (ratio) => `${ratio.toFixed(2)}×`;
  console.log(`\nrequests/s × ${variants[anchor]}'s in the same round (median of rounds, [range]), best round's p50 / p99 ms and CPU µs per request`);
  for (const count of toolCounts) {
    for (const wire of wires) {
      for (const tool of calledTools) {
        console.log(`\n${count} tools, ${wire}, ${tool}`);
        for (const f of summary.figures.filter((f) => f.tools === count && f.wire === wire && f.tool === tool)) {
          console.log(`  ${variants[f.variant].padEnd(32)} ${f.rps.toFixed(0).padStart(6)} req/s  ${x(f.ratio).padStart(6)} [${x(f.ratioMin)}–${x(f.ratioMax)}]  p50 ${f.p50Ms} ms  p99 ${f.p99Ms} ms  ${f.cpuUsPerRequest.toFixed(0)} µs CPU`);
        }
      }
    }
  }
  console.log('\nheadline: geometric mean over both wires and both tools, × SDK v2 + zod');
  for (const [variant, byCount] of Object.entries(summary.headline)) console.log(`  ${variants[variant].padEnd(32)} ${toolCounts.map((count) => `${count} tools ${x(byCount[count])}`).join('  ')}`);
  console.log('\nCPU profile split (2026-07-28 tools/call, self time by layer):');
  const pct = (v) => `${(v * 100).toFixed(1)}%`.padStart(6);
  console.log(`  ${'server'.padEnd(32)} tools tool                  HTTP    MCP SDK ours:MCP ours:rt valid.  GC     other  ours+valid.`);
  for (const p of summary.profiles) {
    const s = p.split;
    const ours = p.variant === 'ours' || p.variant === 'sdk+ours' ? pct(s.oursMcp + s.oursRuntime + s.validation) : '';
    console.log(`  ${variants[p.variant].padEnd(32)} ${String(p.tools).padStart(5)} ${p.tool.padEnd(20)} ${pct(s.http)} ${pct(s.mcp)} ${pct(s.oursMcp)} ${pct(s.oursRuntime)} ${pct(s.validation)} ${pct(s.gc)} ${pct(s.other)}  ${ours}`);
  }
  console.log("\nas docs/performance.md shows it (× SDK v2 + zod: geometric mean over both wires and both tools [the cells' medians, lowest–highest]; CPU µs per request, 2026-07-28, get_sum / list_issues):\n");
  console.log(`| server | ${toolCounts.map((count) => `${count} tools`).join(' | ')} | ${toolCounts.map((count) => `CPU µs, ${count} tools`).join(' | ')} |`);
  console.log(`|---|${toolCounts.map(() => '---|').join('')}${toolCounts.map(() => '---|').join('')}`);
  for (const [variant, byCount] of Object.entries(summary.headline)) {
    const cells = (count) => summary.figures.filter((f) => f.variant === variant && f.tools === count);
    const range = (count) => `${x(Math.min(...cells(count).map((f) => f.ratio)))}–${x(Math.max(...cells(count).map((f) => f.ratio)))}`;
    const cpu = (count) =>
      calledTools
        .map((tool) =>
          cells(count)
            .find((f) => f.wire === '2026-07-28' && f.tool === tool)
            .cpuUsPerRequest.toFixed(0),
        )
        .join(' / ');
    console.log(`| ${variants[variant]} | ${toolCounts.map((count) => `${x(byCount[count])} [${range(count)}]`).join(' | ')} | ${toolCounts.map(cpu).join(' | ')} |`);
  }
  console.log(`\nload averages at each round: ${summary.loadAverages.map((l) => l.toFixed(1)).join(', ')}; machine: ${summary.machine.cpus} × ${summary.machine.model}, Node ${summary.machine.node}`);
}
