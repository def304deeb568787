/**
 * A PostgreSQL `CatalogueStore` (porsager `postgres`), for catalogues too large to load into every
 * process and for several API instances sharing one database.
 *
 * What is served from where:
 * - `searchAnime` and `getAnime` run in SQL on every call: every filter and ordering of core's
 *   `select.ts` is a typed, indexed column (GIN over genre and company id arrays and word prefixes,
 *   one b-tree per order column and direction), `q` uses `pg_trgm` over the folded titles, pages are
 *   bounded offsets (page ≤ 1000, as the routes allow) over an order index.
 * - Every other `CatalogueStore` method (manga, characters, people, producers, magazines, sub-records,
 *   top lists, seasons, schedules, news…) is answered by core's memory store over the same tables
 *   (`anime_records` and `documents`), loaded on first use and reloaded, in every process, on the
 *   first call after an import has changed them (a `generation` counter bumped in each import
 *   transaction). Those answers are therefore byte for byte the memory store's, and identical across
 *   instances once each has seen the new generation; the price is that each process holds those
 *   collections in memory and reloads all of them after any import.
 * @module
 */
import postgres, { type PendingQuery, type Row, type Sql } from 'postgres';
import {
  createMemoryStore,
  normalizeTitle,
  type Anime,
  type AnimeOrderBy,
  type AnimeSearch,
  type CatalogueData,
  type CatalogueStore,
  type Page,
} from '@catalogue-api/core';
import { ANIME_COLUMNS, toAnimeRow, toAnimeTitles } from './internal/anime-rows.js';
import { migrateCatalogueSchema } from './internal/migrations.js';
import { isResourceName, recordKey, RESOURCE_NAMES, type ResourceName } from './resources.js';

/** Options of {@link createPostgresStore}. */
export interface PostgresStoreOptions {
  /** A `postgres` client to use; the store never ends it. Give this or `url`. */
  sql?: Sql;
  /** A connection URL, e.g. `postgres://postgres@127.0.0.1:5432/test`; the store owns that pool and `close()` ends it. */
  url?: string;
  /** The schema the tables live in; created by `migrate()`. @default 'catalogue' */
  schema?: string;
  /** Connections in the pool opened from `url`. @default 10 */
  max?: number;
}

/** The PostgreSQL catalogue store: a `CatalogueStore` plus schema, loading and lifecycle methods. */
export interface PostgresStore extends CatalogueStore {
  /** The schema in use. */
  readonly schema: string;
  /** The client in use. */
  readonly sql: Sql;
  /**
   * Creates or upgrades the schema (versioned, idempotent, safe to run from several processes).
   * @returns The schema version now in place.
   */
  migrate(): Promise<number>;
  /**
   * Inserts or replaces records by `mal_id` in one transaction. Records must already be valid
   * (the importer validates them with core's zod schemas).
   * @param resource - A `CatalogueData` key: `anime`, `manga`, `characters`…
   * @param records - The records.
   * @returns How many were written (records repeating an identity count once).
   * @throws TypeError for an unknown resource.
   */
  upsert(resource: string, records: readonly unknown[]): Promise<number>;
  /**
   * Upserts every collection of a dataset, in batches.
   * @param data - e.g. `demoData`.
   */
  seed(data: CatalogueData): Promise<void>;
  /**
   * How many records a resource holds.
   * @param resource - A `CatalogueData` key.
   */
  count(resource: string): Promise<number>;
  /** Ends the pool when the store opened it from `url`; otherwise does nothing. */
  close(): Promise<void>;
}

type Fragment = PendingQuery<Row[]>;

const ORDER: Record<AnimeOrderBy, string> = {
  mal_id: 'mal_id',
  title: 'title_key',
  start_date: 'aired_from',
  end_date: 'aired_to',
  episodes: 'episodes',
  score: 'score',
  scored_by: 'scored_by',
  rank: 'rank',
  popularity: 'popularity',
  members: 'members',
  favorites: 'favorites',
};

/** Query characters the fuzzy (word similarity) match looks at; see `titleHits`. */
const FUZZY_CHARS = 48;

/**
 * Entries a one- or two-letter query can match: the most popular ones holding a word with that
 * prefix, before filters, as in core's search index (its `candidates` default).
 */
const SHORT_QUERY_CANDIDATES = 300;

/** Rows per statement when seeding; well under PostgreSQL's 1 GB parameter limit at any record size. */
const SEED_BATCH = 1000;

/**
 * Creates the store. Call `migrate()` once before first use (it is cheap when up to date).
 * @param options - A client or URL, the schema and the pool size.
 * @returns The store.
 * @throws TypeError when neither `sql` nor `url` is given.
 * @example
 * ```ts
 * import { createCatalogueApp } from '@catalogue-api/core';
 * import { demoData } from '@catalogue-api/demo-data';
 * import { createPostgresStore } from '@catalogue-api/store-postgres';
 *
 * const store = createPostgresStore({ url: process.env.DATABASE_URL, max: 10 });
 * await store.migrate();
 * if ((await store.count('anime')) === 0) await store.seed(demoData);
 * const app = createCatalogueApp({ store });
 * ```
 */
export function createPostgresStore(options: PostgresStoreOptions): PostgresStore {
  if (!options.sql && !options.url) throw new TypeError('createPostgresStore needs `sql` or `url`');
  const owned = !options.sql;
  // NOTICEs such as "schema already exists, skipping" are expected and not worth logging. Searches
  // are planned for their actual values: a generic plan of a prepared search cannot tell a rare
  // trigram from a common one, and picks scans that take a second instead of a millisecond.
  const sql =
    options.sql ??
    postgres(options.url!, { max: options.max ?? 10, onnotice: () => {}, connection: { plan_cache_mode: 'force_custom_plan' } });
  const schema = options.schema ?? 'catalogue';
  const table = (name: string) => sql(`${schema}.${name}`);
  const anime = table('anime');
  const animeRecords = table('anime_records');
  const animeTitles = table('anime_titles');
  const documents = table('documents');
  const generation = table('generation');
  const titleMatches = table('anime_title_matches');

  const and = (parts: Fragment[]): Fragment =>
    parts.length === 0 ? sql`` : parts.slice(1).reduce((acc, part) => sql`${acc} and ${part}`, sql`where ${parts[0]!}`);

  /** `select.ts` `animeFilter`, clause by clause. */
  function animeWhere(s: AnimeSearch): Fragment {
    const w: Fragment[] = [];
    if (s.approval === 'approved') w.push(sql`a.approved`);
    else if (s.approval === 'unapproved') w.push(sql`not a.approved`);
    if (s.sfw === 'normal') w.push(sql`a.sfw <= 1`);
    else if (s.sfw === 'strict') w.push(sql`a.sfw = 0`);
    if (s.types) w.push(sql`a.type = any(${s.types}::text[])`);
    if (s.status) w.push(sql`a.status = ${s.status}`);
    if (s.ratings) w.push(sql`a.rating = any(${s.ratings}::text[])`);
    if (s.score !== undefined) w.push(sql`a.score = ${s.score}::float8`);
    if (s.minScore !== undefined) w.push(sql`a.score >= ${s.minScore}::float8`);
    if (s.maxScore !== undefined) w.push(sql`a.score <= ${s.maxScore}::float8`);
    if (s.genres) w.push(sql`a.tags @> ${s.genres}::int[]`);
    if (s.genresExclude) w.push(sql`not (a.tags && ${s.genresExclude}::int[])`);
    if (s.producers) w.push(sql`a.companies && ${s.producers}::int[]`);
    if (s.letter) w.push(sql`starts_with(a.title_key, ${s.letter.toLowerCase()})`);
    if (s.startDate) w.push(sql`left(a.aired_from, 10) >= ${s.startDate.first}`);
    if (s.endDate) w.push(sql`left(a.aired_to, 10) <= ${s.endDate.last}`);
    return and(w);
  }

  /** `select.ts` `animeComparator`: nulls last both ways, ties by `mal_id` ascending. */
  function animeOrder(orderBy: AnimeOrderBy, sort: 'asc' | 'desc'): Fragment {
    const column = sql(`a.${ORDER[orderBy]}`);
    if (orderBy === 'mal_id') return sort === 'desc' ? sql`order by a.mal_id desc` : sql`order by a.mal_id`;
    return sort === 'desc' ? sql`order by ${column} desc nulls last, a.mal_id` : sql`order by ${column} asc nulls last, a.mal_id`;
  }

  /**
   * Title hits for a folded query, with the memory store's tiers (0 exact, 1 prefix, 2 word prefix,
   * 3 fuzzy) and two similarities for ordering fuzzy hits. One- and two-letter queries match word
   * prefixes only, among the {@link SHORT_QUERY_CANDIDATES} most popular entries, as in core's search
   * index; longer ones match titles containing them and titles holding a stretch within
   * `pg_trgm` word similarity 0.5 (`anime_title_matches`, migration 2; both answered by the GIN index),
   * the latter from four letters on.
   *
   * The fuzzy match looks at the first {@link FUZZY_CHARS} characters: the memory store, too, finds a
   * fuzzy hit for a 200-character query only in a title holding most of it, and every further trigram
   * adds a posting list to the index scan. Whole-title `similarity` (`%`) only orders hits: as a match
   * condition its index candidates are every title sharing a few common trigrams ("no", "the"),
   * thousands of rechecks for hits word similarity already finds.
   */
  function titleHits(q: string): Fragment {
    const prefix = `${q}%`;
    const wordPrefix = `% ${q}%`;
    const scores = sql`
      min(case when t.title = ${q} then 0 when t.title like ${prefix} then 1 when t.title like ${wordPrefix} then 2 else 3 end) as tier,
      max(case when strpos(t.title, ${q}) > 0 then 1 else word_similarity(${q}, t.title) end) as wsim,
      max(similarity(t.title, ${q})) as sim`;
    if ([...q].length < 3) {
      // The titles of each candidate by its key (a lateral aggregate), not a scan of every title.
      return sql`
        select c.mal_id, s.tier, s.wsim, s.sim
        from (
          select a.mal_id from ${anime} a where a.prefixes @> array[${q}]::text[]
          order by a.popularity asc nulls last, a.mal_id limit ${SHORT_QUERY_CANDIDATES}
        ) c
        cross join lateral (select ${scores} from ${animeTitles} t where t.mal_id = c.mal_id) s`;
    }
    // A three-letter query holds two word-edge trigrams ("  s", " sh") of its four, which half the
    // titles share: its word-similarity candidates were eight times its infix hits and most of the time.
    const fuzzy = [...q].length < 4 ? null : q.length > FUZZY_CHARS ? q.slice(0, FUZZY_CHARS).trimEnd() : q;
    return sql`select t.mal_id, ${scores} from ${titleMatches}(${`%${q}%`}::text, ${fuzzy}::text) t group by t.mal_id`;
  }

  async function searchAnime(s: AnimeSearch): Promise<Page<Anime>> {
    const offset = (s.page - 1) * s.limit;
    const where = animeWhere(s);
    let q: string | undefined;
    if (s.q !== undefined) {
      q = normalizeTitle(s.q);
      // Nothing to match (e.g. only punctuation): the memory store finds nothing either.
      if (!q) return { data: [], total: 0 };
    }
    const order = s.orderBy
      ? animeOrder(s.orderBy, s.sort)
      : q === undefined
        ? sql`order by a.mal_id`
        : // Fuzzy hits: the closest stretch of a title first, then the closest whole title (a shorter
          // title wins, as fuse.js's field-length norm makes it win in the memory store).
          sql`order by h.tier, case when h.tier = 3 then h.wsim end desc, case when h.tier = 3 then h.sim end desc, a.popularity asc nulls last, a.mal_id`;
    if (q === undefined) {
      // Browsing: the total is its own count (an index-only or narrow scan), so that the page itself
      // is a top-N walk of an order index instead of a sort of every match under a window count.
      const rows = await sql<{ total: string; record: Anime | null }[]>`
        select c.total, r.record
        from (select count(*) as total from ${anime} a ${where}) c
        left join (
          select ids.mal_id, row_number() over () as n
          from (select a.mal_id from ${anime} a ${where} ${order} limit ${s.limit} offset ${offset}) ids
        ) p on true
        left join ${animeRecords} r on r.mal_id = p.mal_id
        order by p.n`;
      return { data: rows.flatMap((r) => (r.record ? [r.record] : [])), total: Number(rows[0]?.total ?? 0) };
    }
    // Searching: the hits are few (the title match is selective), so one pass counts and pages them.
    const from = sql`(${titleHits(q)}) h join ${anime} a on a.mal_id = h.mal_id`;
    const rows = await sql<{ total: string; record: Anime }[]>`
      select p.total, r.record
      from (
        select ids.*, row_number() over () as n
        from (select a.mal_id, count(*) over () as total from ${from} ${where} ${order} limit ${s.limit} offset ${offset}) ids
      ) p
      join ${animeRecords} r on r.mal_id = p.mal_id
      order by p.n`;
    if (rows.length > 0) return { data: rows.map((r) => r.record), total: Number(rows[0]!.total) };
    if (offset === 0) return { data: [], total: 0 };
    // Past the last page the window count has no row to ride on.
    const [row] = await sql<{ total: string }[]>`select count(*) as total from ${from} ${where}`;
    return { data: [], total: Number(row?.total ?? 0) };
  }

  async function getAnime(id: number): Promise<Anime | undefined> {
    const [row] = await sql<{ record: Anime }[]>`select record from ${animeRecords} where mal_id = ${id}`;
    return row?.record;
  }

  async function upsertAnime(q: Sql, records: readonly Anime[]): Promise<void> {
    if (records.length === 0) return;
    // One JSON parameter per statement: PostgreSQL unpacks it, the record text is kept as sent.
    await q`
      insert into ${anime} (${sql(ANIME_COLUMNS)})
      select ${sql(ANIME_COLUMNS)} from json_populate_recordset(null::${anime}, ${JSON.stringify(records.map(toAnimeRow))}::text::json)
      on conflict (mal_id) do update set
        title_key = excluded.title_key, type = excluded.type, status = excluded.status, rating = excluded.rating,
        score = excluded.score, scored_by = excluded.scored_by, rank = excluded.rank, popularity = excluded.popularity,
        members = excluded.members, favorites = excluded.favorites, episodes = excluded.episodes,
        approved = excluded.approved, sfw = excluded.sfw, aired_from = excluded.aired_from, aired_to = excluded.aired_to,
        tags = excluded.tags, companies = excluded.companies, prefixes = excluded.prefixes, updated_at = now()`;
    await q`
      insert into ${animeRecords} (mal_id, record)
      select (e ->> 'mal_id')::int, e from json_array_elements(${JSON.stringify(records)}::text::json) e
      on conflict (mal_id) do update set record = excluded.record`;
    const ids = records.map((r) => r.mal_id);
    await q`delete from ${animeTitles} where mal_id = any(${ids}::int[])`;
    const titles = records.flatMap((r) => toAnimeTitles(r).map((title) => ({ mal_id: r.mal_id, title })));
    await q`insert into ${animeTitles} select * from json_populate_recordset(null::${animeTitles}, ${JSON.stringify(titles)}::text::json)`;
  }

  async function upsertDocuments(q: Sql, collection: ResourceName, records: readonly unknown[]): Promise<void> {
    if (records.length === 0) return;
    const rows = records.map((record) => ({ key: recordKey(collection, record), record }));
    // A re-imported record keeps its `seq`, so source order survives idempotent re-runs.
    await q`
      insert into ${documents} (collection, key, record)
      select ${collection}, e ->> 'key', e -> 'record' from json_array_elements(${JSON.stringify(rows)}::text::json) e
      on conflict (collection, key) do update set record = excluded.record, updated_at = now()`;
  }

  async function upsert(resource: string, records: readonly unknown[]): Promise<number> {
    if (!isResourceName(resource)) throw new TypeError(`unknown resource "${resource}"; one of ${RESOURCE_NAMES.join(', ')}`);
    // The last of several records with one identity wins, as in a sequence of single upserts.
    const unique = [...new Map(records.map((r) => [recordKey(resource, r), r])).values()];
    await sql.begin(async (tx) => {
      const q = tx as unknown as Sql;
      if (resource === 'anime') await upsertAnime(q, unique as Anime[]);
      else await upsertDocuments(q, resource, unique);
      await q`update ${generation} set value = value + 1`;
    });
    return unique.length;
  }

  let delegate: { generation: string; store: Promise<CatalogueStore> } | undefined;

  /** The memory store over the current tables, reloaded when the generation counter moved. */
  async function memory(): Promise<CatalogueStore> {
    const [row] = await sql<{ value: string }[]>`select value from ${generation}`;
    const current = row?.value ?? '0';
    if (delegate?.generation !== current) {
      const load = async () => {
        const data: Record<string, unknown[]> = {};
        const animeRows = await sql<{ record: object }[]>`select record from ${animeRecords} order by mal_id`;
        data.anime = animeRows.map((r) => r.record);
        const docs = await sql<{ collection: string; record: unknown }[]>`select collection, record from ${documents} order by collection, seq`;
        for (const d of docs) (data[d.collection] ??= []).push(d.record);
        return createMemoryStore(data as CatalogueData);
      };
      delegate = { generation: current, store: load() };
    }
    return delegate.store;
  }

  const store: Omit<PostgresStore, keyof CatalogueStore> & Pick<CatalogueStore, 'getAnime' | 'searchAnime'> = {
    schema,
    sql,
    migrate: () => migrateCatalogueSchema(sql, schema),
    getAnime,
    searchAnime,
    upsert,
    async seed(data) {
      for (const [resource, records] of Object.entries(data) as [string, readonly unknown[] | undefined][]) {
        for (let i = 0; records && i < records.length; i += SEED_BATCH) await upsert(resource, records.slice(i, i + SEED_BATCH));
      }
    },
    async count(resource) {
      const [row] =
        resource === 'anime'
          ? await sql<{ n: string }[]>`select count(*) as n from ${anime}`
          : await sql<{ n: string }[]>`select count(*) as n from ${documents} where collection = ${resource}`;
      return Number(row?.n ?? 0);
    },
    async close() {
      if (owned) await sql.end({ timeout: 5 });
    },
  };

  // Every other CatalogueStore method (those the memory store has and this file does not push
  // down yet) runs on the memory delegate, so a new resource works here the day core adds it.
  const template = createMemoryStore({}) as unknown as Record<string, unknown>;
  const target = store as unknown as Record<string, unknown>;
  for (const [name, value] of Object.entries(template)) {
    if (typeof value !== 'function' || name in target) continue;
    target[name] = async (...args: unknown[]) => {
      const m = (await memory()) as unknown as Record<string, (...a: unknown[]) => unknown>;
      return m[name]!(...args);
    };
  }
  return store as PostgresStore;
}
