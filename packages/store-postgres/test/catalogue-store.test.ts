/**
 * The PostgreSQL catalogue store on the demo dataset: its schema (the baseline, the refusal of a
 * pre-release schema, indexes readied by `analyze()`), and, through the API over it (`GET /v1/anime`,
 * `GET /v1/manga`), the same anime and manga searches as over the memory store: the same ids in the
 * same order with the same totals, for every filter, ordering, direction, SFW mode, approval mode
 * and page; `q` searches keep the memory store's top hit and its exact/prefix/word-prefix tiers.
 * Needs `DATABASE_URL`; each run uses its own schema.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { createMemoryStore } from '@catalogue-api/core';
import { type Anime, type Manga } from '@catalogue-api/core/schemas';
import { createRecordStore, loadCatalogue, normalizeTitle } from '@catalogue-api/core/store';
import { demoData } from '@catalogue-api/demo-data';
import { answersOf } from '@catalogue-api/testkit';
import { ANIME as ANIME_KIND, MANGA as MANGA_KIND } from '../../core/src/catalogue/kinds.js';
import { searchWhere } from '../../core/src/catalogue/media-search.js';
import { animeSearchQuery } from '../../core/src/catalogue/routes/anime.js';
import { mangaSearchQuery } from '../../core/src/catalogue/routes/manga.js';
import { parseQuery } from '../../core/src/edge/query.js';
import { fieldValues } from '../../core/src/seam/collections.js';
import { compareFields, holdsAll } from '../../core/src/seam/evaluate.js';
import { BASELINE_VERSION, OutdatedSchemaError } from '../src/internal/migrations.js';
import { createPostgresStore, type PostgresStore } from '../src/catalogue-store.js';
import { searchTexts } from '../src/internal/tables.js';
import { RESOURCE_NAMES } from '../src/resources.js';
import { suiteDatabase } from './suite-database.js';

const url = process.env.DATABASE_URL;
const demoAnime = demoData.anime as readonly Anime[];
const ORDERS = ['mal_id', 'title', 'start_date', 'end_date', 'episodes', 'score', 'scored_by', 'rank', 'popularity', 'members', 'favorites'];

/** A store's answers by request target (`answersOf`). */
type Answers = ReturnType<typeof answersOf>;
/** One page of a search: its records and the total of its pagination. */
interface Hits {
  data: ReadonlyArray<{ mal_id: number }>;
  total: number;
}

/** A query string of some parts (`sfw`, `type=tv`…), the empty ones left out. */
const query = (...parts: readonly string[]) => parts.filter(Boolean).join('&');
/** The `q` parameter of a text. */
const qOf = (text: string) => `q=${encodeURIComponent(text)}`;

/**
 * One page of `GET /v1/{kind}?{filter}`.
 * @param api - The store's answers.
 * @param kind - Anime or manga.
 * @param filter - The query string.
 */
async function search(api: Answers, kind: 'anime' | 'manga', filter: string): Promise<Hits> {
  const answer = (await api<Hits['data']>(`/v1/${kind}?${filter}`))!;
  return { data: answer.data, total: answer.pagination!.items!.total };
}

/** A search read whole: every id it matches, in order, and the total each page reported. */
interface AllIds {
  ids: number[];
  totals: number[];
}

/**
 * Reads a search whole, page by page of 50 (so paging itself is compared too).
 * @param searchPage - The search for one page, of 50 records.
 */
async function readAll(searchPage: (page: number) => Promise<Hits>): Promise<AllIds> {
  const ids: number[] = [];
  const totals: number[] = [];
  for (let page = 1; page <= 1000; page++) {
    const result = await searchPage(page);
    totals.push(result.total);
    ids.push(...result.data.map((r) => r.mal_id));
    if (result.data.length < 50) break;
  }
  return { ids, totals };
}

/** Every id a search of a kind matches, in order, read page by page ({@link readAll}). */
const allOf = (api: Answers, kind: 'anime' | 'manga', filter: string) => readAll((page) => search(api, kind, query(filter, 'limit=50', `page=${page}`)));
/** {@link allOf} for anime. */
const allIds = (api: Answers, filter: string) => allOf(api, 'anime', filter);

const demoManga = demoData.manga as readonly Manga[];
const MANGA_ORDERS = Object.keys(MANGA_KIND.orderBy);

/** {@link allOf} for manga. */
const allMangaIds = (api: Answers, filter: string) => allOf(api, 'manga', filter);

/**
 * The records matching `q` exactly, by prefix or by word prefix (the query's words whole first), best tier first, then by popularity.
 * @param kept - Whether the search's filters keep a record ({@link animeKept}, {@link mangaKept}).
 */
function titleTiers<T extends Anime | Manga>(records: readonly T[], kept: (record: T) => boolean, q: string): number[] {
  const query = normalizeTitle(q);
  const tiered: Array<{ record: T; tier: number }> = [];
  for (const record of records) {
    if (!kept(record)) continue;
    const titles = searchTexts('anime', record);
    // Exact; the query's words whole at a title's start, then after it; its last word a longer word's start, at a title's start, then after it.
    const tiers = [(t: string) => t === query, (t: string) => t.startsWith(`${query} `), (t: string) => ` ${t} `.includes(` ${query} `), (t: string) => t.startsWith(query), (t: string) => t.includes(` ${query}`)];
    const tier = tiers.findIndex((holds) => titles.some(holds));
    if (tier >= 0) tiered.push({ record, tier });
  }
  const pop = (record: T) => record.popularity ?? Number.MAX_SAFE_INTEGER;
  tiered.sort((x, y) => x.tier - y.tier || pop(x.record) - pop(y.record) || x.record.mal_id - y.record.mal_id);
  return tiered.map((t) => t.record.mal_id);
}

/** A query string as the route reads it (a bare flag is an empty value). */
const rawQuery = (filter: string) => Object.fromEntries(new URLSearchParams(filter));

/** Whether the memory store's filters of an anime search, parsed as `GET /v1/anime` parses them, keep an anime. */
function animeKept(filter: string): (anime: Anime) => boolean {
  const where = searchWhere(ANIME_KIND, parseQuery(animeSearchQuery, rawQuery(filter)));
  return (anime) => holdsAll(fieldValues('anime', anime), where);
}

/** {@link animeKept} for manga. */
function mangaKept(filter: string): (manga: Manga) => boolean {
  const where = searchWhere(MANGA_KIND, parseQuery(mangaSearchQuery, rawQuery(filter)));
  return (manga) => holdsAll(fieldValues('manga', manga), where);
}

/**
 * Checks a `q` search read whole from both stores: its exact, prefix and word-prefix hits first in
 * each, in the memory store's order, the same top hit, no id twice, and every page's total the
 * number of hits.
 * @param expected - The tiered hits, from {@link titleTiers}.
 */
function expectTieredFirst(expected: readonly number[], pg: AllIds, mem: AllIds): void {
  expect(pg.ids.slice(0, expected.length)).toEqual(expected);
  expect(mem.ids.slice(0, expected.length)).toEqual(expected);
  expect(pg.ids[0]).toBe(mem.ids[0]);
  expect(new Set(pg.ids).size).toBe(pg.ids.length);
  expect(pg.totals.every((t) => t === pg.ids.length)).toBe(true);
}

/** The filters both kinds take, as query strings, with values both demo sets have matches for. */
const COMMON_FILTERS: Array<[string, string]> = [
  ['no filter', ''],
  ['approval all', 'unapproved'],
  ['approval unapproved only', 'unapproved=only'],
  ['sfw normal', 'sfw'],
  ['sfw strict', 'sfw&sfw-strict'],
  ['min score', 'min_score=8'],
  ['max score', 'max_score=6.5'],
  ['score range', 'min_score=7&max_score=8'],
  ['one genre', 'genres=1'],
  ['genre, theme and demographic together', 'genres=1,27'],
  ['genres exclude', 'genres_exclude=1,4'],
  ['genres and exclude', 'genres=1&genres_exclude=2'],
  ['letter lower case', 'letter=k'],
  ['letter upper case', 'letter=S'],
  ['empty type list', 'type='],
];

const producerId = 352;

/** The filters both kinds take with values of their own: each filter's anime value, then its manga value. */
const KIND_FILTERS: Array<[string, string, string]> = [
  ['one type', 'type=tv', 'type=manga'],
  ['several types (OR)', 'type=movie,ova,music', 'type=lightnovel,novel,oneshot'],
  ['status running', 'status=airing', 'status=publishing'],
  ['status upcoming or on hiatus', 'status=upcoming', 'status=hiatus'],
  ['exact score', 'score=8.04', 'score=7.27'],
  ['several genres (AND)', 'genres=1,2', 'genres=1,8'],
  ['letter digit', 'letter=0', 'letter=2'],
  ['start date year', 'start_date=2010', 'start_date=1999'],
  ['end date month', 'end_date=2005-06', 'end_date=2019-01'],
  ['start and end date', 'start_date=2000&end_date=2012', 'start_date=2000&end_date=2012'],
  ['start and end date', 'start_date=1990&end_date=2005', 'start_date=1990&end_date=2005'],
  [
    'everything at once',
    'sfw&type=tv&min_score=6&genres=1&genres_exclude=9&unapproved',
    'sfw&type=manga&min_score=7&genres=1&genres_exclude=9&magazines=83,1,23&unapproved',
  ],
  ['nothing matches', 'type=tv&status=upcoming&min_score=9.9', 'type=manga&status=hiatus&min_score=9.9'],
];

/** The demo anime filters: every filter of `GET /v1/anime`, alone and together. */
const FILTERS: Array<[string, string]> = [
  ...COMMON_FILTERS,
  ...KIND_FILTERS.map(([name, anime]): [string, string] => [name, anime]),
  ['one rating', 'rating=pg13'],
  ['several ratings (OR)', 'rating=r,rx,g'],
  ['one producer (producers, studios, licensors)', `producers=${producerId}`],
  ['several producers (ANY)', `producers=${producerId},37,1`],
];

/** The demo manga filters: every filter of `GET /v1/manga`, alone and together. */
const MANGA_FILTERS: Array<[string, string]> = [
  ...COMMON_FILTERS,
  ...KIND_FILTERS.map(([name, , manga]): [string, string] => [name, manga]),
  ['one magazine', 'magazines=83'],
  ['several magazines (ANY)', 'magazines=83,23,1'],
];

/** What the searches of one kind are compared by, in both stores; filters are query strings. */
interface KindCase<R extends Anime | Manga> {
  kind: 'anime' | 'manga';
  records: readonly R[];
  /** Whether the memory store's filters of a search keep a record. */
  kept(filter: string): (record: R) => boolean;
  filters: ReadonlyArray<[string, string]>;
  orders: readonly string[];
  /** Filtered and ordered searches, read whole. */
  ordered: readonly string[];
  /** Pages and limits of a plain browse. */
  slices: ReadonlyArray<[number, number]>;
  /** `q` searches with filters, whose exact, prefix and word-prefix hits come first. */
  queries: ReadonlyArray<[string, string]>;
  /** Misspelt titles, whose top hit is the same in both stores. */
  typos: readonly string[];
  /** Filters a `q` search's every hit must pass. */
  passing: string;
}

/** `q` searches both kinds answer alike: a title, a word, a stop word, short prefixes, a Japanese title. */
const COMMON_QUERIES: Array<[string, string]> = [
  ['Naruto', ''],
  ['fullmetal', ''],
  ['the', 'unapproved'],
  ['k', ''],
  ['sh', ''],
  ['進撃の巨人', ''],
];
/** Misspelt titles both kinds hold. */
const COMMON_TYPOS = ['naruot', 'fulmetal alchemist'];

const ANIME_CASE: KindCase<Anime> = {
  kind: 'anime',
  records: demoAnime,
  kept: animeKept,
  filters: FILTERS,
  orders: ORDERS,
  ordered: ['sfw&sfw-strict&type=tv&order_by=score&sort=desc'],
  slices: [
    [2, 10],
    [7, 7],
    [19, 25],
  ],
  queries: [
    ...COMMON_QUERIES,
    ['naruto', 'type=tv'],
    ['Fullmetal Alchemist: Brotherhood', ''],
    ['one piece', ''],
    ['Shingeki no Kyojin', ''],
    ['attack on titan', ''],
    ['steins gate', ''],
    ['cowboy bebop', 'sfw&sfw-strict'],
    ['death', ''],
    ['gintama', 'min_score=8'],
    ['monogatari', 'sfw'],
  ],
  typos: [...COMMON_TYPOS, 'cowboy bebpo', 'shingeki no kyojn', 'evangelon'],
  passing: 'sfw&sfw-strict&type=tv,movie&min_score=7',
};

const MANGA_CASE: KindCase<Manga> = {
  kind: 'manga',
  records: demoManga,
  kept: mangaKept,
  filters: MANGA_FILTERS,
  orders: MANGA_ORDERS,
  ordered: ['sfw&sfw-strict&type=manga&order_by=score&sort=desc', 'sfw&magazines=83,23,1,3&order_by=volumes&sort=desc', 'genres=1&order_by=start_date&sort=asc'],
  slices: [
    [2, 10],
    [7, 7],
    [3, 25],
    [71, 1],
  ],
  queries: [
    ...COMMON_QUERIES,
    ['naruto', 'type=manga'],
    ['Fullmetal Alchemist', ''],
    ['piece', ''],
    ['one', ''],
    ['Hunter x Hunter', ''],
    ['monster', 'sfw&sfw-strict'],
    ['high school', ''],
    ['bo', 'sfw'],
    ['man', 'min_score=8'],
    ['nana', 'magazines=83,23,1'],
  ],
  typos: [...COMMON_TYPOS, 'huntre x hunter', 'chainsw man', 'yotsuba to'],
  passing: 'sfw&sfw-strict&type=manga,lightnovel&min_score=7',
};

describe.skipIf(!url)('PostgreSQL catalogue store', () => {
  const { sql, fresh } = suiteDatabase('pgseam_catalogue', 4);
  let store: PostgresStore;
  let api: Answers;
  const memory = answersOf(createMemoryStore(demoData));

  beforeAll(async () => {
    store = await fresh();
    await store.seed(demoData);
    api = answersOf(store);
  }, 120_000);

  /**
   * Defines the tests both kinds pass: every record byte for byte, every filter and ordering read
   * whole (the same ids, order and totals on every page), slices, the page past the end, and `q`
   * searches (exact, prefix and word-prefix hits first; the same top hit for typos).
   * @param c - The kind.
   */
  function compareSearches<R extends Anime | Manga>(c: KindCase<R>): void {
    const all = (answers: Answers, filter: string) => allOf(answers, c.kind, filter);
    const find = (answers: Answers, filter: string) => search(answers, c.kind, filter);
    const pages = (filter: string) => Promise.all([find(api, filter), find(memory, filter)]);
    const expectSame = async (filter: string) => {
      const [pg, mem] = await Promise.all([all(api, filter), all(memory, filter)]);
      expect(pg.ids).toEqual(mem.ids);
      expect(pg.totals).toEqual(mem.totals);
    };
    const tiersOf = (q: string, filter: string) => titleTiers(c.records, c.kept(filter), q);

    it(`holds every demo ${c.kind} once`, async () => {
      expect(await store.count(c.kind)).toBe(c.records.length);
    });

    it('returns each record byte for byte as the memory store does (Jikan field order kept)', async () => {
      for (const r of c.records) expect(JSON.stringify(await api(`/v1/${c.kind}/${r.mal_id}`))).toBe(JSON.stringify(await memory(`/v1/${c.kind}/${r.mal_id}`)));
      expect(await api(`/v1/${c.kind}/999999999`)).toBeUndefined();
    });

    describe.each(c.filters)('filter: %s', (_name, filter) => {
      it('matches the memory store ids, order and total, on every page', () => expectSame(filter));
    });
    describe.each(c.orders)('order_by %s', (orderBy) => {
      it.each(['asc', 'desc'] as const)('%s: nulls last, ties by mal_id, as the memory store', (sort) => expectSame(`order_by=${orderBy}&sort=${sort}`));
    });
    it.each(c.ordered.map((filter) => [filter]))('orders a filtered search %s as the memory store', (filter) => expectSame(filter));

    it.each(c.slices)('page %i of limit %i is the same slice as in the memory store', async (page, limit) => {
      const [pg, mem] = await pages(`page=${page}&limit=${limit}`);
      expect(pg.data.map((r) => r.mal_id)).toEqual(mem.data.map((r) => r.mal_id));
      expect(pg.total).toBe(mem.total);
    });

    it('answers page 1000 with no records and the true total, browsing and searching', async () => {
      expect(await find(api, 'page=1000&limit=50')).toEqual({ data: [], total: (await find(memory, '')).total });
      const hits = (await find(memory, 'q=naruto')).total;
      expect(hits).toBeGreaterThan(0);
      expect(await find(api, 'q=naruto&page=1000&limit=50')).toEqual({ data: [], total: hits });
    });

    describe('q', () => {
      it.each(c.queries)('%s %j: exact, prefix and word-prefix hits first, in the memory store order', async (q, filter) => {
        const [pg, mem] = await Promise.all([all(api, query(qOf(q), filter)), all(memory, query(qOf(q), filter))]);
        expectTieredFirst(tiersOf(q, filter), pg, mem);
      });

      it('finds at least one exact or prefix hit for most queries (the tiers are exercised)', () => {
        expect(c.queries.filter(([q, f]) => tiersOf(q, f).length > 0).length).toBeGreaterThan(8);
      });

      it.each(c.typos)('typo %s: the same top hit as the memory store', async (q) => {
        const [pg, mem] = await pages(qOf(q));
        expect(pg.data[0]?.mal_id).toBeDefined();
        expect(pg.data[0]?.mal_id).toBe(mem.data[0]?.mal_id);
      });

      it('every q hit passes the filters', async () => {
        const kept = c.kept(c.passing);
        const { ids } = await all(api, query('q=no', c.passing));
        expect(ids.length).toBeGreaterThan(0);
        for (const id of ids) expect(kept(c.records.find((r) => r.mal_id === id)!)).toBe(true);
      });

      it('finds nothing for a query that folds to nothing, as the memory store', async () => {
        expect(await find(api, 'q=!!!')).toEqual({ data: [], total: 0 });
        expect(await find(memory, 'q=!!!')).toEqual({ data: [], total: 0 });
      });
    });
  }

  it('migrates idempotently and reports the same version twice', async () => {
    const version = await store.migrate();
    expect(version).toBeGreaterThanOrEqual(1);
    expect(await store.migrate()).toBe(version);
  });

  it('has every collection table vacuumed after 1 % of its rows change, so that counts keep reading indexes alone', async () => {
    const tables = await sql<{ name: string; options: string[] | null }[]>`
      select c.relname as name, c.reloptions as options from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${store.schema} and c.relname in ('anime', 'manga', 'characters', 'anime_characters')`;
    expect(tables).toHaveLength(4);
    for (const { options } of tables) {
      expect(options).toEqual(expect.arrayContaining(['autovacuum_vacuum_scale_factor=0.01', 'autovacuum_vacuum_insert_scale_factor=0.01']));
    }
  });

  describe('anime', () => {
    compareSearches(ANIME_CASE);

    it('q with order_by orders the hits by the field (nulls last, ties by mal_id)', async () => {
      const { ids } = await allIds(api, 'q=monogatari&order_by=score&sort=desc');
      const byScore = compareFields([{ field: 'score', dir: 'desc' }, { field: 'mal_id', dir: 'asc' }]);
      const sorted = ids.map((id) => fieldValues('anime', demoAnime.find((a) => a.mal_id === id)!)).sort(byScore);
      expect(ids).toEqual(sorted.map((e) => e.mal_id));
      expect(ids.length).toBeGreaterThan(1);
    });
  });

  it('upserts by mal_id: re-seeding keeps the count, a changed record replaces the old one everywhere', async () => {
    await store.seed({ anime: demoAnime });
    expect(await store.count('anime')).toBe(demoAnime.length);
    const original = demoAnime.find((a) => a.mal_id === 20)!;
    const renamed: Anime = { ...original, title: 'Zzyzx Renamed', title_synonyms: [], titles: [{ type: 'Default', title: 'Zzyzx Renamed' }] };
    try {
      expect(await store.upsert('anime', [renamed])).toBe(1);
      expect((await api<Anime>('/v1/anime/20'))?.data.title).toBe('Zzyzx Renamed');
      expect((await search(api, 'anime', qOf('zzyzx renamed'))).data[0]?.mal_id).toBe(20);
      expect((await search(api, 'anime', 'letter=z')).data.map((a) => a.mal_id)).toContain(20);
    } finally {
      await store.upsert('anime', [original]);
    }
    expect((await api<Anime>('/v1/anime/20'))?.data.title).toBe(original.title);
  });

  it('analyze() leaves no GIN index entry pending after upserts (seed calls it; the importer too)', async () => {
    const gin = await sql<{ name: string }[]>`
      select format('%I.%I', n.nspname, c.relname) as name from pg_index i
      join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace join pg_am am on am.oid = c.relam
      where n.nspname = ${store.schema} and am.amname = 'gin'`;
    const names = gin.map((g) => g.name.split('.')[1]);
    for (const name of ['anime_companies_gin', 'anime_prefixes_gin', 'anime_tags_gin', 'anime_texts_trgm', 'manga_magazines_gin', 'manga_prefixes_gin', 'manga_tags_gin', 'manga_texts_trgm', 'anime_characters_owners_gin']) {
      expect(names).toContain(name);
    }
    const pending = async () => {
      let pages = 0;
      for (const { name } of gin) pages += Number((await sql<{ n: string }[]>`select gin_clean_pending_list(${name}::regclass) as n`)[0]!.n);
      return pages;
    };
    await store.seed({ anime: demoAnime.slice(0, 200) });
    // Changed records: the same ones again would be written not at all.
    const renamed = (n: number) => demoAnime.slice(0, 200).map((a) => ({ ...a, title: `${a.title} ${n}` }));
    // What an upsert leaves pending (here merged by the probe itself) …
    await store.upsert('anime', renamed(1));
    expect(await pending()).toBeGreaterThan(0);
    // … and none after analyze().
    await store.upsert('anime', renamed(2));
    await store.analyze();
    expect(await pending()).toBe(0);
  });

  it('analyze() by a role that owns nothing (an importer with write grants only) leaves the tables to autovacuum', async () => {
    const { schema } = store;
    const role = `${schema}_writer`;
    await sql.unsafe(`create role "${role}" login`);
    const writer = postgres(url!, { max: 1, username: role, onnotice: () => {} });
    try {
      await sql.unsafe(`grant usage on schema "${schema}" to "${role}"; grant select, insert, update, delete on all tables in schema "${schema}" to "${role}"; grant usage on all sequences in schema "${schema}" to "${role}"`);
      const asWriter = createPostgresStore({ sql: writer, schema });
      await asWriter.upsert('anime', demoAnime.slice(0, 20));
      await expect(asWriter.analyze()).resolves.toBeUndefined();
      expect((await asWriter.query('anime', { search: demoAnime[0]!.title, offset: 0, limit: 1, select: ['mal_id'] })).data[0]).toEqual({ mal_id: demoAnime[0]!.mal_id });
    } finally {
      await writer.end({ timeout: 5 });
      await sql.unsafe(`drop owned by "${role}"; drop role "${role}"`);
    }
  });

  it('stores every record of every demo collection: no two demo records share an upsert identity', async () => {
    for (const name of RESOURCE_NAMES) {
      const records = (demoData as unknown as Record<string, readonly unknown[] | undefined>)[name] ?? [];
      expect(await store.count(name), name).toBe(records.length);
    }
  });

  it('answers a one- or two-letter query from the 300 most popular entries with that word prefix, as the memory store', async () => {
    // 400 entries with a word starting "zq", more than either store keeps for a short query.
    const many = Array.from({ length: 400 }, (_, i): Anime => {
      const a = demoAnime[i % demoAnime.length]!;
      const title = `Zqx ${i} ${a.title}`;
      return { ...a, mal_id: 5_000_000 + i, title, titles: [{ type: 'Default', title }], title_synonyms: [], title_english: null, popularity: (i * 7919) % 997 };
    });
    const local = await fresh();
    await local.seed({ anime: many });
    // The record store itself, against core's reference store.
    const reference = await loadCatalogue(createRecordStore(), { anime: many });
    for (const search of ['zq', 'z', '0']) {
      const q = { search, offset: 0, limit: 1000, select: ['mal_id'] };
      expect(JSON.stringify(await local.query('anime', q)), search).toBe(JSON.stringify(await reference.query('anime', q)));
    }
    expect((await local.query('anime', { search: 'zq', offset: 0, limit: 0 })).total).toBe(300);
    // And the API over it, against the memory store.
    const pgApi = answersOf(local);
    const mem = answersOf(createMemoryStore({ anime: many }));
    for (const q of ['zq', 'z', '0']) {
      const [pg, m] = await Promise.all([allIds(pgApi, `q=${q}&unapproved`), allIds(mem, `q=${q}&unapproved`)]);
      expect(pg.ids, q).toEqual(m.ids);
      expect(pg.totals[0], q).toBe(m.totals[0]);
    }
    expect((await search(pgApi, 'anime', 'q=zq&unapproved')).total).toBe(300);
  }, 60_000);

  it('rejects an unknown resource by name', async () => {
    await expect(store.upsert('nonsense', [{ mal_id: 1 }])).rejects.toThrow(/unknown resource "nonsense"/);
  });

  describe('manga (the same SQL search as anime, over the manga tables)', () => {
    compareSearches(MANGA_CASE);

    /** {@link titleTiers} of the demo manga a search with `filter` keeps. */
    const mangaTitleTiers = (q: string, filter: string) => titleTiers(demoManga, mangaKept(filter), q);

    it('q with order_by: the tiered hits, in the memory store order (nulls last, ties by mal_id)', async () => {
      for (const [q, orderBy, sort] of [
        ['no', 'score', 'desc'],
        ['ki', 'chapters', 'asc'],
        ['man', 'title', 'desc'],
        ['the', 'start_date', 'asc'],
      ] as const) {
        const filter = `q=${q}&order_by=${orderBy}&sort=${sort}`;
        const [pg, mem] = await Promise.all([allMangaIds(api, filter), allMangaIds(memory, filter)]);
        const tiered = mangaTitleTiers(q, '');
        expect(pg.ids.length, q).toBeGreaterThan(1);
        expect(pg.ids.filter((id) => tiered.includes(id)).sort(), q).toEqual([...tiered].sort());
        // Fuzzy hits may differ (a three-letter query has no fuzzy arm here); the shared ones keep the memory order.
        expect(pg.ids, q).toEqual(mem.ids.filter((id) => pg.ids.includes(id)));
      }
    });

    it('upserts by mal_id: a changed record replaces the old one in lookup, search and details', async () => {
      const original = demoManga[0]!;
      const renamed: Manga = { ...original, title: 'Zzyzx Renamed', title_synonyms: [], titles: [{ type: 'Default', title: 'Zzyzx Renamed' }], title_english: null };
      try {
        expect(await store.upsert('manga', [renamed])).toBe(1);
        expect(await store.count('manga')).toBe(demoManga.length);
        expect((await api<Manga>(`/v1/manga/${original.mal_id}`))?.data.title).toBe('Zzyzx Renamed');
        expect((await search(api, 'manga', qOf('zzyzx renamed'))).data[0]?.mal_id).toBe(original.mal_id);
        expect((await search(api, 'manga', 'letter=z')).data.map((m) => m.mal_id)).toContain(original.mal_id);
        expect((await api<Manga>(`/v1/manga/${original.mal_id}/full`))?.data.title).toBe('Zzyzx Renamed');
      } finally {
        await store.upsert('manga', [original]);
      }
      expect((await api<Manga>(`/v1/manga/${original.mal_id}`))?.data.title).toBe(original.title);
    });

    it('matches the memory store on null types, unapproved entries and the 300-entry cap of short queries', async () => {
      const many = Array.from({ length: 400 }, (_, i): Manga => {
        const m = demoManga[i % demoManga.length]!;
        const title = `Zqx ${i} ${m.title}`;
        return {
          ...m,
          mal_id: 6_000_000 + i,
          title,
          titles: [{ type: 'Default', title }],
          title_synonyms: [],
          title_english: null,
          type: i % 5 === 0 ? null : m.type,
          approved: i % 3 !== 0,
          popularity: (i * 7919) % 997,
        };
      });
      const local = await fresh();
      await local.seed({ manga: many });
      const pgApi = answersOf(local);
      const mem = answersOf(createMemoryStore({ manga: many }));
      const searches = ['q=zq&unapproved', 'q=z&unapproved=only', 'q=zq&unapproved&type=manga', 'unapproved&type=manga,novel', 'unapproved=only&order_by=popularity&sort=desc'];
      for (const filter of searches) expect(await allMangaIds(pgApi, filter), filter).toEqual(await allMangaIds(mem, filter));
      expect((await search(pgApi, 'manga', 'q=zq&unapproved')).total).toBe(300);
      // The 300 kept are the most popular, as for anime.
      const mostPopular = [...many].sort((a, b) => a.popularity! - b.popularity!).slice(0, 300).map((m) => m.mal_id);
      const { ids: kept } = await allMangaIds(pgApi, 'q=zq&unapproved');
      expect([...kept].sort((a, b) => a - b)).toEqual(mostPopular.sort((a, b) => a - b));
    }, 60_000);
  });

  it('refuses a schema of a pre-release version before the baseline, naming it and what to do; a new one is at the baseline, and migrating it again changes nothing', async () => {
    const old = `${store.schema}_v5`;
    const adopted = `${store.schema}_v8`;
    try {
      await sql.unsafe(`create schema "${old}"`);
      await sql.unsafe(`create table "${old}".catalogue_migrations (version integer primary key, applied_at timestamptz not null default now())`);
      await sql.unsafe(`insert into "${old}".catalogue_migrations (version) values (1), (2), (3), (4), (5)`);
      const refused = createPostgresStore({ sql, schema: old }).migrate();
      await expect(refused).rejects.toBeInstanceOf(OutdatedSchemaError);
      await expect(refused).rejects.toThrow(`PostgreSQL schema "${old}" was made by a pre-release version of @catalogue-api/store-postgres (schema version 5)`);
      await expect(refused).rejects.toThrow(`drop schema "${old}" cascade`);
      // Nothing was created in it.
      const tables = await sql<{ name: string }[]>`select table_name as name from information_schema.tables where table_schema = ${old}`;
      expect(tables.map((t) => t.name).sort()).toEqual(['catalogue_migrations']);
      // A schema migrated once is at the baseline, and migrating it again is a no-op at the same version.
      const fresh = createPostgresStore({ sql, schema: adopted });
      expect(await fresh.migrate()).toBe(BASELINE_VERSION);
      await fresh.seed({ anime: demoAnime.slice(0, 5) });
      expect(await fresh.migrate()).toBe(BASELINE_VERSION);
      expect(await fresh.count('anime')).toBe(5);
    } finally {
      await sql.unsafe(`drop schema if exists "${old}" cascade`);
      await sql.unsafe(`drop schema if exists "${adopted}" cascade`);
    }
  }, 120_000);
});
