// The monomorphic setting, as moltar/typescript-runtime-type-benchmarks measures: one schema, one
// frozen valid object, validated over and over by one engine alone in its own process. `npm run
// bench` runs it after run.js (whose corpus run has many schemas and shapes in one process).
// Method: bench/README.md. Writes bench/results/monomorphic.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { toStandaloneModule } from 'ata-validator/build';
import { compileContracts } from '../dist/compiler.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = join(root, 'bench', 'results', 'monomorphic');
const quick = process.argv.includes('--quick');
const runs = quick ? 1 : 3;

// The benchmark's data type as a contract: closed at both levels (assertStrict) as the input, open (assertLoose) as the output.
const contractFile = join(root, 'bench', 'monomorphic', 'runtime_type_benchmarks.data.contract.json');
const contractText = readFileSync(contractFile, 'utf8');
const source = JSON.parse(contractText);
const settings = { assertStrict: 'input', assertLoose: 'output' };

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const generated = compileContracts([{ file: contractFile, text: contractText }], { emit: 'js' });
const moduleFile = generated.files.find((file) => file.path.endsWith('.mjs') && !file.path.startsWith('index'));
writeFileSync(join(work, 'ours.mjs'), moduleFile.text);
for (const [setting, side] of Object.entries(settings)) {
  for (const [name, options] of [
    ['ajv', {}],
    ['ajv-all', { allErrors: true }],
  ]) {
    const ajv = new Ajv2020({ strict: true, code: { source: true }, ...options });
    writeFileSync(join(work, `${name}.${setting}.cjs`), standaloneCode(ajv, ajv.compile(source[side])));
  }
  writeFileSync(join(work, `ata.${setting}.cjs`), toStandaloneModule(source[side], { format: 'cjs' }));
}

/** How each engine is loaded and called, inside the child process; `setting` and `side` are in scope. */
const engines = {
  'ours is': "(await import('./ours.mjs')).contract[side].is",
  // Every issue collected (none here: the object is valid), as in the corpus run.
  'ours validate': "((validator) => (v) => validator.validate(v).ok)((await import('./ours.mjs')).contract[side])",
  'ajv standalone': "require('./ajv.' + setting + '.cjs')",
  'ajv allErrors': "require('./ajv-all.' + setting + '.cjs')",
  'ata isValid': "require('./ata.' + setting + '.cjs').isValid",
  'ata validate': "((validate) => (v) => validate(v).valid)(require('./ata.' + setting + '.cjs').validate)",
};

// The shape and values of moltar's validateData (benchmarks/parseSafe.ts at 018dd603); its long
// string is another text of about its length (no engine here reads a string's characters). It is
// written as tsc compiles the harness's `export const validateData = Object.freeze(…)` to
// CommonJS (ts-node loads it so), `exports.validateData = void 0;` first: a field written twice.
// Held as a constant of the timing script itself, the frozen object let V8 fold every read of its
// named properties into a constant, and with them a check that reads only those (ata's open-object
// `isValid` took 0.6 ns): it timed no validation. Read through that module's exports object at
// each call, as the harness reads it, the object is a value V8 must look at again every time; the
// read is outside the timed engine and the same for every engine.
writeFileSync(
  join(work, 'data.cjs'),
  `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.validateData = void 0;
exports.validateData = Object.freeze({
  number: 1,
  negNumber: -1,
  maxNumber: Number.MAX_VALUE,
  string: 'string',
  longString: ${JSON.stringify('Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(20))},
  boolean: true,
  deeplyNested: { foo: 'bar', num: 1, bool: false },
});
`,
);

/**
 * One engine, one setting, alone in a process: the harness's shape (a case function that throws on
 * a false verdict, called from one site), calibrated to about 20 ms a batch; the fastest of 9 batches.
 */
function childScript(engine, setting) {
  return `import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const setting = ${JSON.stringify(setting)};
const side = ${JSON.stringify(settings[setting])};
const validate = ${engines[engine]};
const dataModule = require('./data.cjs');
const run = (value) => {
  if (!validate(value)) throw new Error('validation failure');
  return true;
};
const batch = (iterations) => {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) run(dataModule.validateData);
  return Number(process.hrtime.bigint() - start);
};
let iterations = 1000;
while (batch(iterations) < ${quick ? 5e6 : 2e7}) iterations *= 2;
let best = Infinity;
for (let round = 0; round < ${quick ? 3 : 9}; round++) best = Math.min(best, batch(iterations) / iterations);
console.log(best);
`;
}

const scripts = [];
for (const setting of Object.keys(settings)) {
  for (const engine of Object.keys(engines)) {
    const file = join(work, `${setting}.${engine.replace(/[^a-z0-9]+/gi, '-')}.mjs`);
    writeFileSync(file, childScript(engine, setting));
    scripts.push({ setting, engine, file });
  }
}

// Runs interleaved: every engine once per run, so load on the machine falls on all alike.
const perRun = [];
for (let run = 0; run < runs; run++) {
  const figures = Object.fromEntries(Object.keys(settings).map((setting) => [setting, {}]));
  for (const { setting, engine, file } of scripts) {
    const result = spawnSync(process.execPath, [file], { cwd: work, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${setting} ${engine}: ${result.stderr.slice(-2000)}`);
    figures[setting][engine] = Number(result.stdout.trim());
  }
  perRun.push(figures);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const summary = { runs, settings: {} };
for (const setting of Object.keys(settings)) {
  const rows = {};
  for (const engine of Object.keys(engines)) {
    const ratios = perRun.map((figures) => figures[setting][engine] / figures[setting]['ajv standalone']);
    const ns = perRun.map((figures) => figures[setting][engine]);
    rows[engine] = { ns: median(ns), ratio: median(ratios), ratioMin: Math.min(...ratios), ratioMax: Math.max(...ratios) };
  }
  summary.settings[setting] = rows;
}

console.log(`\nmonomorphic setting: one schema, one frozen object, one engine per process (${runs} interleaved runs; time ratio to ajv standalone, median and range)\n`);
for (const [setting, rows] of Object.entries(summary.settings)) {
  console.log(setting);
  for (const [engine, row] of Object.entries(rows)) {
    console.log(`  ${engine.padEnd(16)} ${row.ns.toFixed(1).padStart(7)} ns   ${row.ratio.toFixed(2)}× (${row.ratioMin.toFixed(2)}–${row.ratioMax.toFixed(2)})   ${(1 / row.ratio).toFixed(2)}× ajv's ops/s`);
  }
}
writeFileSync(join(root, 'bench', 'results', 'monomorphic.json'), JSON.stringify(summary, null, 2));
console.log(`\nwrote ${join('bench', 'results', 'monomorphic.json')}`);
