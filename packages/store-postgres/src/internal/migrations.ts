/**
 * The catalogue schema: one baseline, then an ordered list of migrations. Each runs once per
 * schema, recorded in `catalogue_migrations`; never edit a released one, append a new one.
 *
 * The baseline holds what is not a collection: the change feed's tables. The collection tables
 * come from core's `COLLECTIONS` (`tables.ts`): after the last migration, `syncTables` brings them
 * up to `COLLECTIONS` (a collection or field core adds needs no migration here), and `fillTables`
 * fills new columns from the stored records in a transaction of its own.
 *
 * The baseline is numbered {@link BASELINE_VERSION}: it is the layout the pre-release versions 1 to
 * 8 of this package arrived at, which it replaces (never published). A schema at version 8 is
 * therefore current; one at an earlier version is refused with an {@link OutdatedSchemaError}
 * telling the operator to create the schema again and import the records again.
 *
 * Records are stored as `json`, not `jsonb`: `jsonb` re-orders object keys (shortest first), and
 * the API must answer with Jikan's field order, byte for byte the same as the memory store.
 * @module
 */
import type { Sql } from 'postgres';
import { openLedger, underLock } from './client.js';
import { CHANGE_HEAD_TABLE, CHANGES_TABLE, fillTables, quoteIdentifier, REFILLS_TABLE, syncTables } from './tables.js';

/** The version the baseline is recorded as: the last of the pre-release layouts it squashes. */
export const BASELINE_VERSION = 8;

/**
 * The baseline. The change feed (core's `CatalogueStore.changes`): each committed change of a
 * record, numbered in commit order, so that the response caches of every instance drop what it
 * made stale. The collection tables' triggers that write it are made by `syncTables`
 * (`tables.ts`), which runs after; the feed's id tells a cache entry made over this database from
 * one made over another.
 */
const baseline = (s: string) => `
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
    insert into ${s}.${CHANGE_HEAD_TABLE} (seq, feed) values (0, md5(random()::text || clock_timestamp()::text));`;

/** The migrations after the baseline, version {@link BASELINE_VERSION} + 1 first. */
const MIGRATIONS: ReadonlyArray<(s: string) => string> = [];

/** The version of a schema every migration has run on. */
const LATEST_VERSION = BASELINE_VERSION + MIGRATIONS.length;

/**
 * A schema made by a pre-release version of this package, older than the baseline: its layout is
 * not upgraded. Create the schema again (or use another one) and import the records again.
 */
export class OutdatedSchemaError extends Error {
  /**
   * @param schema - The schema (unquoted).
   * @param version - The version recorded in it.
   */
  constructor(
    readonly schema: string,
    readonly version: number,
  ) {
    super(
      `PostgreSQL schema "${schema}" was made by a pre-release version of @catalogue-api/store-postgres (schema version ${version}), ` +
        `whose layout is not upgraded: drop it (drop schema "${schema}" cascade) or use another schema, then migrate and import the records again`,
    );
    this.name = 'OutdatedSchemaError';
  }
}

/**
 * Brings a schema up to the latest version: the baseline on a new schema, then each migration not
 * yet run. Idempotent, and safe from several processes at once (`client.ts`, `underLock`).
 * @param sql - A `postgres` client.
 * @param schema - The schema name (unquoted).
 * @returns The version the schema is at.
 * @throws OutdatedSchemaError when the schema is at a version before the baseline.
 */
export async function migrateCatalogueSchema(sql: Sql, schema: string): Promise<number> {
  const s = quoteIdentifier(schema);
  // CREATE EXTENSION needs privileges a read-mostly role may lack; it is enough that it exists.
  const [ext] = await sql<{ present: boolean }[]>`select exists (select 1 from pg_extension where extname = 'pg_trgm') as present`;
  if (!ext?.present) await sql`create extension if not exists pg_trgm`;
  const key = `catalogue-api/catalogue:${schema}`;
  const version = await underLock(sql, key, async (q) => {
    const ledger = await openLedger(q, schema, 'catalogue');
    await q.unsafe(`create table if not exists ${s}.${quoteIdentifier(REFILLS_TABLE)} (collection text primary key)`);
    const before = ledger.version;
    if (before > 0 && before < BASELINE_VERSION) throw new OutdatedSchemaError(schema, before);
    let version = before;
    if (version === 0) {
      await q.unsafe(baseline(s));
      version = BASELINE_VERSION;
      await ledger.record(version);
    }
    while (version < LATEST_VERSION) {
      version++;
      await q.unsafe(MIGRATIONS[version - BASELINE_VERSION - 1]!(s));
      await ledger.record(version);
    }
    if (version === LATEST_VERSION) await syncTables(q, schema, version !== before);
    return version;
  });
  // New columns are filled after their table's exclusive lock is gone (see fillTables), under the
  // lock again: another process may hold it for the whole of a fill (~40 s for 100k anime and manga).
  if (version === LATEST_VERSION) await underLock(sql, key, (q) => fillTables(q, schema));
  return version;
}
