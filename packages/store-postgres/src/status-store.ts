/**
 * A PostgreSQL `StatusStore` (porsager `postgres`): check history survives restarts, and several
 * checker instances share one history without double-counting, because only the lease holder checks.
 * @module
 */
import type { Sql } from 'postgres';
import type { CheckRecord, CheckSegment, MaintenanceRecord, StatusStore } from '@catalogue-api/core';
import { createLease, openStoreClient, runMigrations } from './internal/client.js';
import { quoteIdentifier } from './internal/tables.js';

/** Options of {@link createPostgresStatusStore}. */
export interface PostgresStatusStoreOptions {
  /**
   * A `postgres` client to use. The store never ends it.
   * Give this or `url`.
   */
  sql?: Sql;
  /** A connection URL, e.g. `postgres://postgres@127.0.0.1:5432/test`; the store owns that client and `close()` ends it. */
  url?: string;
  /** The schema the tables live in; created when missing. @default 'catalogue_status' */
  schema?: string;
  /**
   * For the client opened from `url`, in milliseconds: the longest a statement may run or wait
   * for a lock (`statement_timeout` and `lock_timeout`), how long a connection attempt may take,
   * and, a little longer, how long a connection may stay silent while a query waits on it before
   * it is closed as lost. Keep it at or below the status app's and checker's `storeTimeoutMs`.
   * @default 5000
   */
  timeoutMs?: number;
  /** For the client opened from `url`: its backends' `application_name`. @default 'catalogue-api-status' */
  applicationName?: string;
}

/** The PostgreSQL status store. */
export interface PostgresStatusStore extends StatusStore {
  /** The schema in use. */
  readonly schema: string;
  /** Ends the connection pool when the store opened it from `url`; otherwise does nothing. */
  close(): Promise<void>;
}

const LEASE = 'checker';

/**
 * Schema migrations, in order; each runs once per schema, recorded in `status_migrations`.
 * History is kept as runs of equal outcomes (`status_segments`), so a stable service costs a few
 * rows for 90 days instead of 130,000.
 */
const MIGRATIONS: ReadonlyArray<(schema: string) => string> = [
  (s) => `
    create table ${s}.status_segments (
      id bigserial primary key,
      service_id text not null,
      outcome text not null check (outcome in ('up', 'degraded', 'fail')),
      started_at timestamptz not null,
      last_at timestamptz not null,
      checks integer not null check (checks > 0)
    );
    create index status_segments_service_started on ${s}.status_segments (service_id, started_at desc);
    create index status_segments_last on ${s}.status_segments (last_at);
    create table ${s}.status_maintenances (
      id text primary key,
      service_id text not null,
      title text not null,
      starts_at timestamptz not null,
      ends_at timestamptz not null,
      status text,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create table ${s}.status_lease (
      name text primary key,
      holder text not null,
      expires_at timestamptz not null
    );`,
];

interface SegmentRow {
  service_id: string;
  outcome: CheckSegment['outcome'];
  started_at: Date;
  last_at: Date;
  checks: number;
}

interface MaintenanceRow {
  id: string;
  service_id: string;
  title: string;
  starts_at: Date;
  ends_at: Date;
  status: string | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * Runs the status schema's migrations. Safe to call from several processes at once: a
 * transaction-scoped advisory lock serializes them.
 * @param sql - A `postgres` client.
 * @param schema - The schema name.
 */
export async function migrateStatusSchema(sql: Sql, schema: string): Promise<void> {
  await runMigrations(sql, schema, 'status', MIGRATIONS);
}

/**
 * Opens the PostgreSQL status store, migrating its schema first. Once open, a lost or refused
 * connection makes any method throw core's `StoreUnavailableError`: the status app answers 503,
 * and the checker keeps its results until the store is back.
 * @param options - A client or URL, the schema and the connection timeout.
 * @returns The store.
 * @throws When the database cannot be reached or migrated, or `timeoutMs` is not a positive number.
 * @example
 * ```ts
 * import { createChecker, createStatusApp } from '@catalogue-api/core';
 * import { createPostgresStatusStore } from '@catalogue-api/store-postgres';
 *
 * const store = await createPostgresStatusStore({ url: process.env.DATABASE_URL });
 * createChecker({ services, store }).start();
 * const app = createStatusApp({ services, store });
 * ```
 */
export async function createPostgresStatusStore(options: PostgresStatusStoreOptions): Promise<PostgresStatusStore> {
  const client = openStoreClient('createPostgresStatusStore', options, {
    max: 4,
    connection: { application_name: options.applicationName ?? 'catalogue-api-status' },
  });
  const { sql } = client;
  const schema = options.schema ?? 'catalogue_status';
  await client.migrate((q) => migrateStatusSchema(q, schema));
  const segments = sql(`${schema}.status_segments`);
  const maintenances = sql(`${schema}.status_maintenances`);
  const s = quoteIdentifier(schema);
  const lease = createLease(sql, `${s}.status_lease`, LEASE, (ms) => new Date(ms));

  const store: PostgresStatusStore = {
    schema,
    async recordCheck(check: CheckRecord, joinWithinMs: number) {
      const at = new Date(check.at);
      await sql.begin(async (tx) => {
        const q = tx as unknown as Sql;
        // One writer per service at a time, even outside the lease (e.g. a manual round).
        await q`select pg_advisory_xact_lock(hashtext(${`${s}:${check.serviceId}`}))`;
        const [last] = await q<{ id: string; outcome: string; last_at: Date }[]>`
          select id, outcome, last_at from ${segments}
          where service_id = ${check.serviceId}
          order by started_at desc, id desc limit 1`;
        const gap = last ? check.at - last.last_at.getTime() : Infinity;
        if (last && last.outcome === check.outcome && gap >= 0 && gap <= joinWithinMs) {
          await q`update ${segments} set last_at = ${at}, checks = checks + 1 where id = ${last.id}`;
        } else {
          await q`insert into ${segments} (service_id, outcome, started_at, last_at, checks)
                  values (${check.serviceId}, ${check.outcome}, ${at}, ${at}, 1)`;
        }
      });
    },
    async listSegments(since) {
      const rows = await sql<SegmentRow[]>`
        select service_id, outcome, started_at, last_at, checks from ${segments}
        where last_at >= ${new Date(since)}
        order by service_id collate "C", started_at, id`;
      return rows.map((row) => ({
        serviceId: row.service_id,
        outcome: row.outcome,
        startedAt: row.started_at.getTime(),
        lastAt: row.last_at.getTime(),
        checks: row.checks,
      }));
    },
    async prune(before) {
      const cut = new Date(before);
      const a = await sql`delete from ${segments} where last_at < ${cut}`;
      const b = await sql`delete from ${maintenances} where ends_at < ${cut}`;
      return a.count + b.count;
    },
    async listMaintenances() {
      const rows = await sql<MaintenanceRow[]>`select * from ${maintenances} order by starts_at, id`;
      return rows.map(
        (row): MaintenanceRecord => ({
          id: row.id,
          serviceId: row.service_id,
          title: row.title,
          startsAt: row.starts_at.getTime(),
          endsAt: row.ends_at.getTime(),
          status: row.status,
          createdAt: row.created_at.getTime(),
          updatedAt: row.updated_at.getTime(),
        }),
      );
    },
    async putMaintenance(record) {
      const row = {
        id: record.id,
        service_id: record.serviceId,
        title: record.title,
        starts_at: new Date(record.startsAt),
        ends_at: new Date(record.endsAt),
        status: record.status,
        created_at: new Date(record.createdAt),
        updated_at: new Date(record.updatedAt),
      };
      await sql`
        insert into ${maintenances} ${sql(row)}
        on conflict (id) do update set
          service_id = excluded.service_id, title = excluded.title, starts_at = excluded.starts_at,
          ends_at = excluded.ends_at, status = excluded.status, created_at = excluded.created_at,
          updated_at = excluded.updated_at`;
    },
    async deleteMaintenance(id) {
      const result = await sql`delete from ${maintenances} where id = ${id}`;
      return result.count > 0;
    },
    acquireLease: (holder, now, ttlMs) => lease.acquire(holder, now, ttlMs),
    releaseLease: (holder) => lease.release(holder),
    close: client.end,
  };
  client.guard(store);
  return store;
}
