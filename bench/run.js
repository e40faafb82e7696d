// The benchmark: `npm run bench`. Method and how to read the figures: bench/README.md.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import schemasafe from '@exodus/schemasafe';
import { Compile } from 'typebox/compile';
import { toStandaloneModule } from 'ata-validator/build';
import { compile as zodCompile, fromJSONSchema } from 'zod';
import ts from 'typescript';
import { compileContracts } from '../dist/compiler.js';
import { discoverContracts } from '../dist/contract/discover.js';
import { CapabilityRuntime, ToolMetadata, ToolPolicy } from '@json-tool-contracts/runtime';
import { otelCallObserver } from '@json-tool-contracts/runtime/otel';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describeLanguageServer, measureLanguageServer } from './lsp.js';
import { calibrate, geomean, sampleLoop, seededRandom, timeBatch } from './timing.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'bench', 'results');
const moduleDir = join(outDir, 'modules');
rmSync(moduleDir, { recursive: true, force: true });
mkdirSync(moduleDir, { recursive: true });

const requireFromHere = createRequire(import.meta.url);
const quick = process.argv.includes('--quick');
const rounds = quick ? 3 : 9;
const batchNs = quick ? 5e6 : 2e7;

async function importText(name, text) {
  const path = join(moduleDir, name);
  writeFileSync(path, text);
  return import(pathToFileURL(path).href);
}

/**
 * ajv's standalone output with `esm: true` still calls require() for its runtime helpers
 * (ucs2length, deep equality), so it is loaded as CommonJS: the same code either way.
 */
function ajvStandalone(schema, options, name) {
  const ajv = new Ajv2020({ strict: true, allErrors: false, code: { source: true }, ...options });
  const validate = ajv.compile(schema);
  const code = standaloneCode(ajv, validate);
  const path = join(moduleDir, name);
  writeFileSync(path, code);
  return { check: requireFromHere(path), code };
}

/**
 * ata-validator's own standalone module (`toStandaloneModule`), dependency-free like ours; CommonJS
 * like ajv's. A schema it cannot compile to a module gets no figure.
 */
function ataStandalone(schema, name) {
  let code;
  try {
    code = toStandaloneModule(schema, { format: 'cjs' });
  } catch {
    return undefined;
  }
  // It answers null where it has no module to write.
  if (typeof code !== 'string') return undefined;
  const path = join(moduleDir, name);
  writeFileSync(path, code);
  return { module: requireFromHere(path), code };
}

// Where a module's gzip size goes, to weigh the levers the size target leaves: the support
// helpers (every function but the check*/collect* passes, plus maxIssues) could live in one file
// shared across the output folder, leaving an import line; the two exported schemas and the
// comments must stay, so the last figure is only for scale.
const sharedImportLine = "import { issue, isPlainObject, createValidator } from './support.js';\n";
function sizeLevers(moduleText) {
  const declarations = moduleText.split(/(?<!\*\/)\n(?=(?:\/\*\*[^\n]*\*\/\n|\/\*\*\n(?: \*[^\n]*\n)* \*\/\n)?(?:function |const |export |\/\/ ))/);
  const isSupport = (d) => /^(?:\/\*\*[\s\S]*?\*\/\n)?(?:function (?!check|collect(?!Issues))|const maxIssues )/.test(d);
  const isSchema = (d) => /^const (?:inputSchema|outputSchema) /.test(d);
  const withoutSupport = sharedImportLine + declarations.filter((d) => !isSupport(d)).join('\n');
  const passesOnly = declarations
    .filter((d) => !isSupport(d) && !isSchema(d))
    .join('\n')
    .replace(/\/\*\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
    .replace(/^\s+/gm, '');
  return { withoutSupportGzip: gzipSync(withoutSupport).length, passesOnlyGzip: gzipSync(passesOnly).length };
}

// ---- codegen in-process, in a steady state, measured first: like `jtc build`, in a process that
// holds only the compiler (the engines loaded below would add their heap to every collection).
// The whole corpus is compiled a few times first; then, like the validation figures, the fastest
// of several rounds of four compiles.

const files = discoverContracts([join(root, 'fixtures/corpus')]);
const sourcesByFile = new Map(files.map((file) => [file, { file, text: readFileSync(file, 'utf8') }]));
for (let i = 0; i < 3; i++) for (const source of sourcesByFile.values()) compileContracts([source]);
const codegenMsByFile = new Map();
for (const source of sourcesByFile.values()) {
  const roundTimes = [];
  for (let round = 0; round < (quick ? 2 : 5); round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < 4; i++) compileContracts([source]);
    roundTimes.push(Number(process.hrtime.bigint() - start) / 1e6 / 4);
  }
  codegenMsByFile.set(source.file, Math.min(...roundTimes));
}

// ---- engines per contract

const contracts = [];
for (const file of files) {
  const { text } = sourcesByFile.get(file);
  const source = JSON.parse(text);
  const samples = JSON.parse(readFileSync(file.replace('.contract.json', '.samples.json'), 'utf8'));
  const compiled = compileContracts([{ file, text }]);
  const moduleFile = compiled.files.find((f) => f.path !== 'index.ts');
  const js = ts.transpileModule(moduleFile.text, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
  const ours = (await importText(`${source.name}.ours.mjs`, js)).contract;

  const sides = {};
  for (const side of ['input', 'output']) {
    const schema = source[side];
    const ajv = ajvStandalone(schema, {}, `${source.name}.${side}.ajv.cjs`);
    const ajvOwn = ajvStandalone(schema, { ownProperties: true }, `${source.name}.${side}.ajv-own.cjs`);
    const ajvAll = ajvStandalone(schema, { allErrors: true }, `${source.name}.${side}.ajv-all.cjs`);
    // zod 4 as most MCP and AI SDK tool authors use it; a schema it cannot take gets no figure.
    let zod;
    try {
      zod = fromJSONSchema(schema);
    } catch {
      zod = undefined;
    }
    // zod's ahead-of-time path (4.5 and later): flat code made with new Function at start-up.
    let zodCompiled;
    try {
      zodCompiled = zod === undefined ? undefined : zodCompile(zod);
    } catch {
      zodCompiled = undefined;
    }
    const ata = ataStandalone(schema, `${source.name}.${side}.ata.cjs`);
    const safe = schemasafe.validator(schema, { includeErrors: false, mode: 'default' });
    const typebox = Compile(schema);
    sides[side] = {
      samples: samples[side],
      ajvCode: ajv.code,
      ataCode: ata?.code,
      engines: {
        'ours is': ours[side].is,
        'ours validate': (v) => ours[side].validate(v).ok,
        'ajv standalone': ajv.check,
        'ajv ownProperties': ajvOwn.check,
        // Every error, each read as validate's issues are: the same job as ours validate.
        'ajv allErrors': (v) => {
          const ok = ajvAll.check(v);
          if (!ok) for (const error of ajvAll.check.errors) if (error.message.length === 0) return true;
          return ok;
        },
        'ata isValid': ata === undefined ? () => 'ata could not compile the schema' : ata.module.isValid,
        // Every error, each read, as for ajv allErrors.
        'ata validate':
          ata === undefined
            ? () => 'ata could not compile the schema'
            : (v) => {
                const result = ata.module.validate(v);
                if (!result.valid) for (const error of result.errors) if (error.message.length === 0) return true;
                return result.valid;
              },
        'zod 4': zod === undefined ? () => 'zod could not convert the schema' : (v) => zod.safeParse(v).success,
        'zod 4 compile': zodCompiled === undefined ? () => 'zod could not compile the schema' : (v) => zodCompiled.safeParse(v).success,
        schemasafe: safe,
        'typebox Compile': typebox.Check.bind(typebox),
      },
    };
  }
  contracts.push({ name: source.name, text, file, ours, moduleText: js, sides, codegenMs: codegenMsByFile.get(file) });
}

const engines = Object.keys(contracts[0].sides.input.engines);

// ---- verdicts first: an engine that mislabels a sample gets no figure for that contract

const invalid = new Set();
const mislabels = [];
for (const contract of contracts) {
  for (const [side, { samples, engines: fns }] of Object.entries(contract.sides)) {
    for (const [engine, fn] of Object.entries(fns)) {
      for (const label of ['valid', 'invalid']) {
        samples[label].forEach((sample, index) => {
          let verdict;
          try {
            verdict = fn(sample);
          } catch (error) {
            verdict = `threw ${error}`;
          }
          if (verdict !== (label === 'valid')) {
            invalid.add(`${contract.name}|${engine}`);
            mislabels.push(`${engine}: ${contract.name} ${side} ${label}[${index}] judged ${verdict}`);
          }
        });
      }
    }
  }
}

// ---- timing: all engines interleaved, round after round, after a warm-up round

const timings = {};
for (const contract of contracts) {
  for (const label of ['valid', 'invalid']) {
    for (const engine of engines) timings[`${contract.name}|${engine}|${label}`] = [];
  }
}
const plans = [];
for (const contract of contracts) {
  for (const label of ['valid', 'invalid']) {
    for (const engine of engines) {
      // Input and output samples together: one figure per contract and label.
      const samples = [...contract.sides.input.samples[label], ...contract.sides.output.samples[label]];
      const sideOf = [...contract.sides.input.samples[label].map(() => 0), ...contract.sides.output.samples[label].map(() => 1)];
      const input = contract.sides.input.engines[engine];
      const output = contract.sides.output.engines[engine];
      plans.push({ key: `${contract.name}|${engine}|${label}`, run: sampleLoop(input, output, sideOf), samples });
    }
  }
}
for (const plan of plans) plan.iterations = calibrate(plan.run, plan.samples, batchNs);
// Each round visits the plans in a new order, so no engine always runs right after the same other one.
const random = seededRandom(42);
for (let round = 0; round <= rounds; round++) {
  const order = plans.map((plan) => ({ plan, key: random() })).sort((a, b) => a.key - b.key);
  for (const { plan } of order) {
    const ns = timeBatch(plan.run, plan.samples, plan.iterations);
    if (round > 0) timings[plan.key].push(ns);
  }
}

// ---- runtime call path against a bare is + handler, on the smallest contracts

const small = [...contracts].sort((a, b) => a.moduleText.length - b.moduleText.length).slice(0, 3);
const callPath = [];
// OpenTelemetry on, as a server runs it: the real SDK, spans queued by a batch processor and
// metric points aggregated for a periodic reader, their exporters dropping what they get. The
// queue is exported between rounds, off the timed loops, as a server exports between calls.
const dropping = { export: (_items, done) => done({ code: 0 }), shutdown: async () => {}, forceFlush: async () => {} };
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropping, { maxQueueSize: 1_000_000, scheduledDelayMillis: 3_600_000 })] });
const meterProvider = new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: dropping, exportIntervalMillis: 3_600_000 })] });
for (const contract of small) {
  const inputs = contract.sides.input.samples.valid;
  const output = contract.sides.output.samples.valid[0];
  const handler = () => output;
  const served = (options) => {
    const runtime = new CapabilityRuntime(options);
    runtime.registerValidatedJsonTool(ToolPolicy.json(contract.name), ToolMetadata.of(contract.name), contract.ours, handler);
    return runtime;
  };
  const runtime = served({});
  // The observer hook asked at every call and watching none of them, and the OpenTelemetry observer.
  const watchingNothing = served({ observer: { callStarted: () => undefined } });
  const traced = served({ observer: otelCallObserver({ tracerProvider, meterProvider }) });
  const callsOf = (each) => (values) => {
    let ok = 0;
    for (let i = 0; i < values.length; i++) if (each.call(contract.name, values[i]).ok) ok++;
    return ok;
  };
  const viaRuntime = callsOf(runtime);
  const bare = (values) => {
    let ok = 0;
    for (let i = 0; i < values.length; i++) if (contract.ours.input.is(values[i]) && contract.ours.output.is(handler(values[i]))) ok++;
    return ok;
  };
  const texts = inputs.map((input) => JSON.stringify(input));
  const viaCallJson = (values) => {
    let ok = 0;
    for (let i = 0; i < values.length; i++) if (runtime.callJson(contract.name, values[i]).ok) ok++;
    return ok;
  };
  const bareJson = (values) => {
    let ok = 0;
    for (let i = 0; i < values.length; i++) {
      const input = JSON.parse(values[i]);
      if (contract.ours.input.is(input) && contract.ours.output.is(handler(input)) && JSON.stringify(output).length > 0) ok++;
    }
    return ok;
  };
  const plansHere = [
    [viaRuntime, inputs],
    [bare, inputs],
    [viaCallJson, texts],
    [bareJson, texts],
    [callsOf(watchingNothing), inputs],
    [callsOf(traced), inputs],
  ].map(([run, values]) => ({ run, values, iterations: calibrate(run, values, batchNs), times: [] }));
  for (let round = 0; round <= rounds; round++) {
    for (const plan of plansHere) if (round > 0) plan.times.push(timeBatch(plan.run, plan.values, plan.iterations));
    await tracerProvider.forceFlush();
  }
  const [runtimeNs, bareNs, callJsonNs, bareJsonNs, watchedNothingNs, tracedNs] = plansHere.map((plan) => Math.min(...plan.times));
  // callAsync, the call every host adapter makes: the same path, awaited; the three runtimes take turns in every round.
  const asyncRuns = [runtime, watchingNothing, traced].map((each) => ({ each, times: [] }));
  for (let round = 0; round <= rounds; round++) {
    for (const run of asyncRuns) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < plansHere[0].iterations; i++) for (const input of inputs) await run.each.callAsync(contract.name, input);
      if (round > 0) run.times.push(Number(process.hrtime.bigint() - start) / (plansHere[0].iterations * inputs.length));
      await tracerProvider.forceFlush();
    }
  }
  const [callAsyncNs, asyncWatchedNothingNs, asyncTracedNs] = asyncRuns.map((run) => Math.min(...run.times));
  callPath.push({ contract: contract.name, runtimeNs, bareNs, callJsonNs, bareJsonNs, callAsyncNs, watchedNothingNs, tracedNs, asyncWatchedNothingNs, asyncTracedNs });
}
await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);

// ---- cold jtc build of 1,000 contracts, as a whole process

const buildDir = mkdtempSync(join(tmpdir(), 'jtc-bench-'));
mkdirSync(join(buildDir, 'contracts'));
for (let i = 0; i < 1000; i++) {
  const contract = contracts[i % contracts.length];
  const source = JSON.parse(readFileSync(files[i % files.length], 'utf8'));
  source.name = `${contract.name}_${i}`;
  writeFileSync(join(buildDir, 'contracts', `${source.name}.contract.json`), JSON.stringify(source, null, 2));
}
const buildStart = process.hrtime.bigint();
execFileSync(process.execPath, [join(root, 'bin/jtc.js'), 'build', 'contracts', '-o', 'out'], { cwd: buildDir, stdio: 'ignore' });
const coldBuildMs = Number(process.hrtime.bigint() - buildStart) / 1e6;

// ---- warm builds of the same project: nothing changed, one contract changed, and --watch seeing one change

const timedBuild = () => {
  const start = process.hrtime.bigint();
  execFileSync(process.execPath, [join(root, 'bin/jtc.js'), 'build', 'contracts', '-o', 'out'], { cwd: buildDir, stdio: 'ignore' });
  return Number(process.hrtime.bigint() - start) / 1e6;
};
const changeOne = (round) => {
  const path = join(buildDir, 'contracts', readdirSync(join(buildDir, 'contracts'))[round]);
  const contract = JSON.parse(readFileSync(path, 'utf8'));
  contract.description = `${contract.description} (change ${round})`;
  writeFileSync(path, JSON.stringify(contract, null, 2));
};
const noChangeMs = Math.min(...[0, 1, 2].map(() => timedBuild()));
const oneChangeMs = Math.min(
  ...[0, 1, 2].map((round) => {
    changeOne(round);
    return timedBuild();
  }),
);
const watchMs = await new Promise((resolve) => {
  const child = spawn(process.execPath, [join(root, 'bin/jtc.js'), 'build', 'contracts', '-o', 'out', '--watch'], { cwd: buildDir });
  let output = '';
  let handled = 0;
  let changedAt;
  const times = [];
  child.stdout.on('data', (chunk) => {
    output += chunk.toString();
    const builds = output.split('rebuilt; watching').length - 1;
    if (builds === handled) return;
    handled = builds;
    if (changedAt !== undefined) times.push(Number(process.hrtime.bigint() - changedAt) / 1e6);
    if (times.length === 3) {
      child.kill('SIGINT');
      resolve(Math.min(...times));
      return;
    }
    // Each change waits a little, so the watcher is idle when it comes.
    setTimeout(() => {
      changedAt = process.hrtime.bigint();
      changeOne(10 + times.length);
    }, 300);
  });
});
rmSync(buildDir, { recursive: true, force: true });

// ---- --emit js against --emit ts, cold, on the 24 contracts of fixtures/corpus and fixtures/valid

const emitDir = mkdtempSync(join(tmpdir(), 'jtc-bench-emit-'));
const emitBuild = (emit) => {
  const start = process.hrtime.bigint();
  execFileSync(process.execPath, [join(root, 'bin/jtc.js'), 'build', join(root, 'fixtures/corpus'), join(root, 'fixtures/valid'), '-o', join(emitDir, emit), '--emit', emit, '--no-cache'], { stdio: 'ignore' });
  return Number(process.hrtime.bigint() - start) / 1e6;
};
const emitTsMs = Math.min(...[0, 1, 2].map(() => emitBuild('ts')));
const emitJsMs = Math.min(...[0, 1, 2].map(() => emitBuild('js')));
rmSync(emitDir, { recursive: true, force: true });

// ---- report

const rows = contracts.map((contract) => {
  const row = { contract: contract.name, codegenMs: contract.codegenMs };
  for (const label of ['valid', 'invalid']) {
    for (const engine of engines) {
      row[`${engine}|${label}`] = invalid.has(`${contract.name}|${engine}`) ? null : Math.min(...timings[`${contract.name}|${engine}|${label}`]);
    }
  }
  const ajvCode = contract.sides.input.ajvCode + contract.sides.output.ajvCode;
  row.size = {
    ours: Buffer.byteLength(contract.moduleText),
    oursGzip: gzipSync(contract.moduleText).length,
    ajv: Buffer.byteLength(ajvCode),
    ajvGzip: gzipSync(contract.sides.input.ajvCode).length + gzipSync(contract.sides.output.ajvCode).length,
    ataGzip: contract.sides.input.ataCode === undefined || contract.sides.output.ataCode === undefined ? null : gzipSync(contract.sides.input.ataCode).length + gzipSync(contract.sides.output.ataCode).length,
    ...sizeLevers(contract.moduleText),
  };
  return row;
});

const ratio = (engine, label, against = 'ajv standalone') => geomean(rows.filter((r) => r[`${engine}|${label}`] !== null && r[`${against}|${label}`] !== null).map((r) => r[`${engine}|${label}`] / r[`${against}|${label}`]));

const languageServer = await measureLanguageServer(quick ? 10 : 50);

const summary = {
  machine: { cpus: cpus().length, model: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version },
  date: new Date().toISOString().slice(0, 10),
  ratios: Object.fromEntries(engines.map((engine) => [engine, { valid: ratio(engine, 'valid'), invalid: ratio(engine, 'invalid') }])),
  gzipRatio: geomean(rows.map((r) => r.size.oursGzip / r.size.ajvGzip)),
  gzipRatioToAta: geomean(rows.filter((r) => r.size.ataGzip !== null).map((r) => r.size.oursGzip / r.size.ataGzip)),
  gzipRatioSupportShared: geomean(rows.map((r) => r.size.withoutSupportGzip / r.size.ajvGzip)),
  gzipRatioPassesOnly: geomean(rows.map((r) => r.size.passesOnlyGzip / r.size.ajvGzip)),
  codegenMsPerContract: geomean(rows.map((r) => r.codegenMs)),
  coldBuild1000Ms: coldBuildMs,
  warmBuild1000: { noChangeMs, oneChangeMs, watchOneChangeMs: watchMs, noChangeRatio: noChangeMs / coldBuildMs, oneChangeRatio: oneChangeMs / coldBuildMs, watchRatio: watchMs / coldBuildMs },
  emit24: { tsMs: emitTsMs, jsMs: emitJsMs, ratio: emitJsMs / emitTsMs },
  validateAgainstAllErrors: { invalid: ratio('ours validate', 'invalid', 'ajv allErrors') },
  againstAta: {
    is: { valid: ratio('ours is', 'valid', 'ata isValid'), invalid: ratio('ours is', 'invalid', 'ata isValid') },
    validate: { valid: ratio('ours validate', 'valid', 'ata validate'), invalid: ratio('ours validate', 'invalid', 'ata validate') },
  },
  callPath: callPath.map((c) => ({
    ...c,
    ratio: c.runtimeNs / c.bareNs,
    jsonRatio: c.callJsonNs / c.bareJsonNs,
    asyncRatio: c.callAsyncNs / c.bareNs,
    observerHookRatio: c.watchedNothingNs / c.runtimeNs,
    asyncObserverHookRatio: c.asyncWatchedNothingNs / c.callAsyncNs,
    tracedRatio: c.tracedNs / c.runtimeNs,
    asyncTracedRatio: c.asyncTracedNs / c.callAsyncNs,
  })),
  languageServer,
  mislabels,
};

const pad = (text, width) => String(text).padEnd(width);
const fmt = (n) => (n === null ? 'invalid' : n.toFixed(0));
console.log(`\nns per validation (median of ${rounds} interleaved rounds), input and output samples together\n`);
const header = ['contract', ...engines.flatMap((e) => [`${e} ✓`, `${e} ✗`])];
console.log(header.map((h, i) => pad(h, i === 0 ? 34 : 12)).join(''));
for (const row of rows) console.log([pad(row.contract, 34), ...engines.flatMap((e) => [pad(fmt(row[`${e}|valid`]), 12), pad(fmt(row[`${e}|invalid`]), 12)])].join(''));
console.log('\ngeometric mean of time ratios to ajv standalone (lower is faster)\n');
for (const engine of engines) console.log(`${pad(engine, 20)} valid ${summary.ratios[engine].valid.toFixed(2)}×   invalid ${summary.ratios[engine].invalid.toFixed(2)}×`);
console.log(`\ngenerated code, gzip, ours/ajv standalone (geometric mean): ${summary.gzipRatio.toFixed(2)}×`);
console.log(`generated code, gzip, ours/ata standalone (geometric mean): ${summary.gzipRatioToAta.toFixed(2)}×`);
console.log(`  with the support helpers shared across the output folder: ${summary.gzipRatioSupportShared.toFixed(2)}×; the check and issue passes alone, without schemas or comments: ${summary.gzipRatioPassesOnly.toFixed(2)}×`);
console.log(`codegen per contract in-process (geometric mean): ${summary.codegenMsPerContract.toFixed(2)} ms`);
console.log(`ours validate / ajv allErrors on invalid samples (the same job: every issue): ${summary.validateAgainstAllErrors.invalid.toFixed(2)}×`);
console.log(`ours is / ata isValid: valid ${summary.againstAta.is.valid.toFixed(2)}×, invalid ${summary.againstAta.is.invalid.toFixed(2)}×; ours validate / ata validate: valid ${summary.againstAta.validate.valid.toFixed(2)}×, invalid ${summary.againstAta.validate.invalid.toFixed(2)}×`);
console.log(`cold jtc build of 1,000 contracts: ${(coldBuildMs / 1000).toFixed(2)} s`);
console.log(
  `warm builds of the same 1,000, against the cold one: nothing changed ${summary.warmBuild1000.noChangeRatio.toFixed(3)}× (${noChangeMs.toFixed(0)} ms), one contract changed ${summary.warmBuild1000.oneChangeRatio.toFixed(3)}× (${oneChangeMs.toFixed(0)} ms), --watch seeing one change ${summary.warmBuild1000.watchRatio.toFixed(3)}× (${watchMs.toFixed(0)} ms, from the write to the result line, 100 ms debounce included)`,
);
console.log(`--emit js / --emit ts, cold build of 24 contracts: ${summary.emit24.ratio.toFixed(2)}× (${emitJsMs.toFixed(0)} vs ${emitTsMs.toFixed(0)} ms)`);
console.log(describeLanguageServer(languageServer));
for (const c of summary.callPath) {
  console.log(`runtime.call vs bare is + handler, ${c.contract}: ${c.ratio.toFixed(2)}× (${c.runtimeNs.toFixed(0)} vs ${c.bareNs.toFixed(0)} ns)`);
  console.log(`runtime.callJson vs JSON.parse + is + handler + JSON.stringify, ${c.contract}: ${c.jsonRatio.toFixed(2)}× (${c.callJsonNs.toFixed(0)} vs ${c.bareJsonNs.toFixed(0)} ns)`);
  console.log(`runtime.callAsync (awaited) vs bare is + handler, ${c.contract}: ${c.asyncRatio.toFixed(2)}× (${c.callAsyncNs.toFixed(0)} vs ${c.bareNs.toFixed(0)} ns)`);
  console.log(`an observer watching no call vs none, ${c.contract}: call ${c.observerHookRatio.toFixed(3)}× (${c.watchedNothingNs.toFixed(0)} vs ${c.runtimeNs.toFixed(0)} ns), callAsync ${c.asyncObserverHookRatio.toFixed(3)}× (${c.asyncWatchedNothingNs.toFixed(0)} vs ${c.callAsyncNs.toFixed(0)} ns)`);
  console.log(`otelCallObserver with the SDK vs no observer, ${c.contract}: call ${c.tracedRatio.toFixed(2)}× (${c.tracedNs.toFixed(0)} vs ${c.runtimeNs.toFixed(0)} ns), callAsync ${c.asyncTracedRatio.toFixed(2)}× (${c.asyncTracedNs.toFixed(0)} vs ${c.callAsyncNs.toFixed(0)} ns)`);
}
if (mislabels.length > 0) console.log(`\nmislabelled samples (those engines' figures are marked invalid):\n  ${mislabels.join('\n  ')}`);
console.log(`\nmachine: ${summary.machine.cpus} × ${summary.machine.model}, ${summary.machine.memoryGiB} GiB, Node ${summary.machine.node}`);

writeFileSync(join(outDir, 'latest.json'), JSON.stringify({ summary, rows }, null, 2));
console.log(`\nwrote ${join('bench', 'results', 'latest.json')}`);
