/**
 * The programmatic compiler API (`json-tool-contracts/compiler`). Nothing here touches the file
 * system: give it source text, get diagnostics, IR and generated files back.
 */
import { checkContract, type CheckOptions } from './contract/check-contract.js';
import { checkToolNames, type NamedContract, type SourceText } from './contract/check-contracts.js';
import { optionalParametersOf, setFindings } from './contract/targets.js';
import { compareDiagnostics, hasErrors, type Diagnostic } from './diagnostics/diagnostic.js';
import { fileSet, moduleFiles, type CompiledSource, type EmitKind, type GeneratedFile } from './output/file-set.js';

export { checkContract, type CheckOptions, type CheckResult } from './contract/check-contract.js';
export { checkContracts, type CheckContractsResult, type SourceText } from './contract/check-contracts.js';
export type { ContractIR } from './ir/contract-ir.js';
export { diagnosticCodes, type DiagnosticCode } from './diagnostics/codes.js';
export { formatDiagnostic, type Diagnostic } from './diagnostics/diagnostic.js';
export type * from './ir/schema-node.js';
export { generateFiles, type CompiledSource, type EmitKind, type GeneratedFile } from './output/file-set.js';

export interface CompileOptions extends CheckOptions {
  /** `ts` (default): one `.ts` module per contract; `js`: `.mjs` plus `.d.mts`, ESM in any project. */
  readonly emit?: EmitKind;
}

export interface CompileResult {
  /** Empty when any contract has an error: a build is all or nothing. */
  readonly files: readonly GeneratedFile[];
  readonly diagnostics: readonly Diagnostic[];
}

/** source texts → check → IR → generated files, without touching the disk. */
export function compileContracts(sources: readonly SourceText[], options: CompileOptions = {}): CompileResult {
  return assembleBuild(
    sources.map((source) => compileSource(source, options)),
    options.emit ?? 'ts',
    options.targets,
  );
}

/**
 * One source on its own: its diagnostics and, when it has no error, its module. A module depends on
 * its contract alone, so sources can be compiled apart (on other threads) and assembled after.
 */
export function compileSource(source: SourceText, options: CompileOptions = {}): CompiledSource {
  const { contract, diagnostics } = checkContract(source.text, source.file, options);
  if (contract === undefined) return { diagnostics, files: [] };
  const { file, name, namePosition } = contract;
  return { diagnostics, contract: { file, name, namePosition, optionalParameters: optionalParametersOf(contract.input) }, files: moduleFiles(contract, options.emit ?? 'ts') };
}

/** What only the whole set can show (repeated names), then the sorted file set with its index, or no file at all. */
export function assembleBuild(compiled: readonly CompiledSource[], emit: EmitKind, targets: readonly string[] = []): CompileResult {
  const filesOf = new Map<NamedContract, readonly GeneratedFile[]>();
  for (const source of compiled) if (source.contract !== undefined) filesOf.set(source.contract, source.files);
  const names = checkToolNames([...filesOf.keys()]);
  const diagnostics = [...compiled.flatMap((source) => source.diagnostics), ...names.diagnostics, ...setFindings(names.accepted, targets)].sort(compareDiagnostics);
  if (hasErrors(diagnostics)) return { files: [], diagnostics };
  const modules = names.accepted.flatMap((contract) => filesOf.get(contract) ?? []);
  return {
    files: fileSet(
      modules,
      names.accepted.map((c) => c.name),
      emit,
    ),
    diagnostics,
  };
}
