/**
 * Server Keys as a managed set in a real Redis: the configured keys are the whole set (a key left
 * out is revoked on every instance), the set is written again when Redis loses it (a restart
 * without persistence, simulated by deleting this test's own keys), readiness says when it is
 * missing, and what Redis holds are keyed fingerprints.
 */
import { createCatalogueApp, createKeyFingerprinter, createMemoryStore, type App } from '@catalogue-api/core';
import { createHash } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisGateway, type KeySetState, type RedisGateway, type RedisGatewayOptions } from '../src/index.js';
import { deletePrefix, REDIS_URL, startRedisProxy, uniquePrefix } from './helpers.js';

const SECRET = 'keys-test-deployment-secret';

describe.skipIf(!REDIS_URL)('Server Keys as a managed set in Redis', () => {
  const redis = createClient({ url: REDIS_URL });
  const opened: RedisGateway[] = [];
  const prefixes: string[] = [];
  let second = 0;

  beforeAll(async () => {
    await redis.connect();
  });

  afterAll(async () => {
    await Promise.all(opened.map((backend) => backend.close()));
    for (const prefix of prefixes) await deletePrefix(prefix);
    redis.destroy();
  });

  function newPrefix(name: string): string {
    const prefix = uniquePrefix(name);
    prefixes.push(prefix);
    return prefix;
  }

  /** A back end and an app over it, with the key-set states it was told of. */
  function instance(prefix: string, options: Partial<RedisGatewayOptions>) {
    const states: KeySetState[] = [];
    const backend = createRedisGateway({ url: REDIS_URL, prefix, timeoutMs: 2_000, fingerprintSecret: SECRET, onKeySetChange: (state) => states.push(state), ...options });
    opened.push(backend);
    // Each request its own second, so the limits never interfere.
    const app: App = createCatalogueApp({
      store: createMemoryStore({ anime: [] }),
      now: () => Date.UTC(2026, 7, 1) + 1_000 * second++,
      logger: { error: () => undefined },
      gateway: { backend, cache: false },
    });
    const answer = (key: string) => app.fetch(new Request('http://api.test/v1/anime', { headers: { 'x-server-key': key } }), { clientAddress: '198.51.100.70' });
    const status = async (key: string) => (await answer(key)).status;
    return { backend, app, states, status, answer };
  }

  /** The key sets under a prefix (one per fingerprint secret). */
  const sets = async (prefix: string) => (await redis.keys(`${prefix}keys:*`)).sort();

  it('accepts the configured keys, and a later instance with other keys revokes the rest on every instance', async () => {
    const prefix = newPrefix('keys-revoke');
    const a = instance(prefix, { keys: ['key-one', 'key-two'] });
    await a.backend.ready;
    expect(a.states).toEqual(['written']);
    expect(await a.status('key-one')).toBe(200);
    expect(await a.status('key-two')).toBe(200);
    expect(await a.status('key-three')).toBe(401);

    const b = instance(prefix, { keys: ['key-three'] });
    await b.backend.ready;
    for (const { status } of [a, b]) {
      expect(await status('key-one')).toBe(401);
      expect(await status('key-two')).toBe(401);
      expect(await status('key-three')).toBe(200);
    }
    // One set, replaced whole: the fingerprint of key-three and the two markers, nothing else.
    const [set] = await sets(prefix);
    const members = await redis.sMembers(set!);
    expect(members.filter((m) => !m.startsWith('@'))).toEqual([await createKeyFingerprinter(SECRET)('key-three')]);
    expect(members.filter((m) => m.startsWith('@'))).toHaveLength(2);
    // a checks, finds b's set and leaves it alone.
    await a.backend.ping();
    expect(a.states).toEqual(['written', 'superseded']);
    expect(await b.status('key-three')).toBe(200);
  });

  it('answers 503, not 401, while Redis has lost the set, and writes it again at once', async () => {
    const prefix = newPrefix('keys-lost');
    // A check interval far longer than the test: only the request's own finding restores the set.
    const a = instance(prefix, { keys: ['key-one'], keyCheckIntervalMs: 600_000 });
    await a.backend.ready;
    expect(await a.status('key-one')).toBe(200);
    // Redis restarted empty, as far as this deployment can tell: its keys are gone (never FLUSHALL: Redis is shared).
    await redis.del(await redis.keys(`${prefix}*`));
    const during = await a.answer('key-one');
    expect(during.status).toBe(503);
    expect(during.headers.get('retry-after')).toBe('1');
    await expect.poll(() => a.status('key-one'), { timeout: 5_000, interval: 50 }).toBe(200);
    expect(await a.status('key-other')).toBe(401);
    expect(a.states).toEqual(['written', 'restored']);
  });

  it('writes the set again within the check interval when Redis loses it, with no request asking', async () => {
    const prefix = newPrefix('keys-interval');
    const a = instance(prefix, { keys: ['key-one'], keyCheckIntervalMs: 100 });
    await a.backend.ready;
    const [set] = await sets(prefix);
    await redis.del(set!);
    await expect.poll(() => redis.exists(set!), { timeout: 5_000, interval: 50 }).toBe(1);
    expect(await a.status('key-one')).toBe(200);
  });

  it('writes the set again on reconnecting to a Redis that came back without it', async () => {
    const prefix = newPrefix('keys-reconnect');
    const proxy = await startRedisProxy(REDIS_URL!);
    try {
      const a = instance(prefix, { url: proxy.url, keys: ['key-one'], keyCheckIntervalMs: 600_000 });
      await a.backend.ready;
      const [set] = await sets(prefix);
      // The connection drops, and Redis comes back empty; no request is sent meanwhile.
      await proxy.cut();
      await redis.del(set!);
      await proxy.restore();
      await expect.poll(() => redis.exists(set!), { timeout: 5_000, interval: 50 }).toBe(1);
      expect(await a.status('key-one')).toBe(200);
      expect(a.states).toEqual(['written', 'restored']);
    } finally {
      await proxy.close();
    }
  });

  it('is not ready while the set is missing and this instance may not restore it, and ready once it is back', async () => {
    const prefix = newPrefix('keys-ready');
    const old = instance(prefix, { keys: ['key-one'], keyCheckIntervalMs: 600_000 });
    await old.backend.ready;
    const current = instance(prefix, { keys: ['key-one', 'key-two'], keyCheckIntervalMs: 600_000 });
    await current.backend.ready;
    await old.backend.ping();
    expect(old.states).toEqual(['written', 'superseded']);
    await redis.del(await sets(prefix));
    // The superseded instance leaves the set to the newer configuration's instances: not ready, keyed requests 503.
    await expect(old.backend.ping()).rejects.toThrow(/missing/);
    expect((await old.answer('key-two')).status).toBe(503);
    expect(old.states).toEqual(['written', 'superseded', 'missing']);
    // The newer instance's own check restores it; the old one is ready again and serves the newer set.
    await current.backend.ping();
    // A check the 503 above started may still be in flight, and answer for the next ping: poll.
    await expect.poll(() => old.backend.ping().then(() => 'ready', () => 'not ready')).toBe('ready');
    expect(await old.status('key-two')).toBe(200);
    expect(current.states).toEqual(['written', 'restored']);
  });

  it('keeps keyed fingerprints in Redis, and drops the set of plain SHA-256 fingerprints of older versions', async () => {
    const prefix = newPrefix('keys-salted');
    const legacy = createHash('sha256').update('weak').digest('hex').slice(0, 32);
    await redis.sAdd(`${prefix}keys`, legacy);
    const a = instance(prefix, { keys: ['weak'] });
    await a.backend.ready;
    await expect.poll(() => redis.exists(`${prefix}keys`)).toBe(0);
    const members = await redis.sMembers((await sets(prefix))[0]!);
    expect(members).not.toContain(legacy);
    expect(members).toContain(await createKeyFingerprinter(SECRET)('weak'));
  });

  it('gives instances without a shared secret a set each, so that neither revokes the other', async () => {
    const prefix = newPrefix('keys-unsalted');
    const a = instance(prefix, { keys: ['key-one'], fingerprintSecret: undefined });
    const b = instance(prefix, { keys: ['key-one'], fingerprintSecret: undefined });
    await Promise.all([a.backend.ready, b.backend.ready]);
    expect(await sets(prefix)).toHaveLength(2);
    expect(await a.status('key-one')).toBe(200);
    expect(await b.status('key-one')).toBe(200);
  });

  it('leaves an unmanaged set to addKeys and removeKeys', async () => {
    const prefix = newPrefix('keys-unmanaged');
    const a = instance(prefix, {});
    await a.backend.ready;
    await a.backend.ping();
    expect(await a.status('added')).toBe(401);
    await a.backend.addKeys(['added']);
    expect(await a.status('added')).toBe(200);
    await a.backend.removeKeys(['added']);
    expect(await a.status('added')).toBe(401);
  });
});
