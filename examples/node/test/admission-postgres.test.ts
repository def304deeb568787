/**
 * Admission on a real PostgreSQL: the built Node example on its default pool of 10 connections,
 * with searches held up by a lock on the table they search. Searches hold no more than their gate
 * allows (`SEARCH_CONCURRENCY`), so a read by id still finds a connection and is answered at once.
 */
import { createPostgresStore } from '@catalogue-api/store-postgres';
import { demoData } from '@catalogue-api/demo-data';
import type { SpawnedServer } from '@catalogue-api/testkit';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExample } from '../../../test/support/example-servers.js';

const { DATABASE_URL } = process.env;

describe.skipIf(!DATABASE_URL)('admission on PostgreSQL', () => {
  const schema = `admission_${Math.random().toString(36).slice(2, 10)}`;
  let server: SpawnedServer;
  let sql: postgres.Sql;

  beforeAll(async () => {
    sql = postgres(DATABASE_URL!, { onnotice: () => undefined, max: 2 });
    // Seeded here rather than by the server at start, which must print its URL within the spawn timeout.
    const store = createPostgresStore({ url: DATABASE_URL!, schema, max: 2 });
    await store.migrate();
    await store.seed(demoData);
    await store.close();
    server = await startExample('node', {
      DATABASE_URL: DATABASE_URL!,
      DATABASE_SCHEMA: schema,
      RATE_LIMIT: 'off',
      // Every request reaches the store.
      CACHE: 'off',
      ACCESS_LOG: 'off',
      // Nothing gives up while the lock is held: only admission decides who gets a connection.
      STORE_TIMEOUT_MS: '60000',
      ADMISSION_WAIT_MS: '60000',
      SEARCH_CONCURRENCY: '4',
    });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await sql?.unsafe(`drop schema if exists "${schema}" cascade`);
    await sql?.end();
  });

  it('answers /v1/anime/20 at once while 12 searches wait on a locked table, with only 4 of them holding a connection', async () => {
    let unlock: () => void = () => undefined;
    const unlocked = new Promise<void>((resolve) => (unlock = resolve));
    let locked: () => void = () => undefined;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    // A migration or REINDEX would hold such a lock on the searched texts.
    const holder = sql.begin(async (tx) => {
      await tx.unsafe(`lock table "${schema}".anime_texts in access exclusive mode`);
      locked();
      await unlocked;
    });
    await isLocked;
    try {
      const searches = Array.from({ length: 12 }, (_, i) => fetch(`${server.url}/v1/anime?q=${encodeURIComponent(`naruto shippuden ${i}`)}`));
      // Backends waiting for a lock on one of this schema's tables (not matched by statement text:
      // pg_stat_activity keeps only its first track_activity_query_size bytes).
      const waitingOnLock = async () =>
        Number(
          (
            await sql`select count(distinct l.pid)::int as n from pg_locks l
              join pg_class c on c.oid = l.relation join pg_namespace s on s.oid = c.relnamespace
              where not l.granted and s.nspname = ${schema}`
          )[0]!.n,
        );
      await expect.poll(waitingOnLock, { timeout: 10_000, interval: 100 }).toBe(4);

      const read = await fetch(`${server.url}/v1/anime/20`, { signal: AbortSignal.timeout(5_000) });
      expect(read.status).toBe(200);
      expect(((await read.json()) as { data: { mal_id: number } }).data.mal_id).toBe(20);
      // Still 4: the other 8 wait their turn in the app, not on a connection.
      expect(await waitingOnLock()).toBe(4);

      unlock();
      await holder;
      for (const res of await Promise.all(searches)) {
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      }
    } finally {
      unlock();
      await holder.catch(() => undefined);
    }
  }, 60_000);
});
