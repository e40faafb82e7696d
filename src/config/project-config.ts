import { type Dirent, existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { isSkippedFolder } from '../contract/discover.js';
import type { Diagnostic, Position } from '../diagnostics/diagnostic.js';
import { readRegularFile } from '../diagnostics/read-file.js';
import type { EmitKind, SupportKind } from '../output/file-set.js';
import { supportKinds } from '../emit/support-module.js';
import type { JsonNode } from '../source/json-node.js';
import { maxSourceBytes, parseSourceText } from '../source/parse.js';
import { targetProfiles } from '../targets/profiles/index.js';

/**
 * The project configuration, `jtc.config.json`: what `jtc check` and `jtc build` run with when the
 * command line does not say, read alike by the CLI and the language server so that the editor and
 * CI agree. Nothing here touches the process (arguments, working folder, console): callers name
 * the folder to search from.
 */
export const projectConfigFileName = 'jtc.config.json';

/** What each `--emit` kind writes. */
export const emitKinds: Readonly<Record<EmitKind, string>> = { ts: 'one .ts module per contract', js: 'ESM .mjs plus .d.mts, loaded as ESM in any project' };

/** A project's options: the file's, over these defaults. Paths are absolute. */
export interface ProjectOptions {
  /** The contract files and folders to use when a command names none. */
  readonly contracts?: readonly string[];
  /** The output folder to use when `-o` is not given. */
  readonly out?: string;
  readonly emit: EmitKind;
  /** Where the support code goes: in each module, or one support module the modules import. */
  readonly support: SupportKind;
  readonly exactNumbers: boolean;
  readonly strict: boolean;
  /** Target profile names, each once. */
  readonly targets: readonly string[];
}

export const defaultProjectOptions: ProjectOptions = { emit: 'ts', support: 'inline', exactNumbers: false, strict: false, targets: [] };

/** A problem in a configuration file, where it is (a diagnostic without a code): never thrown, always returned. */
export type ConfigProblem = Omit<Diagnostic, 'code' | 'severity'>;

export interface ProjectConfig {
  /** The configuration file, absolute. */
  readonly file: string;
  /** The options it sets over the defaults; with problems, what could be read of it. */
  readonly options: ProjectOptions;
  readonly problems: readonly ConfigProblem[];
}

/**
 * Where the search for a folder's configuration ended: at the file that applies, or at the
 * folder where it stopped without one and why (the user's question when nothing applies).
 */
export type ConfigSearch = { readonly file: string } | { readonly file: undefined; readonly stoppedAt: string; readonly boundary: SearchBoundary };

/** Why a search stopped: the marker of a project's root it found, the home folder (not searched from below), the root of the file system. */
export type SearchBoundary = (typeof projectRootMarkers)[number] | 'home folder' | 'file system root';

/** What marks a project's root folder: the search for a configuration goes no higher. */
const projectRootMarkers = ['package.json', '.git'] as const;

/**
 * The search for the `jtc.config.json` that applies to a folder: in it or the nearest folder above
 * it, within the project. The search stops at a project's root, a folder holding `package.json` or
 * `.git` (whose own `jtc.config.json` still counts), below the home folder (a file there would
 * apply to every folder under it; it counts only when the search starts there) and at the root of
 * the file system, so a configuration outside the project never applies, nor sends its output there.
 */
export function searchProjectConfig(startDir: string, home: string = homedir()): ConfigSearch {
  const start = resolve(startDir);
  const homeFolder = resolve(home);
  for (let folder = start; ; folder = dirname(folder)) {
    if (folder === homeFolder && folder !== start) return { file: undefined, stoppedAt: folder, boundary: 'home folder' };
    const candidate = join(folder, projectConfigFileName);
    if (existsSync(candidate)) return { file: candidate };
    const marker = projectRootMarkers.find((name) => existsSync(join(folder, name)));
    if (marker !== undefined) return { file: undefined, stoppedAt: folder, boundary: marker };
    if (dirname(folder) === folder) return { file: undefined, stoppedAt: folder, boundary: 'file system root' };
  }
}

/** The `jtc.config.json` that applies to a folder (see searchProjectConfig), or undefined. */
export function findProjectConfig(startDir: string, home?: string): string | undefined {
  return searchProjectConfig(startDir, home).file;
}

/**
 * The `jtc.config.json` files inside a folder and below it, where several projects share one tree
 * (a monorepo opened at its root): searched as contracts are (skipping `node_modules` and
 * dot-folders), without following links; a folder that cannot be read is passed over. Sorted.
 */
export function findProjectConfigsBelow(folder: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.isDirectory() && !isSkippedFolder(entry.name)) walk(join(dir, entry.name));
      else if (entry.isFile() && entry.name === projectConfigFileName) found.push(join(dir, entry.name));
    }
  };
  walk(resolve(folder));
  return found.sort();
}

/** Finds and reads the configuration that applies to a folder; undefined when there is none. */
export function loadProjectConfig(startDir: string): ProjectConfig | undefined {
  const file = findProjectConfig(startDir);
  return file === undefined ? undefined : readProjectConfigFile(file);
}

/** How a configuration is read. */
export interface ReadConfigOptions {
  /**
   * Report a `contracts` path that does not exist, where it is written (the language server: jtc
   * check and jtc build would stop on it). The CLI leaves it to the search, which stops there.
   */
  readonly contractsMustExist?: boolean;
}

/** Reads a configuration file from the disk; a file that cannot be read is one problem at its start. */
export function readProjectConfigFile(file: string, readOptions: ReadConfigOptions = {}): ProjectConfig {
  let bytes: Buffer | undefined;
  let reason = 'no such file or folder';
  try {
    // As contracts are read: a regular file only (a link followed to one), opened without blocking
    // and read at most one byte past the size limit, so a FIFO, a device or a link to /dev/zero
    // never hangs the reader or fills its memory.
    bytes = readRegularFile(file, { limit: maxSourceBytes + 1, role: 'the project configuration', followLinks: true });
  } catch (error) {
    // The message names the path, which the problem carries already.
    const message = (error as Error).message;
    reason = message.startsWith(`${file}: `) ? message.slice(file.length + 2) : message;
  }
  if (bytes === undefined) return { file, options: defaultProjectOptions, problems: [{ file, line: 1, column: 1, pointer: '', message: `cannot read the project configuration: ${reason}` }] };
  return readProjectConfig(file, bytes.toString('utf8'), readOptions);
}

/** Reads a configuration file's text; relative paths in it are resolved against the file's folder. */
export function readProjectConfig(file: string, text: string, readOptions: ReadConfigOptions = {}): ProjectConfig {
  const absolute = resolve(file);
  const problems: ConfigProblem[] = [];
  const report = (position: Position, pointer: string, message: string, hint?: string): void => {
    const problem = { file: absolute, line: position.line, column: position.column, pointer, message };
    problems.push(hint === undefined ? problem : { ...problem, hint });
  };
  const parsed = parseSourceText(text);
  // A contract's hint for a comment points to its "description"; a configuration has none.
  for (const d of parsed.diagnostics) report(d.position, d.pointer, d.message, d.code === 'JTC101' ? 'remove the comment' : d.hint);
  const root = parsed.root;
  if (root === undefined) return { file: absolute, options: defaultProjectOptions, problems };
  if (root.kind !== 'object') {
    report(root.position, '', `the project configuration must be one JSON object, found ${kindOf(root)}`);
    return { file: absolute, options: defaultProjectOptions, problems };
  }
  const reader: FieldReader = { folder: dirname(absolute), report, contractsMustExist: readOptions.contractsMustExist === true };
  let options: ProjectOptions = defaultProjectOptions;
  for (const member of root.members) {
    const field: ConfigFieldDefinition | undefined = Object.hasOwn(configFields, member.key) ? configFields[member.key as ConfigField] : undefined;
    if (field === undefined) {
      report(member.keyPosition, member.value.pointer, `unknown field ${JSON.stringify(member.key)}`, `the fields are ${Object.keys(configFields).join(', ')}`);
      continue;
    }
    options = { ...options, ...field.read(member.value, reader) };
  }
  return { file: absolute, options, problems: problems.sort((a, b) => a.line - b.line || a.column - b.column) };
}

/** `file:line:col - error: message at /pointer (hint)`, as the CLI prints contract diagnostics. */
export function formatConfigProblem(problem: ConfigProblem, file = problem.file): string {
  const where = problem.pointer === '' ? '' : ` at ${problem.pointer}`;
  const hint = problem.hint === undefined ? '' : ` (${problem.hint})`;
  return `${file}:${problem.line}:${problem.column} - error: ${problem.message}${where}${hint}`;
}

interface FieldReader {
  /** The configuration file's folder, which relative paths start from. */
  readonly folder: string;
  readonly report: (position: Position, pointer: string, message: string, hint?: string) => void;
  readonly contractsMustExist: boolean;
}

interface ConfigFieldDefinition {
  /** The field's entry in the configuration's JSON Schema. */
  readonly schema: Readonly<Record<string, unknown>>;
  /** The options the field sets; nothing when its value is wrong (reported). */
  readonly read: (node: JsonNode, reader: FieldReader) => Partial<ProjectOptions>;
}

const targetNames = [...targetProfiles.keys()];

/** Every field of `jtc.config.json`: its schema, and how it is read. */
const configFields = {
  $schema: {
    schema: { type: 'string', description: 'Lets editors validate the file; ignored by jtc.' },
    read: (node, reader) => {
      stringOf(node, reader);
      return {};
    },
  },
  contracts: {
    schema: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1, description: 'The contract files and folders (searched recursively for *.contract.json) that `jtc check` and `jtc build` use when the command names none; relative to this file.' },
    read: (node, reader) => {
      if (node.kind !== 'array' || node.items.length === 0) return wrong(node, reader, 'a non-empty array of paths');
      const paths = node.items.map((item) => {
        const path = pathOf(item, reader);
        if (path !== undefined && reader.contractsMustExist && !existsSync(path)) {
          reader.report(item.position, item.pointer, 'no such file or folder', 'jtc check and jtc build stop on it: create it, or correct the path');
          return undefined;
        }
        return path;
      });
      return paths.every((path) => path !== undefined) ? { contracts: paths } : {};
    },
  },
  out: {
    schema: { type: 'string', minLength: 1, description: 'The output folder `jtc build` and `jtc check` use when -o is not given; relative to this file.' },
    read: (node, reader) => {
      const out = pathOf(node, reader);
      return out === undefined ? {} : { out };
    },
  },
  emit: {
    schema: {
      enum: Object.keys(emitKinds),
      description: `What --emit writes by default: ${Object.entries(emitKinds)
        .map(([kind, meaning]) => `${kind}, ${meaning}`)
        .join('; ')}.`,
    },
    read: (node, reader) => {
      const emit = choiceOf(node, reader, Object.keys(emitKinds) as EmitKind[]);
      return emit === undefined ? {} : { emit };
    },
  },
  support: {
    schema: {
      enum: Object.keys(supportKinds),
      description: `Where --support puts the support code by default: ${Object.entries(supportKinds)
        .map(([kind, meaning]) => `${kind}, ${meaning}`)
        .join('; ')}.`,
    },
    read: (node, reader) => {
      const support = choiceOf(node, reader, Object.keys(supportKinds) as SupportKind[]);
      return support === undefined ? {} : { support };
    },
  },
  exactNumbers: {
    schema: { type: 'boolean', description: 'Keep every digit of numbers, as --exact-numbers does.' },
    read: (node, reader) => (node.kind === 'boolean' ? { exactNumbers: node.value } : wrong(node, reader, 'true or false')),
  },
  strict: {
    schema: { type: 'boolean', description: 'Treat warnings as errors, as --strict does.' },
    read: (node, reader) => (node.kind === 'boolean' ? { strict: node.value } : wrong(node, reader, 'true or false')),
  },
  targets: {
    schema: { type: 'array', items: { enum: targetNames }, uniqueItems: true, description: 'The target profiles whose findings are added, as --target does.' },
    read: (node, reader) => {
      if (node.kind !== 'array') return wrong(node, reader, 'an array of target names');
      const names = node.items.map((item) => choiceOf(item, reader, targetNames));
      return names.every((name) => name !== undefined) ? { targets: [...new Set(names)] } : {};
    },
  },
} as const satisfies Record<string, ConfigFieldDefinition>;

type ConfigField = keyof typeof configFields;

/**
 * The JSON Schema (draft-07, which editors support best) of `jtc.config.json`, from the same field
 * table the reader uses; `schema/jtc.config.schema.json` is this value (`npm run editor-schema`).
 */
export function projectConfigSchema(): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'json-tool-contracts project configuration',
    description: 'What jtc check and jtc build (and the language server) use when the command line does not say. Command-line flags override it.',
    type: 'object',
    properties: Object.fromEntries(Object.entries(configFields).map(([field, definition]) => [field, definition.schema])),
    additionalProperties: false,
  };
}

function wrong(node: JsonNode, reader: FieldReader, expected: string): Partial<ProjectOptions> {
  reader.report(node.position, node.pointer, `expected ${expected}, found ${describe(node)}`);
  return {};
}

function stringOf(node: JsonNode, reader: FieldReader): string | undefined {
  if (node.kind === 'string') return node.value;
  wrong(node, reader, 'a string');
  return undefined;
}

function pathOf(node: JsonNode, reader: FieldReader): string | undefined {
  if (node.kind === 'string' && node.value !== '') return resolve(reader.folder, node.value);
  wrong(node, reader, 'a path (a non-empty string)');
  return undefined;
}

function choiceOf<T extends string>(node: JsonNode, reader: FieldReader, choices: readonly T[]): T | undefined {
  if (node.kind === 'string' && (choices as readonly string[]).includes(node.value)) return node.value as T;
  wrong(node, reader, `one of ${choices.join(', ')}`);
  return undefined;
}

function describe(node: JsonNode): string {
  return node.kind === 'string' ? JSON.stringify(node.value) : node.kind === 'number' ? node.lexeme : node.kind === 'boolean' ? String(node.value) : kindOf(node);
}

function kindOf(node: JsonNode): string {
  return node.kind === 'array' ? 'an array' : node.kind === 'object' ? 'an object' : node.kind;
}
