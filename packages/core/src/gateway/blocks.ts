/**
 * Temporary blocks of public clients that keep ignoring rate limits (the spec's 403), and the
 * in-memory block store.
 * @module
 */
import type { BlockPolicy, BlockStore } from './back-end.js';

/**
 * The default policy (docs/specification.md: Blocks): 30 rate-limited responses within 60 s block the client
 * for 10 minutes; a repeat within 24 hours of the previous block's end doubles it, up to 24 hours.
 */
export const DEFAULT_BLOCK_POLICY: BlockPolicy = {
  threshold: 30,
  windowMs: 60_000,
  durationMs: 600_000,
  maxDurationMs: 86_400_000,
  repeatWithinMs: 86_400_000,
};

/**
 * The length of a client's `strike`-th block in a row (1-based).
 * @param policy - The policy.
 * @param strike - 1 for a first block, 2 for a repeat, …
 */
export function toBlockDuration(policy: BlockPolicy, strike: number): number {
  return Math.min(policy.durationMs * 2 ** Math.min(strike - 1, 40), policy.maxDurationMs);
}

/** Options of {@link createMemoryBlockStore}. */
export interface MemoryBlockOptions {
  /**
   * Most clients kept in each of its two maps (recent refusals; blocks, kept for the repeat period
   * after they end). Past it the oldest go first: a forgotten block's next one counts as a first.
   * @default 100_000
   */
  maxEntries?: number;
}

/**
 * An in-memory block store for one process. Its methods are synchronous, hence atomic.
 * @param options - The bound.
 * @returns The store.
 * @example
 * ```ts
 * const blocks = createMemoryBlockStore({ maxEntries: 50_000 });
 * ```
 */
export function createMemoryBlockStore(options: MemoryBlockOptions = {}): BlockStore & { readonly entries: number } {
  const maxEntries = options.maxEntries ?? 100_000;
  const rejections = new Map<string, number[]>();
  const blocks = new Map<string, { until: number; strike: number }>();
  let nextSweep = 0;
  function sweep(now: number, policy?: BlockPolicy): void {
    if (now < nextSweep) return;
    nextSweep = now + 60_000;
    for (const [id, block] of blocks) if (block.until + (policy?.repeatWithinMs ?? 86_400_000) <= now) blocks.delete(id);
    for (const [id, times] of rejections) if (times[times.length - 1]! + (policy?.windowMs ?? 60_000) <= now) rejections.delete(id);
  }
  // Maps keep insertion order, so the first keys are the oldest: a client's refusals are re-inserted
  // at each one, and a block at its start. An active block is never dropped while an ended one remains.
  function trim(map: Map<string, unknown>, now: number): void {
    if (map.size <= maxEntries) return;
    if (map === blocks) for (const [id, block] of blocks) if (map.size > maxEntries && block.until <= now) blocks.delete(id);
    for (const id of map.keys()) {
      if (map.size <= maxEntries) return;
      map.delete(id);
    }
  }
  return {
    get entries() {
      return rejections.size + blocks.size;
    },
    blockedUntil(id, now) {
      const block = blocks.get(id);
      return block && block.until > now ? block.until : null;
    },
    recordRejection(id, now, policy) {
      sweep(now, policy);
      const previous = blocks.get(id);
      // Rejections that race in while a block is active neither extend it nor start another.
      if (previous && previous.until > now) return null;
      const since = now - policy.windowMs;
      const times = (rejections.get(id) ?? []).filter((t) => t > since);
      times.push(now);
      if (times.length < policy.threshold) {
        rejections.delete(id);
        rejections.set(id, times);
        trim(rejections, now);
        return null;
      }
      rejections.delete(id);
      const strike = previous && now - previous.until < policy.repeatWithinMs ? previous.strike + 1 : 1;
      const until = now + toBlockDuration(policy, strike);
      blocks.delete(id);
      blocks.set(id, { until, strike });
      trim(blocks, now);
      return until;
    },
  };
}
