/**
 * The lease of the memory stores (the status store's checker lease, the refresher state's): one
 * holder at a time, renewed by its holder, taken over by another once it expires.
 * @module
 */

/** A lease held in memory, as `StatusStore` and `RefreshState` take and give it up. */
export interface MemoryLease {
  /** Takes or renews the lease for `ttlMs` from `now`; whether `holder` holds it. */
  acquireLease(holder: string, now: number, ttlMs: number): Promise<boolean>;
  /** Gives the lease up, if `holder` holds it. */
  releaseLease(holder: string): Promise<void>;
  /** Who holds it until when (for a snapshot), if anyone has taken it. */
  held(): { holder: string; expiresAt: number } | undefined;
}

/**
 * Creates a lease.
 * @param restored - A lease to start from (a snapshot's).
 * @returns The lease.
 */
export function createMemoryLease(restored?: { readonly holder: string; readonly expiresAt: number }): MemoryLease {
  let lease = restored ? { ...restored } : undefined;
  return {
    async acquireLease(holder, now, ttlMs) {
      if (!lease || lease.holder === holder || lease.expiresAt <= now) {
        lease = { holder, expiresAt: now + ttlMs };
        return true;
      }
      return false;
    },
    async releaseLease(holder) {
      if (lease?.holder === holder) lease = undefined;
    },
    held: () => (lease ? { ...lease } : undefined),
  };
}
