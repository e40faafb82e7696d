/**
 * The programmatic compiler API (`json-tool-contracts/compiler`). Nothing here touches the file
 * system: give it source text, get diagnostics, IR and generated files back.
 */
export { checkContract, type CheckOptions, type CheckResult } from './contract/check-contract.js';
export { checkContracts, type CheckContractsResult, type SourceText } from './contract/check-contracts.js';
export type { ContractIR } from './contract/contract-ir.js';
export { diagnosticCodes, type DiagnosticCode } from './diagnostics/codes.js';
export { formatDiagnostic, type Diagnostic } from './diagnostics/diagnostic.js';
export type * from './ir/schema-node.js';
