/**
 * The refresher's state in PostgreSQL (porsager `postgres`): the lease that makes one instance the
 * refresher, the tasks with their due times, named cursors, and the budget's ledger, all shared by
 * every instance on one database and kept across restarts and a change of leader. A refresher
 * killed mid-pass resumes from the tasks as they were last written; a new leader knows what the old
 * one spent in the last minute.
 *
 * The ledger is a table of the request slots taken in the last minute (older ones are pruned as new
 * ones are taken) and a one-row pause. `tryTake` reads and writes it in one transaction under a
 * transaction-scoped advisory lock, so callers on any number of instances are served one at a time
 * and the limits hold over every sliding second and minute.
 * @module
 */
import type { Sql } from 'postgres';
import type { EntryPart, ListName, MediaKind, RefreshState, Task, TierBacklog, TierName, UpstreamLimits } from '@catalogue-api/core/upstream';
import { createLease, openStoreClient } from './internal/client.js';
import { migrateRefreshSchema, TIER_ORDER } from './internal/refresh-migrations.js';
import { quoteIdentifier } from './internal/tables.js';

export { migrateRefreshSchema } from './internal/refresh-migrations.js';

/** Options of {@link createPostgresRefreshState}. */
export interface PostgresRefreshStateOptions {
  /** A `postgres` client to use (e.g. the catalogue store's `sql`); the state never ends it. Give this or `url`. */
  sql?: Sql;
  /** A connection URL; the state owns that pool and `close()` ends it. */
  url?: string;
  /**
   * The schema its tables live in; created when missing. The catalogue's schema is a good home:
   * whoever shares the catalogue shares its refresher. @default 'catalogue'
   */
  schema?: string;
  /** For the pool opened from `url`: as the catalogue store's `timeoutMs`. @default 5000 */
  timeoutMs?: number;
  /** For the pool opened from `url`: its backends' `application_name`. @default 'catalogue-api-refresh' */
  applicationName?: string;
}

/** The PostgreSQL refresh state. */
export interface PostgresRefreshState extends RefreshState {
  /** The schema in use. */
  readonly schema: string;
  /** Ends the pool when the state opened it from `url`; otherwise does nothing. */
  close(): Promise<void>;
}

/** The name of the refresher's lease row. */
const LEASE = 'refresher';
const SECOND_MS = 1_000;
const MINUTE_MS = 60_000;
/**
 * Slots older than this are pruned. Twice the longest window: an instance whose clock runs a little
 * behind the others' still sees every slot they took in its own last minute.
 */
const KEEP_MS = 2 * MINUTE_MS;
/** The widest margin a budget may count its windows by (as core's `checkMargin`). */
const MAX_MARGIN_MS = 10_000;
/** Tasks per statement of `put` and keys per statement of `remove`: 12 parameters each, far below PostgreSQL's 65,535. */
const BATCH = 1_000;

const TIERS: ReadonlySet<string> = new Set(TIER_ORDER);

interface TaskRow {
  key: string;
  tier: TierName;
  due_at: string | number;
  kind: MediaKind;
  entry_id: number | null;
  part: EntryPart | null;
  list: ListName | null;
  page: number | null;
  failures: number;
  not_found_at: string | number | null;
  validator: string | null;
}

const TASK_COLUMNS = 'key, tier, due_at, kind, entry_id, part, list, page, failures, not_found_at, validator';

function toTask(row: TaskRow): Task {
  const task: { -readonly [K in keyof Task]: Task[K] } = { key: row.key, tier: row.tier, dueAt: Number(row.due_at), kind: row.kind, failures: row.failures };
  if (row.entry_id !== null) task.id = row.entry_id;
  if (row.part !== null) task.part = row.part;
  if (row.list !== null) task.list = row.list;
  if (row.page !== null) task.page = row.page;
  if (row.not_found_at !== null) task.notFoundAt = Number(row.not_found_at);
  if (row.validator !== null) task.validator = row.validator;
  return task;
}

/** A whole number of milliseconds for a `bigint` column. */
function instant(value: number, name: string): number {
  if (!Number.isFinite(value)) throw new RangeError(`${name} must be a finite number of milliseconds, got ${String(value)}`);
  return Math.floor(value);
}

function checkLimits(limits: UpstreamLimits): void {
  for (const name of ['perSecond', 'perMinute'] as const) {
    const value = limits[name];
    if (!(Number.isInteger(value) && value > 0)) throw new RangeError(`limits.${name} must be a positive whole number, got ${String(value)}`);
  }
}

function toRow(task: Task) {
  if (!TIERS.has(task.tier)) throw new TypeError(`task ${task.key}: unknown tier "${String(task.tier)}"`);
  return {
    key: task.key,
    tier: task.tier,
    priority: TIER_ORDER.indexOf(task.tier),
    due_at: instant(task.dueAt, `task ${task.key}: dueAt`),
    kind: task.kind,
    entry_id: task.id ?? null,
    part: task.part ?? null,
    list: task.list ?? null,
    page: task.page ?? null,
    failures: task.failures,
    not_found_at: task.notFoundAt === undefined ? null : instant(task.notFoundAt, `task ${task.key}: notFoundAt`),
    validator: task.validator ?? null,
  };
}

/**
 * Opens the refresher's state in PostgreSQL, creating or upgrading its tables first
 * ({@link migrateRefreshSchema}). Once open, a lost or refused connection makes any method throw
 * core's `StoreUnavailableError`.
 *
 * - The lease runs in real time (the `now` and `ttlMs` the refresher gives): one holder at a time,
 *   taken over by another once it expires.
 * - `due` reads each tier's due tasks through the `(priority, due_at)` index, highest tier first.
 * - `tryTake` takes a request slot only when every sliding window has room and the source is not
 *   paused, atomically across every instance on the database.
 * @param options - A client or URL, and the schema.
 * @returns The state.
 * @throws When the database cannot be reached or migrated, or `timeoutMs` is not a positive number.
 * @example
 * ```ts
 * import { createPostgresStore, createPostgresRefreshState } from '@catalogue-api/store-postgres';
 *
 * const store = createPostgresStore({ url: process.env.DATABASE_URL });
 * await store.migrate();
 * const state = await createPostgresRefreshState({ sql: store.sql, schema: store.schema });
 * ```
 */
export async function createPostgresRefreshState(options: PostgresRefreshStateOptions): Promise<PostgresRefreshState> {
  const client = openStoreClient('createPostgresRefreshState', options, {
    max: 4,
    connection: { application_name: options.applicationName ?? 'catalogue-api-refresh' },
  });
  const { sql } = client;
  const schema = options.schema ?? 'catalogue';
  const s = quoteIdentifier(schema);
  await client.migrate((q) => migrateRefreshSchema(q, schema));
  const tasks = `${s}.refresh_tasks`;
  const requests = `${s}.refresh_requests`;
  const pause = `${s}.refresh_pause`;
  const cursors = `${s}.refresh_cursors`;
  const lease = createLease(sql, `${s}.refresh_lease`, LEASE, (ms) => ms);
  const ledgerLock = `catalogue-api/refresh-ledger:${schema}`;
  // The identifier helper quotes each part of `schema.table`.
  const taskTable = sql(`${schema}.refresh_tasks`);
  // One index range scan per tier, highest first: a plain `order by priority, due_at` would walk
  // past every task of a higher tier that is not yet due to reach the due ones of a lower tier.
  const dueSql = `select ${TASK_COLUMNS} from (${TIER_ORDER.map(
    (_, priority) => `(select ${TASK_COLUMNS}, priority from ${tasks} where priority = ${priority} and due_at <= $1 order by due_at, key limit $2)`,
  ).join(' union all ')}) t order by priority, due_at, key limit $2`;

  const state: PostgresRefreshState = {
    schema,
    acquireLease: (holder, now, ttlMs) => lease.acquire(holder, instant(now, 'now'), instant(ttlMs, 'ttlMs')),
    releaseLease: (holder) => lease.release(holder),
    async due(now, limit) {
      if (!(limit > 0)) return [];
      const rows = await sql.unsafe<TaskRow[]>(dueSql, [instant(now, 'now'), Math.floor(limit)]);
      return rows.map(toTask);
    },
    async put(list) {
      // The last of several tasks with one key wins, as a replace by key would have it.
      const rows = [...new Map(list.map((task) => [task.key, toRow(task)])).values()];
      for (let i = 0; i < rows.length; i += BATCH) {
        await sql`
          insert into ${taskTable} ${sql(rows.slice(i, i + BATCH))}
          on conflict (key) do update set
            tier = excluded.tier, priority = excluded.priority, due_at = excluded.due_at, kind = excluded.kind,
            entry_id = excluded.entry_id, part = excluded.part, list = excluded.list, page = excluded.page,
            failures = excluded.failures, not_found_at = excluded.not_found_at, validator = excluded.validator`;
      }
    },
    async remove(keys) {
      for (let i = 0; i < keys.length; i += BATCH) {
        await sql.unsafe(`delete from ${tasks} where key = any($1::text[])`, [keys.slice(i, i + BATCH) as string[]]);
      }
    },
    async backlog(now) {
      const rows = await sql.unsafe<{ tier: TierName; due: number; oldest: string | null }[]>(
        `select tier, count(*)::integer as due, min(due_at) as oldest from ${tasks} where due_at <= $1 group by tier`,
        [instant(now, 'now')],
      );
      const backlog = Object.fromEntries(TIER_ORDER.map((tier) => [tier, { due: 0, oldestDueAt: null }])) as Record<TierName, TierBacklog>;
      for (const row of rows) backlog[row.tier] = { due: row.due, oldestDueAt: row.oldest === null ? null : Number(row.oldest) };
      return backlog;
    },
    async size() {
      const [row] = await sql.unsafe<{ n: number }[]>(`select count(*)::integer as n from ${tasks}`);
      return row?.n ?? 0;
    },
    async getCursor(name) {
      const [row] = await sql.unsafe<{ value: string }[]>(`select value from ${cursors} where name = $1`, [name]);
      return row?.value;
    },
    async setCursor(name, value) {
      await sql.unsafe(`insert into ${cursors} (name, value) values ($1, $2) on conflict (name) do update set value = excluded.value`, [name, value]);
    },
    async tryTake(now, limits, marginMs = 0) {
      checkLimits(limits);
      if (!(Number.isSafeInteger(marginMs) && marginMs >= 0 && marginMs <= MAX_MARGIN_MS)) throw new RangeError(`marginMs must be a whole number of ms from 0 to ${MAX_MARGIN_MS}, got ${String(marginMs)}`);
      const at = instant(now, 'now');
      const second = SECOND_MS + marginMs;
      const minute = MINUTE_MS + marginMs;
      return sql.begin(async (tx) => {
        const q = tx as unknown as Sql;
        // Every instance's takes, one at a time: what is counted is what is there when the slot is written.
        await q`select pg_advisory_xact_lock(hashtext(${ledgerLock}))`;
        // The pause and the latest slots, newest first, in one round trip (each is one more wait
        // between the slot's instant and its request). Slots stamped after `now` (another
        // instance's clock a little ahead) count too, so that clocks slightly apart never add up
        // to more than the limit.
        const rows = await q.unsafe<{ at: string | null; until: string | null }[]>(
          `select (select until from ${pause}) as until, r.at from (select null) one
           left join lateral (select at from ${requests} where at > $1 order by at desc limit $2) r on true`,
          [at - minute, Math.max(limits.perSecond, limits.perMinute)],
        );
        const until = rows[0]?.until == null ? 0 : Number(rows[0].until);
        if (until > at) return until - at;
        const taken = rows.filter((row) => row.at !== null).map((row) => Number(row.at));
        let wait = 0;
        // A full window frees a slot when its oldest of the last `limit` slots leaves it.
        const inSecond = taken.filter((t) => t > at - second).length;
        if (inSecond >= limits.perSecond) wait = Math.max(wait, taken[limits.perSecond - 1]! + second - at);
        if (taken.length >= limits.perMinute) wait = Math.max(wait, taken[limits.perMinute - 1]! + minute - at);
        if (wait > 0) return Math.max(1, Math.ceil(wait));
        await q.unsafe(`with pruned as (delete from ${requests} where at <= $2) insert into ${requests} (at) values ($1)`, [at, at - KEEP_MS]);
        return 0;
      });
    },
    async pause(until) {
      await sql.unsafe(
        `insert into ${pause} as p (id, until) values (true, $1) on conflict (id) do update set until = greatest(p.until, excluded.until)`,
        [instant(until, 'until')],
      );
    },
    async usage(now) {
      const at = instant(now, 'now');
      const [counts] = await sql.unsafe<{ second: number; minute: number }[]>(
        `select count(*) filter (where at > $2)::integer as second, count(*)::integer as minute from ${requests} where at > $1`,
        [at - MINUTE_MS, at - SECOND_MS],
      );
      const [paused] = await sql.unsafe<{ until: string }[]>(`select until from ${pause}`);
      return { second: counts?.second ?? 0, minute: counts?.minute ?? 0, pausedUntil: paused ? Number(paused.until) : 0 };
    },
    close: client.end,
  };
  return client.guard(state);
}
