/**
 * The catalogue schema, as an ordered list of migrations. Each runs once per schema, recorded in
 * `catalogue_migrations`; never edit a released one, append a new one.
 *
 * Anime are split in three tables: `anime` holds one narrow row of typed, indexed columns per
 * entry (everything a search filters or orders by), `anime_records` the record itself, and
 * `anime_titles` every folded title for `pg_trgm` search. Every other collection of `CatalogueData`
 * is kept in `documents`, keyed by its identity (`resources.ts`) and in first-import order (`seq`),
 * which is the source order the API lists sub-records in. Keeping the records out of the filter
 * table keeps its heap small, so that a filtered scan reads a few MB at catalogue scale.
 *
 * Records are stored as `json`, not `jsonb`: `jsonb` re-orders object keys (shortest first), and
 * the API must answer with Jikan's field order, byte for byte the same as the memory store.
 * @module
 */
import type { Sql } from 'postgres';

/** The orderable columns; each gets an index per direction (nulls last both ways, ties by `mal_id`). */
export const ORDER_COLUMNS = [
  'title_key',
  'aired_from',
  'aired_to',
  'episodes',
  'score',
  'scored_by',
  'rank',
  'popularity',
  'members',
  'favorites',
] as const;

const MIGRATIONS: ReadonlyArray<(s: string) => string> = [
  (s) => `
    create table ${s}.anime (
      mal_id integer primary key,
      title_key text collate "C" not null,
      type text not null,
      status text not null,
      rating text,
      score double precision,
      scored_by integer,
      rank integer,
      popularity integer,
      members integer,
      favorites integer,
      episodes integer,
      approved boolean not null,
      sfw smallint not null,
      aired_from text collate "C",
      aired_to text collate "C",
      tags integer[] not null,
      companies integer[] not null,
      updated_at timestamptz not null default now()
    );
    create index anime_tags on ${s}.anime using gin (tags);
    create index anime_companies on ${s}.anime using gin (companies);
    create index anime_type on ${s}.anime (type);
    create index anime_status on ${s}.anime (status);
    ${ORDER_COLUMNS.map(
      (c) => `
    create index anime_${c}_asc on ${s}.anime (${c} asc nulls last, mal_id);
    create index anime_${c}_desc on ${s}.anime (${c} desc nulls last, mal_id);`,
    ).join('')}
    create table ${s}.anime_records (
      mal_id integer primary key references ${s}.anime (mal_id) on delete cascade,
      record json not null
    );
    create table ${s}.anime_titles (
      mal_id integer not null references ${s}.anime (mal_id) on delete cascade,
      title text not null,
      primary key (mal_id, title)
    );
    create index anime_titles_trgm on ${s}.anime_titles using gin (title gin_trgm_ops);
    create table ${s}.documents (
      collection text not null,
      key text not null,
      seq bigserial not null,
      record json not null,
      updated_at timestamptz not null default now(),
      primary key (collection, key)
    );
    create index documents_order on ${s}.documents (collection, seq);
    create table ${s}.generation (
      id boolean primary key default true check (id),
      value bigint not null
    );
    insert into ${s}.generation (value) values (0);`,
  // The titles matching a query of three or more characters: those containing it (`infix`, a LIKE
  // pattern) and those holding a stretch within word similarity 0.5 of `fuzzy` (pg_trgm's default 0.6
  // misses one-letter typos of short titles, "naruot"). The settings hold whatever the connection's:
  // plans for the actual values (a generic plan cannot tell a rare trigram from a common one), and the
  // GIN index even when its estimate for a long query's many trigrams exceeds a sequential scan's,
  // which runs word_similarity on every title (seconds). Two statements, not one OR: for an OR of both
  // the planner picks a scan of every row.
  (s) => `
    create function ${s}.anime_title_matches(infix text, fuzzy text) returns table (mal_id integer, title text)
    language plpgsql stable
    set pg_trgm.word_similarity_threshold = 0.5
    set plan_cache_mode = force_custom_plan
    set enable_seqscan = off
    as $f$
    begin
      return query select t.mal_id, t.title from ${s}.anime_titles t where t.title like infix;
      return query select t.mal_id, t.title from ${s}.anime_titles t where fuzzy <% t.title;
    end
    $f$;`,
  // One- and two-letter word prefixes of an entry's titles, for queries too short for trigrams: core's
  // search index keeps the most popular entries holding such a prefix, and so can this index.
  (s) => `
    alter table ${s}.anime add column prefixes text[] not null default '{}';
    update ${s}.anime a set prefixes = p.list
    from (
      select t.mal_id, array_agg(distinct v.prefix order by v.prefix) as list
      from ${s}.anime_titles t
      cross join lateral regexp_split_to_table(t.title, ' ') w(word)
      cross join lateral (values (left(w.word, 1)), (left(w.word, 2))) v(prefix)
      where w.word <> ''
      group by t.mal_id
    ) p
    where p.mal_id = a.mal_id;
    create index anime_prefixes on ${s}.anime using gin (prefixes);`,
];

/** Quotes an SQL identifier. */
export function quoteIdentifier(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/**
 * Brings a schema up to the latest version. Idempotent, and safe from several processes at once:
 * a transaction-scoped advisory lock serializes them.
 * @param sql - A `postgres` client.
 * @param schema - The schema name (unquoted).
 * @returns The version the schema is at.
 */
export async function migrateCatalogueSchema(sql: Sql, schema: string): Promise<number> {
  const s = quoteIdentifier(schema);
  // CREATE EXTENSION needs privileges a read-mostly role may lack; it is enough that it exists.
  const [ext] = await sql<{ present: boolean }[]>`select exists (select 1 from pg_extension where extname = 'pg_trgm') as present`;
  if (!ext?.present) await sql`create extension if not exists pg_trgm`;
  return sql.begin(async (tx) => {
    const q = tx as unknown as Sql;
    await q`select pg_advisory_xact_lock(hashtext(${`catalogue-api/catalogue:${schema}`}))`;
    await q.unsafe(`create schema if not exists ${s}`);
    await q.unsafe(
      `create table if not exists ${s}.catalogue_migrations (version integer primary key, applied_at timestamptz not null default now())`,
    );
    const [row] = await q.unsafe<{ version: number | null }[]>(`select max(version) as version from ${s}.catalogue_migrations`);
    let version = row?.version ?? 0;
    while (version < MIGRATIONS.length) {
      version++;
      await q.unsafe(MIGRATIONS[version - 1]!(s));
      await q.unsafe(`insert into ${s}.catalogue_migrations (version) values ($1)`, [version]);
    }
    return version;
  });
}
