// "Tiny", measured: what `import { CapabilityRuntime } from '@json-tool-contracts/runtime'` loads, for a
// server that only registers and calls tools. `npm run bench` runs it; `node bench/runtime-size.js`
// alone takes a second. Bytes are of the runtime's build (what a user installs), bundled by esbuild
// (minified, ESM, platform neutral) and gzipped at level 9; lines are those of the source modules the
// same import pulls in. Sizes are deterministic: no runs, no spread. Writes bench/results/runtime-size.json.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildSync } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runtimeSource = join(root, 'packages', 'runtime', 'src');
const entry = "export { CapabilityRuntime } from '@json-tool-contracts/runtime';\n";

/** The one import, bundled; `conditions` picks the build (none) or the sources (the package's source condition). */
function bundle(conditions) {
  return buildSync({
    stdin: { contents: entry, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    conditions,
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
}

const built = bundle([]);
const minified = built.outputFiles[0].contents;
const fromSources = bundle(['@json-tool-contracts/source']);
const modules = Object.keys(fromSources.metafile.inputs)
  .filter((path) => path !== '<stdin>')
  .map((path) => {
    const file = join(root, path);
    const lines = readFileSync(file, 'utf8').split('\n').length - 1;
    return { module: relative(runtimeSource, file).split('\\').join('/'), lines };
  })
  .sort((a, b) => b.lines - a.lines || (a.module < b.module ? -1 : 1));
const summary = {
  import: entry.trim(),
  minifiedBytes: minified.length,
  gzipBytes: gzipSync(minified, { level: 9 }).length,
  sourceLines: modules.reduce((sum, { lines }) => sum + lines, 0),
  modules,
};

console.log(`\nwhat ${summary.import.replace('export', 'import')} loads (esbuild --bundle --minify --format=esm --platform=neutral, gzip -9)\n`);
console.log(`  ${summary.minifiedBytes.toLocaleString('en')} bytes minified, ${summary.gzipBytes.toLocaleString('en')} gzip; ${summary.sourceLines.toLocaleString('en')} source lines in ${modules.length} modules:`);
for (const { module, lines } of modules) console.log(`    ${String(lines).padStart(5)}  ${module}`);
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(join(root, 'bench', 'results', 'runtime-size.json'), `${JSON.stringify(summary, null, 2)}\n`);
console.log(`\nwrote ${join('bench', 'results', 'runtime-size.json')}`);
