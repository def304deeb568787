/**
 * The PostgreSQL store against core's reference `createRecordStore`, both loaded with the demo
 * data: generated queries on every collection (every condition op, `null`s included, orderings both
 * ways with ties, slices at 0 and past the end, selections) and tallies answer the same JSON, byte
 * for byte; every exact name of a demo anime, manga, character and person finds the same first hit;
 * and after upserts and deletes, a second store on the same schema answers as the reference does,
 * at once, with group counts (the totals of lists filtered by grouped fields) equal to a recount. Needs `DATABASE_URL`; the run uses its own schema and drops it.
 */
import type { Sql } from 'postgres';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  COLLECTION_NAMES,
  COLLECTIONS,
  createRecordStore,
  fieldValues,
  loadCatalogue,
  normalizeTitle,
  type CollectionName,
  type Condition,
  type FieldSpec,
  type OrderKey,
  type RecordQuery,
  type CatalogueStore,
} from '@catalogue-api/core/store';
import { demoData } from '@catalogue-api/demo-data';
import { mulberry32 } from '../../../scripts/lib/mulberry32.mjs';
import { createPostgresStore, type PostgresStore } from '../src/catalogue-store.js';
import { groupedFields, syncTables } from '../src/internal/tables.js';
import { suiteDatabase } from './suite-database.js';

const url = process.env.DATABASE_URL;


type Values = Map<string, Array<number | string | boolean | null>>;

/** Every value each field of a collection holds in the demo data (array fields: their elements). */
function valuesOf(collection: CollectionName): Values {
  const values: Values = new Map();
  for (const record of (demoData[collection] ?? []) as readonly unknown[]) {
    for (const [field, v] of Object.entries(fieldValues(collection, record))) {
      const list = values.get(field) ?? [];
      if (Array.isArray(v)) list.push(...(v as Array<number | string>));
      else list.push(v as number | string | boolean | null);
      values.set(field, list);
    }
  }
  return values;
}

/** Generated queries over one collection. */
function* queries(collection: CollectionName, count: number, seed: number): Generator<RecordQuery> {
  // Seeded: the same queries on every run.
  const next = mulberry32(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const fields = Object.entries(COLLECTIONS[collection].fields) as Array<[string, FieldSpec<unknown>]>;
  const values = valuesOf(collection);
  const size = (demoData[collection] ?? []).length;
  const sample = (field: string, type: string): number | string | boolean => {
    const known = (values.get(field) ?? []).filter((v) => v !== null);
    if (known.length > 0 && next() < 0.85) return known[Math.floor(next() * known.length)]!;
    if (type === 'bool') return next() < 0.5;
    if (type === 'text' || type === 'texts') return pick(['', 'a', 'zzz', 'anime:1', 'Tv']);
    return pick([0, 1, 7, -3, 2.5, 1e9]);
  };
  const condition = (depth: number): Condition => {
    if (depth === 0 && next() < 0.08) {
      return { op: 'any', of: Array.from({ length: Math.floor(next() * 3) }, () => Array.from({ length: Math.floor(next() * 3) }, () => condition(1))) };
    }
    const [field, spec] = pick(fields);
    const array = spec.type === 'ints' || spec.type === 'texts';
    const ops = array
      ? (['has', 'hasAll', 'hasAny', 'hasNone', 'null', 'notNull', 'eq', 'ne', 'in', 'notIn', 'lt'] as const)
      : spec.type === 'bool'
        ? (['eq', 'ne', 'null', 'notNull', 'in', 'notIn', 'lt', 'has', 'hasNone'] as const)
        : spec.type === 'text'
          ? (['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'notIn', 'prefix', 'null', 'notNull', 'has', 'hasAll'] as const)
          : (['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'notIn', 'prefix', 'null', 'notNull', 'hasAny'] as const);
    const op = pick(ops);
    const several = () => Array.from({ length: Math.floor(next() * 4) }, () => sample(field, spec.type) as number | string);
    switch (op) {
      case 'eq':
      case 'ne':
        return { field, op, value: sample(field, spec.type) };
      case 'lt':
      case 'lte':
      case 'gt':
      case 'gte': {
        const v = sample(field, spec.type);
        // An order comparison of a number with a string coerces in JavaScript; core never asks one.
        return { field, op, value: typeof v === 'boolean' ? 1 : array && typeof v === 'string' ? v : v };
      }
      case 'in':
      case 'notIn':
      case 'hasAll':
      case 'hasAny':
      case 'hasNone':
        return { field, op, values: several() };
      case 'prefix': {
        const v = sample(field, 'text');
        return { field, op, value: typeof v === 'string' ? v.slice(0, Math.floor(next() * 4)) : 'a' };
      }
      case 'has':
        return { field, op, value: sample(field, spec.type) as number | string };
      case 'null':
      case 'notNull':
        return { field, op };
    }
  };
  const scalars = fields.filter(([, spec]) => spec.type !== 'ints' && spec.type !== 'texts');
  const keys = Object.keys(((demoData[collection] ?? [])[0] ?? {}) as object);
  for (let i = 0; i < count; i++) {
    const where = Array.from({ length: Math.floor(next() * 3) }, () => condition(0)).filter(
      // lt/gt with a value of another type than the field's is not asked (see above).
      (c) => c.op === 'any' || !['lt', 'lte', 'gt', 'gte'].includes(c.op) || comparableOrder(collection, c),
    );
    const orderBy: OrderKey[] | undefined =
      scalars.length > 0 && next() < 0.7 ? Array.from({ length: 1 + Math.floor(next() * 2) }, () => ({ field: pick(scalars)[0], dir: next() < 0.5 ? 'asc' : 'desc' })) : undefined;
    const offset = pick([0, 0, 0, 1, 3, 17, size - 1, size, size + 5].filter((n) => n >= 0));
    const limit = pick([0, 1, 5, 25, 1000]);
    const select = keys.length > 0 && next() < 0.2 ? [...Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(keys)), ...(next() < 0.3 ? ['no_such_field'] : [])] : undefined;
    yield { where: where.length ? where : undefined, orderBy, offset, limit, select: select ? [...new Set(select)] : undefined };
  }
}

function comparableOrder(collection: CollectionName, c: Condition): boolean {
  if (c.op !== 'lt' && c.op !== 'lte' && c.op !== 'gt' && c.op !== 'gte') return true;
  const spec = (COLLECTIONS[collection].fields as Record<string, FieldSpec<unknown>>)[c.field]!;
  if (spec.type === 'ints' || spec.type === 'texts' || spec.type === 'bool') return true;
  return (spec.type === 'text') === (typeof c.value === 'string');
}

const sortedTally = (t: Array<[number | string, number]>) => [...t].sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : String(a[0]) > String(b[0]) ? 1 : 0));

describe.skipIf(!url)('PostgreSQL record store against the reference store', () => {
  const { sql, fresh } = suiteDatabase('pgseam_records', 4);
  let store: PostgresStore;
  let reference: CatalogueStore;

  beforeAll(async () => {
    store = await fresh();
    await store.seed(demoData);
    reference = await loadCatalogue(createRecordStore(), demoData);
  }, 120_000);

  it('holds every demo record of every collection, byte for byte, by key', async () => {
    for (const collection of COLLECTION_NAMES) {
      const records = (demoData[collection] ?? []) as readonly unknown[];
      expect(await store.count(collection), collection).toBe(records.length);
      const all = await store.query(collection, { offset: 0, limit: records.length + 1 });
      expect(JSON.stringify(all), collection).toBe(JSON.stringify(await reference.query(collection, { offset: 0, limit: records.length + 1 })));
    }
    const first = demoData.anime[0]!;
    expect(JSON.stringify(await store.get('anime', first.mal_id))).toBe(JSON.stringify(first));
    expect(await store.get('anime', 999_999_999)).toBeUndefined();
    const keys = [String(first.mal_id), 'nope', first.mal_id];
    expect(JSON.stringify(await store.getMany('anime', keys))).toBe(JSON.stringify(await reference.getMany('anime', keys)));
  });

  describe.each(COLLECTION_NAMES.filter((c) => Object.keys(COLLECTIONS[c].fields).length > 0).map((c, i) => [c, i] as const))('%s', (collection, i) => {
    it('answers generated queries byte for byte as the reference store', async () => {
      let n = 0;
      for (const q of queries(collection, 80, 1000 + i)) {
        const [pg, ref] = await Promise.all([store.query(collection, q), reference.query(collection, q)]);
        expect(JSON.stringify(pg), `${collection} ${JSON.stringify(q)}`).toBe(JSON.stringify(ref));
        n++;
      }
      expect(n).toBe(80);
    });

    it('tallies every field as the reference store, with and without conditions', async () => {
      const [where] = [...queries(collection, 1, 2000 + i)];
      for (const field of Object.keys(COLLECTIONS[collection].fields)) {
        for (const w of [undefined, where?.where]) {
          const [pg, ref] = await Promise.all([store.tally(collection, field, w), reference.tally(collection, field, w)]);
          expect(sortedTally(pg), `${collection}.${field} ${JSON.stringify(w)}`).toEqual(sortedTally(ref));
        }
      }
    });
  });

  it.each(['anime', 'manga', 'characters', 'people'] as const)('finds the same first hit as the reference for every exact name of the demo %s', async (collection) => {
    const search = COLLECTIONS[collection].search as (r: unknown) => readonly string[];
    const names = new Set<string>();
    for (const record of demoData[collection] ?? []) for (const text of search(record).slice(0, 2)) if (normalizeTitle(text)) names.add(text);
    expect(names.size).toBeGreaterThan(20);
    const misses: string[] = [];
    for (const name of names) {
      const q = { search: name, offset: 0, limit: 1, select: ['mal_id'] };
      const [pg, ref] = await Promise.all([store.query(collection, q), reference.query(collection, q)]);
      if (JSON.stringify(pg.data) !== JSON.stringify(ref.data)) misses.push(`${name}: ${JSON.stringify(pg.data)} vs ${JSON.stringify(ref.data)}`);
    }
    expect(misses).toEqual([]);
  }, 120_000);

  it('searches with conditions and an ordering as the reference (hits filtered, then ordered with ties in stored order)', async () => {
    for (const [collection, search] of [
      ['anime', 'no'],
      ['anime', 'monogatari'],
      ['manga', 'the'],
      ['characters', 'ko'],
      ['people', 'kana'],
    ] as const) {
      const q: RecordQuery = { search, orderBy: [{ field: 'favorites', dir: 'desc' }], offset: 0, limit: 1000 };
      const [pg, ref] = await Promise.all([store.query(collection, q), reference.query(collection, q)]);
      // Fuzzy hits may differ (each store its own matcher); the shared ones come in the same order.
      const refIds = ref.data.map((r) => (r as { mal_id: number }).mal_id);
      const pgIds = pg.data.map((r) => (r as { mal_id: number }).mal_id);
      expect(pgIds.length, `${collection} ${search}`).toBeGreaterThan(0);
      expect(pgIds.filter((id) => refIds.includes(id)), `${collection} ${search}`).toEqual(refIds.filter((id) => pgIds.includes(id)));
    }
    expect(await store.query('anime', { search: '!!!', offset: 0, limit: 10 })).toEqual({ data: [], total: 0 });
  }, 60_000);

  it('after upserts (new and existing keys) and deletes, a second store on the schema answers as the reference at once', async () => {
    const other = createPostgresStore({ sql, schema: store.schema });
    const anime = demoData.anime;
    // Its type, approval and genres change too: the kept group counts move from one combination to another.
    const genres = [...anime[3]!.genres.slice(1), ...anime[0]!.genres];
    const changed = { ...anime[3]!, title: 'Zzyzx Renamed', score: 9.99, type: 'ONA', approved: false, genres, titles: [{ type: 'Default', title: 'Zzyzx Renamed' }] };
    const added = { ...anime[5]!, mal_id: 77_000_001, title: 'Qwertz Added', titles: [{ type: 'Default', title: 'Qwertz Added' }] };
    for (const s of [store, reference] as CatalogueStore[]) {
      expect(await s.upsert('anime', [changed, added, added])).toBe(2);
      expect(await s.delete('anime', [anime[7]!.mal_id, 'no-such-key'])).toBe(1);
      expect(await s.delete('animeCharacters', [`${anime[0]!.mal_id}:${(demoData.animeCharacters ?? []).find((r) => r.anime_id === anime[0]!.mal_id)?.character_id}`])).toBe(1);
    }
    const checks: Array<[CollectionName, RecordQuery]> = [
      ['anime', { offset: 0, limit: 5000 }],
      ['anime', { orderBy: [{ field: 'score', dir: 'desc' }], offset: 0, limit: 10 }],
      ['anime', { where: [{ field: 'title_key', op: 'prefix', value: 'zzyzx' }], offset: 0, limit: 10 }],
      ['anime', { where: [{ field: 'approved', op: 'eq', value: false }], offset: 0, limit: 1000 }],
      ['anime', { where: [{ field: 'type', op: 'in', values: ['ONA', 'TV'] }, { field: 'sfw', op: 'lte', value: 1 }], offset: 0, limit: 3 }],
      ...[anime[3]!.genres[0]!, ...genres].map((g): [CollectionName, RecordQuery] => [
        'anime',
        { where: [{ field: 'approved', op: 'eq', value: false }, { field: 'tags', op: 'hasAll', values: [g.mal_id] }], offset: 0, limit: 1 },
      ]),
      ['anime', { search: 'zzyzx renamed', offset: 0, limit: 1, select: ['mal_id', 'title'] }],
      ['anime', { search: 'qwertz added', offset: 0, limit: 1, select: ['mal_id'] }],
      ['animeCharacters', { where: [{ field: 'owners', op: 'has', value: `anime:${anime[0]!.mal_id}` }], offset: 0, limit: 1000 }],
      // No grouped fields: the total is the one row of its kept groups.
      ['animeCharacters', { offset: 0, limit: 1 }],
    ];
    for (const [collection, q] of checks) {
      expect(JSON.stringify(await other.query(collection, q)), JSON.stringify(q)).toBe(JSON.stringify(await reference.query(collection, q)));
    }
    expect(JSON.stringify(await other.get('anime', changed.mal_id))).toBe(JSON.stringify(changed));
    expect(await other.get('anime', anime[7]!.mal_id)).toBeUndefined();
    await expectGroupsRecounted();
  });

  it('migrate() makes kept group counts anew when the grouped fields changed (another column, other triggers)', async () => {
    const s = `"${store.schema}"`;
    // As a version grouping one field fewer would have left them.
    await sql.unsafe(`alter table ${s}.anime_groups drop column rating`);
    await sql.unsafe(`create or replace function ${s}.anime_group_update() returns trigger language plpgsql as $f$begin return null; end$f$`);
    await store.migrate();
    expect(await store.upsert('anime', [{ ...demoData.anime[1]!, rating: 'Rx - Hentai' }])).toBe(1);
    await expectGroupsRecounted();
  });

  it('migrate() fills a new column after its table lock is gone: readers go on, a writer waits for the fill', async () => {
    const s = `"${store.schema}"`;
    // As a version without `favorited` would have left the characters, and as this version's
    // first transaction leaves them: the column added and empty, its fill marked.
    await sql.unsafe(`alter table ${s}.characters drop column favorited`);
    await sql.unsafe(`create or replace function ${s}.characters_group_update() returns trigger language plpgsql as $f$begin return null; end$f$`);
    await sql.begin((tx) => syncTables(tx as unknown as Sql, store.schema));
    expect([...(await sql.unsafe(`select collection from ${s}.catalogue_refills`))]).toEqual([{ collection: 'characters' }]);
    expect((await sql.unsafe(`select count(favorited)::int as n from ${s}.characters`))[0]!.n).toBe(0);
    // A writer of the previous version, mid-transaction: the fill waits for it to end.
    const writer = await sql.reserve();
    const reader = await sql.reserve();
    try {
      await writer.unsafe('begin');
      await writer.unsafe(`lock table ${s}.characters in row exclusive mode`);
      const migrated = store.migrate();
      const waiting = `select count(*)::int as n from pg_locks where relation = '${s}.characters'::regclass and not granted`;
      await expect.poll(async () => (await sql.unsafe(waiting))[0]!.n, { timeout: 5_000 }).toBe(1);
      // Meanwhile the table is read, as instances of the previous version read it.
      await reader.unsafe(`set lock_timeout = '1s'`);
      expect((await reader.unsafe(`select count(*)::int as n from ${s}.characters`))[0]!.n).toBe(demoData.characters!.length);
      expect((await store.query('characters', { orderBy: [{ field: 'favorites', dir: 'desc' }], offset: 0, limit: 3 })).total).toBe(demoData.characters!.length);
      await writer.unsafe('commit');
      await migrated;
    } finally {
      // Ended here too when a step above failed, so that no later test waits on its lock.
      await writer.unsafe('commit').catch(() => undefined);
      writer.release();
      reader.release();
    }
    expect([...(await sql.unsafe(`select collection from ${s}.catalogue_refills`))]).toEqual([]);
    const wrong = await sql.unsafe(`select count(*)::int as n from ${s}.characters where favorited is distinct from (coalesce((record ->> 'favorites')::int, 0) > 0)`);
    expect(wrong[0]!.n).toBe(0);
    // The kept counts moved with each filled record: they are those a count of the rows finds.
    const kept = await sql.unsafe(`select grp, n::int from ${s}.characters_groups where n <> 0 order by grp`);
    const counted = await sql.unsafe(`select json_build_array(favorited)::text as grp, count(*)::int as n from ${s}.characters group by favorited order by grp`);
    expect([...kept]).toEqual([...counted]);
  });

  it('migrate() waits for a writer longer than the store timeout before it fills, then fills', async () => {
    const s = `"${store.schema}"`;
    await sql.unsafe(`alter table ${s}.people drop column favorited`);
    await sql.unsafe(`create or replace function ${s}.people_group_update() returns trigger language plpgsql as $f$begin return null; end$f$`);
    await sql.begin((tx) => syncTables(tx as unknown as Sql, store.schema));
    // A writer of the previous version, mid-transaction.
    await expectMigrateWaitsFor((writer) => writer.unsafe(`lock table ${s}.people in row exclusive mode`));
    expect([...(await sql.unsafe(`select collection from ${s}.catalogue_refills`))]).toEqual([]);
    const wrong = await sql.unsafe(`select count(*)::int as n from ${s}.people where favorited is distinct from (coalesce((record ->> 'favorites')::int, 0) > 0)`);
    expect(wrong[0]!.n).toBe(0);
  }, 15_000);

  it('migrate() fills a re-created column in the transaction that re-creates it: no reader sees it empty', async () => {
    const s = `"${store.schema}"`;
    // As a version that stored `favorites` as another type would have left it.
    await sql.unsafe(`alter table ${s}.characters alter column favorites type bigint`);
    await sql.begin((tx) => syncTables(tx as unknown as Sql, store.schema));
    expect([...(await sql.unsafe(`select collection from ${s}.catalogue_refills`))]).toEqual([]);
    const wrong = await sql.unsafe(`select count(*)::int as n from ${s}.characters where favorites is distinct from (record ->> 'favorites')::int`);
    expect(wrong[0]!.n).toBe(0);
  });

  it('migrate() waits for another process holding its lock longer than the store timeout, then goes on', async () => {
    await expectMigrateWaitsFor((holder) => holder.unsafe(`select pg_advisory_xact_lock(hashtext($1))`, [`catalogue-api/catalogue:${store.schema}`]));
  }, 15_000);

  /**
   * While another connection holds what `hold` takes, in a transaction, for 2.5 s: a store whose
   * timeout is 1 s has not finished `migrate()`, and finishes it once that transaction ends.
   */
  async function expectMigrateWaitsFor(hold: (other: Sql) => Promise<unknown>) {
    const patient = createPostgresStore({ url: process.env.DATABASE_URL!, schema: store.schema, timeoutMs: 1000 });
    const other = await sql.reserve();
    try {
      await other.unsafe('begin');
      await hold(other as unknown as Sql);
      let settled = false;
      const migrated = patient.migrate().finally(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(settled).toBe(false);
      await other.unsafe('commit');
      await expect(migrated).resolves.toBeGreaterThanOrEqual(6);
    } finally {
      // Ended here too when a step above failed, so that no later test waits on its lock.
      await other.unsafe('commit').catch(() => undefined);
      other.release();
      await patient.close();
    }
  }

  /** The group counts the writes kept are those a count of the rows finds. */
  async function expectGroupsRecounted() {
    const columns = groupedFields('anime').map(([name]) => `"${name}"`).join(', ');
    const kept = await sql.unsafe(`select grp, n::int from "${store.schema}".anime_groups where n <> 0 order by grp`);
    const counted = await sql.unsafe(`select json_build_array(${columns})::text as grp, count(*)::int as n from "${store.schema}".anime group by ${columns} order by grp`);
    expect(kept.length).toBeGreaterThan(3);
    expect([...kept]).toEqual([...counted]);
    // And those per tag.
    const keptTags = await sql.unsafe(`select grp, n::int from "${store.schema}".anime_tags_groups where n <> 0 order by grp`);
    const countedTags = await sql.unsafe(
      `select json_build_array(array[v], ${columns})::text as grp, count(*)::int as n from "${store.schema}".anime, unnest(tags) v group by v, ${columns} order by grp`,
    );
    expect(keptTags.length).toBeGreaterThan(kept.length);
    expect([...keptTags]).toEqual([...countedTags]);
    // And a collection without grouped fields: its total.
    const [total] = await sql.unsafe(`select (select n::int from "${store.schema}".anime_characters_groups where grp = '[]') as kept, count(*)::int as counted from "${store.schema}".anime_characters`);
    expect(total!.kept).toBe(total!.counted);
  }

  it('rejects an unknown collection and an undeclared field by name', async () => {
    await expect(store.upsert('nonsense', [{ mal_id: 1 }])).rejects.toThrow(/unknown resource "nonsense"/);
    await expect(store.query('anime', { where: [{ field: 'nope', op: 'null' }], offset: 0, limit: 1 })).rejects.toThrow(/anime has no field "nope"/);
  });
});
