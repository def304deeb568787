/**
 * What the PostgreSQL stores (catalogue, status, refresher state) share: the pool each opens from
 * a URL or the client it is given, guarded so that a lost database is answered as unavailable;
 * their migrations, each run once per schema under an advisory lock and recorded in a ledger of
 * their own; and the lease that makes one instance the holder at a time.
 * @module
 */
import postgres, { type Sql } from 'postgres';
import { connectionOptions, guardStore, toTimeoutMs } from './availability.js';
import { quoteIdentifier } from './tables.js';

/** How a store is given its client: `sql`, or a `url` to open a pool from. */
export interface ClientOptions {
  sql?: Sql;
  url?: string;
  timeoutMs?: number;
}

/** The client a store works with. */
export interface StoreClient {
  /** The client: the one given, or the pool opened from the URL. */
  sql: Sql;
  /** Whether the pool was opened here (and so is the store's to end). */
  owned: boolean;
  /** The checked `timeoutMs`. */
  timeoutMs: number;
  /** Runs the store's migrations; a pool opened here is ended when they fail. */
  migrate(run: (sql: Sql) => Promise<unknown>): Promise<void>;
  /**
   * Wraps the store's methods ({@link guardStore}) and tells the pool's connections whether a call
   * is waiting on the database.
   */
  guard<T extends object>(store: T, except?: readonly string[]): T;
  /** Ends a pool opened here; a given client is left alone. */
  end(): Promise<void>;
}

/**
 * Opens a store's client.
 * @param name - The store's factory, for the error.
 * @param options - The client or URL, and the timeout.
 * @param pool - For a pool opened from the URL: its size and startup parameters.
 * @returns The client.
 * @throws TypeError without `sql` or `url`; RangeError when `timeoutMs` is not a positive number.
 */
export function openStoreClient(
  name: string,
  options: ClientOptions,
  pool: { max: number; connection: Record<string, string | number | boolean> & { application_name: string } },
): StoreClient {
  if (!options.sql && !options.url) throw new TypeError(`${name} needs \`sql\` or \`url\``);
  const owned = !options.sql;
  const timeoutMs = toTimeoutMs(options.timeoutMs);
  let waiting = (): boolean => false;
  // NOTICEs such as "schema already exists, skipping" are expected and not worth logging.
  const sql = options.sql ?? postgres(options.url!, { max: pool.max, onnotice: () => {}, ...connectionOptions(timeoutMs, () => waiting(), pool.connection) });
  const end = async () => {
    if (owned) await sql.end({ timeout: 5 });
  };
  return {
    sql,
    owned,
    timeoutMs,
    async migrate(run) {
      try {
        await run(sql);
      } catch (error) {
        if (owned) await sql.end({ timeout: 1 });
        throw error;
      }
    },
    guard(store, except) {
      waiting = guardStore(store, except);
      return store;
    },
    end,
  };
}

/** How often a migration asks again for the lock another process holds, in milliseconds. */
const LOCK_POLL_MS = 100;

/**
 * Runs `work` in a transaction holding a transaction-scoped advisory lock, asked for again every
 * 100 ms rather than waited on: a connection that stays silent past the store's timeout is closed
 * as lost (`availability.ts`), and another process may hold the lock for the whole of a long
 * migration.
 * @param sql - The client.
 * @param key - The lock's name.
 * @param work - What runs under the lock.
 * @returns What `work` returns.
 */
export async function underLock<T>(sql: Sql, key: string, work: (q: Sql) => Promise<T>): Promise<T> {
  const result = await sql.begin(async (tx) => {
    const q = tx as unknown as Sql;
    while (!(await q<{ locked: boolean }[]>`select pg_try_advisory_xact_lock(hashtext(${key})) as locked`)[0]!.locked) {
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
    return [await work(q)] as const;
  });
  return result[0];
}

/**
 * A schema's ledger of one part's migrations (`<part>_migrations`), created with the schema when
 * missing. Run under {@link underLock}.
 * @param q - The transaction.
 * @param schema - The schema (unquoted).
 * @param part - The part: `catalogue`, `status`, `refresh`.
 * @returns The last version recorded (0 for none), and how to record one.
 */
export async function openLedger(q: Sql, schema: string, part: string): Promise<{ version: number; record(version: number): Promise<void> }> {
  const s = quoteIdentifier(schema);
  const ledger = `${s}.${quoteIdentifier(`${part}_migrations`)}`;
  await q.unsafe(`create schema if not exists ${s}`);
  await q.unsafe(`create table if not exists ${ledger} (version integer primary key, applied_at timestamptz not null default now())`);
  const [row] = await q.unsafe<{ version: number | null }[]>(`select max(version) as version from ${ledger}`);
  return {
    version: row?.version ?? 0,
    record: async (version) => void (await q.unsafe(`insert into ${ledger} (version) values ($1)`, [version])),
  };
}

/**
 * Runs the migrations of one part of a schema not yet in its ledger, in order. Idempotent, and
 * safe from several processes at once ({@link underLock}).
 * @param sql - The client.
 * @param schema - The schema (unquoted); created when missing.
 * @param part - The part, naming the ledger and the lock.
 * @param migrations - Each migration's SQL, given the quoted schema.
 * @returns The version now in place.
 */
export function runMigrations(sql: Sql, schema: string, part: string, migrations: ReadonlyArray<(s: string) => string>): Promise<number> {
  const s = quoteIdentifier(schema);
  return underLock(sql, `catalogue-api/${part}:${schema}`, async (q) => {
    const ledger = await openLedger(q, schema, part);
    let version = ledger.version;
    while (version < migrations.length) {
      version++;
      await q.unsafe(migrations[version - 1]!(s));
      await ledger.record(version);
    }
    return version;
  });
}

/**
 * The lease of one row of a lease table (`name`, `holder`, `expires_at`): one holder at a time,
 * taken over by another once it expires.
 * @param sql - The client.
 * @param table - The table, quoted and qualified.
 * @param name - The row's name.
 * @param instant - A time in milliseconds since the epoch as the table's `expires_at` holds it.
 * @returns Acquire (or renew) and release.
 */
export function createLease(sql: Sql, table: string, name: string, instant: (ms: number) => number | Date) {
  return {
    /** Takes or renews the lease for `ttlMs` from `now`; whether `holder` holds it. */
    async acquire(holder: string, now: number, ttlMs: number): Promise<boolean> {
      // One statement: contenders serialize on the row, and only the holder, or a contender once
      // the lease has expired, gets a row back.
      const rows = await sql.unsafe(
        `insert into ${table} as l (name, holder, expires_at) values ($1, $2, $3)
         on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at
         where l.holder = excluded.holder or l.expires_at <= $4
         returning holder`,
        [name, holder, instant(now + ttlMs), instant(now)] as never[],
      );
      return rows.length === 1;
    },
    /** Gives the lease up, if `holder` holds it. */
    async release(holder: string): Promise<void> {
      await sql.unsafe(`delete from ${table} where name = $1 and holder = $2`, [name, holder]);
    },
  };
}
