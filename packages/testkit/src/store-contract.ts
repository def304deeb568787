/**
 * The `CatalogueStore` contract: one vitest suite that every record store must pass (core's reference
 * `createRecordStore`, the fast memory store, PostgreSQL, and any third-party store). It loads the
 * demo dataset through the store's own `upsert` and checks each method's documented meaning
 * (`CatalogueStore` and `Condition` in `@catalogue-api/core`): lookups by key, every condition on
 * scalar and array fields with their `null` rules, ordering with nulls last and ties in stored
 * order, paging totals, field selection, tallies, search, and writes.
 *
 * The expected answers are computed here, in plain JavaScript over the demo records and their field
 * values (`fieldValues`), not by core's evaluator, so that a store sharing a bug with core is caught.
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Anime } from '@catalogue-api/core/schemas';
import {
  collectionKey,
  COLLECTION_NAMES,
  COLLECTIONS,
  fieldValues,
  loadCatalogue,
  normalizeTitle,
  type CollectionName,
  type Condition,
  type OrderKey,
  type PluckQuery,
  type RecordQuery,
  type CatalogueStore,
} from '@catalogue-api/core/store';
import { demoData } from '@catalogue-api/demo-data';

/** Options of {@link defineStoreContract}. */
export interface StoreContractOptions {
  /** Called once after the suite, e.g. to close connections or drop the schemas the stores used. */
  cleanup?: () => Promise<void> | void;
}

type Value = number | string | boolean | null | readonly (number | string)[];
type Fields = Record<string, Value>;
interface Row {
  key: string;
  record: unknown;
  fields: Fields;
}
type Loose = {
  get(c: CollectionName, key: string | number): Promise<unknown>;
  getMany(c: CollectionName, keys: readonly (string | number)[]): Promise<unknown[]>;
  query(c: CollectionName, q: RecordQuery): Promise<{ data: unknown[]; total: number }>;
  upsert(c: CollectionName, records: readonly unknown[]): Promise<number>;
};

const ALL = 1_000_000;
const UNKNOWN = '999999999';
const json = (x: unknown) => JSON.stringify(x);

/** A collection's records as a store must hold them: first-write order, the last write of a key wins. */
function storedRows(c: CollectionName, records: readonly unknown[] = (demoData[c] ?? []) as readonly unknown[]): Row[] {
  const rows = new Map<string, Row>();
  for (const record of records) {
    const key = collectionKey(c, record);
    const row = { key, record, fields: fieldValues(c, record) as Fields };
    const old = rows.get(key);
    if (old) Object.assign(old, row);
    else rows.set(key, row);
  }
  return [...rows.values()];
}

const scalar = (v: Value | undefined): number | string | boolean | null => (Array.isArray(v) || v === undefined ? null : (v as number | string | boolean | null));
const list = (v: Value | undefined): readonly (number | string)[] => (Array.isArray(v) ? v : []);

/** Stable sort by an ordering, nulls last in both directions: the expected order, written out plainly. */
function sortRows(rows: readonly Row[], orderBy: readonly OrderKey[]): Row[] {
  return rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => {
      for (const { field, dir } of orderBy) {
        const x = scalar(a.row.fields[field]);
        const y = scalar(b.row.fields[field]);
        if (x === y) continue;
        if (x === null) return 1;
        if (y === null) return -1;
        return (x < y ? -1 : 1) * (dir === 'asc' ? 1 : -1);
      }
      return a.i - b.i;
    })
    .map((x) => x.row);
}

/** A condition with its expected meaning written as a plain predicate over one record's fields. */
interface Case {
  name: string;
  collection: CollectionName;
  where: Condition[];
  expect: (f: Fields) => boolean;
  /** Whether some record with a `null` (or empty) tested field must be among the matches, or not. */
  nulls?: 'kept' | 'dropped';
  nullField?: string;
}

const num = (v: Value | undefined) => (typeof v === 'number' ? v : null);
const str = (v: Value | undefined) => (typeof v === 'string' ? v : null);

/** The cases over the demo data: every op, scalar and array fields, `null` on both sides of each rule. */
function conditionCases(anime: readonly Row[]): Case[] {
  const scores = anime.map((r) => num(r.fields.score)).filter((s): s is number => s !== null);
  const median = [...scores].sort((a, b) => a - b)[Math.floor(scores.length / 2)]!;
  const someRating = anime.map((r) => str(r.fields.rating)).find((x) => x !== null)!;
  const tagCounts = new Map<number, number>();
  for (const r of anime) for (const t of list(r.fields.tags)) tagCounts.set(t as number, (tagCounts.get(t as number) ?? 0) + 1);
  const [t1, t2, t3] = [...tagCounts].sort((a, b) => b[1] - a[1]).map(([t]) => t);
  const a = (name: string, where: Condition[], expect: Case['expect'], extra: Partial<Case> = {}): Case => ({ name, collection: 'anime', where, expect, ...extra });
  return [
    a('eq on an int', [{ field: 'mal_id', op: 'eq', value: 1 }], (f) => f.mal_id === 1),
    a('eq on a float', [{ field: 'score', op: 'eq', value: median }], (f) => f.score === median),
    a('eq on a text', [{ field: 'type', op: 'eq', value: 'TV' }], (f) => f.type === 'TV'),
    a('eq on a bool', [{ field: 'airing', op: 'eq', value: true }], (f) => f.airing === true),
    a('eq false on a bool', [{ field: 'approved', op: 'eq', value: false }], (f) => f.approved === false),
    a('ne is true for null', [{ field: 'rating', op: 'ne', value: someRating }], (f) => f.rating !== someRating, { nulls: 'kept', nullField: 'rating' }),
    a('ne on a number', [{ field: 'episodes', op: 'ne', value: 12 }], (f) => f.episodes !== 12, { nulls: 'kept', nullField: 'episodes' }),
    a('lt is false for null', [{ field: 'score', op: 'lt', value: median }], (f) => num(f.score) !== null && num(f.score)! < median, { nulls: 'dropped', nullField: 'score' }),
    a('lte', [{ field: 'score', op: 'lte', value: median }], (f) => num(f.score) !== null && num(f.score)! <= median, { nulls: 'dropped', nullField: 'score' }),
    a('gt', [{ field: 'episodes', op: 'gt', value: 24 }], (f) => num(f.episodes) !== null && num(f.episodes)! > 24, { nulls: 'dropped', nullField: 'episodes' }),
    a('gte', [{ field: 'rank', op: 'gte', value: 100 }], (f) => num(f.rank) !== null && num(f.rank)! >= 100, { nulls: 'dropped', nullField: 'rank' }),
    a('lt on a text compares UTF-16 code units', [{ field: 'title_key', op: 'lt', value: 'n' }], (f) => str(f.title_key) !== null && str(f.title_key)! < 'n'),
    a('gte on a text date', [{ field: 'start_date', op: 'gte', value: '2010-01-01' }], (f) => str(f.start_date) !== null && str(f.start_date)! >= '2010-01-01'),
    a('lt on a text with nulls', [{ field: 'end_date', op: 'lt', value: '2010' }], (f) => str(f.end_date) !== null && str(f.end_date)! < '2010', { nulls: 'dropped', nullField: 'end_date' }),
    a('in on a text', [{ field: 'type', op: 'in', values: ['Movie', 'OVA'] }], (f) => f.type === 'Movie' || f.type === 'OVA'),
    a('in on an int, unknown values ignored', [{ field: 'mal_id', op: 'in', values: [1, 5, 999_999_999] }], (f) => f.mal_id === 1 || f.mal_id === 5),
    a('in is false for null', [{ field: 'rating', op: 'in', values: [someRating] }], (f) => f.rating === someRating, { nulls: 'dropped', nullField: 'rating' }),
    a('in with no values matches nothing', [{ field: 'type', op: 'in', values: [] }], () => false),
    a('notIn is true for null', [{ field: 'rating', op: 'notIn', values: [someRating] }], (f) => f.rating !== someRating, { nulls: 'kept', nullField: 'rating' }),
    a('notIn with no values matches everything', [{ field: 'rating', op: 'notIn', values: [] }], () => true),
    a('prefix', [{ field: 'title_key', op: 'prefix', value: 'k' }], (f) => (str(f.title_key) ?? '').startsWith('k')),
    a('prefix on a date', [{ field: 'start_date', op: 'prefix', value: '2006-' }], (f) => (str(f.start_date) ?? '').startsWith('2006-')),
    a('prefix is false for null', [{ field: 'end_date', op: 'prefix', value: '20' }], (f) => (str(f.end_date) ?? '').startsWith('20'), { nulls: 'dropped', nullField: 'end_date' }),
    a('null', [{ field: 'score', op: 'null' }], (f) => f.score === null),
    a('notNull', [{ field: 'score', op: 'notNull' }], (f) => f.score !== null),
    a('null on an array field matches nothing', [{ field: 'tags', op: 'null' }], () => false),
    a('notNull on an array field matches everything', [{ field: 'tags', op: 'notNull' }], () => true),
    a('has', [{ field: 'tags', op: 'has', value: t1! }], (f) => list(f.tags).includes(t1!), { nulls: 'dropped', nullField: 'tags' }),
    a('hasAll', [{ field: 'tags', op: 'hasAll', values: [t1!, t2!] }], (f) => list(f.tags).includes(t1!) && list(f.tags).includes(t2!)),
    a('hasAll with no values matches everything', [{ field: 'tags', op: 'hasAll', values: [] }], () => true),
    a('hasAny', [{ field: 'tags', op: 'hasAny', values: [t2!, t3!] }], (f) => list(f.tags).includes(t2!) || list(f.tags).includes(t3!)),
    a('hasAny with no values matches nothing', [{ field: 'tags', op: 'hasAny', values: [] }], () => false),
    a('hasNone is true for an empty array', [{ field: 'tags', op: 'hasNone', values: [t1!, t3!] }], (f) => !list(f.tags).includes(t1!) && !list(f.tags).includes(t3!), {
      nulls: 'kept',
      nullField: 'tags',
    }),
    a('hasNone with no values matches everything', [{ field: 'companies', op: 'hasNone', values: [] }], () => true),
    a('several conditions all hold', [{ field: 'type', op: 'eq', value: 'TV' }, { field: 'score', op: 'gte', value: median }, { field: 'tags', op: 'has', value: t1! }], (f) =>
      f.type === 'TV' && num(f.score) !== null && num(f.score)! >= median && list(f.tags).includes(t1!),
    ),
    a(
      'any: one of the AND-lists holds',
      [{ op: 'any', of: [[{ field: 'type', op: 'eq', value: 'Movie' }], [{ field: 'score', op: 'gte', value: median }, { field: 'airing', op: 'eq', value: false }]] }],
      (f) => f.type === 'Movie' || (num(f.score) !== null && num(f.score)! >= median && f.airing === false),
    ),
    a('any with no lists matches nothing', [{ op: 'any', of: [] }], () => false),
    a('any beside other conditions', [{ field: 'type', op: 'eq', value: 'TV' }, { op: 'any', of: [[{ field: 'rating', op: 'null' }], [{ field: 'episodes', op: 'lt', value: 13 }]] }], (f) =>
      f.type === 'TV' && (f.rating === null || (num(f.episodes) !== null && num(f.episodes)! < 13)),
    ),
    {
      name: 'has on owners (a sub-resource)',
      collection: 'animeCharacters',
      where: [{ field: 'owners', op: 'has', value: 'anime:1' }],
      expect: (f) => list(f.owners).includes('anime:1'),
    },
    {
      name: 'hasAny on owners across kinds',
      collection: 'articles',
      where: [{ field: 'owners', op: 'hasAny', values: ['anime:1', 'character:1', 'person:1'] }],
      expect: (f) => ['anime:1', 'character:1', 'person:1'].some((o) => list(f.owners).includes(o)),
    },
  ];
}

/** What the contract's case groups share: the store under test (set once loaded) and helpers over the demo data. */
interface StoreContractContext {
  /** The loaded store; read only inside a test or hook, once `beforeAll` has run. */
  readonly store: Loose;
  /** Counts of a field's values in a collection, as the store's `tally` gives them. */
  readonly tally: (c: CollectionName, field: string, where?: Condition[]) => ReturnType<CatalogueStore['tally']>;
  /** The demo data's stored rows, per collection. */
  readonly rows: Record<CollectionName, Row[]>;
  /** The keys of some records of a collection. */
  readonly keysOf: (data: readonly unknown[], c: CollectionName) => string[];
  /** Returns a new, empty store, for cases that write. */
  readonly makeEmptyStore: () => Promise<CatalogueStore> | CatalogueStore;
}

/**
 * The contract cases for `get` and `getMany`: every record under its key.
 *
 * @param ctx - The store under test and the helpers the cases share.
 */
function describeGetAndGetMany(ctx: StoreContractContext): void {
  const { rows } = ctx;
  describe('get and getMany', () => {
    it('holds every record of every collection, byte for byte, under its key', async () => {
      for (const c of COLLECTION_NAMES) {
        const got = await ctx.store.getMany(c, rows[c].map((r) => r.key));
        expect(got.map(json), c).toEqual(rows[c].map((r) => json(r.record)));
      }
    });

    it('takes a number key as its decimal string', async () => {
      const bebop = rows.anime.find((r) => r.key === '1')!.record;
      expect(json(await ctx.store.get('anime', 1))).toBe(json(bebop));
      expect(json(await ctx.store.get('anime', '1'))).toBe(json(bebop));
      const id = demoData.deletedAnimeIds![0]!;
      expect(await ctx.store.get('deletedAnimeIds', id)).toBe(id);
    });

    it('finds a record by a composite key', async () => {
      const episode = rows.episodes[0]!;
      expect(episode.key).toMatch(/^\d+:\d+$/);
      expect(json(await ctx.store.get('episodes', episode.key))).toBe(json(episode.record));
    });

    it('answers undefined for an unknown key, and for a key of another collection', async () => {
      expect(await ctx.store.get('anime', UNKNOWN)).toBeUndefined();
      expect(await ctx.store.get('anime', Number(UNKNOWN))).toBeUndefined();
      expect(await ctx.store.get('episodes', '1')).toBeUndefined();
      const mangaOnly = rows.manga.find((m) => !rows.anime.some((a) => a.key === m.key))!;
      expect(await ctx.store.get('anime', mangaOnly.key)).toBeUndefined();
    });

    it('answers getMany in the order asked, repeats and unknown keys included', async () => {
      const [x, y] = [rows.anime[5]!, rows.anime[2]!];
      const got = await ctx.store.getMany('anime', [x.key, UNKNOWN, Number(y.key), x.key]);
      expect(got.map((r) => (r === undefined ? undefined : json(r)))).toEqual([json(x.record), undefined, json(y.record), json(x.record)]);
      expect(await ctx.store.getMany('anime', [])).toEqual([]);
    });
  });
}

/**
 * The contract cases for `query` with conditions.
 *
 * @param ctx - The store under test and the helpers the cases share.
 */
function describeQueryConditions(ctx: StoreContractContext): void {
  const { rows, keysOf } = ctx;
  describe('query: conditions', () => {
    it('lists every record of every collection in the stored order when asked nothing', async () => {
      for (const c of COLLECTION_NAMES) {
        const { data, total } = await ctx.store.query(c, { offset: 0, limit: ALL });
        expect(total, c).toBe(rows[c].length);
        expect(keysOf(data, c), c).toEqual(rows[c].map((r) => r.key));
      }
    });

    for (const t of conditionCases(rows.anime)) {
      it(`${t.collection}: ${t.name}`, async () => {
        const expected = rows[t.collection].filter((r) => t.expect(r.fields));
        if (t.nullField) {
          const empty = (r: Row) => scalar(r.fields[t.nullField!]) === null && list(r.fields[t.nullField!]).length === 0;
          expect(rows[t.collection].some(empty), `the demo data has a null ${t.nullField}`).toBe(true);
          expect(expected.some(empty), `null ${t.nullField} ${t.nulls}`).toBe(t.nulls === 'kept');
        }
        const { data, total } = await ctx.store.query(t.collection, { where: t.where, offset: 0, limit: ALL });
        expect(keysOf(data, t.collection)).toEqual(expected.map((r) => r.key));
        expect(total).toBe(expected.length);
      });
    }

    it('an empty where matches everything', async () => {
      expect((await ctx.store.query('anime', { where: [], offset: 0, limit: 0 })).total).toBe(rows.anime.length);
    });
  });
}

/**
 * The contract cases for `query` order and slice.
 *
 * @param ctx - The store under test and the helpers the cases share.
 */
function describeQueryOrderAndSlice(ctx: StoreContractContext): void {
  const { rows, keysOf } = ctx;
  describe('query: order and slice', () => {
    const orders: Array<[CollectionName, OrderKey[]]> = [
      ['anime', [{ field: 'score', dir: 'desc' }]],
      ['anime', [{ field: 'score', dir: 'asc' }]],
      ['anime', [{ field: 'episodes', dir: 'asc' }]],
      ['anime', [{ field: 'episodes', dir: 'desc' }]],
      ['anime', [{ field: 'rank', dir: 'asc' }, { field: 'mal_id', dir: 'desc' }]],
      ['anime', [{ field: 'title_key', dir: 'asc' }]],
      ['anime', [{ field: 'title_key', dir: 'desc' }]],
      ['anime', [{ field: 'start_date', dir: 'desc' }]],
      ['anime', [{ field: 'type', dir: 'asc' }, { field: 'members', dir: 'desc' }]],
      ['anime', [{ field: 'season', dir: 'desc' }]],
      ['characters', [{ field: 'favorites', dir: 'desc' }]],
      ['people', [{ field: 'birthday', dir: 'asc' }]],
      ['recommendations', [{ field: 'date', dir: 'desc' }]],
    ];
    for (const [c, orderBy] of orders) {
      it(`${c} by ${orderBy.map((k) => `${k.field} ${k.dir}`).join(', ')}: nulls last, ties in stored order`, async () => {
        const expected = sortRows(rows[c], orderBy);
        const { data, total } = await ctx.store.query(c, { orderBy, offset: 0, limit: ALL });
        expect(keysOf(data, c)).toEqual(expected.map((r) => r.key));
        expect(total).toBe(expected.length);
      });
    }

    it('orders filtered records, and slices after ordering', async () => {
      const where: Condition[] = [{ field: 'type', op: 'eq', value: 'TV' }];
      const orderBy: OrderKey[] = [{ field: 'members', dir: 'desc' }];
      const expected = sortRows(rows.anime.filter((r) => r.fields.type === 'TV'), orderBy).map((r) => r.key);
      for (const [offset, limit] of [[0, 10], [10, 7], [expected.length - 3, 10]] as const) {
        const { data, total } = await ctx.store.query('anime', { where, orderBy, offset, limit });
        expect(keysOf(data, 'anime')).toEqual(expected.slice(offset, offset + limit));
        expect(total).toBe(expected.length);
      }
    });

    it('count: false returns the same page, with a total between what the page shows and the real one', async () => {
      const where: Condition[] = [{ field: 'type', op: 'eq', value: 'TV' }];
      const orderBy: OrderKey[] = [{ field: 'mal_id', dir: 'asc' }];
      const expected = sortRows(rows.anime.filter((r) => r.fields.type === 'TV'), orderBy).map((r) => r.key);
      for (const [offset, limit] of [[0, 1], [expected.length - 1, 1], [5, 10], [expected.length + 5, 1]] as const) {
        const { data, total } = await ctx.store.query('anime', { where, orderBy, offset, limit, count: false });
        expect(keysOf(data, 'anime')).toEqual(expected.slice(offset, offset + limit));
        expect(total).toBeGreaterThanOrEqual(data.length > 0 ? offset + data.length : 0);
        expect(total).toBeLessThanOrEqual(expected.length);
      }
    });

    it('limit 0 returns no records and the full total', async () => {
      expect(await ctx.store.query('anime', { offset: 0, limit: 0 })).toEqual({ data: [], total: rows.anime.length });
      const where: Condition[] = [{ field: 'score', op: 'null' }];
      expect(await ctx.store.query('anime', { where, offset: 3, limit: 0 })).toEqual({ data: [], total: rows.anime.filter((r) => r.fields.score === null).length });
    });

    it('an offset past the end returns no records and the full total', async () => {
      const n = rows.anime.length;
      expect(await ctx.store.query('anime', { offset: n, limit: 25 })).toEqual({ data: [], total: n });
      expect(await ctx.store.query('anime', { offset: n + 1000, limit: 25, orderBy: [{ field: 'score', dir: 'desc' }] })).toEqual({ data: [], total: n });
      const none: Condition[] = [{ field: 'mal_id', op: 'eq', value: Number(UNKNOWN) }];
      expect(await ctx.store.query('anime', { where: none, offset: 0, limit: 25 })).toEqual({ data: [], total: 0 });
    });

    it('select returns exactly the chosen fields, in the chosen order', async () => {
      const orderBy: OrderKey[] = [{ field: 'popularity', dir: 'asc' }];
      const select = ['title', 'mal_id', 'aired', 'score'];
      const { data, total } = await ctx.store.query('anime', { orderBy, offset: 5, limit: 20, select });
      const expected = sortRows(rows.anime, orderBy)
        .slice(5, 25)
        .map((r) => {
          const a = r.record as Anime;
          return json({ title: a.title, mal_id: a.mal_id, aired: a.aired, score: a.score });
        });
      expect(data.map(json)).toEqual(expected);
      expect(total).toBe(rows.anime.length);
    });
  });
}

/**
 * The contract cases for `pluck` and the optional `pluckJson`.
 *
 * @param ctx - The store under test and the helpers the cases share.
 */
function describePluck(ctx: StoreContractContext): void {
  const { rows } = ctx;
  describe('pluck', () => {
    const pluck = (c: CollectionName, field: string, q: PluckQuery) => (ctx.store as unknown as CatalogueStore).pluck(c, field, q);
    // Every match, as core's id lists ask (a store may answer those from its columns).
    const every = { offset: 0, limit: Number.MAX_SAFE_INTEGER };

    it('gives the field of each match, in order, as query with that one field selected does', async () => {
      const cases: Array<[CollectionName, string, PluckQuery]> = [
        ['anime', 'mal_id', { orderBy: [{ field: 'mal_id', dir: 'asc' }], ...every }],
        ['anime', 'mal_id', { where: [{ field: 'type', op: 'eq', value: 'TV' }], orderBy: [{ field: 'members', dir: 'desc' }], ...every }],
        ['anime', 'title', { where: [{ field: 'sfw', op: 'lte', value: 1 }], orderBy: [{ field: 'mal_id', dir: 'asc' }], ...every }],
        ['anime', 'score', { orderBy: [{ field: 'score', dir: 'desc' }], offset: 3, limit: 7 }],
        ['anime', 'aired', { orderBy: [{ field: 'popularity', dir: 'asc' }], offset: 0, limit: 5 }],
        ['manga', 'mal_id', { where: [{ field: 'mal_id', op: 'eq', value: Number(UNKNOWN) }], ...every }],
        ['characters', 'mal_id', { search: (rows.characters[0]!.record as { name: string }).name, offset: 0, limit: 3 }],
        ['updates', 'mal_id', every],
      ];
      for (const [c, field, q] of cases) {
        const { data } = await ctx.store.query(c, { ...q, select: [field] });
        const values = await pluck(c, field, q);
        expect(json(values), `${c}.${field} ${json(q)}`).toBe(json(data.map((r) => (r as Record<string, unknown>)[field])));
      }
      const ids = await pluck('anime', 'mal_id', { orderBy: [{ field: 'mal_id', dir: 'asc' }], ...every });
      expect(ids).toEqual(sortRows(rows.anime, [{ field: 'mal_id', dir: 'asc' }]).map((r) => (r.record as Anime).mal_id));
    });

    it('gives undefined for a field the records lack, and nothing past the end', async () => {
      expect(await pluck('anime', 'no_such_field', { orderBy: [{ field: 'mal_id', dir: 'asc' }], offset: 0, limit: 2 })).toEqual([undefined, undefined]);
      expect(await pluck('anime', 'mal_id', { offset: rows.anime.length, limit: 25 })).toEqual([]);
    });

    it('pluckJson, when the store has it: the bytes of pluck as JSON, and their count', async () => {
      const seam = ctx.store as unknown as CatalogueStore;
      // Optional: core serializes what pluck gives when a store has none.
      if (!seam.pluckJson) return;
      const byId: OrderKey[] = [{ field: 'mal_id', dir: 'asc' }];
      const cases: Array<[CollectionName, string, PluckQuery]> = [
        ['anime', 'mal_id', { orderBy: byId, ...every }],
        ['anime', 'mal_id', { where: [{ field: 'type', op: 'in', values: ['TV', 'Movie'] }, { field: 'sfw', op: 'lte', value: 1 }], orderBy: byId, ...every }],
        ['manga', 'mal_id', { where: [{ field: 'mal_id', op: 'notIn', values: [Number(rows.manga[0]!.key)] }], orderBy: byId, ...every }],
        ['manga', 'mal_id', { where: [{ field: 'mal_id', op: 'eq', value: Number(UNKNOWN) }], ...every }],
        // Integer fields that some records hold as null, a text field, a slice, a missing field.
        ['anime', 'rank', { orderBy: byId, ...every }],
        ['anime', 'episodes', { orderBy: [{ field: 'episodes', dir: 'desc' }], ...every }],
        ['anime', 'title', { where: [{ field: 'sfw', op: 'lte', value: 1 }], orderBy: byId, ...every }],
        ['anime', 'mal_id', { orderBy: [{ field: 'score', dir: 'desc' }], offset: 3, limit: 7 }],
        ['anime', 'no_such_field', { orderBy: byId, offset: 0, limit: 2 }],
        ['characters', 'mal_id', { search: (rows.characters[0]!.record as { name: string }).name, ...every }],
      ];
      for (const [c, field, q] of cases) {
        const values = await pluck(c, field, q);
        const { count, json: bytes } = await seam.pluckJson(c, field, q);
        expect(new TextDecoder().decode(bytes), `${c}.${field} ${json(q)}`).toBe(JSON.stringify(values));
        expect(count, `${c}.${field} ${json(q)}`).toBe(values.length);
      }
    });

    it('selectJson, when the store has it: the bytes of query with select as JSON and their count, or undefined', async () => {
      const seam = ctx.store as unknown as CatalogueStore;
      // Optional: core asks query when a store has none, or when it gives undefined.
      if (!seam.selectJson) return;
      const byId: OrderKey[] = [{ field: 'mal_id', dir: 'asc' }];
      const cases: Array<[CollectionName, string[], PluckQuery]> = [
        // An id list with its titles, as `/v1/anime/ids?include=title` asks.
        ['anime', ['mal_id', 'title'], { where: [{ field: 'sfw', op: 'lte', value: 1 }], orderBy: byId, ...every }],
        ['anime', ['mal_id', 'type', 'episodes', 'airing'], { where: [{ field: 'type', op: 'in', values: ['TV', 'Movie'] }], orderBy: byId, ...every }],
        ['manga', ['mal_id', 'title'], { where: [{ field: 'mal_id', op: 'eq', value: Number(UNKNOWN) }], ...every }],
        // A float, an object with image paths, a slice, a missing field: written, or left to query.
        ['anime', ['mal_id', 'score'], { orderBy: byId, ...every }],
        ['anime', ['mal_id', 'images'], { orderBy: byId, ...every }],
        ['anime', ['mal_id', 'title'], { orderBy: [{ field: 'score', dir: 'desc' }], offset: 3, limit: 7 }],
        ['anime', ['mal_id', 'no_such_field'], { orderBy: byId, offset: 0, limit: 2 }],
      ];
      for (const [c, select, q] of cases) {
        const { data } = await ctx.store.query(c, { ...q, select });
        const written = await seam.selectJson(c, select, q);
        if (written === undefined) continue;
        expect(new TextDecoder().decode(written.json), `${c} ${json(select)} ${json(q)}`).toBe(JSON.stringify(data));
        expect(written.count, `${c} ${json(select)} ${json(q)}`).toBe(data.length);
      }
    });
  });
}

/**
 * The contract cases for `tally`: counts per field value.
 *
 * @param ctx - The store under test and the helpers the cases share.
 */
function describeTally(ctx: StoreContractContext): void {
  const { rows, tally } = ctx;
  describe('tally', () => {
    /** Counts written out plainly: each value once per record (arrays: each distinct element). */
    function counts(c: CollectionName, field: string, match: (f: Fields) => boolean = () => true): Array<[number | string, number]> {
      const out = new Map<number | string, number>();
      for (const r of rows[c]) {
        if (!match(r.fields)) continue;
        const v = r.fields[field];
        const values = Array.isArray(v) ? [...new Set(v)] : v === null || typeof v === 'boolean' || v === undefined ? [] : [v as number | string];
        for (const x of values) out.set(x, (out.get(x) ?? 0) + 1);
      }
      return sorted([...out]);
    }
    const sorted = (t: Array<[number | string, number]>) => [...t].sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : String(a[0]) > String(b[0]) ? 1 : 0));

    it('counts each value of a scalar field, nulls not counted', async () => {
      expect(sorted(await tally('anime', 'type'))).toEqual(counts('anime', 'type'));
      const ratings = await tally('anime', 'rating');
      expect(ratings.some(([v]) => v === null)).toBe(false);
      expect(sorted(ratings)).toEqual(counts('anime', 'rating'));
      expect(sorted(await tally('anime', 'season'))).toEqual(counts('anime', 'season'));
    });

    it('counts each element of an array field once per record', async () => {
      expect(sorted(await tally('anime', 'tags'))).toEqual(counts('anime', 'tags'));
      expect(sorted(await tally('animeCharacters', 'owners'))).toEqual(counts('animeCharacters', 'owners'));
    });

    it('counts only the records matching where', async () => {
      const where: Condition[] = [{ field: 'type', op: 'eq', value: 'TV' }, { field: 'score', op: 'notNull' }];
      expect(sorted(await tally('anime', 'tags', where))).toEqual(counts('anime', 'tags', (f) => f.type === 'TV' && f.score !== null));
      const none: Condition[] = [{ field: 'mal_id', op: 'eq', value: Number(UNKNOWN) }];
      expect(await tally('anime', 'type', none)).toEqual([]);
      expect(sorted(await tally('news', 'tag_ids', [{ field: 'owners', op: 'has', value: 'anime:1' }]))).toEqual(
        counts('news', 'tag_ids', (f) => list(f.owners).includes('anime:1')),
      );
    });
  });
}

/**
 * The contract cases for `search`.
 *
 * @param ctx - The store under test and the helpers the cases share.
 */
function describeSearch(ctx: StoreContractContext): void {
  const { rows, keysOf } = ctx;
  describe('search', () => {
    const searchable = (['anime', 'manga', 'characters', 'people'] as const).map((c) => {
      const texts = COLLECTIONS[c].search as (r: unknown) => readonly string[];
      return { c, texts, title: (r: Row) => (c === 'anime' || c === 'manga' ? (r.record as Anime).title : (r.record as { name: string }).name) };
    });
    for (const { c, texts, title } of searchable) {
      it(`${c}: an exact title is the first hit`, async () => {
        // Every record for the media, an even spread of the rest (a few hundred searches in all).
        const step = Math.max(1, Math.floor(rows[c].length / 150));
        const misses: string[] = [];
        for (let i = 0; i < rows[c].length; i += step) {
          const text = title(rows[c][i]!);
          const { data } = await ctx.store.query(c, { search: text, offset: 0, limit: 3 });
          const first = data[0];
          const wanted = normalizeTitle(text);
          if (!first || !texts(first).some((t) => normalizeTitle(t) === wanted)) misses.push(`${text} → ${first ? json(texts(first)[0]) : 'nothing'}`);
        }
        expect(misses).toEqual([]);
      }, 60_000);
    }

    it('search with where: the search hits that match, in the same order, with their total', async () => {
      const [everything, filtered] = await Promise.all([
        ctx.store.query('anime', { search: 'sword', offset: 0, limit: ALL }),
        ctx.store.query('anime', { search: 'sword', where: [{ field: 'type', op: 'eq', value: 'TV' }], offset: 0, limit: ALL }),
      ]);
      expect(everything.total).toBeGreaterThan(0);
      const tv = new Set(rows.anime.filter((r) => r.fields.type === 'TV').map((r) => r.key));
      const expected = keysOf(everything.data, 'anime').filter((k) => tv.has(k));
      expect(keysOf(filtered.data, 'anime')).toEqual(expected);
      expect(filtered.total).toBe(expected.length);
    });

    it('search pages are slices of the whole ranking', async () => {
      const whole = await ctx.store.query('characters', { search: 'a', offset: 0, limit: ALL });
      const page = await ctx.store.query('characters', { search: 'a', offset: 4, limit: 6 });
      expect(keysOf(page.data, 'characters')).toEqual(keysOf(whole.data, 'characters').slice(4, 10));
      expect(page.total).toBe(whole.total);
    });

    it('a search page past the last hit returns no records and the full total, with where too', async () => {
      const tv: Condition[] = [{ field: 'type', op: 'eq', value: 'TV' }];
      for (const where of [undefined, tv]) {
        const whole = await ctx.store.query('anime', { search: 'sword', where, offset: 0, limit: ALL });
        expect(whole.total).toBeGreaterThan(0);
        const last = await ctx.store.query('anime', { search: 'sword', where, offset: whole.total - 1, limit: 25 });
        expect(last).toEqual({ data: whole.data.slice(-1), total: whole.total });
        expect(await ctx.store.query('anime', { search: 'sword', where, offset: whole.total, limit: 25 })).toEqual({ data: [], total: whole.total });
      }
    });

    it('search with orderBy: the hits in that order, ties in stored order', async () => {
      const hits = new Set(keysOf((await ctx.store.query('anime', { search: 'girl', offset: 0, limit: ALL })).data, 'anime'));
      expect(hits.size).toBeGreaterThan(1);
      const orderBy: OrderKey[] = [{ field: 'score', dir: 'desc' }];
      const expected = sortRows(rows.anime.filter((r) => hits.has(r.key)), orderBy).map((r) => r.key);
      const { data, total } = await ctx.store.query('anime', { search: 'girl', orderBy, offset: 0, limit: ALL });
      expect(keysOf(data, 'anime')).toEqual(expected);
      expect(total).toBe(expected.length);
    });
  });
}

/**
 * The contract cases for `upsert`.
 *
 * @param ctx - The store under test and the helpers the cases share.
 */
function describeUpsert(ctx: StoreContractContext): void {
  const { rows, keysOf } = ctx;
  describe('upsert', () => {
    let fresh: Loose;
    const first = rows.anime.slice(0, 12);
    const keys = async () => keysOf((await fresh.query('anime', { offset: 0, limit: ALL })).data, 'anime');
    beforeAll(async () => {
      fresh = (await ctx.makeEmptyStore()) as unknown as Loose;
    });

    it('appends new keys in the order written and returns how many it wrote', async () => {
      expect(await fresh.upsert('anime', first.slice(0, 8).map((r) => r.record))).toBe(8);
      expect(await fresh.upsert('anime', first.slice(8).map((r) => r.record))).toBe(4);
      expect(await keys()).toEqual(first.map((r) => r.key));
      expect(await fresh.query('manga', { offset: 0, limit: ALL })).toEqual({ data: [], total: 0 });
    });

    it('replaces an existing key in place and recomputes its field values', async () => {
      const old = first[3]!.record as Anime;
      const changed: Anime = { ...old, title: 'Zzyzx Replaced', type: 'Music', score: 9.99, members: 0 };
      expect(await fresh.upsert('anime', [changed])).toBe(1);
      expect(json(await fresh.get('anime', old.mal_id))).toBe(json(changed));
      expect(await keys()).toEqual(first.map((r) => r.key));
      const byTitle = await fresh.query('anime', { where: [{ field: 'title_key', op: 'eq', value: 'zzyzx replaced' }], offset: 0, limit: 5 });
      expect(keysOf(byTitle.data, 'anime')).toEqual([String(old.mal_id)]);
      expect((await fresh.query('anime', { where: [{ field: 'title_key', op: 'eq', value: old.title.toLowerCase() }], offset: 0, limit: 5 })).total).toBe(0);
      const top = await fresh.query('anime', { orderBy: [{ field: 'score', dir: 'desc' }], offset: 0, limit: 1 });
      expect(keysOf(top.data, 'anime')).toEqual([String(old.mal_id)]);
      expect(await (fresh as unknown as CatalogueStore).tally('anime', 'type', [{ field: 'type', op: 'eq', value: 'Music' }])).toEqual([['Music', 1]]);
      const hit = await fresh.query('anime', { search: 'Zzyzx Replaced', offset: 0, limit: 1 });
      expect(keysOf(hit.data, 'anime')).toEqual([String(old.mal_id)]);
    });

    it('counts a key repeated in one call once; the last write wins; a new one lands once, at the end', async () => {
      const a = first[0]!.record as Anime;
      const newcomer = rows.anime[40]!.record as Anime;
      const written = await fresh.upsert('anime', [
        { ...newcomer, title: 'First Write' },
        { ...a, title: 'Also Replaced' },
        { ...newcomer, title: 'Last Write' },
      ]);
      expect(written).toBe(2);
      expect(((await fresh.get('anime', newcomer.mal_id)) as Anime).title).toBe('Last Write');
      expect(((await fresh.get('anime', a.mal_id)) as Anime).title).toBe('Also Replaced');
      expect(await keys()).toEqual([...first.map((r) => r.key), String(newcomer.mal_id)]);
      expect((await fresh.query('anime', { where: [{ field: 'title_key', op: 'prefix', value: 'first write' }], offset: 0, limit: 5 })).total).toBe(0);
    });

    it('keeps collections apart: the same key in another collection is another record', async () => {
      const anime = first[1]!.record as Anime;
      const manga = { ...(rows.manga[0]!.record as object), mal_id: anime.mal_id };
      expect(await fresh.upsert('manga', [manga])).toBe(1);
      expect(json(await fresh.get('manga', anime.mal_id))).toBe(json(manga));
      expect(json(await fresh.get('anime', anime.mal_id))).toBe(json(anime));
      expect((await fresh.query('manga', { offset: 0, limit: ALL })).total).toBe(1);
    });
  });
}

/**
 * The contract cases for `delete`.
 *
 * @param ctx - The store under test and the helpers the cases share.
 */
function describeDelete(ctx: StoreContractContext): void {
  const { rows, keysOf } = ctx;
  describe('delete', () => {
    let fresh: Loose;
    let deleteKeys: (c: CollectionName, keys: readonly (string | number)[]) => Promise<number>;
    const first = rows.anime.slice(0, 10);
    const gone = first[2]!;
    const alsoGone = first[6]!;
    beforeAll(async () => {
      const s = await ctx.makeEmptyStore();
      deleteKeys = (c, keys) => s.delete(c, keys);
      fresh = s as unknown as Loose;
      await fresh.upsert('anime', first.map((r) => r.record));
      await fresh.upsert('animeCharacters', rows.animeCharacters.slice(0, 5).map((r) => r.record));
    });

    it('returns how many records it removed, ignoring unknown keys and repeats', async () => {
      expect(await deleteKeys('anime', [gone.key, Number(alsoGone.key), UNKNOWN, gone.key])).toBe(2);
      expect(await deleteKeys('anime', [gone.key])).toBe(0);
      expect(await deleteKeys('manga', [first[0]!.key])).toBe(0);
    });

    it('removes them from get, getMany, query, pluck, pluckJson, tally and search', async () => {
      const left = first.filter((r) => r !== gone && r !== alsoGone);
      expect(await fresh.get('anime', gone.key)).toBeUndefined();
      expect(await fresh.getMany('anime', [alsoGone.key, left[0]!.key]).then((x) => x.map((r) => r === undefined))).toEqual([true, false]);
      const { data, total } = await fresh.query('anime', { offset: 0, limit: ALL });
      expect(keysOf(data, 'anime')).toEqual(left.map((r) => r.key));
      expect(total).toBe(left.length);
      const ids = await (fresh as unknown as CatalogueStore).pluck('anime', 'mal_id', { offset: 0, limit: Number.MAX_SAFE_INTEGER });
      expect(ids.map(String)).toEqual(left.map((r) => r.key));
      const written = await (fresh as unknown as CatalogueStore).pluckJson?.('anime', 'mal_id', { offset: 0, limit: Number.MAX_SAFE_INTEGER });
      if (written) expect(new TextDecoder().decode(written.json)).toBe(JSON.stringify(ids));
      const t = await (fresh as unknown as CatalogueStore).tally('anime', 'mal_id');
      expect(t.map(([v]) => String(v)).sort()).toEqual(left.map((r) => r.key).sort());
      const title = (gone.record as Anime).title;
      const hits = await fresh.query('anime', { search: title, offset: 0, limit: ALL });
      expect(keysOf(hits.data, 'anime')).not.toContain(gone.key);
      expect(json(await fresh.get('anime', first[0]!.key))).toBe(json(first[0]!.record));
    });

    it('deletes by composite key, and a re-written key is a new write at the end', async () => {
      const cast = rows.animeCharacters[1]!;
      expect(await deleteKeys('animeCharacters', [cast.key])).toBe(1);
      expect(await fresh.get('animeCharacters', cast.key)).toBeUndefined();
      await fresh.upsert('anime', [gone.record]);
      const { data } = await fresh.query('anime', { offset: 0, limit: ALL });
      expect(keysOf(data, 'anime').at(-1)).toBe(gone.key);
    });
  });
}

/**
 * Defines the record store contract suite. Call it at the top level of a vitest test file.
 * @param name - A label for the store under test (shown in the suite name).
 * @param makeEmptyStore - Returns a new, empty store; called once for the read tests (which load
 *   `demoData` into it through `loadCatalogue`) and again for each group of write tests. Stores it
 *   returns must not share records.
 * @param options - Cleanup hook.
 * @example
 * ```ts
 * import { createRecordStore } from '@catalogue-api/core/store';
 * import { defineStoreContract } from '@catalogue-api/testkit';
 *
 * defineStoreContract('reference', () => createRecordStore());
 * ```
 */
export function defineStoreContract(
  name: string,
  makeEmptyStore: () => Promise<CatalogueStore> | CatalogueStore,
  options: StoreContractOptions = {},
): void {
  describe(`CatalogueStore contract: ${name}`, () => {
    let store: Loose;
    const tally = (c: CollectionName, field: string, where?: Condition[]) => (store as unknown as CatalogueStore).tally(c, field, where);
    const rows = Object.fromEntries(COLLECTION_NAMES.map((c) => [c, storedRows(c)])) as Record<CollectionName, Row[]>;
    const keysOf = (data: readonly unknown[], c: CollectionName) => data.map((r) => collectionKey(c, r));

    beforeAll(async () => {
      store = (await loadCatalogue(await makeEmptyStore(), demoData)) as unknown as Loose;
    }, 120_000);
    afterAll(async () => {
      await options.cleanup?.();
    });

    const ctx: StoreContractContext = {
      get store() {
        return store;
      },
      tally,
      rows,
      keysOf,
      makeEmptyStore,
    };
    describeGetAndGetMany(ctx);
    describeQueryConditions(ctx);
    describeQueryOrderAndSlice(ctx);
    describePluck(ctx);
    describeTally(ctx);
    describeSearch(ctx);
    describeUpsert(ctx);
    describeDelete(ctx);
  });
}
