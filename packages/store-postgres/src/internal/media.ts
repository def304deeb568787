/**
 * Anime and manga lookup, search and upsert in SQL: one implementation over the three tables of a
 * media kind (`<kind>` typed columns, `<kind>_records` the records, `<kind>_titles` folded titles,
 * plus the `<kind>_title_matches` function), parameterized by what differs between kinds: the
 * columns, the order columns, the date columns and the filters only one kind has (anime ratings and
 * producers, manga magazines). Each filter and ordering reproduces core's `select.ts` /
 * `select-manga.ts` clause by clause.
 * @module
 */
import type { PendingQuery, Row, Sql } from 'postgres';
import { normalizeTitle, queryWordEdges, queryWordPatterns, type Anime, type AnimeOrderBy, type AnimeSearch, type Manga, type MangaOrderBy, type MangaSearch, type Page } from '@catalogue-api/core';
import { ANIME_COLUMNS, MANGA_COLUMNS, toAnimeRow, toMangaRow, toMediaTitles } from './media-rows.js';

type Fragment = PendingQuery<Row[]>;

/** The search fields anime and manga share. */
type MediaSearch = AnimeSearch | MangaSearch;

/** What differs between the search tables of two media kinds. */
export interface MediaKind<T extends Anime | Manga, S extends MediaSearch, O extends string> {
  /** The table name prefix: `anime`, `manga`. */
  name: 'anime' | 'manga';
  /** The typed columns, in table order. */
  columns: readonly string[];
  /** A record's typed columns. */
  toRow(record: T): object;
  /** The column of each `order_by` value. */
  order: Record<O, string>;
  /** The columns of `start_date` and `end_date` (`aired` or `published`). */
  dates: readonly [from: string, to: string];
  /** The filters only this kind has. */
  filters(sql: Sql, s: S): Fragment[];
}

/** Anime: `aired` dates, `rating`, producers, studios and licensors as `companies`. */
export const ANIME: MediaKind<Anime, AnimeSearch, AnimeOrderBy> = {
  name: 'anime',
  columns: ANIME_COLUMNS,
  toRow: toAnimeRow,
  order: {
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
  },
  dates: ['aired_from', 'aired_to'],
  filters(sql, s) {
    const w: Fragment[] = [];
    if (s.ratings) w.push(sql`a.rating = any(${s.ratings}::text[])`);
    if (s.producers) w.push(sql`a.companies && ${s.producers}::int[]`);
    return w;
  },
};

/** Manga: `published` dates, serializations as `magazines`. */
export const MANGA: MediaKind<Manga, MangaSearch, MangaOrderBy> = {
  name: 'manga',
  columns: MANGA_COLUMNS,
  toRow: toMangaRow,
  order: {
    mal_id: 'mal_id',
    title: 'title_key',
    start_date: 'published_from',
    end_date: 'published_to',
    chapters: 'chapters',
    volumes: 'volumes',
    score: 'score',
    scored_by: 'scored_by',
    rank: 'rank',
    popularity: 'popularity',
    members: 'members',
    favorites: 'favorites',
  },
  dates: ['published_from', 'published_to'],
  filters(sql, s) {
    return s.magazines ? [sql`a.magazines && ${s.magazines}::int[]`] : [];
  },
};

/** Query characters the fuzzy (word similarity) match looks at; see `titleHits`. */
const FUZZY_CHARS = 48;

/**
 * Entries a one- or two-letter query can match: the most popular ones holding a word with that
 * prefix, before filters, as in core's search index (its `candidates` default).
 */
const SHORT_QUERY_CANDIDATES = 300;

/** The SQL side of one media kind. */
export interface MediaTables<T, S> {
  /** The record by `mal_id`. */
  get(id: number): Promise<T | undefined>;
  /** The search, as the memory store answers it. */
  search(s: S): Promise<Page<T>>;
  /** Inserts or replaces records (unique by `mal_id`) with their typed columns and titles. */
  upsert(q: Sql, records: readonly T[]): Promise<void>;
  /** How many entries there are. */
  count(): Promise<number>;
}

/**
 * The lookup, search and upsert of a media kind in a schema.
 * @param sql - The client.
 * @param schema - The schema (unquoted).
 * @param kind - {@link ANIME} or {@link MANGA}.
 */
export function mediaTables<T extends Anime | Manga, S extends MediaSearch, O extends string>(
  sql: Sql,
  schema: string,
  kind: MediaKind<T, S, O>,
): MediaTables<T, S> {
  const table = (suffix: string) => sql(`${schema}.${kind.name}${suffix}`);
  const entries = table('');
  const records = table('_records');
  const titles = table('_titles');
  const titleMatches = table('_title_matches');
  const dateFrom = sql(`a.${kind.dates[0]}`);
  const dateTo = sql(`a.${kind.dates[1]}`);
  const updates = kind.columns
    .filter((c) => c !== 'mal_id')
    .map((c) => sql`${sql(c)} = excluded.${sql(c)}`)
    .reduce((acc, part) => sql`${acc}, ${part}`);


  const and = (parts: Fragment[]): Fragment =>
    parts.length === 0 ? sql`` : parts.slice(1).reduce((acc, part) => sql`${acc} and ${part}`, sql`where ${parts[0]!}`);

  /** `animeFilter` / `mangaFilter`, clause by clause. */
  function where(s: S): Fragment {
    const w: Fragment[] = [];
    if (s.approval === 'approved') w.push(sql`a.approved`);
    else if (s.approval === 'unapproved') w.push(sql`not a.approved`);
    if (s.sfw === 'normal') w.push(sql`a.sfw <= 1`);
    else if (s.sfw === 'strict') w.push(sql`a.sfw = 0`);
    // A null manga type matches no type list, as `includes` finds no null in one.
    if (s.types) w.push(sql`a.type = any(${s.types}::text[])`);
    if (s.status) w.push(sql`a.status = ${s.status}`);
    if (s.score !== undefined) w.push(sql`a.score = ${s.score}::float8`);
    if (s.minScore !== undefined) w.push(sql`a.score >= ${s.minScore}::float8`);
    if (s.maxScore !== undefined) w.push(sql`a.score <= ${s.maxScore}::float8`);
    if (s.genres) w.push(sql`a.tags @> ${s.genres}::int[]`);
    if (s.genresExclude) w.push(sql`not (a.tags && ${s.genresExclude}::int[])`);
    w.push(...kind.filters(sql, s));
    if (s.letter) w.push(sql`starts_with(a.title_key, ${s.letter.toLowerCase()})`);
    if (s.startDate) w.push(sql`left(${dateFrom}, 10) >= ${s.startDate.first}`);
    if (s.endDate) w.push(sql`left(${dateTo}, 10) <= ${s.endDate.last}`);
    return and(w);
  }

  /** `animeComparator` and the manga orderings: nulls last both ways, ties by `mal_id` ascending. */
  function order(orderBy: O, sort: 'asc' | 'desc'): Fragment {
    if (orderBy === 'mal_id') return sort === 'desc' ? sql`order by a.mal_id desc` : sql`order by a.mal_id`;
    const column = sql(`a.${kind.order[orderBy]}`);
    return sort === 'desc' ? sql`order by ${column} desc nulls last, a.mal_id` : sql`order by ${column} asc nulls last, a.mal_id`;
  }

  /**
   * Title hits for a folded query, with the memory store's tiers (0 exact, 1 prefix, 2 word prefix,
   * 3 fuzzy), and for ordering fuzzy hits the best word similarity of an entry's titles and its
   * shortest matching title. One- and two-letter queries match word prefixes only, among
   * the {@link SHORT_QUERY_CANDIDATES} most popular entries (as core's search index keeps them);
   * longer ones match titles containing them and titles holding a stretch
   * within `pg_trgm` word similarity 0.5 (`<kind>_title_matches`; both answered by the GIN index),
   * the latter from four letters on.
   *
   * The fuzzy match looks at the first {@link FUZZY_CHARS} characters: the memory store, too, finds a
   * fuzzy hit for a 200-character query only in a title holding most of it, and every further trigram
   * adds a posting list to the index scan. Whole-title `similarity` (`%`) neither matches nor orders:
   * as a match condition its index candidates are every title sharing a few common trigrams ("no",
   * "the"), and as an order it cost a third of a vague query's time; among equally close stretches
   * the shorter title wins, as fuse.js's field-length norm makes it win in the memory store.
   */
  function titleHits(q: string): Fragment {
    const tier = sql`min(case when t.title = ${q} then 0 when t.title like ${`${q}%`} then 1 when t.title like ${`% ${q}%`} then 2 else 3 end) as tier`;
    if ([...q].length < 3) {
      // Every hit is a word-prefix match, so the tier is the whole order. The titles of each
      // candidate by its key (a lateral aggregate), not a scan of every title.
      return sql`
        select c.mal_id, s.tier, 1 as wsim, 0 as len
        from (
          select a.mal_id from ${entries} a where a.prefixes @> array[${q}]::text[]
          order by a.popularity asc nulls last, a.mal_id limit ${SHORT_QUERY_CANDIDATES}
        ) c
        cross join lateral (select ${tier} from ${titles} t where t.mal_id = c.mal_id) s`;
    }
    // A three-letter query holds two word-edge trigrams ("  s", " sh") of its four, which half the
    // titles share: its word-similarity candidates were eight times its infix hits and most of the time.
    // Word similarity takes the query's trigrams as a set: a repeated word adds nothing but cost.
    const words = [...new Set(q.split(' '))].join(' ');
    const fuzzy = [...words].length < 4 ? null : words.length > FUZZY_CHARS ? words.slice(0, FUZZY_CHARS).trimEnd() : words;
    // The few patterns a title holding a query word matches come first: most titles that share a
    // word pass on them. Only the others that pass the edge pre-test (two patterns a word) are
    // matched against the typo patterns (~4 a letter), a LIKE each, ~0.1 µs.
    const patterns = queryWordPatterns(q);
    const edges = queryWordEdges(q);
    const holds = patterns.filter((p) => !p.endsWith(' %'));
    const typos = patterns.filter((p) => p.endsWith(' %'));
    // Fuzzy junk, as in the memory store: when some hits share a word with the query (a title of
    // theirs matches one of `queryWordPatterns`; every hit of a better tier does), the fuzzy hits
    // none of whose matching titles shares one are dropped.
    return sql`
      select m.mal_id, m.tier, m.wsim, m.len
      from (
        select m.*, bool_or(m.tier < 3 or m.shares) over () as some_share
        from (
          select t.mal_id, ${tier}, max(t.wsim) as wsim, min(length(t.title)) as len,
            bool_or(
              ' ' || t.title || ' ' like any(${holds}::text[])
              or (' ' || t.title || ' ' like any(${edges}::text[]) and ' ' || t.title || ' ' like any(${typos}::text[]))
            ) as shares
          from ${titleMatches}(${`%${q}%`}::text, ${fuzzy}::text) t group by t.mal_id
        ) m
      ) m
      where m.tier < 3 or m.shares or not m.some_share`;
  }

  async function search(s: S): Promise<Page<T>> {
    const offset = (s.page - 1) * s.limit;
    const w = where(s);
    let q: string | undefined;
    if (s.q !== undefined) {
      q = normalizeTitle(s.q);
      // Nothing to match (e.g. only punctuation): the memory store finds nothing either.
      if (!q) return { data: [], total: 0 };
    }
    const orderBy = s.orderBy as O | undefined;
    const o = orderBy
      ? order(orderBy, s.sort)
      : q === undefined
        ? sql`order by a.mal_id`
        : // Fuzzy hits: the closest stretch of a title first, then the shortest title.
          sql`order by h.tier, case when h.tier = 3 then h.wsim end desc, case when h.tier = 3 then h.len end, a.popularity asc nulls last, a.mal_id`;
    if (q === undefined) {
      // Browsing: the total is its own count (an index-only or narrow scan), so that the page itself
      // is a top-N walk of an order index instead of a sort of every match under a window count.
      const rows = await sql<{ total: string; record: T | null }[]>`
        select c.total, r.record
        from (select count(*) as total from ${entries} a ${w}) c
        left join (
          select ids.mal_id, row_number() over () as n
          from (select a.mal_id from ${entries} a ${w} ${o} limit ${s.limit} offset ${offset}) ids
        ) p on true
        left join ${records} r on r.mal_id = p.mal_id
        order by p.n`;
      return { data: rows.flatMap((r) => (r.record ? [r.record] : [])), total: Number(rows[0]?.total ?? 0) };
    }
    // Searching: the hits are few (the title match is selective), so one pass counts and pages them.
    const from = sql`(${titleHits(q)}) h join ${entries} a on a.mal_id = h.mal_id`;
    const rows = await sql<{ total: string; record: T }[]>`
      select p.total, r.record
      from (
        select ids.*, row_number() over () as n
        from (select a.mal_id, count(*) over () as total from ${from} ${w} ${o} limit ${s.limit} offset ${offset}) ids
      ) p
      join ${records} r on r.mal_id = p.mal_id
      order by p.n`;
    if (rows.length > 0) return { data: rows.map((r) => r.record), total: Number(rows[0]!.total) };
    if (offset === 0) return { data: [], total: 0 };
    // Past the last page the window count has no row to ride on.
    const [row] = await sql<{ total: string }[]>`select count(*) as total from ${from} ${w}`;
    return { data: [], total: Number(row?.total ?? 0) };
  }

  async function get(id: number): Promise<T | undefined> {
    const [row] = await sql<{ record: T }[]>`select record from ${records} where mal_id = ${id}`;
    return row?.record;
  }

  async function upsert(q: Sql, list: readonly T[]): Promise<void> {
    if (list.length === 0) return;
    // One JSON parameter per statement: PostgreSQL unpacks it, the record text is kept as sent.
    await q`
      insert into ${entries} (${sql(kind.columns as string[])})
      select ${sql(kind.columns as string[])} from json_populate_recordset(null::${entries}, ${JSON.stringify(list.map(kind.toRow))}::text::json)
      on conflict (mal_id) do update set ${updates}, updated_at = now()`;
    await q`
      insert into ${records} (mal_id, record)
      select (e ->> 'mal_id')::int, e from json_array_elements(${JSON.stringify(list)}::text::json) e
      on conflict (mal_id) do update set record = excluded.record`;
    const ids = list.map((r) => r.mal_id);
    await q`delete from ${titles} where mal_id = any(${ids}::int[])`;
    const rows = list.flatMap((r) => toMediaTitles(r).map((title) => ({ mal_id: r.mal_id, title })));
    await q`insert into ${titles} select * from json_populate_recordset(null::${titles}, ${JSON.stringify(rows)}::text::json)`;
  }

  async function count(): Promise<number> {
    const [row] = await sql<{ n: string }[]>`select count(*) as n from ${entries}`;
    return Number(row?.n ?? 0);
  }

  return { get, search, upsert, count };
}
