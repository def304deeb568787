import { describe, expect, it } from 'vitest';
import { checkRequestLog, createFakeUpstream } from '@catalogue-api/testkit';
import { createBudget, createMemoryLedger } from './budget.js';
import { createJikanSource } from './jikan-source.js';
import type { BudgetLedger } from './types.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A ledger whose answers come late, as a shared one's do under load (a database round trip, a
 * busy event loop): the slot is written at the instant it was asked for, the answer arrives
 * `delays[i]` ms later, cycling.
 */
function slowLedger(delays: readonly number[]): BudgetLedger {
  const ledger = createMemoryLedger();
  let i = 0;
  return {
    ...ledger,
    async tryTake(now, limits, marginMs) {
      const wait = await ledger.tryTake(now, limits, marginMs);
      if (wait === 0) await sleep(delays[i++ % delays.length]!);
      return wait;
    },
  };
}

describe('the budget as the upstream counts arrivals', () => {
  it('holds every sliding 1 s and 60 s window of the fake upstream’s log when requests leave late after their slots', async () => {
    const limits = { perSecond: 8, perMinute: 600 };
    // The fake refuses (429) anything over its limits with no slack, and logs every arrival.
    const fake = await createFakeUpstream({ limits, slackMs: 0 });
    try {
      // Between a slot and its request: the ledger's answer late by up to 100 ms (and now and then
      // by 300 ms), then `fetch` itself up to 60 ms slow to put the request on the wire.
      const fetchDelays = [0, 60, 0, 30];
      let f = 0;
      const source = createJikanSource({
        baseUrl: fake.url,
        budget: createBudget(slowLedger([100, 0, 0, 300, 0, 0, 0]), limits),
        limits,
        retries: 0,
        fetch: async (input, init) => {
          await sleep(fetchDelays[f++ % fetchDelays.length]!);
          return fetch(input, init);
        },
      });
      // Three callers at once, as the refresher's concurrent tasks are.
      const outcomes = await Promise.all(
        [0, 1, 2].map(async (caller) => {
          const out: string[] = [];
          for (let i = 0; i < 8; i++) out.push((await source.entry('anime', caller * 100 + i + 1, 'full')).outcome);
          return out;
        }),
      );
      // Every request reached the fake (it holds no entries: 404), none was refused for its rate.
      expect(outcomes.flat()).toEqual(Array.from({ length: 24 }, () => 'not-found'));
      expect(fake.violations).toBe(0);
      const check = checkRequestLog(fake.log, limits);
      expect(check, `at most ${check.maxPerSecond} in a second, ${check.maxPerMinute} in a minute`).toEqual({ ok: true, maxPerSecond: expect.any(Number), maxPerMinute: 24 });
      expect(check.maxPerSecond).toBeLessThanOrEqual(limits.perSecond);
    } finally {
      await fake.close();
    }
  }, 30_000);
});
