import { describe, expect, it } from 'vitest';
import { maxInWindow } from '@catalogue-api/testkit';
import { createBudget, createMemoryLedger, waitForSlot } from './budget.js';
import type { BudgetLedger } from './types.js';

/** A memory ledger that also notes the instant of every slot it grants. */
function notingLedger(granted: number[]): BudgetLedger {
  const ledger = createMemoryLedger();
  return {
    ...ledger,
    async tryTake(now, limits, marginMs) {
      const wait = await ledger.tryTake(now, limits, marginMs);
      if (wait === 0) granted.push(now);
      return wait;
    },
  };
}

/** A virtual clock whose sleep moves time forward (never back) instead of waiting. */
function virtualTime(start = Date.UTC(2026, 0, 15)) {
  let now = start;
  const sleeps: number[] = [];
  return {
    clock: () => now,
    sleeps,
    advance: (ms: number) => {
      now += ms;
    },
    sleep: async (ms: number, signal?: AbortSignal) => {
      signal?.throwIfAborted();
      sleeps.push(ms);
      const wake = now + ms;
      await Promise.resolve();
      signal?.throwIfAborted();
      now = Math.max(now, wake);
    },
  };
}

describe('createBudget over a memory ledger', () => {
  const limits = { perSecond: 3, perMinute: 60 };

  it('never lets more than perSecond into any sliding second nor perMinute into any sliding minute', async () => {
    const time = virtualTime();
    // No margin: the windows exactly (the margin is checked below).
    const budget = createBudget(createMemoryLedger(), limits, { ...time, marginMs: 0 });
    const taken: number[] = [];
    for (let i = 0; i < 200; i++) {
      await budget.take();
      taken.push(time.clock());
    }
    expect(maxInWindow(taken, 1_000)).toBe(3);
    expect(maxInWindow(taken, 60_000)).toBe(60);
    // And it spends what it may: the 61st slot opens exactly when the first leaves the minute.
    expect(taken[60]! - taken[0]!).toBe(60_000);
    expect(taken[3]! - taken[0]!).toBe(1_000);
  });

  it('holds the windows with many takers at once', async () => {
    const time = virtualTime();
    const taken: number[] = [];
    const budget = createBudget(notingLedger(taken), { perSecond: 5, perMinute: 40 }, time);
    await Promise.all(
      Array.from({ length: 12 }, async () => {
        for (let i = 0; i < 10; i++) await budget.take();
      }),
    );
    expect(taken).toHaveLength(120);
    expect(maxInWindow(taken, 1_000)).toBeLessThanOrEqual(5);
    expect(maxInWindow(taken, 60_000)).toBeLessThanOrEqual(40);
  });

  it('shares the windows between two budgets over one ledger (two instances, or a new leader)', async () => {
    const time = virtualTime();
    const taken: number[] = [];
    const ledger = notingLedger(taken);
    const first = createBudget(ledger, limits, time);
    const second = createBudget(ledger, limits, time);
    await Promise.all([0, 1].map(async (n) => {
      for (let i = 0; i < 15; i++) await (n ? first : second).take();
    }));
    expect(taken).toHaveLength(30);
    expect(maxInWindow(taken, 1_000)).toBe(3);
  });

  it('pauses every take until a pause ends, and the later pause wins', async () => {
    const time = virtualTime();
    const ledger = createMemoryLedger();
    const budget = createBudget(ledger, limits, time);
    const start = time.clock();
    await budget.pause(start + 10_000);
    await budget.pause(start + 2_000);
    await Promise.all([budget.take(), budget.take()]);
    expect(time.clock()).toBeGreaterThanOrEqual(start + 10_000);
    expect((await ledger.usage(time.clock())).pausedUntil).toBe(start + 10_000);
  });

  it('rejects with the signal’s reason when aborted, before or while waiting', async () => {
    const time = virtualTime();
    const budget = createBudget(createMemoryLedger(), limits, time);
    const gone = new AbortController();
    gone.abort(new Error('stopping'));
    await expect(budget.take(gone.signal)).rejects.toThrow('stopping');
    await budget.pause(time.clock() + 60_000);
    const later = new AbortController();
    const waiting = budget.take(later.signal);
    later.abort(new Error('stopped while waiting'));
    await expect(waiting).rejects.toThrow('stopped while waiting');
  });

  it('keeps at most perMinute instants and reports usage', async () => {
    const time = virtualTime();
    const ledger = createMemoryLedger();
    const budget = createBudget(ledger, { perSecond: 100, perMinute: 100 }, time);
    for (let i = 0; i < 1_000; i++) await budget.take();
    const usage = await ledger.usage(time.clock());
    expect(usage.minute).toBeLessThanOrEqual(100);
    expect(usage.second).toBeLessThanOrEqual(100);
  });

  it('spreads a second’s slots over it instead of one burst, and an aborted taker leaves the queue moving', async () => {
    const time = virtualTime();
    const taken: number[] = [];
    const budget = createBudget(notingLedger(taken), { perSecond: 4, perMinute: 1_000 }, { ...time, marginMs: 0 });
    const gone = new AbortController();
    const takes = [budget.take(), budget.take(), budget.take(gone.signal), budget.take(), budget.take()];
    gone.abort(new Error('gone'));
    const settled = await Promise.allSettled(takes);
    expect(settled.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(taken.map((t) => t - taken[0]!)).toEqual([0, 250, 500, 750]);
    const bursty = createBudget(createMemoryLedger(), { perSecond: 4, perMinute: 1_000 }, { ...time, spacingMs: 0 });
    const start = time.clock();
    await Promise.all([bursty.take(), bursty.take(), bursty.take(), bursty.take()]);
    expect(time.clock()).toBe(start);
  });

  it('counts every window a margin wider, spaces slots over a second and the margin, and says when a slot is too old to send on', async () => {
    const time = virtualTime();
    const taken: number[] = [];
    const budget = createBudget(notingLedger(taken), limits, time);
    expect(budget.marginMs).toBe(250);
    for (let i = 0; i < 130; i++) await budget.take();
    // 3 in any 1.25 s, 60 in any 60.25 s: so 3 in any second and 60 in any minute even if each
    // request reaches the upstream up to 250 ms after its slot.
    expect(maxInWindow(taken, 1_250)).toBe(3);
    expect(maxInWindow(taken, 60_250)).toBe(60);
    expect(taken[1]! - taken[0]!).toBe(416);
    expect(taken[60]! - taken[0]!).toBe(60_250);
    const slot = await budget.take();
    expect(budget.late(slot)).toBe(false);
    time.advance(125);
    expect(budget.late(slot)).toBe(false);
    time.advance(1);
    expect(budget.late(slot)).toBe(true);
    expect(() => createBudget(createMemoryLedger(), limits, { marginMs: -1 })).toThrow(/marginMs/);
    expect(waitForSlot([0, 100, 200], 1_000, limits, 250)).toBe(250);
  });

  it('rejects limits that are not positive whole numbers', () => {
    expect(() => createBudget(createMemoryLedger(), { perSecond: 0, perMinute: 60 })).toThrow(/perSecond/);
    expect(() => createBudget(createMemoryLedger(), { perSecond: 3, perMinute: 1.5 })).toThrow(/perMinute/);
  });

  it('computes the wait from the slot that leaves each window first', () => {
    expect(waitForSlot([0, 100, 200], 500, { perSecond: 3, perMinute: 60 })).toBe(500);
    expect(waitForSlot([0, 100, 200], 1_000, { perSecond: 3, perMinute: 60 })).toBe(0);
    expect(waitForSlot([0, 30_000], 50_000, { perSecond: 3, perMinute: 2 })).toBe(10_000);
  });
});
