import { createCatalogueApp, createMemoryStore, type App } from '@catalogue-api/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisGateway, type RedisGateway } from '../src/index.js';
import { deletePrefix, REDIS_URL, uniquePrefix } from './helpers.js';

const KEY = 'shared-server-key-1';
// 12:00:00.100 UTC: every request of a test falls in one second.
const T0 = Date.UTC(2026, 6, 1, 12, 0, 0, 100);

describe.skipIf(!REDIS_URL)('two app instances on one Redis', () => {
  const prefix = uniquePrefix('shared');
  const clock = { now: T0 };
  let backends: RedisGateway[];
  let apps: App[];
  let loads = 0;

  beforeAll(async () => {
    const store = createMemoryStore({ anime: [] });
    const counting = Object.create(store) as typeof store;
    counting.query = (collection, query) => {
      loads++;
      return store.query(collection, query);
    };
    // One deployment: one fingerprint secret, so that a key added through one is known to the other.
    backends = [0, 1].map(() => createRedisGateway({ url: REDIS_URL, prefix, timeoutMs: 2_000, fingerprintSecret: 'shared-test-secret' }));
    await Promise.all(backends.map((backend) => backend.ready));
    await backends[0]!.addKeys([KEY]);
    apps = backends.map((backend) =>
      createCatalogueApp({
        store: counting,
        now: () => clock.now,
        logger: { error: () => undefined },
        gateway: { backend, blocks: { threshold: 3 } },
      }),
    );
  });

  afterAll(async () => {
    await deletePrefix(prefix);
    await Promise.all(backends.map((backend) => backend.close()));
  });

  const send = (instance: number, path: string, ip: string, headers: Record<string, string> = {}) =>
    apps[instance]!.fetch(new Request(`http://api.test${path}`, { headers }), { clientAddress: ip });

  it('shares the limits: 6 requests in one second split across them give exactly 2 429s', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await send(i % 2, `/v1/anime?q=a${i}`, '198.51.100.10')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it('shares the limits under concurrent requests too', async () => {
    const statuses = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => send(i % 2, `/v1/anime?q=b${i}`, '198.51.100.11').then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(4);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
  });

  it('shares blocks: rejections on one instance block the client on the other', async () => {
    clock.now = T0 + 5_000;
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await send(i % 2, '/v1/anime?q=c', '198.51.100.12')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429, 429]);
    clock.now = T0 + 6_000;
    const blocked = await send(0, '/v1/anime?q=c', '198.51.100.12');
    expect(blocked.status).toBe(403);
    expect((await send(1, '/v1/anime?q=c', '198.51.100.12')).status).toBe(403);
  });

  it('shares the cache: an answer stored by one instance is served by the other', async () => {
    clock.now = T0 + 10_000;
    const before = loads;
    const first = await send(0, '/v1/anime?q=cached', '198.51.100.13');
    // The cache write is not on the answer's path; wait until it has landed.
    await expect.poll(async () => (await send(1, '/v1/anime?q=cached', '198.51.100.14')).headers.get('etag')).toBe(first.headers.get('etag'));
    const again = await send(1, '/v1/anime?q=cached', '198.51.100.15');
    expect(again.status).toBe(200);
    expect(again.headers.get('last-modified')).toBe(new Date(T0 + 10_000).toUTCString());
    expect(loads - before).toBeLessThanOrEqual(2);
    const notModified = await send(1, '/v1/anime?q=cached', '198.51.100.16', { 'if-none-match': first.headers.get('etag')! });
    expect(notModified.status).toBe(304);
  });

  it('shares Server Keys and keeps their cache apart from the public one', async () => {
    clock.now = T0 + 20_000;
    const keyed = await send(1, '/v1/anime?q=keyed', '198.51.100.17', { 'x-server-key': KEY });
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get('cache-control')).toBe('private, max-age=600');
    const pub = await send(0, '/v1/anime?q=keyed', '198.51.100.17');
    expect(pub.headers.get('cache-control')).toMatch(/^public, max-age=/);
    expect((await send(0, '/v1/anime?q=keyed', '198.51.100.17', { 'x-server-key': 'nope' })).status).toBe(401);
  });
});
