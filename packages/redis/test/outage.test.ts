import { createCatalogueApp, createMemoryStore, type App } from '@catalogue-api/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisGateway, type RedisGateway } from '../src/index.js';
import { deletePrefix, REDIS_URL, startRedisProxy, uniquePrefix, type RedisProxy } from './helpers.js';

const TIMEOUT_MS = 200;

describe.skipIf(!REDIS_URL)('Redis going away mid-run', () => {
  const prefix = uniquePrefix('outage');
  let proxy: RedisProxy;
  let backend: RedisGateway;
  let app: App;
  let second = 0;

  beforeAll(async () => {
    proxy = await startRedisProxy(REDIS_URL!);
    backend = createRedisGateway({ url: proxy.url, prefix, timeoutMs: TIMEOUT_MS });
    await backend.ready;
    // Each request gets its own second, so the limits never interfere with what is tested here.
    app = createCatalogueApp({
      store: createMemoryStore({ anime: [] }),
      now: () => Date.UTC(2026, 7, 1) + 1_000 * second++,
      logger: { error: () => undefined },
      gateway: { backend, cache: false },
    });
  });

  afterAll(async () => {
    await backend.close();
    await proxy.close();
    await deletePrefix(prefix);
  });

  const get = () => app.fetch(new Request('http://api.test/v1/anime'), { clientAddress: '198.51.100.20' });

  it('answers 503 with Retry-After: 1 when Redis is cut off, and serves again once it is back', async () => {
    expect((await get()).status).toBe(200);
    await proxy.cut();
    const res = await get();
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await res.json()).toMatchObject({ status: 503, type: 'ServiceUnavailableException' });
    expect((await get()).status).toBe(503);
    await proxy.restore();
    // node-redis reconnects on its own (backoff up to 1 s); no request ever passes unlimited meanwhile.
    await expect.poll(async () => (await get()).status, { timeout: 5_000, interval: 100 }).toBe(200);
  }, 10_000);

  it.each([
    ['stalls, then delivers late', 'stall'],
    ['goes silent on a half-open connection', 'blackhole'],
  ] as const)('answers 503 after the timeout when Redis %s, and serves again afterwards', async (_, fault) => {
    expect((await get()).status).toBe(200);
    proxy[fault]();
    const started = performance.now();
    const res = await get();
    const waited = performance.now() - started;
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    // Not a timing assertion: only that the answer came from the timeout rather than a hang.
    expect(waited).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect((await get()).status).toBe(503);
    await proxy.restore();
    await expect.poll(async () => (await get()).status, { timeout: 5_000, interval: 100 }).toBe(200);
  }, 10_000);

  it('answers 503 at once for a client pointed at a dead port', async () => {
    const dead = createRedisGateway({ url: 'redis://127.0.0.1:1', prefix, timeoutMs: TIMEOUT_MS });
    try {
      const deadApp = createCatalogueApp({ store: createMemoryStore({ anime: [] }), logger: { error: () => undefined }, gateway: { backend: dead } });
      const res = await deadApp.fetch(new Request('http://api.test/v1/anime'), { clientAddress: '198.51.100.21' });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
    } finally {
      await dead.close();
    }
  });
});
