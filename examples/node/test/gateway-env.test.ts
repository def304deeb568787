/**
 * The example server's gateway settings from the environment (README, "Environment variables"):
 * `SERVER_KEYS`, `RESTRICTED_ROUTES`, `REDIS_URL`/`REDIS_PREFIX`, `RATE_LIMIT`, `CACHE`,
 * `TRUST_PROXY`, `FINGERPRINT_SECRET`, each checked by what an app built from them does.
 */
import { createCatalogueApp, createMemoryStore, type RequestRecord } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';
import { createClient } from 'redis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createExampleGateway } from '../gateway-env.js';
import { createExampleOperations } from '../observability.js';

const T0 = Date.UTC(2026, 4, 1, 10, 0, 0, 100);
const store = createMemoryStore(demoData);

function appFrom(env: Record<string, string | undefined>) {
  const gateway = createExampleGateway(env);
  const app = createCatalogueApp({ store, now: () => T0, logger: { error: () => undefined }, gateway: gateway.options });
  const send = (path: string, headers: Record<string, string> = {}, ip = '198.51.100.1') =>
    app.fetch(new Request(`http://api.test${path}`, { headers }), { clientAddress: ip });
  return { gateway, send };
}

async function statuses(send: () => Promise<Response>, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await send()).status);
  return out;
}

describe('the example gateway from the environment', () => {
  it('limits by default: the fifth public request in a second is 429', async () => {
    const { send } = appFrom({});
    expect(await statuses(() => send('/v1/anime/1'), 5)).toEqual([200, 200, 200, 200, 429]);
  });

  it('turns limits off with RATE_LIMIT=off, and refuses a value it cannot read', async () => {
    const { send } = appFrom({ RATE_LIMIT: 'off' });
    expect(await statuses(() => send('/v1/anime/1'), 10)).toEqual(Array(10).fill(200));
    expect(() => createExampleGateway({ RATE_LIMIT: 'maybe' })).toThrow(/RATE_LIMIT/);
    expect(() => createExampleGateway({ CACHE: 'no' })).toThrow(/CACHE/);
  });

  it('reads SERVER_KEYS and RESTRICTED_ROUTES as comma lists', async () => {
    const { send } = appFrom({ SERVER_KEYS: ' key-one , key-two,', RESTRICTED_ROUTES: '/v1/top/*, /v1/anime/:id/full' });
    expect((await send('/v1/top/anime')).status).toBe(401);
    expect((await send('/v1/anime/1/full', {}, '198.51.100.2')).status).toBe(401);
    expect((await send('/v1/top/anime', { 'x-server-key': 'key-two' })).status).toBe(200);
    const keyed = await send('/v1/anime/1/full', { 'x-server-key': 'key-one' });
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get('ratelimit-limit')).toBe('5');
    expect((await send('/v1/anime/1', { 'x-server-key': 'key-three' }, '198.51.100.3')).status).toBe(401);
  });

  it('caches by default, and not with CACHE=off', async () => {
    const cached = appFrom({ RATE_LIMIT: 'off' });
    expect((await cached.send('/v1/anime/1')).headers.get('cache-control')).toBe('public, max-age=86400');
    const uncached = appFrom({ RATE_LIMIT: 'off', CACHE: 'off' });
    const res = await uncached.send('/v1/anime/1');
    expect(res.headers.get('cache-control')).toBe('public, max-age=0');
    expect(res.headers.get('etag')).toMatch(/^"/);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY names the proxies', async () => {
    const forwarded = (n: number) => ({ 'x-forwarded-for': `203.0.113.${n}` });
    let n = 0;
    const untrusted = appFrom({});
    expect(await statuses(() => untrusted.send('/v1/anime/1', forwarded(++n)), 5)).toEqual([200, 200, 200, 200, 429]);
    const trusted = appFrom({ TRUST_PROXY: '1' });
    expect(await statuses(() => trusted.send('/v1/anime/1', forwarded(++n)), 8)).toEqual(Array(8).fill(200));
  });

  it('names a client and a Server Key alike in the access logs of two instances with one FINGERPRINT_SECRET', async () => {
    const instance = (secret: string) => {
      const env = { SERVER_KEYS: 'key-one', FINGERPRINT_SECRET: secret, ACCESS_LOG: 'json' };
      const lines: string[] = [];
      const ops = createExampleOperations(env, (line) => lines.push(line));
      const app = ops.observe(createCatalogueApp({ store, now: () => T0, logger: { error: () => undefined }, gateway: createExampleGateway(env).options }));
      const send = (headers: Record<string, string>) =>
        app.handle({ method: 'GET', path: '/v1/anime/1', query: '', header: (name) => headers[name], clientAddress: '198.51.100.9' });
      const clients = async () => {
        await send({});
        await send({ 'x-server-key': 'key-one' });
        await ops.stop();
        return lines.flatMap((line) => line.split('\n').filter(Boolean)).map((line) => (JSON.parse(line) as RequestRecord).client);
      };
      return clients();
    };
    const [a, b, other] = await Promise.all([instance('deployment-secret'), instance('deployment-secret'), instance('other-secret')]);
    expect(a).toHaveLength(2);
    expect(a[1]).toMatch(/^key:[0-9a-f]{12}$/);
    expect(b).toEqual(a);
    expect(other[0]).not.toBe(a[0]);
    expect(other[1]).not.toBe(a[1]);
  });
});

const REDIS_URL = process.env.REDIS_URL;

describe.skipIf(!REDIS_URL)('the example gateway with REDIS_URL', () => {
  const newPrefix = () => `catalogue-api-test:example-env:${process.pid}:${Math.random().toString(36).slice(2, 10)}:`;
  const opened: Array<ReturnType<typeof appFrom>> = [];
  const prefixes: string[] = [];
  const instance = (env: Record<string, string | undefined>) => {
    const made = appFrom({ REDIS_URL, ...env });
    opened.push(made);
    return made;
  };
  const deletePrefix = async (prefix: string) => {
    const client = createClient({ url: REDIS_URL });
    await client.connect();
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) if (keys.length > 0) await client.del(keys);
    client.destroy();
  };

  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(opened.splice(0).map(({ gateway }) => gateway.close()));
    for (const prefix of prefixes.splice(0)) await deletePrefix(prefix);
  });

  it('refuses a key left out of SERVER_KEYS once an instance starts without it, on every instance', async () => {
    const prefix = newPrefix();
    prefixes.push(prefix);
    const env = { REDIS_PREFIX: prefix, FINGERPRINT_SECRET: 'example-env-secret' };
    const a = instance({ ...env, SERVER_KEYS: 'key-one,key-two' });
    await expect.poll(async () => (await a.send('/v1/anime/1', { 'x-server-key': 'key-one' }, '198.51.100.60')).status).toBe(200);
    const b = instance({ ...env, SERVER_KEYS: 'key-two,key-three' });
    await expect.poll(async () => (await b.send('/v1/anime/1', { 'x-server-key': 'key-three' }, '198.51.100.61')).status).toBe(200);
    for (const [n, { send }] of [a, b].entries()) {
      expect((await send('/v1/anime/1', { 'x-server-key': 'key-one' }, `198.51.100.6${2 + n}`)).status).toBe(401);
      expect((await send('/v1/anime/1', { 'x-server-key': 'key-two' }, `198.51.100.6${4 + n}`)).status).toBe(200);
      expect((await send('/v1/anime/1', { 'x-server-key': 'key-three' }, `198.51.100.6${6 + n}`)).status).toBe(200);
    }
  });

  it('serves SERVER_KEYS again, and is ready again, soon after Redis comes back without them', async () => {
    const prefix = newPrefix();
    prefixes.push(prefix);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const a = instance({ REDIS_PREFIX: prefix, FINGERPRINT_SECRET: 'example-env-secret', SERVER_KEYS: 'key-one' });
    await expect.poll(async () => (await a.send('/v1/anime/1', { 'x-server-key': 'key-one' }, '198.51.100.70')).status).toBe(200);
    await a.gateway.ping();
    // A Redis restarted without persistence, as far as this deployment can tell: its keys are gone.
    await deletePrefix(prefix);
    const started = Date.now();
    await expect.poll(async () => (await a.send('/v1/anime/1', { 'x-server-key': 'key-one' }, '198.51.100.71')).status, { timeout: 5_000 }).toBe(200);
    // Generous: the periodic check alone (every second) would do it; the first keyed request does it at once.
    expect(Date.now() - started).toBeLessThan(3_000);
    await expect(a.gateway.ping()).resolves.toBeUndefined();
    expect(errors.mock.calls.map(([line]) => String(line))).toContainEqual(expect.stringMatching(/^Server Keys were missing from Redis at redis:.*written again from SERVER_KEYS\.$/));
  });

  it('warns in one line when REDIS_URL is set without FINGERPRINT_SECRET', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const prefix = newPrefix();
    prefixes.push(prefix);
    instance({ REDIS_PREFIX: prefix });
    expect(errors).toHaveBeenCalledTimes(1);
    expect(String(errors.mock.calls[0]![0])).toMatch(/^FINGERPRINT_SECRET is not set: .*set the same FINGERPRINT_SECRET on every instance\.$/);
    errors.mockClear();
    instance({ REDIS_PREFIX: prefix, FINGERPRINT_SECRET: 'example-env-secret' });
    expect(errors).not.toHaveBeenCalled();
  });

  it('shares limits and SERVER_KEYS between two instances through Redis under REDIS_PREFIX', async () => {
    const prefix = newPrefix();
    const env = { REDIS_URL, REDIS_PREFIX: prefix, SERVER_KEYS: 'shared-key', FINGERPRINT_SECRET: 'example-env-secret' };
    const [a, b] = [appFrom(env), appFrom(env)];
    try {
      // The keys are added once Redis answers; until then a key gets 503, then 200.
      await expect.poll(async () => (await a.send('/v1/anime/1', { 'x-server-key': 'shared-key' }, '198.51.100.50')).status).toBe(200);
      expect((await b.send('/v1/anime/1', { 'x-server-key': 'shared-key' }, '198.51.100.51')).status).toBe(200);
      const mixed: number[] = [];
      for (let i = 0; i < 6; i++) mixed.push((await (i % 2 ? a : b).send(`/v1/anime?q=env${i}`, {}, '198.51.100.52')).status);
      expect(mixed).toEqual([200, 200, 200, 200, 429, 429]);
    } finally {
      await Promise.all([a.gateway.close(), b.gateway.close()]);
      const client = createClient({ url: REDIS_URL });
      await client.connect();
      for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) if (keys.length > 0) await client.del(keys);
      client.destroy();
    }
  });
});
