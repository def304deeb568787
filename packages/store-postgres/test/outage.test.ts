/**
 * PostgreSQL going away mid-run, through a TCP proxy the test controls: refused (cut), frozen
 * (bytes held, then delivered) and half-open (bytes dropped for good on the open connections).
 * The catalogue answers 503 `ServiceUnavailableException` with `Retry-After: 1` within its store
 * timeout and serves again once the database is back; the status API answers 503 rather than
 * wait, and the checker writes the results it kept during the outage once the store is back.
 * Needs `DATABASE_URL`; each run uses its own schemas.
 */
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogueApp, createChecker, createStatusApp, StoreUnavailableError, type App, type ServiceConfig } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';
import { startTcpProxy, type TcpProxy } from '../../../test/support/tcp-proxy.js';
import { createPostgresStore, type PostgresStore } from '../src/catalogue-store.js';
import { createPostgresStatusStore, type PostgresStatusStore } from '../src/status-store.js';

const url = process.env.DATABASE_URL;
// Short, so that the tests are quick; the defaults are 5 s.
const TIMEOUT_MS = 300;
const FAULTS = [
  ['is cut off (connections refused)', 'cut'],
  ['freezes (bytes held, then delivered late)', 'stall'],
  ['goes silent on half-open connections', 'blackhole'],
] as const;

/** The database URL with its host and port replaced by the proxy's. */
function through(proxy: TcpProxy): string {
  const proxied = new URL(url!);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  return proxied.toString();
}

describe.skipIf(!url)('PostgreSQL going away mid-run', () => {
  const admin = postgres(url ?? 'postgres://127.0.0.1/none', { max: 2, onnotice: () => {} });
  const suffix = `${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const schema = `pgseam_outage_${suffix}`;
  const statusSchema = `status_outage_${suffix}`;
  let proxy: TcpProxy;
  let store: PostgresStore;
  let app: App;
  const id = (demoData.anime[0] as { mal_id: number }).mal_id;
  const get = () => app.fetch(new Request(`http://api.test/v1/anime/${id}`));

  beforeAll(async () => {
    const direct = createPostgresStore({ url: url!, schema, max: 2 });
    await direct.migrate();
    await direct.seed({ anime: demoData.anime.slice(0, 3) });
    await direct.close();
    proxy = await startTcpProxy({ host: new URL(url!).hostname, port: Number(new URL(url!).port || 5432) });
    store = createPostgresStore({ url: through(proxy), schema, max: 2, timeoutMs: TIMEOUT_MS });
    app = createCatalogueApp({ store, storeTimeoutMs: TIMEOUT_MS, gateway: false, logger: { error: () => undefined } });
  });

  afterAll(async () => {
    await store?.close();
    await proxy?.close();
    await admin.unsafe(`drop schema if exists "${schema}" cascade`);
    await admin.unsafe(`drop schema if exists "${statusSchema}" cascade`);
    await admin.end({ timeout: 5 });
  });

  it.each(FAULTS)('every record method throws StoreUnavailableError when PostgreSQL %s, and answers again once it is back', async (_, fault) => {
    await expect.poll(async () => (await store.get('anime', id).catch(() => undefined))?.mal_id, { timeout: 5_000, interval: 50 }).toBe(id);
    await proxy[fault]();
    const calls = [
      () => store.get('anime', id),
      () => store.getMany('anime', [id]),
      () => store.query('anime', { search: 'naruto', offset: 0, limit: 5 }),
      () => store.pluck('anime', 'mal_id', { offset: 0, limit: Number.MAX_SAFE_INTEGER }),
      () => store.pluckJson('anime', 'mal_id', { offset: 0, limit: Number.MAX_SAFE_INTEGER }),
      () => store.tally('anime', 'tags'),
      () => store.upsert('anime', demoData.anime.slice(0, 1)),
      () => store.delete('anime', ['no-such-key']),
    ];
    for (const call of calls) await expect(call()).rejects.toSatisfy((e) => StoreUnavailableError.is(e));
    await proxy.restore();
    await expect.poll(async () => (await store.get('anime', id).catch(() => undefined))?.mal_id, { timeout: 5_000, interval: 50 }).toBe(id);
  }, 20_000);

  it.each(FAULTS)('answers 503 with Retry-After: 1 when PostgreSQL %s, and serves again once it is back', async (_, fault) => {
    await expect.poll(async () => (await get()).status, { timeout: 5_000, interval: 50 }).toBe(200);
    await proxy[fault]();
    for (let i = 0; i < 3; i++) {
      const res = await get();
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(await res.json()).toMatchObject({ status: 503, type: 'ServiceUnavailableException', path: `/v1/anime/${id}` });
    }
    await proxy.restore();
    await expect.poll(async () => (await get()).status, { timeout: 5_000, interval: 50 }).toBe(200);
    expect(await (await get()).json()).toMatchObject({ data: { mal_id: id } });
    // The client itself is still the client, not a guarded method.
    expect((await store.sql`select 1 as one`)[0]).toEqual({ one: 1 });
  }, 20_000);

  it('answers 503 for a store whose database refuses connections from the start', async () => {
    const dead = createPostgresStore({ url: 'postgres://postgres@127.0.0.1:1/none', timeoutMs: TIMEOUT_MS });
    try {
      const deadApp = createCatalogueApp({ store: dead, storeTimeoutMs: TIMEOUT_MS, gateway: false, logger: { error: () => undefined } });
      const res = await deadApp.fetch(new Request('http://api.test/v1/anime?q=naruto'));
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
    } finally {
      await dead.close();
    }
  });

  it.each(FAULTS)('status API answers 503 while PostgreSQL %s, and the checker writes the outage once it is back', async (_, fault) => {
    const status: PostgresStatusStore = await createPostgresStatusStore({ url: through(proxy), schema: statusSchema, timeoutMs: TIMEOUT_MS });
    // The catalogue, served from the same database, is what the checker watches.
    const services: ServiceConfig[] = [{ id: `api-${fault}`, name: 'Catalogue API', check: { url: `http://api.test/v1/anime/${id}`, timeoutMs: 5_000 } }];
    let clock = Date.UTC(2026, 0, 10, 12, 0);
    const now = () => clock;
    const common = { services, store: status, now, storeTimeoutMs: TIMEOUT_MS, logger: { error: () => undefined } };
    const checker = createChecker({ ...common, fetch: (input, init) => app.fetch(new Request(input, init)), intervalSeconds: 60, holder: `holder-${fault}` });
    const statusApp = createStatusApp({ ...common, cacheSeconds: 1 });
    const round = async () => {
      clock += 60_000;
      return checker.runOnce();
    };
    try {
      await expect.poll(async () => (await get()).status, { timeout: 5_000, interval: 50 }).toBe(200);
      expect(await round()).toMatchObject({ results: { [`api-${fault}`]: 'up' }, backlog: 0 });

      await proxy[fault]();
      expect(await round()).toMatchObject({ leader: true, results: { [`api-${fault}`]: 'fail' }, backlog: 1 });
      expect(await round()).toMatchObject({ results: { [`api-${fault}`]: 'fail' }, backlog: 2 });
      clock += 2_000;
      const res = await statusApp.fetch(new Request('http://status.test/api/status'));
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(await res.json()).toMatchObject({ status: 503, type: 'ServiceUnavailableException' });

      await proxy.restore();
      await expect.poll(async () => (await get()).status, { timeout: 5_000, interval: 50 }).toBe(200);
      // The first round back may still meet a connection the outage left behind; the backlog waits for the next.
      await expect.poll(async () => (await round()).backlog, { timeout: 5_000, interval: 50 }).toBe(0);
      const segments = (await status.listSegments(0)).filter((s) => s.serviceId === `api-${fault}`);
      expect(segments.map((s) => [s.outcome, s.checks])).toEqual([
        ['up', 1],
        ['fail', 2],
        ['up', expect.any(Number)],
      ]);
      await expect.poll(async () => (await statusApp.fetch(new Request('http://status.test/api/status'))).status, { timeout: 5_000, interval: 50 }).toBe(200);
    } finally {
      await checker.stop();
      await status.close();
    }
  }, 30_000);
});
