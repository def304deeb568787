/**
 * The bound on what rate-limit counters may hold in a real Redis: past `maxClients` a new client
 * gets no minute or day counter (it is held to its per-second limit), while clients already counted
 * stay exact; so a flood of distinct addresses leaves at most `maxClients` day counters until midnight.
 */
import type { CounterWindow } from '@catalogue-api/core/store';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisCounterStore } from '../src/index.js';
import { deletePrefix, REDIS_URL, uniquePrefix } from './helpers.js';

// 09:00:00.200 UTC: the second, the minute and the day are all well under way.
const T0 = Date.UTC(2026, 8, 1, 9, 0, 0, 200);
const SPANS = [
  ['s', 1_000],
  ['m', 60_000],
  ['d', 86_400_000],
] as const;

/** A public client's windows as the gateway makes them: 2 a second, 3 a minute, 4 a day. */
function windowsOf(id: string, now: number): CounterWindow[] {
  const limits = { s: 2, m: 3, d: 4 };
  return SPANS.map(([tag, spanMs]) => {
    const start = now - (now % spanMs);
    return { key: `rl:{public:${id}}:${tag}:${start}`, limit: limits[tag], resetAt: start + spanMs, spanMs };
  });
}

describe.skipIf(!REDIS_URL)('Redis counters bounded in the clients they track', () => {
  const prefix = uniquePrefix('counter-bound');
  const redis = createClient({ url: REDIS_URL });
  const send = (args: string[]) => redis.sendCommand(args);
  const counters = createRedisCounterStore(send, prefix, { maxClients: 3 });
  const dayKeys = async () => (await redis.keys(`${prefix}rl:{public:*}:d:*`)).length;

  beforeAll(async () => {
    await redis.connect();
  });

  afterAll(async () => {
    await deletePrefix(prefix);
    redis.destroy();
  });

  it('keeps day counters for the first maxClients clients only, however many distinct clients come', async () => {
    for (let i = 0; i < 50; i++) {
      const result = await counters.hit(windowsOf(`203.0.113.${i}`, T0), T0);
      expect(result.allowed).toBe(true);
    }
    expect(await dayKeys()).toBe(3);
    // One tally per bounded window start, and every key expires with its window.
    const keys = await redis.keys(`${prefix}*`);
    expect(keys.filter((key) => key.includes('rl:clients:'))).toHaveLength(2);
    for (const key of keys) expect(await redis.pTTL(key)).toBeGreaterThan(0);
  });

  it('holds a tracked client to its day quota exactly', async () => {
    const id = '203.0.113.1';
    const allowed: boolean[] = [];
    // One request a minute, so only the day window can refuse: 4 a day, one already counted above.
    for (let minute = 1; minute <= 5; minute++) allowed.push((await counters.hit(windowsOf(id, T0 + minute * 60_000), T0 + minute * 60_000)).allowed);
    expect(allowed).toEqual([true, true, true, false, false]);
  });

  it('holds a client past the bound to its per-second limit, and never refuses it by an untracked window', async () => {
    const id = '198.51.100.99';
    // The minute of the flood above: its minute and day tallies are both at the bound.
    const now = T0 + 2_000;
    const first = await counters.hit(windowsOf(id, now), now);
    const second = await counters.hit(windowsOf(id, now), now);
    const third = await counters.hit(windowsOf(id, now), now);
    expect([first.allowed, second.allowed, third.allowed]).toEqual([true, true, false]);
    // The untracked minute and day windows read as one request in, never as full.
    expect(second.counts).toEqual([2, 1, 1]);
    // In later minutes it may get a minute counter (each minute has its own bound), never a day one.
    const allowed: boolean[] = [];
    for (let minute = 11; minute <= 16; minute++) allowed.push((await counters.hit(windowsOf(id, T0 + minute * 60_000), T0 + minute * 60_000)).allowed);
    expect(allowed).toEqual(Array(6).fill(true));
    expect(await dayKeys()).toBe(3);
  });
});
