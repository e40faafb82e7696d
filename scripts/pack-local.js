#!/usr/bin/env node
// Packs both packages of this checkout, as `npm publish` would pack them, into one folder (default
// `packs/`): `npm run pack:local [-- <folder>]`. A project made with `jtc init <dir> --local
// <folder>` then installs them from there, with no registry for our packages, before they are
// published (docs/cli.md, "From a clone"). `--json` prints what npm packed for each package
// instead of the next steps, and `--no-build` packs the `dist/` already built: the tests pack
// through this script (test/support/packed-packages.ts).
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const json = args.includes('--json');
const build = !args.includes('--no-build');
const unknown = args.find((arg) => arg.startsWith('-') && arg !== '--json' && arg !== '--no-build');
const folders = args.filter((arg) => !arg.startsWith('-'));
if (unknown !== undefined || folders.length > 1) {
  process.stderr.write('usage: node scripts/pack-local.js [folder] [--json] [--no-build]\n');
  process.exit(2);
}
const destination = resolve(folders[0] ?? join(root, 'packs'));
const npm = (npmArgs) => execFileSync('npm', npmArgs, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

mkdirSync(destination, { recursive: true });
// One build of both packages (the compiler's references the runtime's), then each packed without its scripts.
if (build) npm(['run', 'build']);
const pack = (extra) => {
  const [packed] = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', destination, ...extra]));
  return { ...packed, tarball: join(destination, packed.filename) };
};
const packed = { runtime: pack(['--workspace', 'packages/runtime']), compiler: pack([]) };

if (json) process.stdout.write(`${JSON.stringify(packed)}\n`);
else {
  const shown = folders[0] ?? (relative(process.cwd(), destination) || '.');
  process.stdout.write(`Packed into ${shown}: ${packed.runtime.filename}, ${packed.compiler.filename}\n\nStart a project that installs them from there:\n`);
  process.stdout.write(`  node ${relative(process.cwd(), join(root, 'bin', 'jtc.js'))} init my-tools --local ${shown}\n  cd my-tools && npm install && npm test && npm start\n`);
}
