import { describe, expect, it } from 'vitest';
import type { BlockPolicy } from './back-end.js';
import { createMemoryBlockStore } from './blocks.js';

const POLICY: BlockPolicy = { threshold: 3, windowMs: 60_000, durationMs: 600_000, maxDurationMs: 86_400_000, repeatWithinMs: 86_400_000 };
const T0 = Date.UTC(2026, 5, 1, 8);

describe('createMemoryBlockStore', () => {
  it('keeps at most maxEntries clients in each map under a flood of distinct refused clients, and still blocks the latest', () => {
    const store = createMemoryBlockStore({ maxEntries: 100 });
    for (let i = 0; i < 5_000; i++) {
      const id = `2001:db8:${i.toString(16)}::/64`;
      // Two refusals for half of them (kept as refusals), three for the others (a block).
      for (let k = 0; k < (i % 2 === 0 ? 2 : 3); k++) store.recordRejection(id, T0 + i, POLICY);
    }
    expect(store.entries).toBeLessThanOrEqual(200);
    expect(store.blockedUntil('2001:db8:1387::/64', T0 + 5_000)).toBe(T0 + 4_999 + 600_000);
    // A client with refusals on record still reaches the threshold.
    expect(store.recordRejection('2001:db8:1386::/64', T0 + 5_000, POLICY)).toBe(T0 + 5_000 + 600_000);
  });
});
