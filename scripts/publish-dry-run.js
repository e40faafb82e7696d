#!/usr/bin/env node
// `npm publish --dry-run` of both packages as a release publishes them, plus what npm leaves to us:
// it happily publishes a package whose `exports` name files it does not carry, whose types are
// missing, or whose metadata cannot get provenance. Every problem is listed; exit 1 if there is
// one. Run it on a build (`npm run build`; a real `npm publish` runs that as `prepack`): it packs
// with --ignore-scripts so that nothing but npm's JSON reaches standard output.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The repository's own exports condition (tsconfig.json, vitest.config.ts): it points at sources that are not shipped and is never set in a consumer. */
const sourceCondition = '@json-tool-contracts/source';
/** What npm's provenance statement can be checked against: a public GitHub repository. */
const githubRepository = /^git\+https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/;
const buildLeftovers = /(^|\/)[^/]*\.tsbuildinfo$/;

const readManifest = (folder) => JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8'));

/** The packages this repository publishes: the root and its workspaces, as folders relative to the root. */
function packageFolders() {
  return ['.', ...(readManifest('.').workspaces ?? [])];
}

/** npm's dry run of the package in `folder`: the paths it would pack, or why it failed. */
function dryRun(folder, manifest) {
  const workspace = folder === '.' ? [] : ['--workspace', folder];
  const run = spawnSync('npm', ['publish', '--dry-run', '--json', '--ignore-scripts', ...workspace], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
  });
  if (run.status !== 0) return { failure: `npm publish --dry-run failed (exit ${String(run.status)}):\n${run.stderr}` };
  const report = JSON.parse(run.stdout);
  const packed = report[manifest.name] ?? report;
  return { packed: { files: packed.files.map((file) => file.path), unpackedSize: packed.unpackedSize, filename: packed.filename } };
}

/** Every string an `exports` value leads to, with the conditions on the way. */
function* exportTargets(value, conditions = []) {
  if (typeof value === 'string') yield { target: value, conditions };
  else if (value !== null && typeof value === 'object') for (const [key, inner] of Object.entries(value)) yield* exportTargets(inner, [...conditions, key]);
}

/** The conditions objects of `exports`, with the subpath they serve. */
function* conditionObjects(exports, subpath = '.') {
  if (exports === null || typeof exports !== 'object') return;
  const keys = Object.keys(exports);
  if (keys.every((key) => key.startsWith('.'))) {
    for (const key of keys) yield* conditionObjects(exports[key], key);
  } else {
    yield { subpath, conditions: exports };
    for (const key of keys) yield* conditionObjects(exports[key], subpath);
  }
}

/**
 * What is wrong with one package about to be published: `manifest` its package.json, `packed` the
 * paths npm would put in the tarball, `folder` where it lives in the repository, `all` the
 * manifests of every package published from here (versions and engines agree between them).
 */
export function publishProblems({ manifest, packed, folder, all }) {
  const problems = [];
  const has = new Set(packed);
  const shipped = (target) => has.has(target.replace(/^\.\//, ''));

  for (const field of ['name', 'version', 'description', 'license']) {
    if (typeof manifest[field] !== 'string' || manifest[field].trim() === '') problems.push(`"${field}" is missing: npm shows it on the package page`);
  }
  if (typeof manifest.version === 'string' && !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(manifest.version)) problems.push(`"version" ${manifest.version} is not a release version`);
  if (manifest.private === true) problems.push('"private": true: npm refuses to publish it');
  if (manifest.license === 'MIT' && !has.has('LICENSE')) problems.push('the MIT license text (LICENSE) is not packed');
  for (const file of ['package.json', 'README.md']) if (!has.has(file)) problems.push(`${file} is not packed`);

  const repository = manifest.repository;
  const expectedDirectory = folder === '.' ? undefined : folder.split(sep).join('/');
  if (repository === null || typeof repository !== 'object') problems.push('"repository" is missing or a bare string: give { "type": "git", "url": "git+https://github.com/<owner>/<repo>.git" } (npm provenance checks the package against it)');
  else {
    if (repository.type !== 'git') problems.push(`"repository.type" is ${JSON.stringify(repository.type)}, not "git"`);
    if (typeof repository.url !== 'string' || !githubRepository.test(repository.url)) problems.push(`"repository.url" ${JSON.stringify(repository.url)} is not git+https://github.com/<owner>/<repo>.git`);
    if (repository.directory !== expectedDirectory) problems.push(`"repository.directory" is ${JSON.stringify(repository.directory)}, but the package lives in ${expectedDirectory === undefined ? 'the repository root (leave it out)' : JSON.stringify(expectedDirectory)}`);
  }
  const urls = new Set(all.map((other) => other.repository?.url));
  if (urls.size > 1) problems.push(`the packages name different repositories: ${[...urls].map(String).join(', ')}`);

  const engines = manifest.engines?.node;
  if (typeof engines !== 'string' || engines.trim() === '') problems.push('"engines.node" is missing: state the Node versions the package supports');
  const allEngines = new Set(all.map((other) => other.engines?.node));
  if (allEngines.size > 1) problems.push(`the packages state different Node versions in engines: ${[...allEngines].map(String).join(' / ')}`);

  const versions = new Map(all.map((other) => [other.name, other.version]));
  if (new Set(versions.values()).size > 1) problems.push(`the packages have different versions: ${[...versions].map(([name, version]) => `${name}@${version}`).join(', ')}`);
  for (const [name, range] of Object.entries(manifest.dependencies ?? {})) {
    if (versions.has(name) && range !== versions.get(name)) problems.push(`depends on ${name} ${range}, not on its version from this repository, ${versions.get(name)}`);
  }
  if (manifest.name?.startsWith('@') && manifest.publishConfig?.access !== 'public') problems.push('a scoped package publishes as restricted unless "publishConfig": { "access": "public" }');
  if (typeof manifest.scripts?.prepack !== 'string') problems.push('no "prepack" script: a publish from a clean checkout would ship without its build');

  if (!Array.isArray(manifest.files) || manifest.files.length === 0) problems.push('"files" is missing: npm would pack everything that is not ignored');
  else {
    for (const entry of manifest.files) {
      const negated = entry.startsWith('!');
      const path = entry.replace(/^!/, '').replace(/\/$/, '');
      const matches = packed.some((file) => file === path || file.startsWith(`${path}/`));
      if (!negated && !matches) problems.push(`"files" entry ${entry} packs nothing (not built yet? run npm run build)`);
      if (negated && matches) problems.push(`"files" excludes ${path}, yet it is packed`);
    }
  }
  for (const file of packed.filter((path) => buildLeftovers.test(path))) problems.push(`${file} is packed: a build's incremental state, not for users (exclude it in "files")`);

  const entryPoints = [
    ...(manifest.main === undefined ? [] : [{ field: 'main', target: manifest.main }]),
    ...(manifest.types === undefined ? [] : [{ field: 'types', target: manifest.types }]),
    ...Object.entries(typeof manifest.bin === 'string' ? { [manifest.name]: manifest.bin } : (manifest.bin ?? {})).map(([name, target]) => ({ field: `bin ${name}`, target })),
  ];
  for (const { field, target } of entryPoints) if (!shipped(target)) problems.push(`"${field}" names ${target}, which is not packed`);

  if (manifest.exports === undefined) problems.push('"exports" is missing: every internal file would be importable');
  for (const { target, conditions } of exportTargets(manifest.exports)) {
    if (conditions.includes(sourceCondition)) continue;
    if (!target.startsWith('./')) problems.push(`exports ${conditions.join(' → ')}: ${target} does not start with ./`);
    else if (target.includes('*')) problems.push(`exports ${conditions.join(' → ')}: the pattern ${target} is not checked by this script; list the files`);
    else if (!shipped(target)) problems.push(`exports ${conditions.join(' → ')}: ${target} is not packed`);
  }
  for (const { subpath, conditions } of conditionObjects(manifest.exports)) {
    const keys = Object.keys(conditions).filter((key) => key !== sourceCondition);
    const code = keys.find((key) => ['import', 'require', 'default'].includes(key) && typeof conditions[key] === 'string' && /\.[cm]?js$/.test(conditions[key]));
    if (code === undefined) continue;
    const declaration = conditions[code].replace(/\.([cm]?)js$/, '.d.$1ts');
    if (conditions.types === undefined) problems.push(`exports ${subpath}: ${conditions[code]} has no "types" (TypeScript users get no declarations)`);
    else {
      if (keys.indexOf('types') > keys.indexOf(code)) problems.push(`exports ${subpath}: "types" comes after "${code}", so TypeScript never reads it (conditions match in order)`);
      if (conditions.types !== declaration) problems.push(`exports ${subpath}: "types" is ${conditions.types}, but the declarations of ${conditions[code]} are ${declaration}`);
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // `node scripts/publish-dry-run.js [folder…]`: those packages only (default: all), still checked against all the manifests.
  const folders = packageFolders();
  const asked = process.argv.slice(2);
  const unknown = asked.filter((folder) => !folders.includes(folder));
  if (unknown.length > 0) {
    console.error(`publish-dry-run: ${unknown.join(', ')} is not a package of this repository (${folders.join(', ')})`);
    process.exit(2);
  }
  const manifests = new Map(folders.map((folder) => [folder, readManifest(folder)]));
  const all = [...manifests.values()];
  const runs = (asked.length > 0 ? asked : folders).map((folder) => ({ folder, manifest: manifests.get(folder), ...dryRun(folder, manifests.get(folder)) }));
  let failed = false;
  for (const { folder, manifest, packed, failure } of runs) {
    const label = `${manifest.name}@${manifest.version} (${folder === '.' ? 'the repository root' : relative('.', folder)})`;
    const problems = failure === undefined ? publishProblems({ manifest, packed: packed.files, folder, all }) : [failure];
    if (problems.length === 0) console.log(`${label}: ready to publish, ${packed.files.length} files, ${Math.round(packed.unpackedSize / 1000)} kB unpacked (${packed.filename})`);
    else {
      failed = true;
      console.error(`${label}: not ready to publish:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    }
  }
  process.exit(failed ? 1 : 0);
}
