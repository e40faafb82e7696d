import { CapabilityRuntime, type HandlerMap, type RuntimeOptions } from '@json-tool-contracts/runtime';
import { contracts, type Contracts } from './generated/index.js';

/**
 * One handler per contract in contracts/, under its export name (text.count_words → textCountWords).
 * After adding a contract, `npm run contracts` regenerates src/generated and TypeScript names the
 * contract that has no handler here yet.
 */
export const handlers: HandlerMap<Contracts> = {
  textCountWords: ({ text }) => ({ words: text.split(/\s+/).filter((word) => word !== '').length }),
};

/** A runtime with every tool registered: each call's input and output are checked against its contract. */
export function createRuntime(options: RuntimeOptions = {}): CapabilityRuntime {
  const runtime = new CapabilityRuntime(options);
  runtime.registerAll(contracts, handlers);
  return runtime;
}
