#!/usr/bin/env node
// The Web-standard hosts the runtime's HTTP handler is tested on besides Node (Bun.serve, Deno.serve:
// packages/runtime/test/mcp/http/web-hosts.test.ts). Each lives in tools/<host> with its own lockfile
// (the npm package that carries its linux-x64 binary), installed on first use as tools/node22 is.
//
// `node scripts/web-host-binary.js <bun|deno>` prints the path of that binary: exactly one line on
// standard output. Everything else (npm's install report, errors) goes to standard error.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { installedFromLockfile, printBinary, tools } from './node-binary.js';

/** Each host's binary inside its tools/ folder's node_modules. */
const binaries = { bun: '@oven/bun-linux-x64/bin/bun', deno: '@deno/linux-x64-glibc/deno' };

/** The binary of `host` from tools/<host>, installed from its lockfile on first use. */
export function webHostBinary(host) {
  const folder = fileURLToPath(new URL(`${host}/`, tools));
  if (!existsSync(`${folder}package-lock.json`)) throw new Error(`there is no tools/${host} with a lockfile`);
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error(`tools/${host} provides ${host} for linux-x64 only, not ${process.platform}-${process.arch}`);
  return installedFromLockfile(folder, binaries[host]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const host = process.argv[2];
  if (process.argv.length !== 3 || !Object.hasOwn(binaries, host)) {
    console.error(`usage: node scripts/web-host-binary.js <${Object.keys(binaries).join('|')}>`);
    process.exit(2);
  }
  printBinary('web-host-binary', () => webHostBinary(host));
}
