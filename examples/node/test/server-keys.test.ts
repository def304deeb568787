/**
 * Server Keys of the Node example with Redis, over real sockets: the keys come back by themselves
 * after Redis loses them (a restart without persistence, simulated by deleting this test's own
 * keys: Redis is shared, so never FLUSHALL), with no keyed request refused as invalid meanwhile, and
 * an instance started with other `SERVER_KEYS` revokes the keys it leaves out on every instance.
 */
import type { SpawnedServer } from '@catalogue-api/testkit';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExample } from '../../../test/support/example-servers.js';

const { REDIS_URL } = process.env;

describe.skipIf(!REDIS_URL)('the Node example keeps SERVER_KEYS in Redis', () => {
  const prefix = `catalogue-api-test:server-keys:${process.pid}:${Math.random().toString(36).slice(2, 10)}:`;
  const env = { REDIS_URL: REDIS_URL!, REDIS_PREFIX: prefix, FINGERPRINT_SECRET: 'server-keys-test-secret', RATE_LIMIT: 'off', ACCESS_LOG: 'off' };
  const redis = createClient({ url: REDIS_URL });
  const servers: SpawnedServer[] = [];
  let first: SpawnedServer;

  const status = async (server: SpawnedServer, key: string) =>
    (await fetch(`${server.url}/v1/genres/anime`, { headers: { 'x-server-key': key } })).status;
  const ready = async (server: SpawnedServer) => (await fetch(`${server.url}/readyz`)).status;
  const deleteOwnKeys = async () => {
    for await (const keys of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) if (keys.length > 0) await redis.del(keys);
  };

  beforeAll(async () => {
    await redis.connect();
    first = await startExample('node', { ...env, SERVER_KEYS: 'key-one,key-two' });
    servers.push(first);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await deleteOwnKeys();
    redis.destroy();
  });

  it('serves its keys again soon after Redis comes back without them, never calling them invalid meanwhile', async () => {
    await expect.poll(() => status(first, 'key-one'), { timeout: 10_000 }).toBe(200);
    expect(await ready(first)).toBe(200);
    await deleteOwnKeys();
    const statuses: number[] = [];
    const started = Date.now();
    while (statuses.at(-1) !== 200 && Date.now() - started < 5_000) statuses.push(await status(first, 'key-one'));
    expect(statuses.at(-1)).toBe(200);
    // 503 (with Retry-After) while the set is being written again, then 200; never a 401.
    expect(statuses.filter((s) => s !== 503 && s !== 200)).toEqual([]);
    expect(await status(first, 'key-nope')).toBe(401);
    await expect.poll(() => ready(first), { timeout: 3_000 }).toBe(200);
    expect(first.output()).toContain('Server Keys were missing from Redis at redis://');
  }, 20_000);

  it('refuses the keys a later instance leaves out of SERVER_KEYS, on the earlier instance too', async () => {
    const second = await startExample('node', { ...env, SERVER_KEYS: 'key-two,key-three' });
    servers.push(second);
    await expect.poll(() => status(second, 'key-three'), { timeout: 10_000 }).toBe(200);
    for (const server of [first, second]) {
      expect(await status(server, 'key-one')).toBe(401);
      expect(await status(server, 'key-two')).toBe(200);
      expect(await status(server, 'key-three')).toBe(200);
    }
    await expect.poll(() => first.output(), { timeout: 3_000 }).toContain('Another instance wrote other SERVER_KEYS to Redis');
    expect(await ready(first)).toBe(200);
  }, 60_000);
});
