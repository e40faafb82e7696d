import { guardStore, type RuntimeStore } from './store.js';

/**
 * Keys claimed once across every runtime sharing a store, each until it expires: what makes a
 * sealed MCP `requestState` continue one retry only. Without a store nothing is shared, and every
 * claim is granted (a runtime of one process has nothing to race).
 */
export class OnceClaims {
  constructor(private readonly shared: RuntimeStore | undefined) {}

  /** True for the first claim of `key` until `expiresAt` (ms since the epoch); rejects with `store_unavailable`. */
  async claim(key: string, expiresAt: number): Promise<boolean> {
    if (this.shared === undefined) return true;
    return guardStore(this.shared.claimOnce(key, expiresAt), 'the store could not claim a once-only key');
  }
}
