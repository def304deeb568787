/**
 * The Redis response cache under a flood of unique long URLs, on a redis-server of the test's own
 * (it sets `maxmemory` and the eviction policy, which must never be changed on a shared Redis): the
 * cache stays within its byte bound by its own accounting and by Redis's `used_memory`, every
 * request is served (no 503 from a full Redis), and a client's rate-limit counter is neither lost
 * nor reset, under the default `noeviction` policy and under `allkeys-lru`.
 */
import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
import { describe, expect, it } from 'vitest';
import { createRedisGateway } from '../src/index.js';
import { HAS_REDIS_SERVER, startOwnRedis } from './helpers.js';

const MiB = 1024 * 1024;
const T0 = Date.UTC(2026, 6, 1, 12);
const LIMIT = 1_000_000;

// Needs the redis-server binary (not only a Redis at REDIS_URL): the test starts its own server to
// set maxmemory, which the shared one must keep as it is.
describe.skipIf(!HAS_REDIS_SERVER)('Redis response cache under a flood of unique long URLs (own redis-server)', () => {
  it.each(['noeviction', 'allkeys-lru'])('stays within its bound and keeps the counters, with maxmemory-policy %s', async (policy) => {
    const redis = await startOwnRedis({ 'maxmemory-policy': policy });
    const backend = createRedisGateway({ url: redis.url, prefix: 'flood:', timeoutMs: 2_000, cacheMaxBytes: 2 * MiB });
    try {
      await backend.ready;
      const app = createCatalogueApp({
        store: createMemoryStore({ anime: [] }),
        now: () => T0,
        logger: { error: () => undefined },
        gateway: { backend, rateLimit: { public: { perSecond: null, perMinute: null, perDay: LIMIT } } },
      });
      const get = (target: string, clientAddress: string) => app.fetch(new Request(`http://api.test${target}`), { clientAddress });
      // A client with a counter in Redis before the flood.
      for (let i = 0; i < 3; i++) expect((await get(`/v1/anime?q=before${i}`, '198.51.100.99')).status).toBe(200);
      // The whole cache bound plus 4 MiB of room: an unbounded cache reaches maxmemory within the flood.
      const baseline = await redis.usedMemory();
      await redis.client.configSet('maxmemory', String(baseline + 6 * MiB));

      const filler = 'q'.repeat(1_500);
      const statuses = new Map<number, number>();
      for (let i = 0; i < 4_000; i++) {
        const { status } = await get(`/v1/anime?x=${i}-${filler}`, '203.0.113.7');
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
      // Cache writes are off the answer's path: let the last ones land.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(Object.fromEntries(statuses)).toEqual({ 200: 4_000 });
      // The earlier client's daily counter is intact (not evicted, not refused): the next request is its 4th.
      const after = await get('/v1/anime?q=after', '198.51.100.99');
      expect(after.status).toBe(200);
      expect(after.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 4));

      const accounted = Number(await redis.client.get('flood:{cache:public}:bytes'));
      expect(accounted).toBeGreaterThan(0);
      expect(accounted).toBeLessThanOrEqual(1.5 * MiB);
      // Redis's own figure: the cache (and two clients' counters) within the bound, with room for
      // Redis's allocator and client buffers.
      expect((await redis.usedMemory()) - baseline).toBeLessThan(2 * MiB);

    } finally {
      await backend.close();
      await redis.stop();
    }
  }, 120_000);
});
