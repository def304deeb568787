/**
 * A table held by another session (`LOCK TABLE … IN ACCESS EXCLUSIVE MODE`, as a migration or a
 * `REINDEX` holds it) while 20 calls arrive at once: each call rejects with `StoreUnavailableError`
 * (the app answers 503 with `Retry-After`), the server ends each waiting statement at the store's
 * `timeoutMs` (`statement_timeout`, `lock_timeout`), the store's backends in `pg_stat_activity`
 * never outnumber its pool, none is left waiting on the lock once the calls are over, and the
 * store serves again once the lock is released. Needs `DATABASE_URL`; each run uses its own schema
 * and `application_name`.
 */
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogueApp, StoreUnavailableError } from '@catalogue-api/core';
import { type Anime } from '@catalogue-api/core/schemas';
import { demoData } from '@catalogue-api/demo-data';
import { createPostgresStore, type PostgresStore } from '../src/catalogue-store.js';

const url = process.env.DATABASE_URL;
// Short, so that the test is quick; the default is 5 s.
const TIMEOUT_MS = 500;
const POOL = 6;
const CALLS = 20;
/** Generous: 20 calls on 6 connections wait for the lock at most 4 × 500 ms in turn. */
const IN_TIME_MS = 10_000;

describe.skipIf(!url)('PostgreSQL with a table locked by another session', () => {
  const admin = postgres(url ?? 'postgres://127.0.0.1/none', { max: 3, onnotice: () => {} });
  const suffix = `${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const schema = `pgseam_locked_${suffix}`;
  const applicationName = `catalogue-api-locked-${suffix}`;
  const anime = demoData.anime.slice(0, 5) as Anime[];
  const id = anime[0]!.mal_id;
  let store: PostgresStore;

  const backends = async (where = 'true') =>
    (await admin.unsafe<{ n: number }[]>(`select count(*)::int as n from pg_stat_activity where application_name = $1 and ${where}`, [applicationName]))[0]!.n;

  /** Samples this store's backends until stopped; returns the largest count seen. */
  function sampleBackends(): { stop(): Promise<number> } {
    let running = true;
    let most = 0;
    const loop = (async () => {
      while (running) {
        most = Math.max(most, await backends());
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    return {
      async stop() {
        running = false;
        await loop;
        return most;
      },
    };
  }

  /** Holds `<schema>.anime` in one session until `release()`. */
  async function lockAnime(): Promise<{ release(): Promise<void> }> {
    const session = await admin.reserve();
    await session`begin`;
    await session.unsafe(`lock table "${schema}".anime in access exclusive mode`);
    return {
      async release() {
        await session`rollback`;
        session.release();
      },
    };
  }

  beforeAll(async () => {
    const seeding = createPostgresStore({ url: url!, schema, max: 2 });
    await seeding.migrate();
    await seeding.seed({ anime });
    await seeding.close();
    store = createPostgresStore({ url: url!, schema, max: POOL, timeoutMs: TIMEOUT_MS, applicationName });
  });

  afterAll(async () => {
    await store?.close();
    await admin.unsafe(`drop schema if exists "${schema}" cascade`);
    await admin.end({ timeout: 5 });
  });

  it('sets statement_timeout and lock_timeout to timeoutMs and names its backends, catalogue-api unless told otherwise', async () => {
    const settings = `select current_setting('statement_timeout') as statement, current_setting('lock_timeout') as lock, current_setting('application_name') as name`;
    expect((await store.sql.unsafe(settings))[0]).toEqual({ statement: `${TIMEOUT_MS}ms`, lock: `${TIMEOUT_MS}ms`, name: applicationName });
    const plain = createPostgresStore({ url: url!, schema, max: 1 });
    try {
      expect((await plain.sql.unsafe(settings))[0]).toEqual({ statement: '5s', lock: '5s', name: 'catalogue-api' });
    } finally {
      await plain.close();
    }
  });

  it(`rejects ${CALLS} concurrent calls in time, never holds more backends than its pool, leaves no statement waiting, and serves once the lock is gone`, async () => {
    expect((await store.get('anime', id))?.mal_id).toBe(id);
    const lock = await lockAnime();
    const sampler = sampleBackends();
    try {
      const calls = [
        () => store.get('anime', id),
        () => store.getMany('anime', [id]),
        () => store.query('anime', { where: [{ field: 'mal_id', op: 'eq', value: id }], offset: 0, limit: 5 }),
        () => store.pluck('anime', 'mal_id', { offset: 0, limit: Number.MAX_SAFE_INTEGER }),
      ];
      const started = Date.now();
      const outcomes = await Promise.all(
        Array.from({ length: CALLS }, (_, i) =>
          calls[i % calls.length]!().then(
            () => ({ ok: true, ms: Date.now() - started }),
            (error: unknown) => ({ ok: false, unavailable: StoreUnavailableError.is(error), ms: Date.now() - started }),
          ),
        ),
      );
      expect(outcomes.filter((o) => o.ok)).toEqual([]);
      expect(outcomes.every((o) => 'unavailable' in o && o.unavailable)).toBe(true);
      expect(Math.max(...outcomes.map((o) => o.ms))).toBeLessThan(IN_TIME_MS);
      // Each statement was ended by the server, not abandoned: none waits on the lock any more.
      expect(await backends(`wait_event_type = 'Lock'`)).toBe(0);
    } finally {
      const most = await sampler.stop();
      await lock.release();
      expect(most).toBeGreaterThan(0);
      expect(most).toBeLessThanOrEqual(POOL);
    }
    expect((await store.get('anime', id))?.mal_id).toBe(id);
    expect(await backends()).toBeLessThanOrEqual(POOL);
  }, 30_000);

  it(`answers ${CALLS} concurrent requests with 503 and Retry-After while the table is locked, within the pool, and 200 once it is free`, async () => {
    const app = createCatalogueApp({ store, storeTimeoutMs: TIMEOUT_MS, gateway: false, logger: { error: () => undefined } });
    const get = () => app.fetch(new Request(`http://api.test/v1/anime/${id}`));
    const lock = await lockAnime();
    const sampler = sampleBackends();
    try {
      const responses = await Promise.all(Array.from({ length: CALLS }, get));
      for (const response of responses) {
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toBe('1');
        expect(((await response.json()) as { type: string }).type).toBe('ServiceUnavailableException');
      }
      // Calls the app gave up on still end at the store's timeout, in the server.
      await expect.poll(() => backends(`wait_event_type = 'Lock'`), { timeout: IN_TIME_MS, interval: 50 }).toBe(0);
    } finally {
      const most = await sampler.stop();
      await lock.release();
      expect(most).toBeLessThanOrEqual(POOL);
    }
    expect((await get()).status).toBe(200);
  }, 30_000);
});
