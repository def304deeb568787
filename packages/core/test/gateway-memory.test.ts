/**
 * The memory back end against real memory. An in-process app is flooded with unique long URLs, and
 * the heap it keeps afterwards (after a full collection) must stay within the cache's configured
 * bound; the rate-limit counters are flooded with distinct clients (one request per IPv6 /64, as
 * cheap for an attacker as it gets) and must stay within theirs. Generous margins leave room for
 * the engine's own noise. Not a timing test: it reads `process.memoryUsage()` before and after.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createCatalogueApp, createMemoryGatewayBackend, createMemoryStore } from '../src/index.js';
import { toCounterWindows, toWindowSpecs } from '../src/gateway/rate-limit.js';
import type { PlainRequest } from '../src/edge/http.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MiB = 1024 * 1024;

function heapAfterCollection(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Sends `count` GET requests for unique `/v1/anime?x=…` URLs of about `length` characters. */
async function flood(handle: (request: PlainRequest) => Promise<{ status: number }>, count: number, length: number): Promise<void> {
  const filler = 'q'.repeat(length);
  for (let i = 0; i < count; i++) {
    // A fresh string per request, cut from a larger one as adapters do.
    const target = `/v1/anime?x=${i}-${filler}`;
    const mark = target.indexOf('?');
    const res = await handle({ method: 'GET', path: target.slice(0, mark), query: target.slice(mark + 1), header: () => undefined });
    if (res.status !== 200) throw new Error(`unexpected ${res.status}`);
  }
}

describe('memory response cache under a flood of unique long URLs', () => {
  it.each([
    // Cached: each key is under the length limit, so the byte bound alone must hold.
    ['1,500-character', 10_000, 1_500],
    // Never cached: longer than the key length limit.
    ['15,000-character', 2_000, 15_000],
  ])('keeps the heap within its bound for %s URLs', async (_, count, length) => {
    const bound = 4 * MiB;
    const backend = createMemoryGatewayBackend({ cacheMaxBytes: bound });
    const app = createCatalogueApp({ store: createMemoryStore({ anime: [] }), gateway: { backend, rateLimit: false }, now: () => Date.UTC(2026, 5, 1) });
    // Warm the routes up, so that what they allocate once is not counted as the cache's.
    await flood(app.handle, 200, 10);
    const before = heapAfterCollection();
    await flood(app.handle, count, length);
    const grown = heapAfterCollection() - before;
    // The keys alone would take count × length bytes (15 or 30 MB) if they were all kept.
    expect(count * length).toBeGreaterThan(3 * bound);
    expect(grown).toBeLessThan(bound + 4 * MiB);
    // The app, and so its cache, is still alive at the second measurement.
    expect((await app.handle({ method: 'GET', path: '/v1/anime', query: 'x=1', header: () => undefined })).status).toBe(200);
  }, 60_000);
});

describe('memory rate-limit counters under a flood of distinct clients', () => {
  it('keep the heap within their bound for 200,000 IPv6 /64s at 08:00 UTC, when every day window can still refuse', async () => {
    const maxEntries = 30_000;
    const backend = createMemoryGatewayBackend({ counterMaxEntries: maxEntries });
    const specs = toWindowSpecs('public');
    const start = Date.UTC(2026, 5, 1, 8);
    const hit = (i: number) => {
      // 200 new clients a second, each one request, as a flood spread over 1,000 seconds.
      const now = start + Math.floor(i / 200) * 1_000;
      return backend.counters.hit(toCounterWindows('public', `2001:db8:${i.toString(16)}::/64`, specs, now), now);
    };
    for (let i = 0; i < 1_000; i++) hit(i);
    const before = heapAfterCollection();
    for (let i = 1_000; i < 200_000; i++) hit(i);
    const grown = heapAfterCollection() - before;
    // Unbounded, 200,000 day windows take ~60 MB; bounded, at most 30,000 windows of ~250 bytes.
    expect(grown).toBeLessThan(maxEntries * 300 + 4 * MiB);
    // The store is still alive, and counting, at the second measurement.
    expect((await hit(200_000)).allowed).toBe(true);
  }, 60_000);
});
