import type { CallRecord } from './capability-runtime.js';
import type { ToolErrorCode } from './errors.js';

/**
 * How a call ended, in a closed set a host can act on without reading error text (a failure
 * reporter, a dashboard, a retry rule): `invalid_input` and `invalid_output` (the contract refused
 * the input, or the handler's output), `budget_exhausted`, `denied` (by a policy, the handler or
 * the protocol), `cancelled`, `unknown_tool`, `failed` (the handler or the server failed, not the
 * caller), `suspended` (a round that asked its client for input), or `completed`.
 */
export type ContractOutcome = 'completed' | 'invalid_input' | 'invalid_output' | 'budget_exhausted' | 'denied' | 'cancelled' | 'unknown_tool' | 'failed' | 'suspended';

/** Every code by its outcome: a new code does not compile until it is given one. */
const outcomeOfCode: Readonly<Record<ToolErrorCode, ContractOutcome>> = {
  invalid_input: 'invalid_input',
  invalid_envelope: 'invalid_input',
  invalid_json: 'invalid_input',
  invalid_output: 'invalid_output',
  budget_exhausted: 'budget_exhausted',
  denied: 'denied',
  cancelled: 'cancelled',
  unknown_tool: 'unknown_tool',
  suspended: 'suspended',
  handler_failed: 'failed',
  asynchronous_handler: 'failed',
  asynchronous_store: 'failed',
  store_unavailable: 'failed',
  lease_expired: 'failed',
  unknown_call: 'failed',
};

/**
 * The contract outcome of a final call record (what `onRecord` hears and a `CallWatch` is ended
 * with); undefined while the call is pending. `otelCallObserver` writes it as `jtc.contract.outcome`.
 */
export function contractOutcome(record: CallRecord): ContractOutcome | undefined {
  if (record.outcome === 'completed') return 'completed';
  if (record.outcome === 'pending') return undefined;
  if (record.errorCode !== undefined && Object.hasOwn(outcomeOfCode, record.errorCode)) return outcomeOfCode[record.errorCode];
  return record.outcome === 'cancelled' ? 'cancelled' : 'failed';
}
