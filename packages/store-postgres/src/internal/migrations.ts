/**
 * The catalogue schema, as an ordered list of migrations. Each runs once per schema, recorded in
 * `catalogue_migrations`; never edit a released one, append a new one.
 *
 * Versions 1 to 5 split anime and manga each in three tables (typed columns, records, folded titles)
 * and kept every other collection in `documents`, answering most questions from a per-process copy.
 * Version 6 replaces them with one table per collection of core's `COLLECTIONS` (`tables.ts`), every
 * question answered in SQL; after the last migration, `syncTables` brings those tables up to
 * `COLLECTIONS` (a collection or field core adds needs no migration here), and `fillTables` fills
 * new columns from the stored records in a transaction of its own.
 *
 * Records are stored as `json`, not `jsonb`: `jsonb` re-orders object keys (shortest first), and
 * the API must answer with Jikan's field order, byte for byte the same as the memory store.
 * @module
 */
import type { Sql } from 'postgres';
import { type Manga } from '@catalogue-api/core/schemas';
import { isCollectionName } from '@catalogue-api/core/store';
import { MANGA, mediaTables } from './media.js';
import { STAT_COLUMNS } from './media-rows.js';
import { CHANGE_HEAD_TABLE, CHANGES_TABLE, fillTables, matchFunction, quoteIdentifier, REFILLS_TABLE, syncTables, writeRecords } from './tables.js';

/** The orderable anime columns; each gets an index per direction (nulls last both ways, ties by `mal_id`). */
export const ORDER_COLUMNS = [
  'title_key',
  'aired_from',
  'aired_to',
  'episodes',
  ...STAT_COLUMNS,
] as const;

/** The orderable manga columns, indexed as {@link ORDER_COLUMNS}. */
export const MANGA_ORDER_COLUMNS = [
  'title_key',
  'published_from',
  'published_to',
  'chapters',
  'volumes',
  ...STAT_COLUMNS,
] as const;

/** One index per order column and direction, as the planner walks them for a page. */
const orderIndexes = (s: string, table: string, columns: readonly string[]) =>
  columns
    .map(
      (c) => `
    create index ${table}_${c}_asc on ${s}.${table} (${c} asc nulls last, mal_id);
    create index ${table}_${c}_desc on ${s}.${table} (${c} desc nulls last, mal_id);`,
    )
    .join('');

/**
 * The indexes of a media table (GIN over its array columns, B-tree over `type` and `status`, both
 * directions of each order column) and its record and title tables.
 */
const mediaIndexesAndTables = (s: string, kind: string, arrays: readonly string[], orderColumns: readonly string[]) => `
    ${arrays.map((c) => `create index ${kind}_${c} on ${s}.${kind} using gin (${c});`).join('\n    ')}
    create index ${kind}_type on ${s}.${kind} (type);
    create index ${kind}_status on ${s}.${kind} (status);
    ${orderIndexes(s, kind, orderColumns)}
    ${recordAndTitleTables(s, kind)}`;

/** A title match function of a media kind, as schema versions 2 to 5 made them (see migration 2). */
const titleMatches = (s: string, kind: string, returns: string, body: string) => matchFunction(`${s}.${kind}_title_matches`, returns, body);

/**
 * The title match function as migrations 2 (anime) and 4 (manga) created it. Migration 5 replaces
 * both with {@link titleMatchesFunction}.
 */
const titleMatchesFunctionV1 = (s: string, kind: string) =>
  titleMatches(
    s,
    kind,
    'mal_id integer, title text',
    `      return query select t.mal_id, t.title from ${s}.${kind}_titles t where t.title like infix;
      return query select t.mal_id, t.title from ${s}.${kind}_titles t where fuzzy <% t.title;`,
  );

/**
 * The title match function of a media kind (migration 5): as {@link titleMatchesFunctionV1}, and
 * each title comes with its word similarity to the query (1 for a title containing it), computed
 * once. `word_similarity` is what a fuzzy search costs here (~5 µs a title): a vague query such as
 * "seasn 2" has thousands of fuzzy hits, and the caller computing it again for its ordering, plus a
 * whole-title `similarity`, tripled its time. A title containing the query is not looked at again
 * by the fuzzy statement.
 */
const titleMatchesFunction = (s: string, kind: string) =>
  titleMatches(
    s,
    kind,
    'mal_id integer, title text, wsim real',
    `      return query select t.mal_id, t.title, 1::real from ${s}.${kind}_titles t where t.title like infix;
      return query select t.mal_id, t.title, word_similarity(fuzzy, t.title) from ${s}.${kind}_titles t
        where fuzzy <% t.title and t.title not like infix;`,
  );

/** Records moved per statement by migrations 4 and 6. */
/** The column definitions of {@link STAT_COLUMNS} (migrations 1 and 3). */
const STAT_COLUMNS_DDL = STAT_COLUMNS.map((c) => `${c} ${c === 'score' ? 'double precision' : 'integer'}`).join(',\n      ');

/** A media kind's record and title tables (migrations 1 and 3), beside its table of columns. */
const recordAndTitleTables = (s: string, kind: string) => `create table ${s}.${kind}_records (
      mal_id integer primary key references ${s}.${kind} (mal_id) on delete cascade,
      record json not null
    );
    create table ${s}.${kind}_titles (
      mal_id integer not null references ${s}.${kind} (mal_id) on delete cascade,
      title text not null,
      primary key (mal_id, title)
    );
    create index ${kind}_titles_trgm on ${s}.${kind}_titles using gin (title gin_trgm_ops);`;

const MOVE_BATCH = 1000;

/** The tables of versions 1 to 5, which migration 6 replaces. */
const V5_TABLES = ['anime_titles', 'anime_records', 'anime', 'manga_titles', 'manga_records', 'manga', 'documents'];

/**
 * Migration 6's move: the version 5 tables go to a schema of their own (with their indexes, whose
 * names the new tables reuse), the new tables are created from `COLLECTIONS`, every record is
 * written to them through the same code as an upsert's (anime and manga in `mal_id` order, the
 * order version 5 listed them in; every other collection in its `seq` order), and the old tables
 * are dropped.
 */
async function moveToCollectionTables(q: Sql, schema: string, s: string): Promise<void> {
  const old = quoteIdentifier(`${schema}__v5`);
  await q.unsafe(`create schema ${old}`);
  for (const t of V5_TABLES) await q.unsafe(`alter table ${s}.${t} set schema ${old}`);
  await syncTables(q, schema);
  for (const kind of ['anime', 'manga'] as const) {
    for (let after = -1; ; ) {
      const rows = await q.unsafe<{ mal_id: number; record: unknown }[]>(
        `select mal_id, record from ${old}.${kind}_records where mal_id > $1 order by mal_id limit ${MOVE_BATCH}`,
        [after],
      );
      if (rows.length === 0) break;
      await writeRecords(q, schema, kind, rows.map((r) => r.record));
      after = rows.at(-1)!.mal_id;
    }
  }
  const collections = await q.unsafe<{ collection: string }[]>(`select distinct collection from ${old}.documents`);
  for (const { collection } of collections) {
    // A collection core no longer has is left behind.
    if (!isCollectionName(collection)) continue;
    for (let after = '0'; ; ) {
      const rows = await q.unsafe<{ seq: string; record: unknown }[]>(
        `select seq, record from ${old}.documents where collection = $1 and seq > $2 order by seq limit ${MOVE_BATCH}`,
        [collection, after],
      );
      if (rows.length === 0) break;
      await writeRecords(q, schema, collection, rows.map((r) => r.record));
      after = rows.at(-1)!.seq;
    }
  }
  await q.unsafe(`drop schema ${old} cascade`);
}

/** A schema change: its SQL, then optionally work only code can do (in the same transaction). */
interface Migration {
  sql: (s: string) => string;
  then?: (q: Sql, schema: string, s: string) => Promise<void>;
}

const MIGRATIONS: ReadonlyArray<Migration | ((s: string) => string)> = [
  (s) => `
    create table ${s}.anime (
      mal_id integer primary key,
      title_key text collate "C" not null,
      type text not null,
      status text not null,
      rating text,
      ${STAT_COLUMNS_DDL},
      episodes integer,
      approved boolean not null,
      sfw smallint not null,
      aired_from text collate "C",
      aired_to text collate "C",
      tags integer[] not null,
      companies integer[] not null,
      updated_at timestamptz not null default now()
    );
    ${mediaIndexesAndTables(s, 'anime', ['tags', 'companies'], ORDER_COLUMNS)}
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
  (s) => titleMatchesFunctionV1(s, 'anime'),
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
  // Manga searched in SQL like anime: the same three tables and title function, manga's own columns
  // (`published` dates, chapters, volumes, serializations as `magazines`, a type that may be null).
  // Manga imported before this version move from `documents`; their columns and titles come from
  // the same code as an import's.
  {
    sql: (s) => `
    create table ${s}.manga (
      mal_id integer primary key,
      title_key text collate "C" not null,
      type text,
      status text not null,
      ${STAT_COLUMNS_DDL},
      chapters integer,
      volumes integer,
      approved boolean not null,
      sfw smallint not null,
      published_from text collate "C",
      published_to text collate "C",
      tags integer[] not null,
      magazines integer[] not null,
      prefixes text[] not null,
      updated_at timestamptz not null default now()
    );
    ${mediaIndexesAndTables(s, 'manga', ['tags', 'magazines', 'prefixes'], MANGA_ORDER_COLUMNS)}
    ${titleMatchesFunctionV1(s, 'manga')}`,
    async then(q, schema, s) {
      const manga = mediaTables(q, schema, MANGA);
      for (let after = 0n; ; ) {
        const rows = await q.unsafe<{ seq: string; record: Manga }[]>(
          `select seq, record from ${s}.documents where collection = 'manga' and seq > $1 order by seq limit ${MOVE_BATCH}`,
          [after.toString()],
        );
        if (rows.length === 0) break;
        // The last of several records with one mal_id wins, as in the import that stored them.
        await manga.upsert(q, [...new Map(rows.map((r) => [r.record.mal_id, r.record])).values()]);
        after = BigInt(rows.at(-1)!.seq);
      }
      await q.unsafe(`delete from ${s}.documents where collection = 'manga'`);
    },
  },
  // Title matches carry their word similarity, so that a search computes it once per title.
  (s) => `
    drop function ${s}.anime_title_matches(text, text);
    drop function ${s}.manga_title_matches(text, text);
    ${titleMatchesFunction(s, 'anime')}
    ${titleMatchesFunction(s, 'manga')}`,
  // One table per collection of core's `COLLECTIONS` (internal/tables.ts), replacing the anime and
  // manga tables and `documents`: every collection is queried in SQL, and nothing is reloaded, so
  // the generation counter goes too.
  {
    sql: (s) => `
    drop function ${s}.anime_title_matches(text, text);
    drop function ${s}.manga_title_matches(text, text);
    drop table ${s}.generation;`,
    then: (q, schema, s) => moveToCollectionTables(q, schema, s),
  },
  // The `title` field of anime and manga is now the record's own title, so that an id list that
  // includes titles reads a column instead of parsing every record (core's COLLECTIONS); the
  // lower-cased key it held is `title_key`. Dropped here, both columns are added and filled again
  // from the stored records by `syncTables` and `fillTables` (internal/tables.ts), which run after.
  (s) => `
    alter table ${s}.anime drop column if exists title;
    alter table ${s}.manga drop column if exists title;`,
  // The change feed (core's `CatalogueStore.changes`): each committed change of a record, numbered
  // in commit order, so that the response caches of every instance drop what it made stale. The
  // collection tables' triggers that write it are made by `syncTables` (internal/tables.ts), which
  // runs after the last migration; the feed's id tells a cache entry made over this database from
  // one made over another.
  (s) => `
    create table ${s}.${CHANGES_TABLE} (
      seq bigint primary key,
      collection text collate "C" not null,
      key text collate "C" not null,
      op text not null check (op in ('insert', 'update', 'delete')),
      owners text[] not null,
      at timestamptz not null
    );
    create table ${s}.${CHANGE_HEAD_TABLE} (
      id boolean primary key default true check (id),
      seq bigint not null,
      feed text not null
    );
    insert into ${s}.${CHANGE_HEAD_TABLE} (seq, feed) values (0, md5(random()::text || clock_timestamp()::text));`,
];

/** How often `migrate()` asks again for the lock another process holds, in milliseconds. */
const LOCK_POLL_MS = 100;

/**
 * Brings a schema up to the latest version. Idempotent, and safe from several processes at once:
 * a transaction-scoped advisory lock serializes them.
 * @param sql - A `postgres` client.
 * @param schema - The schema name (unquoted).
 * @param upTo - The version to stop at (tests of an upgrade); the latest by default.
 * @returns The version the schema is at.
 */
export async function migrateCatalogueSchema(sql: Sql, schema: string, upTo = MIGRATIONS.length): Promise<number> {
  const s = quoteIdentifier(schema);
  // CREATE EXTENSION needs privileges a read-mostly role may lack; it is enough that it exists.
  const [ext] = await sql<{ present: boolean }[]>`select exists (select 1 from pg_extension where extname = 'pg_trgm') as present`;
  if (!ext?.present) await sql`create extension if not exists pg_trgm`;
  const key = `catalogue-api/catalogue:${schema}`;
  // Asked for again every 100 ms rather than waited on: a connection that stays silent past the
  // store's timeout is closed as lost (internal/availability.ts), and another process may hold the
  // lock for the whole of a fill (~40 s for 100k anime and manga).
  const lock = async (q: Sql) => {
    while (!(await q<{ locked: boolean }[]>`select pg_try_advisory_xact_lock(hashtext(${key})) as locked`)[0]!.locked) {
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
  };
  const version = await sql.begin(async (tx) => {
    const q = tx as unknown as Sql;
    await lock(q);
    await q.unsafe(`create schema if not exists ${s}`);
    await q.unsafe(
      `create table if not exists ${s}.catalogue_migrations (version integer primary key, applied_at timestamptz not null default now())`,
    );
    await q.unsafe(`create table if not exists ${s}.${quoteIdentifier(REFILLS_TABLE)} (collection text primary key)`);
    const [row] = await q.unsafe<{ version: number | null }[]>(`select max(version) as version from ${s}.catalogue_migrations`);
    const before = row?.version ?? 0;
    let version = before;
    while (version < Math.min(upTo, MIGRATIONS.length)) {
      version++;
      const migration = MIGRATIONS[version - 1]!;
      const step = typeof migration === 'function' ? { sql: migration } : migration;
      await q.unsafe(step.sql(s));
      await step.then?.(q, schema, s);
      await q.unsafe(`insert into ${s}.catalogue_migrations (version) values ($1)`, [version]);
    }
    if (version === MIGRATIONS.length) await syncTables(q, schema, version !== before);
    return version;
  });
  // New columns are filled after their table's exclusive lock is gone (see fillTables).
  if (version === MIGRATIONS.length) {
    await sql.begin(async (tx) => {
      const q = tx as unknown as Sql;
      await lock(q);
      await fillTables(q, schema);
    });
  }
  return version;
}
