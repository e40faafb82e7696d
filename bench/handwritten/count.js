// The instruction counts of bench/handwritten.js, which runs it as `valgrind --tool=callgrind
// --dump-before='node::os::GetUptime*' node --single-threaded bench/handwritten/count.js <phases>`:
// each `os.uptime()` below makes callgrind write the instructions since the last one, so one
// process counts every phase. <phases> is JSON, `[{ name, engine, label, warmUp, rounds }]`: one
// engine judging one contract's input and output samples of one label, `warmUp` rounds, a mark,
// `rounds` rounds, a mark; the second count is those rounds alone (and the cost of a mark, counted
// first on its own). `engine` is `ours` (the --emit js module bench/handwritten.js wrote) or a
// flavour a hand-written module exports.
import { readFileSync } from 'node:fs';
import { uptime as mark } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sampleLoop } from '../timing.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const phases = JSON.parse(process.argv[2]);

const loaded = new Map();
for (const phase of phases) {
  if (!loaded.has(phase.name)) {
    const handwritten = await import(pathToFileURL(join(here, `${phase.name}.js`)).href);
    const ours = (await import(pathToFileURL(join(root, 'bench', 'results', 'handwritten', `${phase.name}.mjs`)).href)).contract;
    const samples = JSON.parse(readFileSync(join(root, 'fixtures', 'corpus', `${phase.name}.samples.json`), 'utf8'));
    loaded.set(phase.name, { engines: { ours, sameGuarantees: handwritten.sameGuarantees, asUsuallyWritten: handwritten.asUsuallyWritten }, samples });
  }
  const { engines, samples } = loaded.get(phase.name);
  const { input, output } = samples;
  phase.values = [...input[phase.label], ...output[phase.label]];
  const validators = engines[phase.engine];
  phase.run = sampleLoop(validators.input.is, validators.output.is, [...input[phase.label].map(() => 0), ...output[phase.label].map(() => 1)]);
}

// The first count is everything before; the second, a mark alone.
mark();
mark();
let accepted = 0;
for (const phase of phases) {
  for (let round = 0; round < phase.warmUp; round++) accepted += phase.run(phase.values);
  mark();
  for (let round = 0; round < phase.rounds; round++) accepted += phase.run(phase.values);
  mark();
}
// The verdicts leave the process, so none of the work is dead code.
process.stdout.write(`${accepted}\n`);
