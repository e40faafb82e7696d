#!/usr/bin/env node
// `npm run test:node -- <major>` (or `node scripts/test-on-node.js <major> [vitest files…]`): the
// runtime's tests (packages/runtime/test) and the packed-package tests (test/package.test.ts) on
// Node <major>, from tools/node<major> (scripts/node-binary.js). `npm test` runs everything on the
// machine's Node; CI runs this for 22 and 24 besides, so every supported major runs what users run.
// That Node's folder goes first on PATH, so the npm, npx and node the tests spawn run on it too.
import { spawnSync } from 'node:child_process';
import { dirname, delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';
import { majorArgument, nodeBinary } from './node-binary.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const [argument, ...files] = process.argv.slice(2);
const major = majorArgument(argument, 'node scripts/test-on-node.js <major> [vitest files…]   (e.g. 22 or 24)');
const tests = files.length > 0 ? files : ['packages/runtime/test', 'test/package.test.ts'];

let node;
try {
  node = nodeBinary(major);
} catch (error) {
  console.error(`test-on-node: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` };
const run = (command, args) => spawnSync(command, args, { cwd: root, env, stdio: 'inherit' }).status ?? 1;

const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
console.error(`test-on-node: ${tests.join(' ')} on Node ${version} (${node})`);
// The packed-package tests pack the build as it is (--ignore-scripts), so build first, on that Node.
const built = run('npm', ['run', '--silent', 'build']);
process.exit(built === 0 ? run(node, ['node_modules/vitest/vitest.mjs', 'run', ...tests]) : built);
