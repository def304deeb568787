/**
 * A PostgreSQL `CatalogueStore` (porsager `postgres`), for catalogues too large to load into every
 * process and for several API instances sharing one database.
 *
 * Every method is answered in SQL on every call; the store keeps nothing between calls, so several
 * instances answer byte for byte the same, immediately after any write. Each collection of core's
 * `COLLECTIONS` is a table (`internal/tables.ts`) holding its records whole (`json`, so that their
 * key order is kept) with one typed, indexed column per declared field; conditions, orderings,
 * selections and tallies become SQL over those columns (`internal/conditions.ts`), with the
 * meaning core's `seam/evaluate.ts` gives them. `search` uses `pg_trgm` over each record's folded
 * search texts (`internal/search.ts`). A `tally` of a whole collection by a field core marks
 * `counted` reads counts that triggers keep as records are written, and so does the total of a list
 * whose conditions test only `grouped` fields (and at most one element of a grouped list field); a
 * plain field (`FieldSpec.plain`) is selected from its column, without reading the record.
 * @module
 */
import postgres, { type Sql } from 'postgres';
import {
  COLLECTION_NAMES,
  COLLECTIONS,
  collectionKey,
  isCollectionName,
  normalizeTitle,
  parseStoredRecord,
  type CatalogueData,
  type CollectionName,
  type CollectionRecord,
  type FieldSpec,
  type FieldType,
  type Page,
  type PluckedJson,
  type PluckQuery,
  type RecordKey,
  type RecordQuery,
  type CatalogueStore,
  type ChangeFeed,
  type Condition,
  type RecordChange,
  type Tally,
} from '@catalogue-api/core/store';
import { openStoreClient } from './internal/client.js';
import { fieldType, orderSql, Params, whereSql } from './internal/conditions.js';
import { migrateCatalogueSchema } from './internal/migrations.js';
import { hitsSql, rankSql } from './internal/search.js';
import {
  CHANGE_HEAD_TABLE,
  CHANGES_TABLE,
  changesChannel,
  countedFields,
  countsTable,
  groupedFields,
  groupedLists,
  groupsTable,
  isArrayType,
  listGroupsTable,
  isSearchable,
  quoteIdentifier,
  tableName,
  writeRecords,
} from './internal/tables.js';

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
   * For the pool opened from `url`, in milliseconds: the longest a statement may run or wait for a
   * lock (PostgreSQL's `statement_timeout` and `lock_timeout` on every connection: the server ends
   * it and the connection serves the next call, so a timed-out call never leaves a statement
   * running), how long a connection attempt may take, and, a little longer, how long a connection
   * may stay silent while a query waits on it before it is closed as lost (a frozen or half-open
   * connection). Keep it at or below the app's `storeTimeoutMs`, which bounds every call whatever
   * the store does. With `sql`, set those limits on your own client. @default 5000
   */
  timeoutMs?: number;
  /**
   * For the pool opened from `url`: the `application_name` its backends show in
   * `pg_stat_activity`; a `?application_name=` in the URL wins. @default 'catalogue-api'
   */
  applicationName?: string;
  /**
   * How often, in milliseconds, the change feed asks the database for changes it was not told of
   * (a `NOTIFY` lost with a connection), while something listens to it. @default 1000
   */
  changesPollMs?: number;
}

/** The `application_name` of a pool the catalogue store opens, unless told otherwise. */
const DEFAULT_APPLICATION_NAME = 'catalogue-api';

/** The PostgreSQL catalogue store: a `CatalogueStore` plus schema, loading and lifecycle methods. */
export interface PostgresStore extends CatalogueStore {
  /** The schema in use. */
  readonly schema: string;
  /** The client in use. */
  readonly sql: Sql;
  /**
   * `pluck` written as JSON; an id list's integers are written by PostgreSQL and passed on as the
   * bytes it sent.
   */
  pluckJson: NonNullable<CatalogueStore['pluckJson']>;
  /** `query` with `select` written as JSON; an id list's included fields are written by PostgreSQL and passed on as the bytes it sent. */
  selectJson: NonNullable<CatalogueStore['selectJson']>;
  /**
   * Creates or upgrades the schema (versioned, idempotent, safe to run from several processes),
   * and brings its tables up to core's `COLLECTIONS` (a new collection or field gets its table or
   * column, filled from the stored records).
   * @returns The schema version now in place.
   * @throws Error when the schema was made by a pre-release version of this package whose layout
   * is not upgraded (drop the schema, or use another, and import the records again).
   */
  migrate(): Promise<number>;
  /**
   * Inserts or replaces records by key in one transaction (a replaced record keeps its place in
   * the stored order). Records must already be valid (the importer validates them with core's
   * zod schemas).
   * @param collection - A `CatalogueData` key: `anime`, `manga`, `characters`…
   * @param records - The records.
   * @returns How many were written (records repeating a key count once; the last wins).
   * @throws TypeError for an unknown collection.
   */
  upsert(collection: string, records: readonly unknown[]): Promise<number>;
  /**
   * Upserts every collection of a dataset, in batches, then {@link PostgresStore.analyze}.
   * @param data - e.g. `demoData`.
   */
  seed(data: CatalogueData): Promise<void>;
  /**
   * Readies the tables for searching after a bulk load: refreshes the planner's statistics, merges
   * the entries GIN indexes keep pending after fast inserts, and marks written pages all-visible
   * (`vacuum`). Until autovacuum gets to it, a freshly imported catalogue's index scans read that
   * pending list whole, the planner, counting on it, may scan the table instead, and a count or an
   * offset visits every row where an index alone would do. The importer and `seed()` call it at their end; it
   * is safe to call any time. Only what the role owns is touched (PostgreSQL allows no one else);
   * the rest is left to autovacuum.
   */
  analyze(): Promise<void>;
  /**
   * How many records a collection holds.
   * @param collection - A `CatalogueData` key.
   */
  count(collection: string): Promise<number>;
  /**
   * The committed changes of every writer of this schema, in commit order: this process, other
   * instances, `catalogue-api import`. Each collection table's triggers write one row per record
   * changed in the writer's transaction (`internal/tables.ts`), `NOTIFY` tells every listening
   * instance when it commits, and a poll every `changesPollMs` catches what a lost connection
   * missed. The last 100,000 changes are kept.
   */
  readonly changes: ChangeFeed;
  /** Ends the pool when the store opened it from `url` (and the feed's listening), otherwise only the feed's listening. */
  close(): Promise<void>;
}

/** A page at least this long from the first match holds every match (core's `ALL`). */
const WHOLE = 2 ** 31;

/** Records per statement when seeding; well under PostgreSQL's 1 GB parameter limit at any record size. */
const SEED_BATCH = 1000;

const encoder = new TextEncoder();

/** A count, as `postgres` reads `bigint`. */
type Count = string | number;

/** Checks a collection name from a caller that is not type-checked (the importer, `upsert`). */
function collectionNamed(name: string): CollectionName {
  if (!isCollectionName(name)) throw new TypeError(`unknown resource "${name}"; one of ${COLLECTION_NAMES.join(', ')}`);
  return name;
}

/** Checks a page's `offset` and `limit`. */
function slice(q: PluckQuery): { offset: number; limit: number } {
  const ok = (n: number) => Number.isSafeInteger(n) && n >= 0;
  if (!ok(q.offset) || !ok(q.limit)) throw new RangeError(`offset and limit must be integers of 0 or more, got ${q.offset} and ${q.limit}`);
  return { offset: q.offset, limit: q.limit };
}

/**
 * Whether a selected field can be read from its column: a declared field that is the record's own
 * field of that name (`FieldSpec.plain`), so that a list of ids or scores reads no record.
 */
const isPlain = (collection: CollectionName, field: string): boolean =>
  Object.hasOwn(COLLECTIONS[collection].fields, field) && (COLLECTIONS[collection].fields as Record<string, FieldSpec<unknown>>)[field]!.plain === true;

/**
 * The selected top-level fields of each record, named `s0`, `s1`…: a plain field's column as it
 * is, any other as `json` text (`null` for a field the record does not have), rebuilt in
 * JavaScript as core's reference builds them, leaving out a field the record lacks and keeping
 * `null` for one it holds as `null`.
 */
const selectedSql = (collection: CollectionName, select: readonly string[], p: Params) =>
  select.map((f, i) => (isPlain(collection, f) ? `t.${quoteIdentifier(f)} as s${i}` : `(t.record -> ${p.add(f, 'text')})::text as s${i}`)).join(', ');

function selected(collection: CollectionName, select: readonly string[], row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  select.forEach((f, i) => {
    const value = row[`s${i}`];
    if (isPlain(collection, f)) out[f] = value;
    else if (value !== null) out[f] = JSON.parse(value as string);
  });
  return out;
}

/**
 * The table of kept group counts that counts the matches of some conditions, if one does:
 * `<table>_groups` when every condition tests a grouped field (or there is none: the whole
 * collection, which every collection keeps); `<table>_<field>_groups` when one tests a single
 * element of a grouped list field (`has`, or `hasAll` of one value: a genre filter) and every other
 * a grouped field. Their columns are named as the collection's, so that the conditions' SQL selects
 * the rows to sum.
 */
function groupsCounting(collection: CollectionName, where: readonly Condition[] = []): string | undefined {
  const names = new Set(groupedFields(collection).map(([name]) => name));
  const only = (conditions: readonly Condition[]): boolean => conditions.every((c) => (c.op === 'any' ? c.of.every(only) : names.has(c.field)));
  if (only(where)) return groupsTable(collection);
  const element = (c: Condition) => c.op === 'has' || (c.op === 'hasAll' && new Set(c.values).size === 1);
  for (const [list] of groupedLists(collection)) {
    const onList = where.filter((c) => c.op !== 'any' && c.field === list);
    if (onList.length === 1 && element(onList[0]!) && only(where.filter((c) => c !== onList[0]))) return listGroupsTable(collection, list);
  }
  return undefined;
}

/** What the store's queries are written with: the client, the quoted schema, a collection's quoted table. */
interface StoreSql {
  sql: Sql;
  /** The schema, quoted. */
  s: string;
  table: (c: CollectionName) => string;
}

/**
 * A record as PostgreSQL sent it: its `json` column read as raw bytes, the text the store wrote
 * (`JSON.stringify` of the record, kept as it was sent), parsed once and answered as those bytes
 * (core's `parseStoredRecord`), never parsed by the driver and written again by core.
 */
const toRecord = <C extends CollectionName>(json: unknown): CollectionRecord<C> => parseStoredRecord(json as Uint8Array) as CollectionRecord<C>;

/**
 * Several records by key, in the order asked (`undefined` where there is none).
 * @param db - The client and schema.
 */
async function getMany<C extends CollectionName>(db: StoreSql, collection: C, keys: readonly (RecordKey | number)[]): Promise<Array<CollectionRecord<C> | undefined>> {
  if (keys.length === 0) return [];
  const wanted = keys.map(String);
  const rows = await db.sql.unsafe(`select key, record from ${db.table(collection)} where key = any($1::text[])`, [[...new Set(wanted)]]).raw();
  const byKey = new Map(rows.map((r) => [String(r[0]), toRecord<C>(r[1])]));
  return wanted.map((k) => byKey.get(k));
}

/**
 * A query's conditions, rows, order and search hits as SQL; `undefined` when its search has nothing to match.
 * @param db - The client and schema.
 */
function partsOf(db: StoreSql, collection: CollectionName, q: PluckQuery, p: Params): { where: string; from: string; order: string; hits: string } | undefined {
  const where = whereSql(collection, q.where, p);
  let from = `${db.table(collection)} t`;
  let order = `${orderSql(collection, q.orderBy)} t.seq`;
  let hits = '';
  if (q.search !== undefined) {
    if (!isSearchable(collection)) throw new TypeError(`${collection} is not searchable`);
    const folded = normalizeTitle(q.search);
    // Nothing to match (e.g. only punctuation): core's search index finds nothing either.
    if (!folded) return undefined;
    hits = `with h as materialized (${hitsSql(db.s, collection, folded, p)}) `;
    from = `h join ${db.table(collection)} t on t.key = h.key`;
    if (!q.orderBy) order = rankSql(collection);
  }
  return { where, from, order, hits };
}

/**
 * Plain fields of every match (an id list, the ids SFW hides), one array per field: one scan,
 * each column read back as one JSON array (one `JSON.parse`, where a PostgreSQL array is parsed
 * element by element) instead of a row per match. The arrays take the rows in the order the
 * subquery gives them (https://www.postgresql.org/docs/current/functions-aggregate.html):
 * `json_agg(… order by …)` would sort every match again, even off an index in that order.
 * @param db - The client and schema.
 */
async function columnsOf(db: StoreSql, collection: CollectionName, q: PluckQuery, select: readonly string[]): Promise<{ total: number; columns: unknown[][] }> {
  const p = new Params();
  const parts = partsOf(db, collection, q, p);
  if (!parts) return { total: 0, columns: select.map(() => []) };
  const { where, from, order, hits } = parts;
  const picked = select.map((f, i) => `t.${quoteIdentifier(f)} as c${i}`).join(', ');
  const arrays = select.map((_, i) => `json_agg(s.c${i}) as a${i}`).join(', ');
  const [row] = await db.sql.unsafe<Array<{ total: Count } & Record<string, unknown[] | null>>>(
    `${hits}select count(*) as total, ${arrays} from (select ${picked} from ${from} where ${where} order by ${order}) s`,
    p.values as never[],
  );
  return { total: Number(row!.total), columns: select.map((_, i) => row![`a${i}`] ?? []) };
}

/** Field types whose column PostgreSQL writes as `JSON.stringify` writes the value (`to_json`: the same escapes). */
const JSON_EXACT = new Set<FieldType>(['int', 'text', 'bool']);

/**
 * Every match as one-field-each records, written by PostgreSQL as one JSON array (see
 * {@link columnsOf}) in the bytes `JSON.stringify` would give the records `query` builds from
 * those columns, with their count: `selectJson` hands the bytes on as they are, `query` has core
 * parse them once (`parseStoredRecord`), and neither writes them again in JavaScript.
 * `undefined` when a field's column is not written exactly so (a `float`: PostgreSQL writes `1e-07`
 * where JavaScript writes `1e-7`).
 * @param db - The client and schema.
 */
async function selectedJsonOf(db: StoreSql, collection: CollectionName, q: PluckQuery, select: readonly string[]): Promise<PluckedJson | undefined> {
  if (!select.every((f) => JSON_EXACT.has(fieldType(collection, f)))) return undefined;
  const p = new Params();
  const parts = partsOf(db, collection, q, p);
  if (!parts) return { count: 0, json: encoder.encode('[]') };
  const { where, from, order, hits } = parts;
  const picked = select.map((f, i) => `t.${quoteIdentifier(f)} as c${i}`).join(', ');
  // `{"mal_id":` … `,"title":` … `}`: each member's key as JSON.stringify writes it, then its value.
  const members = select.map((f, i) => `${p.add(`${i === 0 ? '{' : ','}${JSON.stringify(f)}:`, 'text')} || coalesce(to_json(s.c${i})::text, 'null')`).join(' || ');
  const array = `'[' || coalesce(string_agg(${members} || '}', ','), '') || ']'`;
  const [row] = await db.sql
    .unsafe(`${hits}select count(*), ${array} from (select ${picked} from ${from} where ${where} order by ${order}) s`, p.values as never[])
    .raw();
  return { count: Number(String(row![0])), json: row![1] as Uint8Array };
}

/**
 * How many of the matching records hold each value of a field (`CatalogueStore.tally`).
 * @param db - The client and schema.
 */
async function tally(db: StoreSql, collection: CollectionName, field: string, where?: Parameters<CatalogueStore['tally']>[2]): Promise<Tally> {
  const type = fieldType(collection, field);
  // core counts no boolean values.
  if (type === 'bool') return [];
  if ((!where || where.length === 0) && countedFields(collection).some(([name]) => name === field)) {
    // Kept as records are written (`internal/tables.ts`): a few rows, not a scan of every record.
    const rows = await db.sql.unsafe<{ v: string; n: Count }[]>(
      `select value as v, n from ${db.s}.${quoteIdentifier(countsTable(collection))} where field = $1 and n > 0`,
      [field],
    );
    const numeric = type !== 'text' && type !== 'texts';
    return rows.map((r) => [numeric ? Number(r.v) : r.v, Number(r.n)]);
  }
  const p = new Params();
  const condition = whereSql(collection, where, p);
  const column = `t.${quoteIdentifier(field)}`;
  const rows = isArrayType(type)
    ? await db.sql.unsafe<{ v: number | string; n: Count }[]>(
        `select v, count(*) as n from (select unnest(${column}) as v from ${db.table(collection)} t where ${condition}) e group by v`,
        p.values as never[],
      )
    : await db.sql.unsafe<{ v: number | string; n: Count }[]>(
        `select ${column} as v, count(*) as n from ${db.table(collection)} t where ${condition} and ${column} is not null group by ${column}`,
        p.values as never[],
      );
  return rows.map((r) => [r.v, Number(r.n)]);
}

/** Whether a query asks for every match, in plain fields only: see {@link columnsOf}. */
const wholeColumns = (collection: CollectionName, q: PluckQuery, select: readonly string[]): boolean =>
  q.offset === 0 && q.limit >= WHOLE && select.every((f) => isPlain(collection, f));

/**
 * One page of the records a query matches, and how many match in all (`CatalogueStore.query`).
 * @param db - The client and schema.
 */
async function query<C extends CollectionName>(db: StoreSql, collection: C, q: RecordQuery): Promise<Page<CollectionRecord<C>>> {
  const { sql, s, table } = db;
  const { offset, limit } = slice(q);
  const select = q.select;
  if (select && wholeColumns(collection, q, select)) {
    const written = await selectedJsonOf(db, collection, q, select);
    if (written) return { total: written.count, data: parseStoredRecord(written.json) as CollectionRecord<C>[] };
    const { total, columns } = await columnsOf(db, collection, q, select);
    // Plain loops: for 70k records of one field, `Object.fromEntries` cost 25 ms, a `forEach`
    // per record 8 ms, these 1 ms.
    const data = new Array<Record<string, unknown>>(columns[0]!.length);
    for (let n = 0; n < data.length; n++) {
      const record: Record<string, unknown> = {};
      for (let i = 0; i < select.length; i++) record[select[i]!] = columns[i]![n];
      data[n] = record;
    }
    return { data: data as CollectionRecord<C>[], total };
  }
  const p = new Params();
  const parts = partsOf(db, collection, q, p);
  if (!parts) return { data: [], total: 0 };
  const { where, from, order, hits } = parts;
  const groups = hits ? undefined : groupsCounting(collection, q.where);
  const count =
    q.count === false
      ? 'select 0 as total'
      : groups
        ? // Kept as records are written (`internal/tables.ts`), in columns named as the table's.
          `select coalesce(sum(t.n), 0) as total from ${s}.${quoteIdentifier(groups)} t where ${where}`
        : `select count(*) as total from ${from} where ${where}`;
  if (limit === 0) {
    const [row] = await sql.unsafe<{ total: Count }[]>(`${hits}${count}`, p.values as never[]);
    return { data: [], total: Number(row?.total ?? 0) };
  }
  const columns = select ? selectedSql(collection, select, p) : 't.record';
  // Without a search, the total is its own count (an index-only or narrow scan), so that the page
  // itself is a top-N walk of an order index instead of a sort of every match under a window
  // count. The walk yields places in the stored order (`seq`, in every order index) and only the
  // page's records are read: an offset deep into a list skips index entries, not rows.
  // A search's hits are sorted whole either way: one join of them with the table counts them
  // (a window) as it sorts them, and the count is run on its own only for a page past the last.
  const range = `from ${from} where ${where} order by ${order} limit ${limit} offset ${offset}`;
  const counted = hits !== '' && q.count !== false;
  const statement = sql.unsafe(
    `${hits}${counted ? `, w as materialized (select t.seq, count(*) over () as total ${range}) ` : ''}
     select c.total, p.* from (${counted ? `select coalesce((select w.total from w limit 1), (${count})) as total` : count}) c
     left join (
       select ${columns}, k.n
       from (select w.seq, row_number() over () as n from ${counted ? 'w' : `(select t.seq ${range}) w`}) k
       join ${table(collection)} t on t.seq = k.seq
     ) p on true
     order by p.n`,
    p.values as never[],
  );
  let total: number;
  let data: unknown[];
  if (select) {
    const rows = (await statement) as unknown as Array<{ total: Count; n: Count | null } & Record<string, unknown>>;
    const page = rows.filter((r) => r.n !== null);
    total = Number(rows[0]?.total ?? 0);
    data = page.map((r) => selected(collection, select, r));
  } else {
    // Whole records, as the bytes PostgreSQL sent (see `toRecord`): each row is [total, record, n].
    const rows = await statement.raw();
    const page = rows.filter((r) => r[2] !== null);
    total = rows.length > 0 ? Number(String(rows[0]![0])) : 0;
    data = page.map((r) => toRecord<C>(r[1]));
  }
  // Not counted: what the page shows is known to match.
  if (q.count === false) total = data.length > 0 ? offset + data.length : 0;
  return { data: data as CollectionRecord<C>[], total };
}

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
  // Queries are planned for their actual values: a generic plan of a prepared search cannot tell a
  // rare trigram from a common one, and picks scans that take a second instead of a millisecond.
  const client = openStoreClient('createPostgresStore', options, {
    max: options.max ?? 10,
    connection: { plan_cache_mode: 'force_custom_plan', application_name: options.applicationName ?? DEFAULT_APPLICATION_NAME },
  });
  const { sql, owned, timeoutMs } = client;
  const schema = options.schema ?? 'catalogue';
  const s = quoteIdentifier(schema);
  const table = (c: CollectionName) => `${s}.${quoteIdentifier(tableName(c))}`;
  const db: StoreSql = { sql, s, table };

  async function pluck(collection: CollectionName, field: string, q: PluckQuery): Promise<unknown[]> {
    slice(q);
    // An id list of 70k manga: one array from one scan, not 70k one-field records to map back.
    if (wholeColumns(collection, q, [field])) return (await columnsOf(db, collection, q, [field])).columns[0]!;
    const { data } = await query(db, collection, { ...q, select: [field] });
    return data.map((r) => (r as Record<string, unknown>)[field]);
  }

  /**
   * `pluck` written as JSON. Every match of an integer field (an id list) is printed by PostgreSQL
   * as JSON prints it, and read back as the bytes of the driver's message (`raw()`), never as a
   * string or an array: the 70k manga ids are ~480 KB a request would otherwise parse into numbers,
   * print again, and leave to the collector. Other fields and slices: what `pluck` gives, printed.
   */
  async function pluckJson(collection: CollectionName, field: string, q: PluckQuery): Promise<PluckedJson> {
    slice(q);
    const p = new Params();
    const parts = wholeColumns(collection, q, [field]) && fieldType(collection, field) === 'int' ? partsOf(db, collection, q, p) : undefined;
    if (!parts) {
      const values = await pluck(collection, field, q);
      return { count: values.length, json: encoder.encode(JSON.stringify(values)) };
    }
    const { where, from, order, hits } = parts;
    const values = `'[' || coalesce(string_agg(coalesce(s.c0::text, 'null'), ','), '') || ']'`;
    const [row] = await sql
      .unsafe(`${hits}select count(*), ${values} from (select t.${quoteIdentifier(field)} as c0 from ${from} where ${where} order by ${order}) s`, p.values as never[])
      .raw();
    return { count: Number(String(row![0])), json: row![1] as Uint8Array };
  }

  /**
   * `query` with `select` written as JSON: every match of fields PostgreSQL writes as JavaScript
   * does (an id list with its titles: 4,000 of them, ~290 KB) is passed on as the bytes it sent,
   * never parsed. Other fields (a `float`, an object) and slices: `undefined`, for `query`.
   */
  async function selectJson(collection: CollectionName, select: readonly string[], q: PluckQuery): Promise<PluckedJson | undefined> {
    slice(q);
    return wholeColumns(collection, q, select) ? selectedJsonOf(db, collection, q, select) : undefined;
  }

  async function upsert(name: string, records: readonly unknown[]): Promise<number> {
    const collection = collectionNamed(name);
    // The last of several records with one key wins, as in a sequence of single upserts.
    const unique = [...new Map(records.map((r) => [collectionKey(collection, r), r])).values()];
    if (unique.length === 0) return 0;
    const written = await sql.begin((tx) => writeRecords(tx as unknown as Sql, schema, collection, unique));
    // Committed: this process's own listeners need not wait for the NOTIFY.
    if (written.length > 0) feed.tell();
    return written.length;
  }

  const feed = createFeed(sql, schema, {
    url: owned ? options.url : undefined,
    pollMs: options.changesPollMs ?? 1_000,
    timeoutMs,
    applicationName: options.applicationName ?? DEFAULT_APPLICATION_NAME,
  });

  const store = {
    schema,
    sql,
    migrate: () => migrateCatalogueSchema(sql, schema),
    async get<C extends CollectionName>(collection: C, key: RecordKey | number): Promise<CollectionRecord<C> | undefined> {
      const [row] = await sql.unsafe(`select record from ${table(collection)} where key = $1::text`, [String(key)]).raw();
      return row && toRecord<C>(row[0]);
    },
    getMany: <C extends CollectionName>(collection: C, keys: readonly (RecordKey | number)[]) => getMany(db, collection, keys),
    query: <C extends CollectionName>(collection: C, q: RecordQuery) => query(db, collection, q),
    pluck,
    pluckJson,
    selectJson,
    tally: (collection: CollectionName, field: string, where?: Parameters<CatalogueStore['tally']>[2]) => tally(db, collection, field, where),
    upsert,
    async delete(collection: CollectionName, keys: readonly (RecordKey | number)[]): Promise<number> {
      if (keys.length === 0) return 0;
      const rows = await sql.unsafe(`delete from ${table(collection)} where key = any($1::text[]) returning 1`, [[...new Set(keys.map(String))]]);
      if (rows.length > 0) feed.tell();
      return rows.length;
    },
    async seed(data: CatalogueData) {
      for (const name of COLLECTION_NAMES) {
        const records = (data[name] ?? []) as readonly unknown[];
        for (let i = 0; i < records.length; i += SEED_BATCH) await upsert(name, records.slice(i, i + SEED_BATCH));
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
      const side = (c: CollectionName) => ['_texts', '_edits'].map((suffix) => `${s}.${quoteIdentifier(`${tableName(c)}${suffix}`)}`);
      const tables = COLLECTION_NAMES.flatMap((c) => (isSearchable(c) ? [table(c), ...side(c)] : [table(c)]));
      // One table a statement: each answers within the connection's silence timeout. Vacuum marks
      // the freshly written pages all-visible, so that counts and offsets can read an index alone
      // (with autovacuum off, or before it gets to the table, they would visit every row).
      for (const t of tables) await sql.unsafe(`vacuum (analyze) ${t}`);
    },
    async count(name: string) {
      const [row] = await sql.unsafe<{ n: Count }[]>(`select count(*) as n from ${table(collectionNamed(name))}`);
      return Number(row?.n ?? 0);
    },
    changes: feed.feed,
    async close() {
      await feed.close();
      await client.end();
    },
  };
  // `sql` is the client itself (a tagged-template function), not a method.
  client.guard(store, ['sql']);
  return store as PostgresStore;
}

/** What {@link createFeed} needs besides the client. */
interface FeedOptions {
  /** The URL of a pool the store owns: the feed then listens on a connection of its own. */
  url: string | undefined;
  pollMs: number;
  timeoutMs: number;
  applicationName: string;
}

/**
 * The change feed of a schema (see `PostgresStore.changes`): read from its tables, told of new
 * changes by `LISTEN` on the schema's channel and by a poll of the head row, both only while
 * something listens.
 */
function createFeed(sql: Sql, schema: string, options: FeedOptions): { feed: ChangeFeed; tell(): void; close(): Promise<void> } {
  const s = quoteIdentifier(schema);
  const listeners = new Set<() => void>();
  let id: string | undefined;
  let known = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  let listening: Promise<{ unlisten(): Promise<void> } | undefined> | undefined;
  let own: Sql | undefined;
  const tell = () => {
    for (const listener of listeners) {
      try {
        listener();
      } catch {
        // A listener's failure is its own.
      }
    }
  };
  const head = async () => {
    const [row] = await sql.unsafe<{ seq: string; feed: string }[]>(`select seq, feed from ${s}.${quoteIdentifier(CHANGE_HEAD_TABLE)}`);
    if (!row) throw new Error(`${schema}.${CHANGE_HEAD_TABLE} is empty: run migrate()`);
    id = row.feed;
    return Number(row.seq);
  };
  /** Tells the listeners when the head moved past what they were last told. */
  const moved = (seq: number) => {
    if (!(seq > known)) return;
    known = seq;
    tell();
  };
  const start = () => {
    // A connection of its own when the store owns the pool: the pool's connections close when
    // silent while a query waits, and a listening connection is silent by nature.
    const client = options.url
      ? (own ??= postgres(options.url, {
          max: 1,
          onnotice: () => {},
          connect_timeout: options.timeoutMs / 1000,
          backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1),
          connection: { application_name: `${options.applicationName} (changes)` },
        }))
      : sql;
    listening = client
      // On every (re)connect too: what was committed while it was down is read then.
      .listen(changesChannel(schema), (payload) => moved(Number(payload)), tell)
      .catch(() => undefined);
    timer = setInterval(() => {
      head().then(moved, () => undefined);
    }, options.pollMs);
    (timer as { unref?: () => void }).unref?.();
  };
  const stop = async () => {
    clearInterval(timer);
    timer = undefined;
    const was = listening;
    listening = undefined;
    await (await was)?.unlisten().catch(() => undefined);
  };
  const feed: ChangeFeed = {
    get id() {
      return id;
    },
    head,
    async since(after, limit) {
      const rows = await sql.unsafe<Array<{ seq: string; collection: string; key: string; op: RecordChange['op']; owners: string[]; at: number }>>(
        `select seq, collection, key, op, owners, (extract(epoch from at) * 1000)::float8 as at from ${s}.${quoteIdentifier(CHANGES_TABLE)}
         where seq > $1 order by seq limit $2`,
        [Math.max(0, Math.floor(after)), Math.max(0, Math.floor(limit))],
      );
      // Every row, even of a collection core no longer has: a gap would read as changes forgotten.
      const changes = rows.map((r): RecordChange => ({ seq: Number(r.seq), collection: r.collection as CollectionName, key: r.key, op: r.op, owners: r.owners, at: Number(r.at) }));
      if (changes.length > 0) known = Math.max(known, changes.at(-1)!.seq);
      return changes;
    },
    subscribe(listener) {
      const mine = () => listener();
      listeners.add(mine);
      if (!timer) start();
      return () => {
        listeners.delete(mine);
        if (listeners.size === 0) void stop();
      };
    },
  };
  return {
    feed,
    tell,
    async close() {
      await stop();
      await own?.end({ timeout: 5 });
      own = undefined;
    },
  };
}
