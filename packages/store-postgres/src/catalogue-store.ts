/**
 * A PostgreSQL `CatalogueStore` (porsager `postgres`), for catalogues too large to load into every
 * process and for several API instances sharing one database.
 *
 * What is served from where:
 * - `searchAnime`, `getAnime`, `searchManga` and `getManga` run in SQL on every call, through one
 *   implementation parameterized by media kind (`internal/media.ts`): every filter and ordering of
 *   core's `select.ts` / `select-manga.ts` is a typed, indexed column (GIN over genre, company and
 *   magazine id arrays and word prefixes, one b-tree per order column and direction), `q` uses
 *   `pg_trgm` over the folded titles, pages are bounded offsets (page ≤ 1000, as the routes allow)
 *   over an order index.
 * - `getCharacter`, `getPerson` and `getProducer` read one row of `documents` by its key (the
 *   record's `mal_id`): a detail page does not load the copy below.
 * - Every other `CatalogueStore` method (manga and anime details, characters, people, producers,
 *   magazines, sub-records, top lists, seasons, schedules, news…) is answered by core's memory store
 *   over the same tables (`anime_records`, `manga_records` and `documents`), loaded on first use and
 *   reloaded, in every process, on the first call after an import has changed them (a `generation`
 *   counter bumped in each import transaction). Those answers are therefore byte for byte the memory
 *   store's, and identical across instances once each has seen the new generation; the price is that
 *   each process holds those collections in memory and reloads all of them after any import.
 * @module
 */
import postgres, { type Sql } from 'postgres';
import { createMemoryStore, type Anime, type CatalogueData, type CatalogueStore, type Character, type Manga, type Person, type Producer } from '@catalogue-api/core';
import { connectionOptions, guardStore, toTimeoutMs } from './internal/availability.js';
import { ANIME, MANGA, mediaTables } from './internal/media.js';
import { migrateCatalogueSchema, quoteIdentifier } from './internal/migrations.js';
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
  /**
   * For the pool opened from `url`: how long a connection attempt may take, and how long a
   * connection may stay silent while a query waits on it before it is closed as lost (a frozen
   * or half-open connection), in milliseconds. Keep it at or below the app's `storeTimeoutMs`,
   * which bounds every call whatever the store does. @default 5000
   */
  timeoutMs?: number;
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
   * Readies the tables for searching after a bulk load: refreshes the planner's statistics and
   * merges the entries GIN indexes keep pending after fast inserts. Until autovacuum gets to it, a
   * freshly imported catalogue's index scans read that pending list whole (6,000 entries after 30k
   * anime, several milliseconds a search) and the planner, counting on it, may scan the table
   * instead. The importer and `seed()` call it at their end; it is safe to call any time. Only
   * what the role owns is touched (PostgreSQL allows no one else); the rest is left to autovacuum.
   */
  analyze(): Promise<void>;
  /**
   * How many records a resource holds.
   * @param resource - A `CatalogueData` key.
   */
  count(resource: string): Promise<number>;
  /** Ends the pool when the store opened it from `url`; otherwise does nothing. */
  close(): Promise<void>;
}

/** The tables `analyze()` refreshes statistics of. */
const ANALYZED = ['anime', 'anime_records', 'anime_titles', 'manga', 'manga_records', 'manga_titles', 'documents'];

/** Rows per statement when seeding; well under PostgreSQL's 1 GB parameter limit at any record size. */
const SEED_BATCH = 1000;

/**
 * Creates the store. Call `migrate()` once before first use (it is cheap when up to date).
 * A lost or refused connection, or a database that is shutting down or out of connections, makes
 * any method throw core's `StoreUnavailableError` (its `cause` the driver's error), which the app
 * answers with 503 and `Retry-After: 1`; the pool reconnects by itself once the database is back.
 * @param options - A client or URL, the schema, the pool size and the connection timeout.
 * @returns The store.
 * @throws TypeError when neither `sql` nor `url` is given.
 * @throws RangeError when `timeoutMs` is not a positive number.
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
  const timeoutMs = toTimeoutMs(options.timeoutMs);
  let waiting = (): boolean => false;
  // NOTICEs such as "schema already exists, skipping" are expected and not worth logging. Searches
  // are planned for their actual values: a generic plan of a prepared search cannot tell a rare
  // trigram from a common one, and picks scans that take a second instead of a millisecond.
  const sql =
    options.sql ??
    postgres(options.url!, {
      max: options.max ?? 10,
      onnotice: () => {},
      connection: { plan_cache_mode: 'force_custom_plan' },
      ...connectionOptions(timeoutMs, () => waiting()),
    });
  const schema = options.schema ?? 'catalogue';
  const table = (name: string) => sql(`${schema}.${name}`);
  const animeRecords = table('anime_records');
  const mangaRecords = table('manga_records');
  const documents = table('documents');
  const generation = table('generation');

  const anime = mediaTables(sql, schema, ANIME);
  const manga = mediaTables(sql, schema, MANGA);

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
      if (resource === 'anime') await anime.upsert(q, unique as Anime[]);
      else if (resource === 'manga') await manga.upsert(q, unique as Manga[]);
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
        const mangaRows = await sql<{ record: object }[]>`select record from ${mangaRecords} order by mal_id`;
        data.manga = mangaRows.map((r) => r.record);
        const docs = await sql<{ collection: string; record: unknown }[]>`select collection, record from ${documents} order by collection, seq`;
        for (const d of docs) (data[d.collection] ??= []).push(d.record);
        return createMemoryStore(data as CatalogueData);
      };
      const loading = load();
      delegate = { generation: current, store: loading };
      // A failed load (a lost connection) is not kept: the next call tries again.
      loading.catch(() => {
        if (delegate?.store === loading) delegate = undefined;
      });
    }
    return delegate.store;
  }

  /** A record of a collection kept in `documents`, by its `mal_id` (its upsert key). */
  const byId =
    <T>(collection: 'characters' | 'people' | 'producers') =>
    async (id: number): Promise<T | undefined> => {
      const [row] = await sql<{ record: T }[]>`select record from ${documents} where collection = ${collection} and key = ${String(id)}`;
      return row?.record;
    };

  type InSql = 'getAnime' | 'searchAnime' | 'getManga' | 'searchManga' | 'getCharacter' | 'getPerson' | 'getProducer';
  const store: Omit<PostgresStore, keyof CatalogueStore> & Pick<CatalogueStore, InSql> = {
    schema,
    sql,
    migrate: () => migrateCatalogueSchema(sql, schema),
    getAnime: anime.get,
    searchAnime: anime.search,
    getManga: manga.get,
    searchManga: manga.search,
    getCharacter: byId<Character>('characters'),
    getPerson: byId<Person>('people'),
    getProducer: byId<Producer>('producers'),
    upsert,
    async seed(data) {
      for (const [resource, records] of Object.entries(data) as [string, readonly unknown[] | undefined][]) {
        for (let i = 0; records && i < records.length; i += SEED_BATCH) await upsert(resource, records.slice(i, i + SEED_BATCH));
      }
      await store.analyze();
    },
    async analyze() {
      const indexes = await sql<{ name: string }[]>`
        select format('%I.%I', n.nspname, c.relname) as name
        from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace
        join pg_am am on am.oid = c.relam
        where n.nspname = ${schema} and am.amname = 'gin' and pg_has_role(c.relowner, 'USAGE')`;
      for (const { name } of indexes) await sql`select gin_clean_pending_list(${name}::regclass)`;
      await sql.unsafe(`analyze ${ANALYZED.map((t) => `${quoteIdentifier(schema)}.${t}`).join(', ')}`);
    },
    async count(resource) {
      if (resource === 'anime') return anime.count();
      if (resource === 'manga') return manga.count();
      const [row] = await sql<{ n: string }[]>`select count(*) as n from ${documents} where collection = ${resource}`;
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
  // `sql` is the client itself (a tagged-template function), not a method.
  waiting = guardStore(store, ['sql']);
  return store as PostgresStore;
}
