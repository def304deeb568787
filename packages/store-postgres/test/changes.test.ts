/**
 * The PostgreSQL change feed, and the response caches that follow it: every committed change of a
 * record is fed once, in commit order, whoever wrote it; a write that changes nothing feeds
 * nothing; and two app instances sharing a Redis cache over one database serve a change written
 * through a third connection (as `catalogue-api import` would) as soon as its `NOTIFY` arrives.
 * Needs `DATABASE_URL` (and `REDIS_URL` for the shared cache).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogueApp, type App } from '@catalogue-api/core';
import { type Anime } from '@catalogue-api/core/schemas';
import { type RecordChange } from '@catalogue-api/core/store';
import { demoData } from '@catalogue-api/demo-data';
import { createRedisGateway, type RedisGateway } from '@catalogue-api/redis';
import { createClient } from 'redis';
import { createPostgresStore, type PostgresStore } from '../src/catalogue-store.js';
import { suiteDatabase } from './suite-database.js';

const url = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
const demoAnime = demoData.anime!;
const demoCast = demoData.animeCharacters!;

/** Polls `check` every 20 ms until it holds, for at most `ms` (the NOTIFY's way, or the poll's). */
async function eventually(check: () => Promise<boolean>, ms = 1_500): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(!url)('the PostgreSQL change feed', () => {
  const { sql, fresh } = suiteDatabase('a_cache_changes', 4);
  let store: PostgresStore;
  beforeAll(async () => {
    store = await fresh();
  });

  it('feeds inserts, updates to other JSON and deletes, in order, with owners; and nothing for what changes nothing', async () => {
    const head = await store.changes.head();
    expect(typeof store.changes.id).toBe('string');
    const [a, b] = [demoAnime[0]!, demoAnime[1]!];
    expect(await store.upsert('anime', [a, b])).toBe(2);
    expect(await store.upsert('anime', [a, structuredClone(b)])).toBe(0);
    expect(await store.changes.head()).toBe(head + 2);
    expect(await store.upsert('anime', [{ ...a, title: 'Renamed' }, b])).toBe(1);
    const cast = demoCast[0]!;
    expect(await store.upsert('animeCharacters', [cast])).toBe(1);
    expect(await store.delete('anime', [999_999_999])).toBe(0);
    expect(await store.delete('anime', [b.mal_id, b.mal_id])).toBe(1);
    const changes = await store.changes.since(head, 100);
    const shape = (c: RecordChange) => [c.seq - head, c.collection, c.key, c.op];
    expect(changes.map(shape)).toEqual([
      [1, 'anime', String(a.mal_id), 'insert'],
      [2, 'anime', String(b.mal_id), 'insert'],
      [3, 'anime', String(a.mal_id), 'update'],
      [4, 'animeCharacters', `${cast.anime_id}:${cast.character_id}`, 'insert'],
      [5, 'anime', String(b.mal_id), 'delete'],
    ]);
    expect(changes[3]!.owners).toContain(`anime:${cast.anime_id}`);
    expect(changes[0]!.at).toBeGreaterThan(Date.now() - 60_000);
    // The record is served as written, and found by its new title.
    expect((await store.get('anime', a.mal_id))?.title).toBe('Renamed');
    expect((await store.query('anime', { search: 'Renamed', offset: 0, limit: 1 })).data[0]?.mal_id).toBe(a.mal_id);
  });

  it('tells a listener of a change committed by another connection (NOTIFY)', async () => {
    const other = createPostgresStore({ url: url!, schema: store.schema, max: 1 });
    const told: number[] = [];
    const stop = store.changes.subscribe(() => told.push(Date.now()));
    try {
      const head = await store.changes.head();
      await other.upsert('anime', [{ ...demoAnime[2]!, title: 'Told' }]);
      expect(await eventually(async () => told.length > 0 && (await store.changes.head()) === head + 1)).toBe(true);
      const [change] = await store.changes.since(head, 10);
      expect(change?.key).toBe(String(demoAnime[2]!.mal_id));
    } finally {
      stop();
      await other.close();
    }
  });

  it('a rolled-back write leaves no change and no gap', async () => {
    const head = await store.changes.head();
    await expect(
      sql.begin(async (tx) => {
        await tx.unsafe(`update "${store.schema}".anime set record = record where key = $1`, [String(demoAnime[0]!.mal_id)]);
        await tx.unsafe(`insert into "${store.schema}".anime (key, record) values ('x', '{}')`);
        throw new Error('roll back');
      }),
    ).rejects.toThrow();
    await store.upsert('anime', [{ ...demoAnime[0]!, title: 'After Rollback' }]);
    const changes = await store.changes.since(head, 10);
    expect(changes.map((c) => c.seq)).toEqual([head + 1]);
  });
});

describe.skipIf(!url || !redisUrl)('two instances sharing a Redis cache over one database', () => {
  const { fresh } = suiteDatabase('a_cache_shared', 2);
  const prefix = `a-cache-test:${process.pid}:${Math.random().toString(36).slice(2, 10)}:`;
  let writer: PostgresStore;
  const stores: PostgresStore[] = [];
  const gateways: RedisGateway[] = [];
  const apps: App[] = [];
  const id = demoAnime[5]!.mal_id;

  beforeAll(async () => {
    writer = await fresh();
    await writer.upsert('anime', demoAnime.slice(0, 20));
    for (let i = 0; i < 2; i++) {
      // Each instance: its own pool and listening connection, the same schema and Redis prefix.
      const store = createPostgresStore({ url: url!, schema: writer.schema, max: 2 });
      const backend = createRedisGateway({ url: redisUrl, prefix });
      await backend.ready;
      stores.push(store);
      gateways.push(backend);
      apps.push(createCatalogueApp({ store, gateway: { rateLimit: false, backend }, logger: { error: () => undefined } }));
    }
  });

  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    const client = createClient({ url: redisUrl });
    await client.connect();
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) if (keys.length > 0) await client.del(keys);
    client.destroy();
    await Promise.all(gateways.map((g) => g.close()));
  });

  const title = async (app: App, path = `/v1/anime/${id}`) => {
    const response = await app.fetch(new Request(`http://localhost${path}`));
    const body = (await response.json()) as { data: Anime | Anime[] };
    return { response, data: body.data };
  };

  it('both serve a change written by a third connection at once; an unchanged write keeps the ETag', async () => {
    const [a, b] = apps as [App, App];
    const first = await title(a);
    expect((first.data as Anime).title).toBe(demoAnime[5]!.title);
    // The second instance answers from the shared entry.
    const shared = await title(b);
    expect(shared.response.headers.get('etag')).toBe(first.response.headers.get('etag'));
    const list = await title(b, '/v1/anime?order_by=mal_id');
    expect((list.data as Anime[]).map((x) => x.title)).toContain(demoAnime[5]!.title);

    // An unchanged write (as a re-import of the same file) changes nothing.
    await writer.upsert('anime', [structuredClone(demoAnime[5]!)]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await title(a)).response.headers.get('etag')).toBe(first.response.headers.get('etag'));

    await writer.upsert('anime', [{ ...demoAnime[5]!, title: 'Changed Elsewhere' }]);
    for (const app of [a, b]) {
      expect(await eventually(async () => ((await title(app)).data as Anime).title === 'Changed Elsewhere'), 'the entry').toBe(true);
      expect(await eventually(async () => ((await title(app, '/v1/anime?order_by=mal_id')).data as Anime[]).some((x) => x.title === 'Changed Elsewhere')), 'the list').toBe(true);
    }
    const after = await title(a);
    expect(after.response.headers.get('etag')).not.toBe(first.response.headers.get('etag'));
    expect(Date.parse(after.response.headers.get('last-modified')!)).toBeGreaterThanOrEqual(Date.parse(first.response.headers.get('last-modified')!));
  });

  it('an instance started later trusts the shared entries it can check, and serves later changes too', async () => {
    const store = createPostgresStore({ url: url!, schema: writer.schema, max: 2 });
    const backend = createRedisGateway({ url: redisUrl, prefix });
    await backend.ready;
    stores.push(store);
    gateways.push(backend);
    const late = createCatalogueApp({ store, gateway: { rateLimit: false, backend }, logger: { error: () => undefined } });
    expect(((await title(late)).data as Anime).title).toBe('Changed Elsewhere');
    await writer.upsert('anime', [{ ...demoAnime[5]!, title: 'Changed Again' }]);
    expect(await eventually(async () => ((await title(late)).data as Anime).title === 'Changed Again')).toBe(true);
  });
});
