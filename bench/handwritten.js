// Hand-written parity (issue 44): our `is` against validators written by hand for the corpus's
// contracts below 8 KB (bench/handwritten/), in two flavours: with every guarantee ours gives,
// and as people usually write them. `npm run bench` runs it after run.js; `--quick` for rough
// figures, `--no-count` for the times alone (the counts, which the load does not move, take
// minutes). Method: bench/README.md ("Hand-written parity"). Writes bench/results/handwritten.json.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compileContracts } from '../dist/compiler.js';
import { discoverContracts } from '../dist/contract/discover.js';
import { judgeMatrix, verdictOf } from './handwritten/pollution.js';
import { calibrate, geomean, sampleLoop, seededRandom, timeBatch } from './timing.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const handwrittenDir = join(root, 'bench', 'handwritten');
const moduleDir = join(root, 'bench', 'results', 'handwritten');
const quick = process.argv.includes('--quick');
const rounds = quick ? 3 : 9;
const batchNs = quick ? 5e6 : 2e7;
// Instruction counts: each phase's warm-up rounds, then the rounds counted, fewer where a round is
// slow (V8 optimizes a slow call's loops sooner, and callgrind runs about 50 times slower).
const counting = quick ? { warmUp: 1000, rounds: 200, warmUpNs: 3e7, roundsNs: 1e7 } : { warmUp: 3000, rounds: 1000, warmUpNs: 1e8, roundsNs: 3e7 };
const roundsWithin = (most, ns, roundNs) => Math.min(most, Math.max(50, Math.ceil(ns / roundNs)));

const engines = [
  { id: 'ours', label: 'ours is' },
  { id: 'sameGuarantees', label: 'hand-written, same guarantees' },
  { id: 'asUsuallyWritten', label: 'hand-written, as usually written' },
];
const flavours = engines.filter((engine) => engine.id !== 'ours');
const labels = ['valid', 'invalid'];

// ---- the contracts with hand-written validators, and our --emit js module of each

rmSync(moduleDir, { recursive: true, force: true });
mkdirSync(moduleDir, { recursive: true });
const contracts = [];
const leftOut = [];
for (const file of discoverContracts([join(root, 'fixtures', 'corpus')])) {
  const text = readFileSync(file, 'utf8');
  const source = JSON.parse(text);
  const handwrittenFile = join(handwrittenDir, `${source.name}.js`);
  if (!existsSync(handwrittenFile)) {
    leftOut.push(source.name);
    continue;
  }
  const moduleFile = compileContracts([{ file, text }], { emit: 'js' }).files.find((f) => f.path.endsWith('.mjs') && !f.path.startsWith('index'));
  const modulePath = join(moduleDir, `${source.name}.mjs`);
  writeFileSync(modulePath, moduleFile.text);
  const handwritten = await import(pathToFileURL(handwrittenFile).href);
  const validators = { ours: (await import(pathToFileURL(modulePath).href)).contract, sameGuarantees: handwritten.sameGuarantees, asUsuallyWritten: handwritten.asUsuallyWritten };
  const samples = JSON.parse(readFileSync(file.replace('.contract.json', '.samples.json'), 'utf8'));
  contracts.push({ name: source.name, source, samples, validators });
}

// ---- verdicts first: every engine on every labelled sample, each flavour against ours

const mislabels = [];
const invalid = new Set();
for (const contract of contracts) {
  for (const side of ['input', 'output']) {
    for (const label of labels) {
      contract.samples[side][label].forEach((sample, index) => {
        const ours = verdictOf(contract.validators.ours[side].is, sample);
        if (ours !== (label === 'valid')) mislabels.push(`ours: ${contract.name} ${side} ${label}[${index}] judged ${ours}`);
        for (const { id } of flavours) {
          const verdict = verdictOf(contract.validators[id][side].is, sample);
          if (verdict === ours) continue;
          invalid.add(`${contract.name}|${id}`);
          mislabels.push(`${id}: ${contract.name} ${side} ${label}[${index}] judged ${verdict}, ours ${ours}`);
        }
      });
    }
  }
}

// ---- timing: every (contract, engine, label) a fresh loop, interleaved rounds after a warm-up round

const plans = [];
for (const contract of contracts) {
  for (const label of labels) {
    const { input, output } = contract.samples;
    const samples = [...input[label], ...output[label]];
    const sideOf = [...input[label].map(() => 0), ...output[label].map(() => 1)];
    for (const { id } of engines) {
      if (invalid.has(`${contract.name}|${id}`)) continue;
      const run = sampleLoop(contract.validators[id].input.is, contract.validators[id].output.is, sideOf);
      plans.push({ contract: contract.name, engine: id, label, run, samples, times: [] });
    }
  }
}
for (const plan of plans) plan.iterations = calibrate(plan.run, plan.samples, batchNs);
const random = seededRandom(44);
for (let round = 0; round <= rounds; round++) {
  const order = plans.map((plan) => ({ plan, key: random() })).sort((a, b) => a.key - b.key);
  for (const { plan } of order) {
    const ns = timeBatch(plan.run, plan.samples, plan.iterations);
    if (round > 0) plan.times.push(ns);
  }
}

// ---- the pollution matrix at each root, after the timing (a polluted Object.prototype changes what
// V8 knows of every object): the same-guarantees flavour must give our verdict on every case, or
// it has no figure for that contract

const matrix = { cases: 0, disagreements: {} };
for (const contract of contracts) {
  for (const side of ['input', 'output']) {
    const is = Object.fromEntries(flavours.map(({ id }) => [id, contract.validators[id][side].is]));
    for (const item of judgeMatrix(contract.source[side], contract.samples[side].valid[0], contract.validators.ours[side].is, is)) {
      matrix.cases++;
      for (const { id } of flavours) {
        const verdict = item.verdicts[id];
        if (verdict === item.expected) continue;
        if (id === 'sameGuarantees') invalid.add(`${contract.name}|${id}`);
        const kind = typeof verdict !== 'boolean' ? 'throws' : verdict ? 'accepts what ours refuses' : 'refuses what ours accepts';
        const key = `${item.pollution}; ${item.value}`;
        matrix.disagreements[id] ??= {};
        matrix.disagreements[id][key] ??= { pollution: item.pollution, value: item.value, kind, schemas: [] };
        matrix.disagreements[id][key].schemas.push(`${contract.name} ${side}`);
      }
    }
  }
}

// ---- instructions per call: callgrind counts each phase of bench/handwritten/count.js apart

/** Instructions per call of each phase, counted by count.js in one process, or the reason there are none. */
function countInstructions(phases) {
  const dumps = mkdtempSync(join(tmpdir(), 'jtc-handwritten-'));
  return new Promise((resolve) => {
    const args = ['--tool=callgrind', `--callgrind-out-file=${join(dumps, 'out')}`, '--dump-before=node::os::GetUptime*', process.execPath, '--single-threaded', join(handwrittenDir, 'count.js'), JSON.stringify(phases)];
    const child = spawn('valgrind', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code) => {
      // Dump n holds what ran between marks n − 1 and n: 1 is start-up, 2 a mark alone, then each phase's warm-up and its rounds.
      const count = (n) => Number(/^summary: (\d+)$/m.exec(readFileSync(join(dumps, `out.${n}`), 'utf8'))[1]);
      const result = code !== 0 ? `valgrind exited with ${code}: ${stderr.slice(-300)}` : phases.map((phase, i) => ({ ...phase, perCall: (count(4 + 2 * i) - count(2)) / (phase.rounds * phase.calls) }));
      rmSync(dumps, { recursive: true, force: true });
      resolve(result);
    });
  });
}

const valgrind = spawnSync('valgrind', ['--version'], { encoding: 'utf8' });
const instructions = {};
let countsSkipped;
if (process.argv.includes('--no-count')) countsSkipped = '--no-count';
else if (valgrind.status !== 0) countsSkipped = 'valgrind is not installed';
else {
  const phases = plans.map(({ contract, engine, label, samples, times }) => {
    const roundNs = Math.min(...times) * samples.length;
    return { name: contract, engine, label, calls: samples.length, warmUp: roundsWithin(counting.warmUp, counting.warmUpNs, roundNs), rounds: roundsWithin(counting.rounds, counting.roundsNs, roundNs) };
  });
  // One process a core, each with whole contracts: a count does not move with the load.
  const names = contracts.map((c) => c.name);
  const shares = cpus().map((_, core) => phases.filter((phase) => names.indexOf(phase.name) % cpus().length === core));
  for (const result of await Promise.all(shares.filter((share) => share.length > 0).map(countInstructions))) {
    if (typeof result === 'string') countsSkipped = result;
    else for (const phase of result) instructions[`${phase.name}|${phase.engine}|${phase.label}`] = phase.perCall;
  }
}

// ---- report

const fastest = (contract, engine, label) => {
  if (invalid.has(`${contract}|${engine}`)) return null;
  const plan = plans.find((p) => p.contract === contract && p.engine === engine && p.label === label);
  return plan === undefined ? null : Math.min(...plan.times);
};
const rows = contracts.map(({ name }) => {
  const row = { contract: name, ns: {}, instructions: {} };
  for (const { id } of engines) {
    row.ns[id] = Object.fromEntries(labels.map((label) => [label, fastest(name, id, label)]));
    row.instructions[id] = Object.fromEntries(labels.map((label) => [label, invalid.has(`${name}|${id}`) ? null : (instructions[`${name}|${id}|${label}`] ?? null)]));
  }
  return row;
});
/** The geometric mean over the contracts of ours / a flavour, and the lowest and highest contract. */
function ratioOf(measure, against, label) {
  const ratios = rows.map((row) => [row.contract, row[measure].ours[label], row[measure][against][label]]).filter(([, ours, theirs]) => typeof ours === 'number' && typeof theirs === 'number');
  if (ratios.length === 0) return null;
  const each = ratios.map(([contract, ours, theirs]) => ({ contract, ratio: ours / theirs }));
  each.sort((a, b) => a.ratio - b.ratio);
  return { geomean: geomean(each.map((e) => e.ratio)), contracts: each.length, lowest: each[0], highest: each.at(-1) };
}
const summary = Object.fromEntries(flavours.map(({ id }) => [id, Object.fromEntries(['ns', 'instructions'].map((measure) => [measure, Object.fromEntries(labels.map((label) => [label, ratioOf(measure, id, label)]))]))]));

const pad = (text, width) => String(text).padEnd(width);
const figure = (n) => (typeof n === 'number' ? n.toFixed(0) : 'none');
console.log(`\nhand-written parity: ${contracts.length} contracts (left out, no hand-written validators: ${leftOut.join(', ')})`);
console.log(`ns per validation (fastest of ${rounds} interleaved rounds) / instructions per call (callgrind), input and output samples together\n`);
console.log([pad('contract', 36), ...engines.flatMap(({ id }) => labels.map((label) => pad(`${id} ${label === 'valid' ? '✓' : '✗'}`, 22)))].join(''));
for (const row of rows) console.log([pad(row.contract, 36), ...engines.flatMap(({ id }) => labels.map((label) => pad(`${figure(row.ns[id][label])} / ${figure(row.instructions[id][label])}`, 22)))].join(''));
console.log('\nours / hand-written, geometric mean over the contracts [lowest, highest contract]\n');
for (const { id, label } of flavours) {
  for (const measure of ['ns', 'instructions']) {
    const text = labels.map((l) => {
      const r = summary[id][measure][l];
      return r === null ? `${l} none` : `${l} ${r.geomean.toFixed(2)}× [${r.lowest.ratio.toFixed(2)}× ${r.lowest.contract}, ${r.highest.ratio.toFixed(2)}× ${r.highest.contract}]`;
    });
    console.log(`${pad(label, 34)} ${pad(measure === 'ns' ? 'time' : 'instructions', 13)} ${text.join('   ')}`);
  }
}
if (countsSkipped !== undefined) console.log(`\ninstruction counts skipped: ${countsSkipped}`);
console.log(`\npollution matrix at each root: ${matrix.cases} cases`);
for (const { id, label } of flavours) {
  const entries = Object.values(matrix.disagreements[id] ?? {});
  console.log(`  ${label}: ${entries.length === 0 ? 'our verdict on every case' : `${entries.reduce((n, e) => n + e.schemas.length, 0)} cases differ from ours`}`);
  for (const entry of entries) console.log(`    ${entry.pollution}; ${entry.value}: ${entry.kind} (${entry.schemas.length} schemas)`);
}
if (mislabels.length > 0) console.log(`\nverdicts that differ (those flavours' figures for the contract are left out):\n  ${mislabels.join('\n  ')}`);

const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
writeFileSync(join(root, 'bench', 'results', 'handwritten.json'), JSON.stringify({ date: new Date().toISOString(), commit, node: process.version, quick, counting, contracts: contracts.map((c) => c.name), leftOut, summary, rows, matrix, mislabels, countsSkipped }, null, 2));
console.log(`\nwrote ${join('bench', 'results', 'handwritten.json')}`);
