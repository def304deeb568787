/**
 * The PostgreSQL catalogue store on the demo dataset: its schema (the baseline, the refusal of a
 * pre-release schema, indexes readied by `analyze()`), and, through core's endpoint methods over it
 * (`catalogueOver`), the same anime and manga searches as the memory store: the same ids in the same
 * order with the same totals, for every filter, ordering, direction, SFW mode, approval mode and
 * page; `q` searches keep the memory store's top hit and its exact/prefix/word-prefix tiers.
 * Needs `DATABASE_URL`; each run uses its own schema.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { createMemoryStore } from '@catalogue-api/core';
import { type Anime, type Manga } from '@catalogue-api/core/schemas';
import {
  catalogueOver,
  createRecordStore,
  loadCatalogue,
  normalizeTitle,
  type AnimeOrderBy,
  type AnimeSearch,
  type Catalogue,
  type MangaOrderBy,
  type MangaSearch,
} from '@catalogue-api/core/store';
import { demoData } from '@catalogue-api/demo-data';
import { ANIME as ANIME_KIND, MANGA as MANGA_KIND } from '../../core/src/catalogue/kinds.js';
import { searchWhere } from '../../core/src/catalogue/media-search.js';
import { fieldValues } from '../../core/src/seam/collections.js';
import { compareFields, holdsAll } from '../../core/src/seam/evaluate.js';
import { BASELINE_VERSION, OutdatedSchemaError } from '../src/internal/migrations.js';
import { createPostgresStore, type PostgresStore } from '../src/catalogue-store.js';
import { searchTexts } from '../src/internal/tables.js';
import { RESOURCE_NAMES } from '../src/resources.js';
import { suiteDatabase } from './suite-database.js';

const url = process.env.DATABASE_URL;
const demoAnime = demoData.anime as readonly Anime[];
const base: AnimeSearch = { page: 1, limit: 25, sfw: 'off', approval: 'approved', sort: 'asc' };
const ORDERS: AnimeOrderBy[] = ['mal_id', 'title', 'start_date', 'end_date', 'episodes', 'score', 'scored_by', 'rank', 'popularity', 'members', 'favorites'];

/** A search read whole: every id it matches, in order, and the total each page reported. */
interface AllIds {
  ids: number[];
  totals: number[];
}

/**
 * Reads a search whole, page by page of 50 (so paging itself is compared too).
 * @param searchPage - The search for one page, of 50 records.
 */
async function readAll(searchPage: (page: number) => Promise<{ data: ReadonlyArray<{ mal_id: number }>; total: number }>): Promise<AllIds> {
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

/** Every id an anime search matches, in order, read page by page ({@link readAll}). */
const allIds = (store: Catalogue, search: Partial<AnimeSearch>) => readAll((page) => store.searchAnime({ ...base, limit: 50, ...search, page }));

const demoManga = demoData.manga as readonly Manga[];
const mangaBase: MangaSearch = { page: 1, limit: 25, sfw: 'off', approval: 'approved', sort: 'asc' };
const MANGA_ORDERS = Object.keys(MANGA_KIND.orderBy) as MangaOrderBy[];

/** {@link allIds} for manga. */
const allMangaIds = (store: Catalogue, search: Partial<MangaSearch>) => readAll((page) => store.searchManga({ ...mangaBase, limit: 50, ...search, page }));

/**
 * The records matching `q` exactly, by prefix or by word prefix, best tier first, then by popularity.
 * @param kept - Whether the search's filters keep a record ({@link animeKept}, {@link mangaKept}).
 */
function titleTiers<T extends Anime | Manga>(records: readonly T[], kept: (record: T) => boolean, q: string): number[] {
  const query = normalizeTitle(q);
  const tiered: Array<{ record: T; tier: number }> = [];
  for (const record of records) {
    if (!kept(record)) continue;
    const titles = searchTexts('anime', record);
    const tier = titles.includes(query) ? 0 : titles.some((t) => t.startsWith(query)) ? 1 : titles.some((t) => t.includes(` ${query}`)) ? 2 : 3;
    if (tier < 3) tiered.push({ record, tier });
  }
  const pop = (record: T) => record.popularity ?? Number.MAX_SAFE_INTEGER;
  tiered.sort((x, y) => x.tier - y.tier || pop(x.record) - pop(y.record) || x.record.mal_id - y.record.mal_id);
  return tiered.map((t) => t.record.mal_id);
}

/** Whether the memory store's filters of an anime search keep an anime. */
function animeKept(filter: Partial<AnimeSearch>): (anime: Anime) => boolean {
  const where = searchWhere(ANIME_KIND, { ...base, ...filter });
  return (anime) => holdsAll(fieldValues('anime', anime), where);
}

/** {@link animeKept} for manga. */
function mangaKept(filter: Partial<MangaSearch>): (manga: Manga) => boolean {
  const where = searchWhere(MANGA_KIND, { ...mangaBase, ...filter });
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

/** The filters both kinds take, with values both demo sets have matches for. */
const COMMON_FILTERS: Array<[string, Partial<AnimeSearch> & Partial<MangaSearch>]> = [
  ['no filter', {}],
  ['approval all', { approval: 'all' }],
  ['approval unapproved only', { approval: 'unapproved' }],
  ['sfw normal', { sfw: 'normal' }],
  ['sfw strict', { sfw: 'strict' }],
  ['min score', { minScore: 8 }],
  ['max score', { maxScore: 6.5 }],
  ['score range', { minScore: 7, maxScore: 8 }],
  ['one genre', { genres: [1] }],
  ['genre, theme and demographic together', { genres: [1, 27] }],
  ['genres exclude', { genresExclude: [1, 4] }],
  ['genres and exclude', { genres: [1], genresExclude: [2] }],
  ['letter lower case', { letter: 'k' }],
  ['letter upper case', { letter: 'S' }],
  ['empty type list', { types: [] }],
];

const producerId = 352;

/** The filters both kinds take with values of their own: each filter's anime value, then its manga value. */
const KIND_FILTERS: Array<[string, Partial<AnimeSearch>, Partial<MangaSearch>]> = [
  ['one type', { types: ['TV'] }, { types: ['Manga'] }],
  ['several types (OR)', { types: ['Movie', 'OVA', 'Music'] }, { types: ['Light Novel', 'Novel', 'One-shot'] }],
  ['status running', { status: 'Currently Airing' }, { status: 'Publishing' }],
  ['status upcoming or on hiatus', { status: 'Not yet aired' }, { status: 'On Hiatus' }],
  ['exact score', { score: 8.04 }, { score: 7.27 }],
  ['several genres (AND)', { genres: [1, 2] }, { genres: [1, 8] }],
  ['letter digit', { letter: '0' }, { letter: '2' }],
  ['start date year', { startDate: { first: '2010-01-01', last: '2010-12-31' } }, { startDate: { first: '1999-01-01', last: '1999-12-31' } }],
  ['end date month', { endDate: { first: '2005-06-01', last: '2005-06-30' } }, { endDate: { first: '2019-01-01', last: '2019-01-31' } }],
  [
    'start and end date',
    { startDate: { first: '2000-01-01', last: '2000-12-31' }, endDate: { first: '2012-01-01', last: '2012-12-31' } },
    { startDate: { first: '1990-01-01', last: '1990-12-31' }, endDate: { first: '2005-01-01', last: '2005-12-31' } },
  ],
  [
    'everything at once',
    { sfw: 'normal', types: ['TV'], minScore: 6, genres: [1], genresExclude: [9], approval: 'all' },
    { sfw: 'normal', types: ['Manga'], minScore: 7, genres: [1], genresExclude: [9], magazines: [83, 1, 23], approval: 'all' },
  ],
  ['nothing matches', { types: ['TV'], status: 'Not yet aired', minScore: 9.9 }, { types: ['Manga'], status: 'On Hiatus', minScore: 9.9 }],
];

/** The demo anime filters: every filter of `GET /v1/anime`, alone and together. */
const FILTERS: Array<[string, Partial<AnimeSearch>]> = [
  ...COMMON_FILTERS,
  ...KIND_FILTERS.map(([name, anime]): [string, Partial<AnimeSearch>] => [name, anime]),
  ['one rating', { ratings: ['PG-13 - Teens 13 or older'] }],
  ['several ratings (OR)', { ratings: ['R+ - Mild Nudity', 'Rx - Hentai', 'G - All Ages'] }],
  ['one producer (producers, studios, licensors)', { producers: [producerId] }],
  ['several producers (ANY)', { producers: [producerId, 37, 1] }],
];

/** The demo manga filters: every filter of `GET /v1/manga`, alone and together. */
const MANGA_FILTERS: Array<[string, Partial<MangaSearch>]> = [
  ...COMMON_FILTERS,
  ...KIND_FILTERS.map(([name, , manga]): [string, Partial<MangaSearch>] => [name, manga]),
  ['one magazine', { magazines: [83] }],
  ['several magazines (ANY)', { magazines: [83, 23, 1] }],
];

/** What the searches of one kind are compared by, in both stores. */
interface KindCase<S extends AnimeSearch | MangaSearch, R extends Anime | Manga> {
  kind: 'anime' | 'manga';
  records: readonly R[];
  base: S;
  search(catalogue: Catalogue, search: S): Promise<{ data: ReadonlyArray<{ mal_id: number }>; total: number }>;
  get(catalogue: Catalogue, id: number): Promise<R | undefined>;
  /** Whether the memory store's filters of a search keep a record. */
  kept(filter: Partial<S>): (record: R) => boolean;
  filters: ReadonlyArray<[string, Partial<S>]>;
  orders: ReadonlyArray<NonNullable<S['orderBy']>>;
  /** Filtered and ordered searches, read whole. */
  ordered: ReadonlyArray<Partial<S>>;
  /** Pages and limits of a plain browse. */
  slices: ReadonlyArray<[number, number]>;
  /** `q` searches with filters, whose exact, prefix and word-prefix hits come first. */
  queries: ReadonlyArray<[string, Partial<S>]>;
  /** Misspelt titles, whose top hit is the same in both stores. */
  typos: readonly string[];
  /** Filters a `q` search's every hit must pass. */
  passing: Partial<S>;
}

/** `q` searches both kinds answer alike: a title, a word, a stop word, short prefixes, a Japanese title. */
const COMMON_QUERIES: Array<[string, Partial<AnimeSearch> & Partial<MangaSearch>]> = [
  ['Naruto', {}],
  ['fullmetal', {}],
  ['the', { approval: 'all' }],
  ['k', {}],
  ['sh', {}],
  ['進撃の巨人', {}],
];
/** Misspelt titles both kinds hold. */
const COMMON_TYPOS = ['naruot', 'fulmetal alchemist'];

const ANIME_CASE: KindCase<AnimeSearch, Anime> = {
  kind: 'anime',
  records: demoAnime,
  base,
  search: (catalogue, search) => catalogue.searchAnime(search),
  get: (catalogue, id) => catalogue.getAnime(id),
  kept: animeKept,
  filters: FILTERS,
  orders: ORDERS,
  ordered: [{ sfw: 'strict', types: ['TV'], orderBy: 'score', sort: 'desc' }],
  slices: [
    [2, 10],
    [7, 7],
    [19, 25],
  ],
  queries: [
    ...COMMON_QUERIES,
    ['naruto', { types: ['TV'] }],
    ['Fullmetal Alchemist: Brotherhood', {}],
    ['one piece', {}],
    ['Shingeki no Kyojin', {}],
    ['attack on titan', {}],
    ['steins gate', {}],
    ['cowboy bebop', { sfw: 'strict' }],
    ['death', {}],
    ['gintama', { minScore: 8 }],
    ['monogatari', { sfw: 'normal' }],
  ],
  typos: [...COMMON_TYPOS, 'cowboy bebpo', 'shingeki no kyojn', 'evangelon'],
  passing: { sfw: 'strict', types: ['TV', 'Movie'], minScore: 7 },
};

const MANGA_CASE: KindCase<MangaSearch, Manga> = {
  kind: 'manga',
  records: demoManga,
  base: mangaBase,
  search: (catalogue, search) => catalogue.searchManga(search),
  get: (catalogue, id) => catalogue.getManga(id),
  kept: mangaKept,
  filters: MANGA_FILTERS,
  orders: MANGA_ORDERS,
  ordered: [
    { sfw: 'strict', types: ['Manga'], orderBy: 'score', sort: 'desc' },
    { sfw: 'normal', magazines: [83, 23, 1, 3], orderBy: 'volumes', sort: 'desc' },
    { genres: [1], orderBy: 'start_date', sort: 'asc' },
  ],
  slices: [
    [2, 10],
    [7, 7],
    [3, 25],
    [71, 1],
  ],
  queries: [
    ...COMMON_QUERIES,
    ['naruto', { types: ['Manga'] }],
    ['Fullmetal Alchemist', {}],
    ['piece', {}],
    ['one', {}],
    ['Hunter x Hunter', {}],
    ['monster', { sfw: 'strict' }],
    ['high school', {}],
    ['bo', { sfw: 'normal' }],
    ['man', { minScore: 8 }],
    ['nana', { magazines: [83, 23, 1] }],
  ],
  typos: [...COMMON_TYPOS, 'huntre x hunter', 'chainsw man', 'yotsuba to'],
  passing: { sfw: 'strict', types: ['Manga', 'Light Novel'], minScore: 7 },
};

describe.skipIf(!url)('PostgreSQL catalogue store', () => {
  const { sql, fresh } = suiteDatabase('pgseam_catalogue', 4);
  let store: PostgresStore;
  let api: Catalogue;
  const memory = catalogueOver(createMemoryStore(demoData));

  beforeAll(async () => {
    store = await fresh();
    await store.seed(demoData);
    api = catalogueOver(store);
  }, 120_000);

  /**
   * Defines the tests both kinds pass: every record byte for byte, every filter and ordering read
   * whole (the same ids, order and totals on every page), slices, the page past the end, and `q`
   * searches (exact, prefix and word-prefix hits first; the same top hit for typos).
   * @param c - The kind.
   */
  function compareSearches<S extends AnimeSearch | MangaSearch, R extends Anime | Manga>(c: KindCase<S, R>): void {
    const all = (catalogue: Catalogue, search: Partial<S>) => readAll((page) => c.search(catalogue, { ...c.base, limit: 50, ...search, page }));
    const pages = (search: Partial<S>) => Promise.all([c.search(api, { ...c.base, ...search }), c.search(memory, { ...c.base, ...search })]);
    const expectSame = async (search: Partial<S>) => {
      const [pg, mem] = await Promise.all([all(api, search), all(memory, search)]);
      expect(pg.ids).toEqual(mem.ids);
      expect(pg.totals).toEqual(mem.totals);
    };
    const tiersOf = (q: string, filter: Partial<S>) => titleTiers(c.records, c.kept(filter), q);

    it(`holds every demo ${c.kind} once`, async () => {
      expect(await store.count(c.kind)).toBe(c.records.length);
    });

    it('returns each record byte for byte as the memory store does (Jikan field order kept)', async () => {
      for (const r of c.records) expect(JSON.stringify(await c.get(api, r.mal_id))).toBe(JSON.stringify(await c.get(memory, r.mal_id)));
      expect(await c.get(api, 999_999_999)).toBeUndefined();
    });

    describe.each(c.filters)('filter: %s', (_name, filter) => {
      it('matches the memory store ids, order and total, on every page', () => expectSame(filter));
    });
    describe.each(c.orders)('order_by %s', (orderBy) => {
      // `{ orderBy, sort }` is a `Partial<S>`; TypeScript cannot tell through the type parameter.
      it.each(['asc', 'desc'] as const)('%s: nulls last, ties by mal_id, as the memory store', (sort) => expectSame({ orderBy, sort } as Partial<S>));
    });
    it.each(c.ordered.map((search) => [search]))('orders a filtered search %j as the memory store', (search) => expectSame(search));

    it.each(c.slices)('page %i of limit %i is the same slice as in the memory store', async (page, limit) => {
      const [pg, mem] = await pages({ page, limit } as Partial<S>);
      expect(pg.data.map((r) => r.mal_id)).toEqual(mem.data.map((r) => r.mal_id));
      expect(pg.total).toBe(mem.total);
    });

    it('answers page 1000 with no records and the true total, browsing and searching', async () => {
      expect(await c.search(api, { ...c.base, page: 1000, limit: 50 })).toEqual({ data: [], total: (await c.search(memory, c.base)).total });
      const hits = (await c.search(memory, { ...c.base, q: 'naruto' })).total;
      expect(hits).toBeGreaterThan(0);
      expect(await c.search(api, { ...c.base, q: 'naruto', page: 1000, limit: 50 })).toEqual({ data: [], total: hits });
    });

    describe('q', () => {
      it.each(c.queries)('%s %j: exact, prefix and word-prefix hits first, in the memory store order', async (q, filter) => {
        const [pg, mem] = await Promise.all([all(api, { q, ...filter }), all(memory, { q, ...filter })]);
        expectTieredFirst(tiersOf(q, filter), pg, mem);
      });

      it('finds at least one exact or prefix hit for most queries (the tiers are exercised)', () => {
        expect(c.queries.filter(([q, f]) => tiersOf(q, f).length > 0).length).toBeGreaterThan(8);
      });

      it.each(c.typos)('typo %s: the same top hit as the memory store', async (q) => {
        const [pg, mem] = await pages({ q } as Partial<S>);
        expect(pg.data[0]?.mal_id).toBeDefined();
        expect(pg.data[0]?.mal_id).toBe(mem.data[0]?.mal_id);
      });

      it('every q hit passes the filters', async () => {
        const kept = c.kept(c.passing);
        const { ids } = await all(api, { q: 'no', ...c.passing });
        expect(ids.length).toBeGreaterThan(0);
        for (const id of ids) expect(kept(c.records.find((r) => r.mal_id === id)!)).toBe(true);
      });

      it('finds nothing for a query that folds to nothing, as the memory store', async () => {
        expect(await c.search(api, { ...c.base, q: '!!!' })).toEqual({ data: [], total: 0 });
        expect(await c.search(memory, { ...c.base, q: '!!!' })).toEqual({ data: [], total: 0 });
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
      const { ids } = await allIds(api, { q: 'monogatari', orderBy: 'score', sort: 'desc' });
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
      expect((await api.getAnime(20))?.title).toBe('Zzyzx Renamed');
      expect((await api.searchAnime({ ...base, q: 'zzyzx renamed' })).data[0]?.mal_id).toBe(20);
      expect((await api.searchAnime({ ...base, letter: 'z' })).data.map((a) => a.mal_id)).toContain(20);
    } finally {
      await store.upsert('anime', [original]);
    }
    expect((await api.getAnime(20))?.title).toBe(original.title);
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
    // And the endpoint methods over it, against the memory store.
    const mem = catalogueOver(createMemoryStore({ anime: many }));
    for (const q of ['zq', 'z', '0']) {
      const [pg, m] = await Promise.all([allIds(catalogueOver(local), { q, approval: 'all' }), allIds(mem, { q, approval: 'all' })]);
      expect(pg.ids, q).toEqual(m.ids);
      expect(pg.totals[0], q).toBe(m.totals[0]);
    }
    expect((await catalogueOver(local).searchAnime({ ...base, approval: 'all', q: 'zq' })).total).toBe(300);
  }, 60_000);

  it('rejects an unknown resource by name', async () => {
    await expect(store.upsert('nonsense', [{ mal_id: 1 }])).rejects.toThrow(/unknown resource "nonsense"/);
  });

  describe('manga (the same SQL search as anime, over the manga tables)', () => {
    compareSearches(MANGA_CASE);

    /** {@link titleTiers} of the demo manga a search with `filter` keeps. */
    const mangaTitleTiers = (q: string, filter: Partial<MangaSearch>) => titleTiers(demoManga, mangaKept(filter), q);

    it('q with order_by: the tiered hits, in the memory store order (nulls last, ties by mal_id)', async () => {
      for (const [q, orderBy, sort] of [
        ['no', 'score', 'desc'],
        ['ki', 'chapters', 'asc'],
        ['man', 'title', 'desc'],
        ['the', 'start_date', 'asc'],
      ] as const) {
        const [pg, mem] = await Promise.all([allMangaIds(api, { q, orderBy, sort }), allMangaIds(memory, { q, orderBy, sort })]);
        const tiered = mangaTitleTiers(q, {});
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
        expect((await api.getManga(original.mal_id))?.title).toBe('Zzyzx Renamed');
        expect((await api.searchManga({ ...mangaBase, q: 'zzyzx renamed' })).data[0]?.mal_id).toBe(original.mal_id);
        expect((await api.searchManga({ ...mangaBase, letter: 'z' })).data.map((m) => m.mal_id)).toContain(original.mal_id);
        expect((await api.getMangaFull(original.mal_id, 'off'))?.title).toBe('Zzyzx Renamed');
      } finally {
        await store.upsert('manga', [original]);
      }
      expect((await api.getManga(original.mal_id))?.title).toBe(original.title);
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
      const mem = catalogueOver(createMemoryStore({ manga: many }));
      const searches: Array<Partial<MangaSearch>> = [
        { q: 'zq', approval: 'all' },
        { q: 'z', approval: 'unapproved' },
        { q: 'zq', approval: 'all', types: ['Manga'] },
        { approval: 'all', types: ['Manga', 'Novel'] },
        { approval: 'unapproved', orderBy: 'popularity', sort: 'desc' },
      ];
      for (const search of searches) expect(await allMangaIds(catalogueOver(local), search), JSON.stringify(search)).toEqual(await allMangaIds(mem, search));
      expect((await catalogueOver(local).searchManga({ ...mangaBase, approval: 'all', q: 'zq' })).total).toBe(300);
      // The 300 kept are the most popular, as for anime.
      const mostPopular = [...many].sort((a, b) => a.popularity! - b.popularity!).slice(0, 300).map((m) => m.mal_id);
      const { ids: kept } = await allMangaIds(catalogueOver(local), { q: 'zq', approval: 'all' });
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
