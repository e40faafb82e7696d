/**
 * What the compiler (`json-tool-contracts`) shares with the runtime, so that both judge numbers and
 * tool names alike: exact decimals, string length in code points, the name mapping and the strict projections the
 * adapters use.
 * For the compiler of the same version only; not part of the runtime's public API.
 */
export { compareDecimals, decimalKey, decimalText, isWholeDecimal, parseDecimal, roundTripsThroughF64, type ParsedDecimal } from './core/json.js';
export { strictProjectionFindings, type ProjectionFinding } from './targets/projections.js';
export { portableName, portableNameProblem } from './targets/tool-names.js';
export { codePointLength } from './support/code-point-length.js';
