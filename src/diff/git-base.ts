import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import type { SourceText } from '../contract/check-contracts.js';
import { contractSuffix, discoverContracts, isSkippedFolder, readContractSources } from '../contract/discover.js';
import { UsageError } from '../diagnostics/usage-error.js';
import { findMember } from '../source/json-node.js';
import { parseSourceBytes } from '../source/parse.js';

/** Two versions of the same inputs, ready for `checkContracts`. */
export interface Versions {
  readonly before: SourceText[];
  readonly after: SourceText[];
}

/** One line of `git ls-tree`: a file (blob), a link (blob, mode 120000), a folder (tree) or a submodule (commit). */
interface TreeEntry {
  readonly mode: string;
  readonly type: string;
  readonly oid: string;
  /** From the repository root, with `/`, exactly as git stores it (never quoted). */
  readonly path: string;
}

const linkMode = '120000';
/** As the kernel gives up on a chain of links (ELOOP). */
const maxLinkHops = 40;

/**
 * The contracts under `inputs` in the working tree (untracked files included) and as they were at
 * the commit `revision` names. The gate this serves must never pass because an old version was not
 * found, so every way of not finding one is an error (UsageError, exit 2) unless the tool truly did
 * not exist: inputs are matched from the repository root whatever the working directory, paths come
 * from git unquoted, and a tool whose file is not at its old place is looked up by name in the
 * whole revision (a moved or renamed file, a folder reached through a link). A tool is new only
 * when no contract at the revision has its name.
 */
export function versionsAgainstRevision(revision: string, inputs: readonly string[]): Versions {
  if (revision === '' || revision.startsWith('-')) throw new UsageError(`--base takes a git revision (a branch, a tag, a commit), not ${JSON.stringify(revision)}`);
  const git = new Git(process.cwd());
  const top = realpathSync(git.text(['rev-parse', '--show-toplevel']).replace(/\n$/, ''));
  const commit = git.commitOf(revision);
  const tree = new RevisionTree(git, revision, git.run(['ls-tree', '-r', '-t', '-z', '--full-tree', '--end-of-options', commit]));

  const scope = new Set<string>();
  const absentInputs = new Set<string>();
  for (const input of inputs) {
    const path = repositoryPath(top, input);
    const entry = tree.follow(path);
    if (entry === undefined) absentInputs.add(input);
    else if (entry.type === 'blob') scope.add(entry.path);
    else for (const file of tree.contractsUnder(entry.path)) scope.add(file.path);
  }

  const present = inputs.filter((input) => existsSync(input));
  for (const input of inputs) {
    if (!present.includes(input) && absentInputs.has(input)) throw new UsageError(`${input}: no such file or folder, neither here nor at ${revision}`);
  }
  // A deleted input has only an old version: its tools are reported removed.
  const after = present.flatMap((input) => readContractSources(discoverContracts([input])).map((source) => ({ input, file: source.file, text: source.bytes })));

  const before = tree.read([...scope].sort());
  const oldNames = new Set(before.flatMap((source) => toolNameIn(source.text) ?? []));
  const matchedInputs = new Set<string>();
  for (const source of after) {
    const inSubmodule = tree.submoduleHolding(repositoryPath(top, source.file));
    if (inSubmodule !== undefined) throw new UsageError(`${source.file}: inside the submodule ${inSubmodule}, whose history is its own; run jtc diff --base in the submodule`);
    const name = toolNameIn(source.text);
    // A file without a readable name has contract errors, which the check reports (exit 1).
    if (name === undefined || oldNames.has(name)) {
      matchedInputs.add(source.input);
      continue;
    }
    const elsewhere = tree.contractsNamed(name).filter((file) => !scope.has(file.path));
    if (elsewhere.length > 1) {
      throw new UsageError(`tool ${JSON.stringify(name)} (${source.file}) is not under the inputs at ${revision}, and ${elsewhere.length} files there have its name (${elsewhere.map((file) => file.path).join(', ')}); name the file or folder that held it as an input too`);
    }
    if (elsewhere.length === 1) {
      before.push(...tree.read([elsewhere[0]!.path]));
      oldNames.add(name);
      matchedInputs.add(source.input);
    } else if (!absentInputs.has(source.input)) matchedInputs.add(source.input);
  }
  for (const input of absentInputs) {
    if (present.includes(input) && !matchedInputs.has(input)) {
      throw new UsageError(`${input}: not at ${revision}, and no contract there has the name of a tool under it, so there is nothing to compare it with; name a revision that has it (or, for tools that are all new, leave it out of the diff)`);
    }
  }
  return { before, after: [...new Map(after.map((source) => [source.file, { file: source.file, text: source.text }])).values()] };
}

/** The top-level `name` of a contract, if it is one; anything unreadable is left to the checker. */
function toolNameIn(text: string | Uint8Array): string | undefined {
  const root = parseSourceBytes(typeof text === 'string' ? new TextEncoder().encode(text) : text).root;
  const name = root?.kind === 'object' ? findMember(root, 'name')?.value : undefined;
  return name?.kind === 'string' ? name.value : undefined;
}

/** A path from the repository root, with `/`, through every link and `..`; refused outside the repository. */
function repositoryPath(top: string, input: string): string {
  const path = relative(top, realpathOfExisting(resolve(input)));
  if (path === '..' || path.startsWith(`..${sep}`) || isAbsolute(path)) throw new UsageError(`${input}: outside the git repository at ${top}`);
  return path.split(sep).join('/');
}

/** The real path of the part that exists, then the rest as written (a deleted file or folder). */
function realpathOfExisting(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realpathOfExisting(parent), basename(path));
  }
}

class Git {
  constructor(private readonly cwd: string) {}

  /** Runs git; a failure becomes a UsageError with git's own first line. */
  run(args: readonly string[], input?: string): Buffer {
    const result = this.attempt(args, input);
    if (result.status === 0) return result.stdout;
    const stderr = result.stderr.toString('utf8').trim().split('\n')[0] ?? '';
    throw new UsageError(`git ${args[0]}: ${stderr || `exit ${result.status}`}`);
  }

  text(args: readonly string[]): string {
    return this.run(args).toString('utf8');
  }

  /** The commit a revision names (tags peeled); anything else is a UsageError saying what it is. */
  commitOf(revision: string): string {
    const verify = (name: string) => this.attempt(['rev-parse', '--verify', '--quiet', '--end-of-options', name]);
    const commit = verify(`${revision}^{commit}`);
    if (commit.status === 0) return commit.stdout.toString('utf8').trim();
    const object = verify(revision);
    if (object.status !== 0) throw new UsageError(`--base ${revision}: no such revision in this repository (in CI, fetch it first: a shallow clone has only the commit it checked out)`);
    const type = this.text(['cat-file', '-t', object.stdout.toString('utf8').trim()]).trim();
    throw new UsageError(`--base ${revision} names a ${type}, not a commit; name a commit (a branch, a tag, HEAD~1) and give the files or folders as inputs`);
  }

  private attempt(args: readonly string[], input?: string) {
    const result = spawnSync('git', args, { cwd: this.cwd, input, maxBuffer: 1024 * 1024 * 1024 });
    if (result.error !== undefined) {
      throw new UsageError((result.error as NodeJS.ErrnoException).code === 'ENOENT' ? 'diff --base needs git, which is not on the PATH' : `git: ${result.error.message}`);
    }
    return result as typeof result & { stdout: Buffer; stderr: Buffer };
  }
}

/** The files of one commit, read from `ls-tree -z` (paths as stored, never quoted). */
class RevisionTree {
  private readonly entries = new Map<string, TreeEntry>();
  private namesOfContracts: Map<string, TreeEntry[]> | undefined;

  constructor(
    private readonly git: Git,
    private readonly revision: string,
    listing: Buffer,
  ) {
    for (const line of listing.toString('utf8').split('\0')) {
      const tab = line.indexOf('\t');
      if (tab < 0) continue;
      const [mode = '', type = '', oid = ''] = line.slice(0, tab).split(' ');
      this.entries.set(line.slice(tab + 1), { mode, type, oid, path: line.slice(tab + 1) });
    }
  }

  /** The file or folder at `path`, through links inside the revision; undefined when nothing is there. */
  follow(path: string): TreeEntry | undefined {
    let entry: TreeEntry | undefined = path === '' ? { mode: '040000', type: 'tree', oid: '', path: '' } : this.entries.get(path);
    for (let hops = 0; entry?.mode === linkMode; hops++) {
      const target = this.blob(entry.oid).toString('utf8');
      const resolved = posix.normalize(posix.join(posix.dirname(entry.path), target));
      if (hops === maxLinkHops || posix.isAbsolute(target) || resolved === '..' || resolved.startsWith('../')) {
        throw new UsageError(`${this.revision}:${entry.path} is a link to ${target}, which jtc cannot follow inside ${this.revision}; name the file or folder it points to`);
      }
      entry = resolved === '.' ? this.follow('') : this.entries.get(resolved);
      if (entry === undefined) throw new UsageError(`${this.revision}:${path} is a link to ${target}, which is not at ${this.revision}`);
    }
    const submodule = entry === undefined ? this.submoduleHolding(path) : entry.type === 'commit' ? entry.path : undefined;
    if (submodule !== undefined) throw new UsageError(`${path}: inside the submodule ${submodule}, whose history is its own; run jtc diff --base in the submodule`);
    return entry;
  }

  /** What discovery finds under a folder: `*.contract.json` files (through links), skipping the folders it skips. */
  contractsUnder(folder: string): TreeEntry[] {
    const prefix = folder === '' ? '' : `${folder}/`;
    const found: TreeEntry[] = [];
    for (const entry of this.entries.values()) {
      if (entry.type !== 'blob' || !entry.path.startsWith(prefix) || !entry.path.endsWith(contractSuffix)) continue;
      if (entry.path.slice(prefix.length).split('/').slice(0, -1).some(isSkippedFolder)) continue;
      const file = this.follow(entry.path);
      if (file?.type === 'blob') found.push(entry);
    }
    return found;
  }

  /** Every contract file of the revision with this tool name, wherever it is. */
  contractsNamed(name: string): TreeEntry[] {
    if (this.namesOfContracts === undefined) {
      this.namesOfContracts = new Map();
      const files = [...this.entries.values()].filter((entry) => entry.type === 'blob' && entry.mode !== linkMode && entry.path.endsWith(contractSuffix));
      const texts = this.blobs(files.map((file) => file.oid));
      for (const file of files) {
        const found = toolNameIn(texts.get(file.oid)!);
        if (found !== undefined) this.namesOfContracts.set(found, [...(this.namesOfContracts.get(found) ?? []), file]);
      }
    }
    return this.namesOfContracts.get(name) ?? [];
  }

  /** The submodule a path lies in (or is), if any: git keeps only its commit id. */
  submoduleHolding(path: string): string | undefined {
    const parts = path.split('/');
    for (let length = 1; length <= parts.length; length++) {
      const prefix = parts.slice(0, length).join('/');
      if (this.entries.get(prefix)?.type === 'commit') return prefix;
    }
    return undefined;
  }

  /** Sources named `revision:path`, read through links. */
  read(paths: readonly string[]): SourceText[] {
    const files = paths.map((path) => ({ path, oid: this.follow(path)!.oid }));
    const texts = this.blobs(files.map((file) => file.oid));
    return files.map((file) => ({ file: `${this.revision}:${file.path}`, text: new Uint8Array(texts.get(file.oid)!) }));
  }

  private blob(oid: string): Buffer {
    return this.blobs([oid]).get(oid)!;
  }

  /** Many blobs through one `git cat-file --batch`. */
  private blobs(oids: readonly string[]): Map<string, Buffer> {
    const unique = [...new Set(oids)];
    const found = new Map<string, Buffer>();
    if (unique.length === 0) return found;
    const out = this.git.run(['cat-file', '--batch'], `${unique.join('\n')}\n`);
    let offset = 0;
    for (const oid of unique) {
      const newline = out.indexOf(10, offset);
      const [, type, size] = out.subarray(offset, newline).toString('latin1').split(' ');
      if (type !== 'blob') throw new UsageError(`git cat-file: ${oid} is ${type ?? 'missing'}, not a file`);
      const start = newline + 1;
      found.set(oid, out.subarray(start, start + Number(size)));
      offset = start + Number(size) + 1;
    }
    return found;
  }
}
