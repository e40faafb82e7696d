/**
 * The runtime (`@json-tool-contracts/runtime`): registers tools from
 * generated contracts and enforces them on every call. No dependencies.
 */
export {
  CapabilityRuntime,
  type CallEnd,
  type CallFailure,
  type CallObserver,
  type CallOptions,
  type CallOutcome,
  type CallRecord,
  type CallResult,
  type CallWatch,
  type CatalogEntry,
  type DeferOptions,
  type DeferredCall,
  type DeferredState,
  type DeferredStatus,
  type Returned,
  type RuntimeOptions,
  type ToolRequest,
} from './core/capability-runtime.js';
export { contractOutcome, type ContractOutcome } from './core/contract-outcome.js';
export { memoryStore, type RuntimeStore, type StoredCall, type StoredCallState, type StoredError, type StoredOutcome } from './core/store.js';
export type { ContractValidator, InputOf, OutputOf, PathSegment, ToolContract, ValidationIssue, ValidationResult } from './core/contract.js';
export { defaultEnvelopeLimits, envelopeProblem, type EnvelopeLimits } from './core/envelope.js';
export type { ContractSet, HandlerEntry, HandlerMap, ProtocolEntry, ToolHandler, ToolOptions } from './core/handler-map.js';
export { maxToolErrorMessageLength, RegistrationError, ToolError, type ToolErrorCode } from './core/errors.js';
export { ToolMetadata, ToolPolicy } from './core/policy.js';
export { JsonNumber, parseJson, stringifyJson, type ExactJsonValue, type ParseOptions } from './core/json.js';
export { OutputWithContent, withContent, type AudioBlock, type ContentBlock, type EmbeddedResourceBlock, type ImageBlock, type ResourceLinkBlock, type TextBlock } from './core/content.js';
