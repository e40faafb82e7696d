import type { LeaseRenewal } from './store.js';

/** What a poller watches: a replica's open deferred calls, and how to reach the store about them. */
export interface PolledCalls {
  /** The calls open on this replica, by id, each with when it expires (ms since the epoch). */
  readonly open: ReadonlyMap<string, { readonly stored: { readonly expiresAt: number } }>;
  /** Renews the replica's lease and answers which of its calls others changed since `since`; undefined without a shared store (nothing behind the runtime's back but expiry). */
  readonly keepLease: ((since: string | undefined) => Promise<LeaseRenewal>) | undefined;
  /** Brings an open call in line with the store (it changed there, or is past its TTL); never rejects. */
  adopt(callId: string): Promise<void>;
}

/**
 * While deferred calls are open on a replica (or a write waits to be retried), every `pollMs`: the
 * replica's lease renewed and the calls other replicas changed heard of, in one round trip however
 * many are open and apart from the rest of the poll, so that no amount of work delays it; then
 * those calls, and those past their TTL, brought in line with the store, and the writes the store
 * did not confirm tried again. The timer does not keep a process alive: one that exits with calls
 * open lets its lease run out, as a crash would.
 */
export class CallPoller {
  /** Calls that changed in the store (or whose read failed): brought in line at the next poll. */
  readonly #changed = new Set<string>();
  /** Writes the store did not confirm, tried again at every poll until they answer true. */
  readonly #retries = new Set<() => Promise<boolean>>();
  /** The mark of the changes heard of (`RuntimeStore.keepLease`). */
  #heard: string | undefined;
  #ticker: ReturnType<typeof setInterval> | undefined;
  #polling = false;
  #renewing = false;

  readonly #pollMs: number;
  readonly #calls: PolledCalls;

  constructor(pollMs: number, calls: PolledCalls) {
    this.#pollMs = pollMs;
    this.#calls = calls;
  }

  /** Polls from now on, while there is anything to poll for. */
  start(): void {
    if (this.#ticker !== undefined) return;
    this.#ticker = setInterval(() => this.#tick(), this.#pollMs);
    (this.#ticker as { unref?: () => void }).unref?.();
  }

  /** A call open here changed in the store: it is brought in line at the next poll. */
  changedCall(callId: string): void {
    this.#changed.add(callId);
  }

  /** Tries `attempt` now and, until it answers true, again at every poll. */
  retryUntilDone(attempt: () => Promise<boolean>): void {
    void attempt().then((done) => {
      if (done) return;
      this.#retries.add(attempt);
      this.start();
    });
  }

  #tick(): void {
    const { open, keepLease } = this.#calls;
    if (open.size === 0 && this.#retries.size === 0) {
      clearInterval(this.#ticker);
      this.#ticker = undefined;
      return;
    }
    if (keepLease !== undefined && open.size > 0 && !this.#renewing) void this.#renew(keepLease);
    if (!this.#polling) void this.#poll();
  }

  async #renew(keepLease: NonNullable<PolledCalls['keepLease']>): Promise<void> {
    this.#renewing = true;
    try {
      const { changed, mark } = await keepLease(this.#heard);
      this.#heard = mark;
      for (const callId of changed) if (this.#calls.open.has(callId)) this.#changed.add(callId);
    } catch {
      return; // The store is away: the lease may run out meanwhile, which is what a partitioned replica's should do.
    } finally {
      this.#renewing = false;
    }
    // Heard of at once, not at the next tick.
    if (this.#changed.size > 0 && !this.#polling) void this.#poll();
  }

  async #poll(): Promise<void> {
    this.#polling = true;
    try {
      const now = Date.now();
      const due = new Set(this.#changed);
      this.#changed.clear();
      for (const [callId, call] of this.#calls.open) if (call.stored.expiresAt <= now) due.add(callId);
      await Promise.all([...due].map((callId) => this.#calls.adopt(callId)));
      // At once, not one after another: with the store away each waits for its timeout.
      await Promise.all([...this.#retries].map(async (attempt) => (await attempt()) && this.#retries.delete(attempt)));
    } finally {
      this.#polling = false;
    }
  }
}
