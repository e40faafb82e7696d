import { compareDiagnostics, makeDiagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import { checkContract, type CheckOptions } from './check-contract.js';
import type { ContractIR } from '../ir/contract-ir.js';
import { typeStem } from './names.js';
import { optionalParametersOf, setFindings } from './targets.js';

export interface SourceText {
  readonly file: string;
  /** Text, or the file's bytes (checked for UTF-8). */
  readonly text: string | Uint8Array;
}

export interface CheckContractsResult {
  /** Every contract without errors, sorted by tool name. */
  readonly contracts: readonly ContractIR[];
  /** Sorted by file and position. */
  readonly diagnostics: readonly Diagnostic[];
}

/** Checks every contract, then what only the set can show: repeated tool names and generated names. */
export function checkContracts(sources: readonly SourceText[], options: CheckOptions = {}): CheckContractsResult {
  const results = sources.map((source) => checkContract(source.text, source.file, options));
  const set = checkToolNames(results.flatMap((result) => (result.contract === undefined ? [] : [result.contract])));
  const targets = setFindings(
    set.accepted.map((c) => ({ ...c, optionalParameters: optionalParametersOf(c.input) })),
    options.targets ?? [],
  );
  return { contracts: set.accepted, diagnostics: [...results.flatMap((result) => result.diagnostics), ...set.diagnostics, ...targets].sort(compareDiagnostics) };
}

/** What the set checks need of a contract, so that contracts checked elsewhere (in a worker) can take part. */
export type NamedContract = Pick<ContractIR, 'file' | 'name' | 'namePosition'> & {
  /** Optional properties of the input, which some targets count across a request. */
  readonly optionalParameters: number;
};

/**
 * Sorts contracts by tool name (or, with `inGivenOrder`, takes them as given: `jtc import` keeps
 * the source's order) and rejects a later contract whose tool name (JTC124), generated type names
 * or module file name ignoring case (JTC125) an earlier one already uses.
 */
export function checkToolNames<T extends Pick<ContractIR, 'file' | 'name' | 'namePosition'>>(contracts: readonly T[], { inGivenOrder = false } = {}): { readonly accepted: T[]; readonly diagnostics: Diagnostic[] } {
  const sorted = inGivenOrder ? contracts : [...contracts].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.file < b.file ? -1 : 1));
  const diagnostics: Diagnostic[] = [];
  const byName = new Map<string, T>();
  const byStem = new Map<string, T>();
  const byFile = new Map<string, T>();
  const rejected = new Set<T>();
  for (const contract of sorted) {
    const sameName = byName.get(contract.name);
    const sameStem = byStem.get(typeStem(contract.name));
    const sameFile = byFile.get(contract.name.toLowerCase());
    if (sameName !== undefined) {
      diagnostics.push(makeDiagnostic(contract.file, { code: 'JTC124', position: contract.namePosition, pointer: '/name', message: `tool name ${JSON.stringify(contract.name)} is also used by ${sameName.file}`, hint: 'tool names must be unique across one build' }));
      rejected.add(contract);
    } else if (sameStem !== undefined) {
      diagnostics.push(
        makeDiagnostic(contract.file, {
          code: 'JTC125',
          position: contract.namePosition,
          pointer: '/name',
          message: `tool names ${JSON.stringify(sameStem.name)} (${sameStem.file}) and ${JSON.stringify(contract.name)} both give the type names ${typeStem(contract.name)}Input/${typeStem(contract.name)}Output`,
          hint: 'rename one of the tools',
        }),
      );
      rejected.add(contract);
    } else if (sameFile !== undefined) {
      diagnostics.push(
        makeDiagnostic(contract.file, {
          code: 'JTC125',
          position: contract.namePosition,
          pointer: '/name',
          message: `tool names ${JSON.stringify(sameFile.name)} (${sameFile.file}) and ${JSON.stringify(contract.name)} give module files that differ only in case, which collide on case-insensitive file systems (macOS, Windows)`,
          hint: 'rename one of the tools',
        }),
      );
      rejected.add(contract);
    }
    byName.set(contract.name, sameName ?? contract);
    byStem.set(typeStem(contract.name), sameStem ?? contract);
    byFile.set(contract.name.toLowerCase(), sameFile ?? contract);
  }
  return { accepted: sorted.filter((c) => !rejected.has(c)), diagnostics };
}
