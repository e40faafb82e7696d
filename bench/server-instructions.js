// Instructions per 2026-07-28 tools/call of bench/server.js's SDK servers, counted by valgrind's
// callgrind, where wall-clock time is no measure (a loaded machine). Each server's handler is
// called in process (`fetch(new Request(...))`, no socket), with the request bench/server.js sends,
// after a warm-up; the figure is the difference of two run lengths divided by the difference of
// their requests, so that start-up, warm-up and exit cancel.
//
//   node bench/server.js --quick --tools=2,20   (once: writes the tool sets, bench/results/server/tools-N)
//   node bench/server-instructions.js [--tools=2,20] [--variants=sdk+ours,sdk+none] [--tool=everything.get_sum] [--requests=200,800] [--warm-up=3000] [--jobs=3]
//   node bench/server-instructions.js --run sdk+ours 2 everything.get_sum 200 500   (one run, as valgrind runs it)
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = join(root, 'bench', 'results', 'server');
const self = fileURLToPath(import.meta.url);
const option = (name, fallback) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;

if (process.argv[2] === '--run') await run(process.argv[3], Number(process.argv[4]), process.argv[5], Number(process.argv[6]), Number(process.argv[7]));
else await main();

/** One run: `warmUp` requests, then `requests` more, each answered with the tool's output as structuredContent. */
async function run(variant, toolCount, toolName, requests, warmUp) {
  const { serverHandler } = await import('./server-handlers.js');
  const dir = join(work, `tools-${toolCount}`);
  const handler = await serverHandler(variant, dir);
  const tool = JSON.parse(readFileSync(join(dir, 'tools.json'), 'utf8')).find((candidate) => candidate.name === toolName);
  const samples = JSON.parse(readFileSync(join(root, 'fixtures', 'corpus', `${toolName}.samples.json`), 'utf8'));
  // bench/server.js's call: the second valid sample, the 2026-07-28 envelope in _meta, its headers.
  const call = samples.input.valid[Math.min(1, samples.input.valid.length - 1)];
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-method': 'tools/call', 'mcp-name': toolName, 'mcp-protocol-version': '2026-07-28' };
  const expected = JSON.stringify(tool.answer);
  const once = async (id) => {
    const request = new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: toolName, arguments: call, _meta: meta } }) });
    const response = await handler.fetch(request);
    return { status: response.status, text: await response.text() };
  };
  const first = await once(0);
  const answered = JSON.parse(first.text).result;
  if (first.status !== 200 || JSON.stringify(answered?.structuredContent) !== expected) throw new Error(`${variant}: ${toolName} was not answered with its output: ${first.status} ${first.text.slice(0, 400)}`);
  for (let id = 1; id <= warmUp + requests; id++) await once(id);
}

/** Every chosen variant at both run lengths under callgrind, `--jobs` at a time; instructions per request. */
async function main() {
  const toolCounts = option('tools', '2,20').split(',').map(Number);
  const chosen = option('variants', 'sdk+ours,sdk+none,sdk+fromJsonSchema').split(',');
  const toolName = option('tool', 'everything.get_sum');
  const [short, long] = option('requests', '200,800').split(',').map(Number);
  // Node 20's optimizing compiler is still at work 2,500 requests in (--trace-opt): a shorter warm-up counts compiling as the requests' cost.
  const warmUp = Number(option('warm-up', '3000'));
  // Valgrind runs a program many times slower: one run at a time would take long on a machine others share too.
  const parallel = Number(option('jobs', '3'));
  const jobs = toolCounts.flatMap((count) => chosen.flatMap((variant) => [short, long].map((requests) => ({ variant, count, requests }))));
  const counted = new Map();
  const next = async () => {
    for (let job = jobs.shift(); job !== undefined; job = jobs.shift()) counted.set(`${job.variant} ${job.count} ${job.requests}`, await instructions(job.variant, job.count, toolName, job.requests, warmUp));
  };
  await Promise.all(Array.from({ length: parallel }, next));
  console.log(`instructions per 2026-07-28 tools/call of ${toolName} (callgrind; runs of ${short} and ${long} requests after ${warmUp} of warm-up)`);
  for (const count of toolCounts) {
    for (const variant of chosen) {
      const perRequest = (counted.get(`${variant} ${count} ${long}`) - counted.get(`${variant} ${count} ${short}`)) / (long - short);
      console.log(`  ${String(count).padStart(3)} tools  ${variant.padEnd(20)} ${Math.round(perRequest).toLocaleString('en').padStart(12)}`);
    }
  }
}

/** The instructions of one run under callgrind (node with one thread, so that the count is the run's own). */
function instructions(variant, count, toolName, requests, warmUp) {
  const out = join(tmpdir(), `server-instructions-${process.pid}-${variant}-${count}-${requests}.out`);
  const args = ['--tool=callgrind', `--callgrind-out-file=${out}`, process.execPath, '--single-threaded', self, '--run', variant, String(count), toolName, String(requests), String(warmUp)];
  return new Promise((resolve, reject) => {
    execFile('valgrind', args, { maxBuffer: 1 << 26 }, (error, _stdout, stderr) => {
      if (error) return reject(new Error(`${variant}, ${count} tools, ${requests} requests: ${stderr.slice(-2000)}`));
      const total = /^summary: (\d+)/m.exec(readFileSync(out, 'utf8'))?.[1];
      rmSync(out, { force: true });
      resolve(Number(total));
    });
  });
}
