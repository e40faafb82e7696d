import { dirname, isAbsolute, relative, sep } from 'node:path';
import { defaultProjectOptions, type ProjectConfig, type ProjectOptions } from '../config/project-config.js';
import { checkContract, type CheckResult } from '../contract/check-contract.js';
import { checkToolNames } from '../contract/check-contracts.js';
import { contractSuffix } from '../contract/discover.js';
import { optionalParametersOf, setFindings } from '../contract/targets.js';
import { compareDiagnostics, type Diagnostic } from '../diagnostics/diagnostic.js';

/**
 * How one project is checked: what `jtc check` run at its root, with no path named, would use. Its
 * options are the configuration's (number mode, targets, strictness, emit kind), so the editor and CI agree.
 */
export interface ProjectSettings extends ProjectOptions {
  /** The folder the project's paths are relative to (the configuration's, or the workspace folder). */
  readonly root: string;
  /** Absolute files and folders searched for contracts. */
  readonly contracts: readonly string[];
  /** The `jtc.config.json` the options come from; none for a folder with the defaults. */
  readonly configFile?: string;
}

/**
 * The project of a folder: the one its configuration (found from that folder upward, as `jtc check`
 * finds it) describes, rooted at the configuration's folder and made of its `contracts` (all of that
 * folder when it names none); without a configuration, the folder itself with the defaults. A
 * configuration with problems gives what could be read of it: each field with a problem keeps its
 * default.
 */
export function projectSettings(folder: string, config: ProjectConfig | undefined): ProjectSettings {
  if (config === undefined) return { ...defaultProjectOptions, root: folder, contracts: [folder] };
  const root = dirname(config.file);
  return { ...config.options, root, contracts: config.options.contracts ?? [root], configFile: config.file };
}

/** A contract's source: the document's text when it is open, its bytes on disk otherwise. */
export type ContractText = string | Uint8Array;

/**
 * The contracts of one project, as the editor sees them: every contract file under its folders
 * (open documents with their unsaved text), checked one by one (each check kept until its text
 * changes) and then as a set, as `jtc check` checks them: repeated tool names and generated names
 * (JTC124–126) and what the targets say of the whole set.
 */
export class ContractProject {
  private readonly sources = new Map<string, ContractText>();
  private readonly checked = new Map<string, { readonly source: ContractText; readonly result: CheckResult }>();

  constructor(readonly settings: ProjectSettings) {}

  /** Whether a path is one of this project's contracts: a file it names, or a `*.contract.json` under its folders. */
  owns(path: string): boolean {
    return this.settings.contracts.some((input) => path === input || (path.endsWith(contractSuffix) && isInside(path, input)));
  }

  /** The path as diagnostics name it: relative to the root, as `jtc check` run there prints it. */
  displayPath(path: string): string {
    const shown = relative(this.settings.root, path);
    return shown.startsWith('..') || isAbsolute(shown) ? path : shown.split(sep).join('/');
  }

  set(path: string, source: ContractText): void {
    this.sources.set(path, source);
  }

  delete(path: string): void {
    this.sources.delete(path);
    this.checked.delete(path);
  }

  paths(): string[] {
    return [...this.sources.keys()].sort();
  }

  /** Every contract's diagnostics, by absolute path (an empty list for a clean one). */
  diagnostics(): Map<string, Diagnostic[]> {
    const byPath = new Map<string, Diagnostic[]>();
    const pathOf = new Map<string, string>();
    const results: CheckResult[] = [];
    for (const path of this.paths()) {
      const result = this.check(path);
      pathOf.set(this.displayPath(path), path);
      byPath.set(path, [...result.diagnostics]);
      results.push(result);
    }
    const named = checkToolNames(results.flatMap((result) => (result.contract === undefined ? [] : [result.contract])));
    const targets = setFindings(
      named.accepted.map((contract) => ({ ...contract, optionalParameters: optionalParametersOf(contract.input) })),
      this.settings.targets,
    );
    for (const diagnostic of [...named.diagnostics, ...targets]) byPath.get(pathOf.get(diagnostic.file)!)!.push(diagnostic);
    for (const diagnostics of byPath.values()) diagnostics.sort(compareDiagnostics);
    return byPath;
  }

  /** The tool names of every contract but one, for renaming a tool whose name collides. */
  otherToolNames(path: string): string[] {
    return this.paths().flatMap((other) => {
      const contract = other === path ? undefined : this.check(other).contract;
      return contract === undefined ? [] : [contract.name];
    });
  }

  private check(path: string): CheckResult {
    const source = this.sources.get(path)!;
    const cached = this.checked.get(path);
    if (cached?.source === source) return cached.result;
    const result = checkContract(source, this.displayPath(path), { exactNumbers: this.settings.exactNumbers, targets: this.settings.targets });
    this.checked.set(path, { source, result });
    return result;
  }
}

/** Inside a folder and, as discovery has it, not under `node_modules` or a dot-folder. */
function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return false;
  return rel
    .split(sep)
    .slice(0, -1)
    .every((name) => name !== 'node_modules' && !name.startsWith('.'));
}
