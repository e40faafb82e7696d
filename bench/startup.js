// Start-up and bundle size, the figures a server pays before its first call: `npm run bench` runs
// this after run.js. Method: bench/README.md. Writes bench/results/startup.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { toStandaloneModule } from 'ata-validator/build';
import { buildSync } from 'esbuild';
import { compileContracts } from '../dist/compiler.js';
import { discoverContracts } from '../dist/contract/discover.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Inside the repository, so that the servers resolve ajv, zod, typebox and the runtime from its node_modules.
const work = join(root, 'bench', 'results', 'startup');
const quick = process.argv.includes('--quick');
const runs = quick ? 5 : 15;

const corpus = discoverContracts([join(root, 'fixtures/corpus')]).map((file) => ({
  source: JSON.parse(readFileSync(file, 'utf8')),
  samples: JSON.parse(readFileSync(file.replace('.contract.json', '.samples.json'), 'utf8')),
}));

/** N tools: the corpus repeated under other names (`git.log` → `git.log_3`), as a server with N tools. */
function toolSet(count) {
  return Array.from({ length: count }, (_, i) => {
    const { source, samples } = corpus[i % corpus.length];
    const round = Math.floor(i / corpus.length);
    if (round === 0) return { source, samples };
    // A copy is another tool: another name, and no $id that one validator instance would see twice.
    const { $id: _inputId, ...input } = source.input;
    const { $id: _outputId, ...output } = source.output;
    return { source: { ...source, name: `${source.name}_${round}`, input, output }, samples };
  });
}

/**
 * One server per engine: load N tools, then make one validated call (input checked, handler run,
 * output checked). The first tool's first valid samples are the call.
 */
function writeServers(dir, tools) {
  mkdirSync(join(dir, 'gen'), { recursive: true });
  const sources = tools.map((tool) => ({ file: `${tool.source.name}.contract.json`, text: JSON.stringify(tool.source) }));
  for (const file of compileContracts(sources, { emit: 'js' }).files) writeFileSync(join(dir, 'gen', file.path), file.text);
  const first = tools[0];
  const call = JSON.stringify({ input: first.samples.input.valid[0], output: first.samples.output.valid[0] });
  const schemas = JSON.stringify(tools.map((tool) => ({ input: tool.source.input, output: tool.source.output })));
  const check = (ok) => `if (!(${ok})) throw new Error('the call did not validate');`;
  const servers = {
    ours: `import { CapabilityRuntime, ToolMetadata, ToolPolicy } from '@json-tool-contracts/runtime';
import * as tools from './gen/index.mjs';
const call = ${call};
const runtime = new CapabilityRuntime();
for (const contract of Object.values(tools)) runtime.registerValidatedJsonTool(ToolPolicy.json(contract.name), ToolMetadata.of(contract.description), contract, () => call.output);
${check(`runtime.call(${JSON.stringify(first.source.name)}, call.input).ok`)}
`,
    'ajv (compiled at start)': `import { Ajv2020 } from 'ajv/dist/2020.js';
const call = ${call};
const ajv = new Ajv2020({ strict: false });
const validators = ${schemas}.map((tool) => ({ input: ajv.compile(tool.input), output: ajv.compile(tool.output) }));
${check('validators[0].input(call.input) && validators[0].output(call.output)')}
`,
    'zod 4 (fromJSONSchema)': `import { fromJSONSchema } from 'zod';
const call = ${call};
const validators = ${schemas}.map((tool) => ({ input: fromJSONSchema(tool.input), output: fromJSONSchema(tool.output) }));
${check('validators[0].input.safeParse(call.input).success && validators[0].output.safeParse(call.output).success')}
`,
    'zod 4 (z.compile)': `import { compile, fromJSONSchema } from 'zod';
const call = ${call};
const validators = ${schemas}.map((tool) => ({ input: compile(fromJSONSchema(tool.input)), output: compile(fromJSONSchema(tool.output)) }));
${check('validators[0].input.safeParse(call.input).success && validators[0].output.safeParse(call.output).success')}
`,
    'typebox Compile': `import { Compile } from 'typebox/compile';
const call = ${call};
const validators = ${schemas}.map((tool) => ({ input: Compile(tool.input), output: Compile(tool.output) }));
${check('validators[0].input.Check(call.input) && validators[0].output.Check(call.output)')}
`,
  };
  // ajv standalone: the validators generated ahead of time too, as a file of the server's.
  // CommonJS: ajv's ESM standalone output still requires its runtime helpers.
  const ajv = new Ajv2020({ strict: false, code: { source: true } });
  const refs = {};
  tools.forEach((tool, i) => {
    ajv.addSchema(tool.source.input, `in${i}`);
    ajv.addSchema(tool.source.output, `out${i}`);
    refs[`in${i}`] = `in${i}`;
    refs[`out${i}`] = `out${i}`;
  });
  writeFileSync(join(dir, 'ajv-validators.cjs'), standaloneCode(ajv, refs));
  servers['ajv standalone'] = `import validators from './ajv-validators.cjs';
const { in0, out0 } = validators;
const call = ${call};
${check('in0(call.input) && out0(call.output)')}
`;
  // ata standalone: one dependency-free module per schema, written by its own toStandaloneModule ahead
  // of time; where it has none (it answers null: one input of the corpus), ata's runtime Validator.
  mkdirSync(join(dir, 'ata'), { recursive: true });
  const ataImports = tools.flatMap((tool, i) =>
    ['input', 'output'].map((side) => {
      const standalone = toStandaloneModule(tool.source[side], { format: 'esm' });
      const module = typeof standalone === 'string' ? standalone : `import { Validator } from 'ata-validator';\nconst validator = new Validator(${JSON.stringify(tool.source[side])});\nexport const isValid = (value) => validator.validate(value).valid;\n`;
      writeFileSync(join(dir, 'ata', `${i}.${side}.mjs`), module);
      return `import { isValid as ${side}${i} } from './ata/${i}.${side}.mjs';`;
    }),
  );
  servers['ata standalone'] = `${ataImports.join('\n')}
const call = ${call};
${check('input0(call.input) && output0(call.output)')}
`;
  servers['node alone'] = '';
  const files = {};
  for (const [engine, text] of Object.entries(servers)) {
    const file = join(dir, `${engine.replace(/[^a-z0-9]+/gi, '-')}.mjs`);
    writeFileSync(file, text);
    files[engine] = file;
  }
  return files;
}

/** Whole-process wall time, the engines' runs interleaved so that load on the machine falls on all alike. */
function timeProcesses(files) {
  const times = Object.fromEntries(Object.keys(files).map((engine) => [engine, []]));
  for (let run = 0; run <= runs; run++) {
    for (const [engine, file] of Object.entries(files)) {
      const start = process.hrtime.bigint();
      const result = spawnSync(process.execPath, [file], { cwd: dirname(file), encoding: 'utf8' });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (result.status !== 0) throw new Error(`${engine}: ${result.stderr.slice(-2000)}`);
      if (run > 0) times[engine].push(ms);
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return Object.fromEntries(Object.entries(times).map(([engine, values]) => [engine, median(values)]));
}

/** esbuild, minified, gzipped: what the server ships. */
function bundleSize(file) {
  const result = buildSync({ entryPoints: [file], bundle: true, minify: true, platform: 'node', format: 'esm', write: false, logLevel: 'silent' });
  return gzipSync(result.outputFiles[0].contents).length;
}

rmSync(work, { recursive: true, force: true });
const summary = { runs, coldStart: {}, bundle20: {} };
for (const count of [20, 200]) {
  const files = writeServers(join(work, String(count)), toolSet(count));
  const medians = timeProcesses(files);
  const bare = medians['node alone'];
  const added = Object.fromEntries(
    Object.entries(medians)
      .filter(([engine]) => engine !== 'node alone')
      .map(([engine, ms]) => [engine, ms - bare]),
  );
  summary.coldStart[count] = { nodeAloneMs: bare, addedMs: added, ratioToAjv: Object.fromEntries(Object.entries(added).map(([engine, ms]) => [engine, ms / added['ajv (compiled at start)']])) };
  if (count === 20) for (const [engine, file] of Object.entries(files)) if (engine !== 'node alone') summary.bundle20[engine] = bundleSize(file);
}

console.log(`\ncold start: a process that loads N tools and makes one validated call (median of ${runs} runs, time added to a bare node process)\n`);
for (const count of [20, 200]) {
  const { nodeAloneMs, addedMs, ratioToAjv } = summary.coldStart[count];
  console.log(`N = ${count} (node alone: ${nodeAloneMs.toFixed(0)} ms)`);
  for (const engine of Object.keys(addedMs)) console.log(`  ${engine.padEnd(26)} +${addedMs[engine].toFixed(1).padStart(7)} ms   ${ratioToAjv[engine].toFixed(2)}× of ajv's`);
}
console.log('\nbundle of a server with 20 tools: esbuild, minified, gzipped\n');
for (const [engine, bytes] of Object.entries(summary.bundle20)) console.log(`  ${engine.padEnd(26)} ${(bytes / 1024).toFixed(1).padStart(7)} kB   ${(bytes / summary.bundle20['ajv (compiled at start)']).toFixed(2)}× of ajv's`);
writeFileSync(join(root, 'bench', 'results', 'startup.json'), JSON.stringify(summary, null, 2));
console.log(`\nwrote ${join('bench', 'results', 'startup.json')}`);
