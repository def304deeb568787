/**
 * Temporary blocks of public clients that keep ignoring rate limits (the spec's 403), and the
 * in-memory block store.
 * @module
 */
import type { BlockPolicy, BlockStore } from './back-end.js';

/**
 * The default policy (anchors-notes E.2): 30 rate-limited responses within 60 s block the client
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

/**
 * An in-memory block store for one process. Its methods are synchronous, hence atomic.
 * @returns The store.
 */
export function createMemoryBlockStore(): BlockStore {
  const rejections = new Map<string, number[]>();
  const blocks = new Map<string, { until: number; strike: number }>();
  let nextSweep = 0;
  function sweep(now: number, policy?: BlockPolicy): void {
    if (now < nextSweep) return;
    nextSweep = now + 60_000;
    for (const [id, block] of blocks) if (block.until + (policy?.repeatWithinMs ?? 86_400_000) <= now) blocks.delete(id);
    for (const [id, times] of rejections) if (times[times.length - 1]! + (policy?.windowMs ?? 60_000) <= now) rejections.delete(id);
  }
  return {
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
        rejections.set(id, times);
        return null;
      }
      rejections.delete(id);
      const strike = previous && now - previous.until < policy.repeatWithinMs ? previous.strike + 1 : 1;
      const until = now + toBlockDuration(policy, strike);
      blocks.set(id, { until, strike });
      return until;
    },
  };
}
