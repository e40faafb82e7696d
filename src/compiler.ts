/**
 * The programmatic compiler API (`json-tool-contracts/compiler`). Nothing here touches the file
 * system: give it source text, get diagnostics, IR and generated files back.
 */
import { checkContract, type CheckOptions } from './contract/check-contract.js';
import { checkToolNames, type NamedContract, type SourceText } from './contract/check-contracts.js';
import { optionalParametersOf, setFindings } from './contract/targets.js';
import { compareDiagnostics, hasErrors, type Diagnostic } from './diagnostics/diagnostic.js';
import { fileSet, moduleFiles, type CompiledSource, type EmitKind, type GeneratedFile, type SupportKind } from './output/file-set.js';

export { checkContract, type CheckOptions, type CheckResult } from './contract/check-contract.js';
export { checkContracts, type CheckContractsResult, type SourceText } from './contract/check-contracts.js';
export type { ContractIR } from './ir/contract-ir.js';
export { diagnosticCodes, type DiagnosticCode } from './diagnostics/codes.js';
export { formatDiagnostic, type Diagnostic } from './diagnostics/diagnostic.js';
export type * from './ir/schema-node.js';
export { generateFiles, type CompiledSource, type EmitKind, type GeneratedFile, type SupportKind } from './output/file-set.js';

export interface CompileOptions extends CheckOptions {
  /** `ts` (default): one `.ts` module per contract; `js`: `.mjs` plus `.d.mts`, ESM in any project. */
  readonly emit?: EmitKind;
  /**
   * `inline` (default): each module carries its support code and imports nothing; `shared`: one
   * support module, `jtc-support.ts` (or `.mjs` and `.d.mts`), which the modules import.
   */
  readonly support?: SupportKind;
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
    options,
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
  return { diagnostics, contract: { file, name, namePosition, optionalParameters: optionalParametersOf(contract.input) }, ...moduleFiles(contract, options.emit ?? 'ts', options.support ?? 'inline') };
}

/**
 * What only the whole set can show (repeated names), then the sorted file set with its index (and
 * with shared support the support module of what the modules use), or no file at all. `options`:
 * those the sources were compiled with.
 */
export function assembleBuild(compiled: readonly CompiledSource[], options: Pick<CompileOptions, 'emit' | 'support' | 'exactNumbers' | 'targets'> = {}): CompileResult {
  const filesOf = new Map<NamedContract, CompiledSource>();
  for (const source of compiled) if (source.contract !== undefined) filesOf.set(source.contract, source);
  const names = checkToolNames([...filesOf.keys()]);
  const diagnostics = [...compiled.flatMap((source) => source.diagnostics), ...names.diagnostics, ...setFindings(names.accepted, options.targets ?? [])].sort(compareDiagnostics);
  if (hasErrors(diagnostics)) return { files: [], diagnostics };
  const accepted = names.accepted.flatMap((contract) => filesOf.get(contract) ?? []);
  return {
    files: fileSet(
      accepted.flatMap((source) => source.files),
      names.accepted.map((c) => c.name),
      { emit: options.emit ?? 'ts', support: options.support ?? 'inline', exactNumbers: options.exactNumbers ?? false },
      accepted.flatMap((source) => source.supportHelpers ?? []),
    ),
    diagnostics,
  };
}
