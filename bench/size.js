// The size of a build, inline against --support shared: `node bench/size.js` (part of `npm run bench`).
// The 20 contracts of fixtures/corpus built with --emit js, each way; beside them ajv standalone's
// two validators per contract, as bench/run.js measures them. Sizes are deterministic: the same in
// every run. Then what sharing costs at run time: every corpus sample judged by each build's modules,
// interleaved rounds, as ratios shared / inline in the same run.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { compileContracts } from '../dist/compiler.js';
import { discoverContracts } from '../dist/contract/discover.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const quick = process.argv.includes('--quick');
const sources = discoverContracts([join(root, 'fixtures/corpus')]).map((file) => ({ file, text: readFileSync(file, 'utf8') }));

/** The JavaScript a build writes (its modules, and with shared support the support module): not the declarations, not the index, which ajv's output has no counterpart of. */
function buildOf(support) {
  const { files, diagnostics } = compileContracts(sources, { emit: 'js', support });
  if (diagnostics.some((d) => d.severity === 'error')) throw new Error('the corpus does not build');
  return files.filter((f) => f.path.endsWith('.mjs') && f.path !== 'index.mjs');
}

const ajvValidators = sources.flatMap((source) => {
  const contract = JSON.parse(source.text);
  return ['input', 'output'].map((side) => {
    const ajv = new Ajv2020({ strict: true, allErrors: false, code: { source: true } });
    return standaloneCode(ajv, ajv.compile(contract[side]));
  });
});

const gzipEach = (texts) => texts.reduce((sum, text) => sum + gzipSync(text).length, 0);
const measureSize = (texts) => ({ files: texts.length, raw: texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0), gzipEach: gzipEach(texts), gzipTogether: gzipSync(texts.join('\n')).length });

const builds = { inline: buildOf('inline'), shared: buildOf('shared') };
const ajv = measureSize(ajvValidators);
const sizes = Object.fromEntries(Object.entries(builds).map(([kind, files]) => [kind, measureSize(files.map((f) => f.text))]));
const supportFile = builds.shared.find((f) => f.path === 'jtc-support.mjs');

// ---- run time: the same samples through both builds' modules, loaded from disk as a user loads them.

const dir = mkdtempSync(join(tmpdir(), 'jtc-bench-size-'));
const loaded = {};
for (const [kind, files] of Object.entries(builds)) {
  mkdirSync(join(dir, kind));
  for (const file of files) writeFileSync(join(dir, kind, file.path), file.text);
  loaded[kind] = await Promise.all(sources.map(async (source) => (await import(pathToFileURL(join(dir, kind, `${JSON.parse(source.text).name}.mjs`)).href)).contract));
}
rmSync(dir, { recursive: true, force: true });
const samples = sources.map((source) => JSON.parse(readFileSync(source.file.replace('.contract.json', '.samples.json'), 'utf8')));

/** ns per sample of one pass over every contract's samples with `judge` (`is` or `validate`). */
function timePass(contracts, judge, iterations) {
  const start = process.hrtime.bigint();
  let count = 0;
  for (let n = 0; n < iterations; n++) {
    contracts.forEach((contract, i) => {
      for (const side of ['input', 'output']) {
        for (const sample of [...samples[i][side].valid, ...samples[i][side].invalid]) {
          judge(contract[side], sample);
          count++;
        }
      }
    });
  }
  return Number(process.hrtime.bigint() - start) / count;
}

const judges = { is: (validator, sample) => validator.is(sample), validate: (validator, sample) => validator.validate(sample) };
const rounds = quick ? 3 : 9;
const iterations = quick ? 20 : 100;
const ratios = { is: [], validate: [] };
for (const name of Object.keys(judges)) for (const kind of Object.keys(loaded)) timePass(loaded[kind], judges[name], iterations);
for (let round = 0; round < rounds; round++) {
  for (const name of Object.keys(judges)) {
    // Alternate which build goes first, so neither always follows the other.
    const order = round % 2 === 0 ? ['inline', 'shared'] : ['shared', 'inline'];
    const times = Object.fromEntries(order.map((kind) => [kind, timePass(loaded[kind], judges[name], iterations)]));
    ratios[name].push(times.shared / times.inline);
  }
}
const spread = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], min: sorted[0], max: sorted[sorted.length - 1] };
};

const summary = {
  date: new Date().toISOString().slice(0, 10),
  contracts: sources.length,
  ajv,
  ...sizes,
  supportModule: { raw: Buffer.byteLength(supportFile.text), gzip: gzipSync(supportFile.text).length },
  ratioToAjv: Object.fromEntries(Object.entries(sizes).map(([kind, size]) => [kind, { gzipEach: size.gzipEach / ajv.gzipEach, gzipTogether: size.gzipTogether / ajv.gzipTogether, raw: size.raw / ajv.raw }])),
  runTime: { rounds, is: spread(ratios.is), validate: spread(ratios.validate) },
};

const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
console.log(`\na build of the ${summary.contracts} corpus contracts (--emit js: the .mjs modules, without declarations and index) against ajv standalone's ${ajv.files} validators\n`);
console.log(`${'build'.padEnd(34)}${'files'.padEnd(8)}${'raw'.padEnd(12)}${'gzip, each file'.padEnd(24)}gzip, all as one stream`);
for (const [label, size] of [
  ['inline (default)', sizes.inline],
  ['--support shared', sizes.shared],
  ['ajv standalone, two per contract', ajv],
]) {
  const ratio = size === ajv ? '' : ` (${(size.gzipEach / ajv.gzipEach).toFixed(2)}×)`;
  const together = size === ajv ? '' : ` (${(size.gzipTogether / ajv.gzipTogether).toFixed(2)}×)`;
  console.log(`${label.padEnd(34)}${String(size.files).padEnd(8)}${kB(size.raw).padEnd(12)}${`${kB(size.gzipEach)}${ratio}`.padEnd(24)}${kB(size.gzipTogether)}${together}`);
}
console.log(`the support module: ${kB(summary.supportModule.raw)}, ${kB(summary.supportModule.gzip)} gzip`);
const show = ({ median, min, max }) => `${median.toFixed(2)}× (${min.toFixed(2)}–${max.toFixed(2)}× over ${rounds} rounds)`;
console.log(`run time, shared / inline, every corpus sample: is ${show(summary.runTime.is)}, validate ${show(summary.runTime.validate)}`);

const outDir = join(root, 'bench', 'results');
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'size.json'), JSON.stringify(summary, null, 2));
