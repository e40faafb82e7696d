// The type-checking benchmark: `npm run bench:types`. What tsc spends on a server with 20 and 200
// tools, registered through our handler map (generated modules, `registerAll`) and through the MCP
// SDK's `McpServer.registerTool` with zod 4 schemas: the same tools, the same handler bodies.
// Figures from `tsc --noEmit --extendedDiagnostics`; method in bench/README.md.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileContracts } from '../dist/compiler.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = join(root, '.tmp', 'bench-types');
const tsc = join(root, 'node_modules', 'typescript', 'lib', 'tsc.js');
// 0 tools: what importing the runtime and the SDK costs by itself, the base both servers share.
const sizes = process.argv.includes('--quick') ? [0, 20] : [0, 20, 200];
/** tsc runs per figure (`--runs=N`, default 3); the fastest counts (a busy machine only ever adds time). */
const runs = Number(process.argv.find((arg) => arg.startsWith('--runs='))?.slice('--runs='.length) ?? (process.argv.includes('--quick') ? 1 : 3));

const tsconfig = {
  compilerOptions: { target: 'ES2022', lib: ['ES2022'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: [] },
  include: ['*.ts', 'generated/*.ts', 'generated/*.d.mts'],
};

/** One tool's contract: a search-like input (string, optional bounded integer, array, enum, nested object) and a list output. */
const contractOf = (i) => ({
  name: `bench.tool_${i}`,
  description: `Benchmark tool ${i}.`,
  input: {
    type: 'object',
    properties: {
      query: { type: 'string', maxLength: 200 },
      limit: { type: 'integer', minimum: 1, maximum: 100 },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 10 },
      mode: { enum: ['fast', 'exact'] },
      filter: { type: 'object', properties: { from: { type: 'string' }, to: { type: 'string' } }, additionalProperties: false },
    },
    required: ['query', 'mode'],
    additionalProperties: false,
  },
  output: {
    type: 'object',
    properties: {
      items: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, score: { type: 'number' }, title: { type: 'string' } }, required: ['id', 'score'], additionalProperties: false } },
      total: { type: 'integer' },
    },
    required: ['items', 'total'],
    additionalProperties: false,
  },
});

/** The handler body both servers share. */
const body = '({ items: [{ id: query, score: limit ?? 1 }], total: 1 })';

/** Our server: the generated modules (`.ts`, whose validator bodies tsc checks too, or `.mjs` with `.d.mts`) and one handler map. */
const ours = (emit) => (dir, n) => {
  const sources = Array.from({ length: n }, (_, i) => ({ file: `tool_${i}.contract.json`, text: JSON.stringify(contractOf(i)) }));
  mkdirSync(join(dir, 'generated'));
  for (const file of compileContracts(sources, { emit }).files) writeFileSync(join(dir, 'generated', file.path), file.text);
  const entries = Array.from({ length: n }, (_, i) => `  benchTool${i}: ({ query, limit }) => ${body},`);
  return `import { CapabilityRuntime } from '@json-tool-contracts/runtime';
import { serveToolsOnMcpServerV1 } from '@json-tool-contracts/runtime/mcp/sdk-v1';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { contracts } from './generated/index.${emit === 'ts' ? 'js' : 'mjs'}';

const runtime = new CapabilityRuntime();
runtime.registerAll(contracts, {
${entries.join('\n')}
});
serveToolsOnMcpServerV1(new Server({ name: 'bench', version: '1.0.0' }, { capabilities: { tools: {} } }), runtime);
`;
};

function zod(_dir, n) {
  const tools = Array.from(
    { length: n },
    (_, i) => `server.registerTool(
  'bench.tool_${i}',
  {
    description: 'Benchmark tool ${i}.',
    inputSchema: {
      query: z.string().max(200),
      limit: z.number().int().min(1).max(100).optional(),
      tags: z.array(z.string()).max(10).optional(),
      mode: z.enum(['fast', 'exact']),
      filter: z.object({ from: z.string().optional(), to: z.string().optional() }).strict().optional(),
    },
    outputSchema: {
      items: z.array(z.object({ id: z.string(), score: z.number(), title: z.string().optional() }).strict()),
      total: z.number().int(),
    },
  },
  async ({ query, limit }) => ({ content: [], structuredContent: ${body} }),
);`,
  );
  return `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const server = new McpServer({ name: 'bench', version: '1.0.0' });
${tools.join('\n')}
`;
}

const figures = { 'Check time': 'check', 'Total time': 'total', Instantiations: 'instantiations', 'Memory used': 'memory' };

function measure(dir) {
  let best;
  for (let run = 0; run < runs; run++) {
    let out;
    try {
      out = execFileSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json'), '--extendedDiagnostics'], { encoding: 'utf8' });
    } catch (error) {
      throw new Error(`tsc found errors in ${dir}:\n${error.stdout}`);
    }
    const result = {};
    for (const line of out.split('\n')) {
      const match = /^([A-Za-z ]+):\s+([\d.]+)(s|K)?$/.exec(line.trim());
      if (match && figures[match[1]]) result[figures[match[1]]] = Number(match[2]);
    }
    if (best === undefined || result.check < best.check) best = result;
  }
  return best;
}

rmSync(work, { recursive: true, force: true });
const rows = [];
for (const n of sizes) {
  for (const [key, way, write] of [
    ['map-ts', 'handler map, .ts modules', ours('ts')],
    ['map-js', 'handler map, .mjs + .d.mts', ours('js')],
    ['zod', 'registerTool + zod', zod],
  ]) {
    const dir = join(work, `${key}-${n}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
    writeFileSync(join(dir, 'server.ts'), write(dir, n));
    rows.push({ tools: n, way, ...measure(dir) });
  }
}
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(join(root, 'bench', 'results', 'types.json'), `${JSON.stringify(rows, null, 2)}\n`);
console.log('| tools | registration | check time | total time | instantiations | memory |');
console.log('|---:|---|---:|---:|---:|---:|');
for (const row of rows) console.log(`| ${row.tools} | ${row.way} | ${row.check.toFixed(2)} s | ${row.total.toFixed(2)} s | ${row.instantiations.toLocaleString('en')} | ${Math.round(row.memory / 1024)} MB |`);
