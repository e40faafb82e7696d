import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Option } from 'commander';
import { compileContracts } from '../compiler.js';
import { UsageError, withIoErrors } from '../diagnostics/usage-error.js';
import { randomTempName } from '../output/temp-files.js';
import { writeAllOrNothing } from '../output/write.js';
import { version } from '../version.js';
import type { CliCommand } from './command.js';

export const initTemplates = ['mcp', 'ai-sdk'] as const;
export type InitTemplate = (typeof initTemplates)[number];

/** The project files: what every template shares, then the template's own (package.json, the entry point). */
const templateRoot = new URL('../../templates/init/', import.meta.url);

/** npm leaves `.gitignore` out of a tarball, so the shipped template names it `gitignore`. */
const renamed: Readonly<Record<string, string>> = { gitignore: '.gitignore' };

/** Where the example contract's module goes: the folder `npm run contracts` builds into. */
const generatedFolder = join('src', 'generated');

/** `jtc init [dir] [--template mcp|ai-sdk]`. */
export const initCommand: CliCommand = (program, context) => {
  program
    .command('init')
    .summary('start a project: a contract, its module, a typed handler map, a server or agent loop and a test that already work')
    .description('Start a project in a folder (default: the current one): a contract, its generated module, a typed handler map, an MCP stdio server or an AI SDK loop, and a test that already work together. Writes nothing when any of its files exists.')
    .argument('[dir]', 'the project folder', '.')
    .addOption(new Option('--template <name>', 'the entry point: an MCP stdio server, or an AI SDK generateText loop').choices(initTemplates).default('mcp' satisfies InitTemplate))
    .addOption(new Option('--local <folder>', `install our two packages from the tarballs in <folder> (npm run pack:local in a clone writes them), not from the registry`))
    .action((dir: string, flags: { template: InitTemplate; local?: string }) => {
      context.exitCode = runInit(dir, flags.template, context.write, flags.local);
    });
};

/**
 * `jtc init [dir] [--template mcp|ai-sdk]`: writes a project in which a contract, its generated
 * module, a typed handler map, an entry point and a test already work together. Refuses, writing
 * nothing, when any file it would write exists already (exit 2, listing them all).
 */
export function runInit(dir: string, template: string, write: (text: string) => void, localFolder?: string): number {
  if (!(initTemplates as readonly string[]).includes(template)) throw new UsageError(`init: --template takes ${initTemplates.join(' or ')}, not "${template}"`);
  const root = resolve(dir);
  const local = localFolder === undefined ? undefined : localPackages(localFolder, root);
  const files = [...templateFiles('common'), ...templateFiles(template)].map((file) => {
    const text = fill(file.text, { name: packageName(root), version });
    return { ...file, text: local !== undefined && file.path === 'package.json' ? withDependencies(text, local) : text };
  });
  files.push(...generatedFiles(files));
  const taken = [...new Set(files.flatMap((file) => takenOnTheWay(root, file.path)))].sort();
  if (taken.length > 0) {
    throw new UsageError(`init: ${taken.join(', ')} already exist${taken.length === 1 ? 's' : ''} in ${root}; nothing was written (choose an empty folder: jtc init <dir>)`);
  }
  writeProject(root, files);
  const into = relative(process.cwd(), root);
  const cd = into === '' ? '' : `cd ${quoteForShell(into.startsWith('..') ? root : into)} && `;
  write(`Created ${template === 'mcp' ? 'an MCP' : 'an AI SDK'} project in ${root}: ${files.length} files (contracts/, src/, package.json, tsconfig.json, .vscode/settings.json).\n\nNext:\n`);
  write(`  ${cd}npm install\n`);
  write('  npm test          # builds contracts/ into src/generated, type-checks, runs the tests\n');
  write(`  npm start         # ${template === 'mcp' ? 'the MCP server on stdio' : 'a generateText loop with the tools (offline without AI_GATEWAY_API_KEY)'}\n`);
  return 0;
}

/**
 * The whole project or nothing, as a build writes its output: every file to a temporary name
 * beside it first, then each placed under its name (never over a file that appeared since the
 * check). On any failure (a full disk, a file too large, a permission) what was written and every
 * folder made for it are removed again, so the folder is as it was and init can run again.
 */
function writeProject(root: string, files: readonly ProjectFile[]): void {
  const made: string[] = [];
  try {
    for (const folder of [root, ...new Set(files.map((file) => dirname(join(root, file.path))))]) made.push(...makeFolder(folder));
    writeAllOrNothing(
      files.map((file) => {
        const target = join(root, file.path);
        return { target, temp: join(dirname(target), randomTempName()), text: file.text };
      }),
      { overwrite: false },
    );
  } catch (error) {
    for (const folder of made.reverse()) {
      try {
        rmdirSync(folder);
      } catch {
        // Not empty: something else was put there meanwhile, which is not ours to remove.
      }
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`init: ${reason}; nothing was written`);
  }
}

/** Makes a folder and any missing above it; returns those it made, outermost first. */
function makeFolder(folder: string): string[] {
  const missing: string[] = [];
  for (let at = folder; !existsSync(at) && dirname(at) !== at; at = dirname(at)) missing.unshift(at);
  for (const at of missing) withIoErrors(at, () => mkdirSync(at));
  return missing;
}

/** Our packages by name, each npm spec that installs it from `npm run pack:local`'s tarballs of this version. */
type LocalPackages = Readonly<Record<string, string>>;

/**
 * The `file:` dependencies on the two tarballs `npm pack` names for this version in a folder,
 * relative to the project as `npm install <tarball>` writes them; a tarball missing is a usage error.
 */
function localPackages(folder: string, root: string): LocalPackages {
  const tarballs = { '@json-tool-contracts/runtime': `json-tool-contracts-runtime-${version}.tgz`, 'json-tool-contracts': `json-tool-contracts-${version}.tgz` };
  return Object.fromEntries(
    Object.entries(tarballs).map(([name, file]) => {
      const tarball = resolve(folder, file);
      if (statSync(tarball, { throwIfNoEntry: false })?.isFile() !== true) throw new UsageError(`init: --local ${folder}: no ${file} there (npm run pack:local in a clone of json-tool-contracts ${version} packs both packages into packs/)`);
      const path = relative(root, tarball).split(sep).join('/');
      return [name, `file:${path}`];
    }),
  );
}

/** The template's package.json with our packages' versions replaced by the given specs. */
function withDependencies(text: string, specs: LocalPackages): string {
  const manifest = JSON.parse(text) as Record<string, unknown>;
  for (const group of ['dependencies', 'devDependencies']) {
    const dependencies = manifest[group] as Record<string, string> | undefined;
    for (const name of Object.keys(dependencies ?? {})) if (Object.hasOwn(specs, name)) dependencies![name] = specs[name]!;
  }
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

interface ProjectFile {
  /** Relative to the project, with the platform's separators. */
  readonly path: string;
  readonly text: string;
}

function templateFiles(name: string): ProjectFile[] {
  const folder = new URL(`${name}/`, templateRoot);
  const entries = readdirSync(folder, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return entries
    .map((entry) => {
      const inTemplate = relative(fileURLToPath(folder), join(entry.parentPath, entry.name));
      return { path: join(dirname(inTemplate), renamed[basename(inTemplate)] ?? basename(inTemplate)), text: readFileSync(join(entry.parentPath, entry.name), 'utf8') };
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The example contract's module and index, as `npm run contracts` writes them: `contracts:check` passes from the start. */
function generatedFiles(files: readonly ProjectFile[]): ProjectFile[] {
  const sources = files.filter((file) => file.path.endsWith('.contract.json')).map((file) => ({ file: file.path, text: file.text }));
  const { files: generated, diagnostics } = compileContracts(sources);
  if (diagnostics.length > 0) throw new Error(`the init template's contracts do not compile: ${diagnostics.map((d) => d.message).join('; ')}`);
  return generated.map((file) => ({ path: join(generatedFolder, file.path), text: file.text }));
}

/** The file and any of its folders inside the project that exist already, as the user would name them. */
function takenOnTheWay(root: string, path: string): string[] {
  const parts = path.split(sep);
  const taken: string[] = [];
  for (let i = 1; i <= parts.length; i++) {
    const inside = parts.slice(0, i).join(sep);
    const at = join(root, inside);
    if (!existsSync(at) && !isLink(at)) continue;
    // A folder on the way is what we want; a file (or anything else) where a folder or our file goes is in the way.
    if (i < parts.length && lstatSync(at).isDirectory()) continue;
    taken.push(inside);
    break;
  }
  return taken;
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** `{{key}}` replaced in the template's text; the values are checked to need no escaping where they go. */
function fill(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`init template: no value for {{${key}}}`);
    return value;
  });
}

/** An npm package name from the folder's name: lower case, URL-safe, never empty. */
function packageName(root: string): string {
  const name = basename(root)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+|[._-]+$/g, '')
    .slice(0, 214);
  return name === '' ? 'tools' : name;
}

function quoteForShell(path: string): string {
  return /^[\w./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
