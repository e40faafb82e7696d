import { guardStore, type RuntimeStore } from './store.js';

/**
 * Claims `key` once until `expiresAt` (ms since the epoch) across every runtime sharing `store`:
 * true for the first claim. What makes a sealed MCP `requestState` continue one retry only. Without
 * a store nothing is shared, and every claim is granted (a runtime of one process has nothing to
 * race). Rejects with `store_unavailable` when the store cannot answer.
 */
export async function claimOnce(store: RuntimeStore | undefined, key: string, expiresAt: number): Promise<boolean> {
  if (store === undefined) return true;
  return guardStore(store.claimOnce(key, expiresAt), 'the store could not claim a once-only key');
}
