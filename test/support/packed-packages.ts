import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { inject } from 'vitest';

/** npm as the tests run it: quiet, no audit, no funding notice, no update check. */
export const npmEnvironment: NodeJS.ProcessEnv = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', npm_config_loglevel: 'warn' };

export interface PackedPackage {
  /** The tarball's absolute path. */
  tarball: string;
  filename: string;
  unpackedSize: number;
  files: { path: string }[];
}

export interface PackedPackages {
  /** `@json-tool-contracts/runtime`. */
  runtime: PackedPackage;
  /** `json-tool-contracts`, the compiler and the jtc CLI. */
  compiler: PackedPackage;
}

/** npm, on a busy machine: room for one many times slower than a quiet one. */
const packTimeout = 20 * 60_000;

/**
 * Both packages packed as `npm publish` would pack them (from the built `dist/`, no script run),
 * once per vitest run: the first caller, in whichever worker, takes the run's folder
 * (test/support/pack-folder.ts) by creating its lock, packs and writes `packed.json`; every other
 * caller waits for that file and reuses the tarballs.
 */
export function packedPackages(): PackedPackages {
  const folder = inject('packFolder');
  const packed = join(folder, 'packed.json');
  const failed = join(folder, 'failed.txt');
  try {
    mkdirSync(join(folder, 'lock'));
  } catch {
    return waitFor(packed, failed);
  }
  try {
    // Packed by the script a clone uses before the packages are published (`npm run pack:local`), from the dist/ the tests built.
    const result = JSON.parse(execFileSync(process.execPath, ['scripts/pack-local.js', folder, '--json', '--no-build'], { cwd: resolve('.'), encoding: 'utf8', env: npmEnvironment, stdio: ['ignore', 'pipe', 'pipe'] })) as PackedPackages;
    cacheRegistryDependencies();
    writeFileSync(`${packed}.tmp`, JSON.stringify(result));
    renameSync(`${packed}.tmp`, packed);
    return result;
  } catch (error) {
    writeFileSync(failed, error instanceof Error ? error.message : String(error));
    throw error;
  }
}

/**
 * The tests install the tarballs with `npm install --offline`, and the compiler's own dependencies
 * (commander) then come from npm's cache. `npm ci` fills the cache with their tarballs but not with
 * the registry documents an install that resolves a range reads, so on a fresh machine the offline
 * install failed with ENOTCACHED: each is added to the cache once, at the version the lockfile has.
 */
function cacheRegistryDependencies(): void {
  const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> };
  const locked = (JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { version?: string }> }).packages;
  const fromRegistry = Object.keys(manifest.dependencies).filter((name) => !name.startsWith('@json-tool-contracts/'));
  const specs = fromRegistry.map((name) => `${name}@${locked[`node_modules/${name}`]!.version}`);
  execFileSync('npm', ['cache', 'add', ...specs], { encoding: 'utf8', env: npmEnvironment, stdio: ['ignore', 'pipe', 'pipe'] });
}

function waitFor(packed: string, failed: string): PackedPackages {
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + packTimeout;
  while (!existsSync(packed)) {
    if (existsSync(failed)) throw new Error(`packing failed in another test file: ${readFileSync(failed, 'utf8')}`);
    if (Date.now() > deadline) throw new Error(`no tarballs after ${packTimeout / 60_000} minutes in ${packed}`);
    Atomics.wait(sleeper, 0, 0, 200);
  }
  return JSON.parse(readFileSync(packed, 'utf8')) as PackedPackages;
}
