/**
 * The programmatic compiler API (`json-tool-contracts/compiler`). Nothing here touches the file
 * system: give it source text, get diagnostics, IR and generated files back.
 */
import type { CheckOptions } from './contract/check-contract.js';
import { checkContracts, type SourceText } from './contract/check-contracts.js';
import { hasErrors, type Diagnostic } from './diagnostics/diagnostic.js';
import { generateFiles, type EmitKind, type GeneratedFile } from './output/file-set.js';

export { checkContract, type CheckOptions, type CheckResult } from './contract/check-contract.js';
export { checkContracts, type CheckContractsResult, type SourceText } from './contract/check-contracts.js';
export type { ContractIR } from './contract/contract-ir.js';
export { diagnosticCodes, type DiagnosticCode } from './diagnostics/codes.js';
export { formatDiagnostic, type Diagnostic } from './diagnostics/diagnostic.js';
export type * from './ir/schema-node.js';
export { generateFiles, type EmitKind, type GeneratedFile } from './output/file-set.js';

export interface CompileOptions extends CheckOptions {
  /** `ts` (default): one `.ts` module per contract; `js`: ESM `.js` plus `.d.ts`. */
  readonly emit?: EmitKind;
}

export interface CompileResult {
  /** Empty when any contract has an error: a build is all or nothing. */
  readonly files: readonly GeneratedFile[];
  readonly diagnostics: readonly Diagnostic[];
}

/** source texts → check → IR → generated files, without touching the disk. */
export function compileContracts(sources: readonly SourceText[], options: CompileOptions = {}): CompileResult {
  const { contracts, diagnostics } = checkContracts(sources, options);
  if (hasErrors(diagnostics)) return { files: [], diagnostics };
  return { files: generateFiles(contracts, options.emit ?? 'ts'), diagnostics };
}
