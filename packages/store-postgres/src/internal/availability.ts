/**
 * How the PostgreSQL stores behave when the database is lost: which errors mean "unavailable"
 * (core answers them with 503), and the connection options that let a pool they open find a lost
 * database within a timeout and resume by itself once it is back.
 * @module
 */
import { connect, type Socket } from 'node:net';
import { StoreUnavailableError } from '@catalogue-api/core';
import type { Options, PostgresType } from 'postgres';

/** The default of the stores' `timeoutMs`, the same as core's `storeTimeoutMs`. */
export const DEFAULT_TIMEOUT_MS = 5_000;

// porsager `postgres` connection errors (its `Errors.connection`) and Node socket errors.
const CONNECTION_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * Whether an error means the database cannot answer now, rather than that the call was wrong:
 * a lost, refused or timed-out connection, or a server that is shutting down, starting up, out of
 * connections or resources (SQLSTATE classes 08 and 53, and 57P01–57P03), that cancelled the
 * statement (57014, e.g. `statement_timeout`), or that gave up waiting for a lock (55P03,
 * `lock_timeout`: a migration or `REINDEX` holds the table). See
 * https://www.postgresql.org/docs/current/errcodes-appendix.html.
 * @param error - Anything thrown by `postgres`.
 * @returns Whether to answer it with 503.
 */
export function isUnavailable(error: unknown): boolean {
  if (StoreUnavailableError.is(error)) return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return CONNECTION_CODES.has(code) || code.startsWith('08') || code.startsWith('53') || /^57P0[123]$/.test(code) || code === '57014' || code === '55P03';
}

/**
 * Wraps every method of a store so that an unavailable database throws `StoreUnavailableError`
 * (its cause the original error), and counts the calls waiting on the database.
 * @param store - The store object; its methods are replaced in place.
 * @param except - Properties that are functions but not methods, such as the `sql` client.
 * @returns A function telling whether any call is waiting.
 */
export function guardStore(store: object, except: readonly string[] = []): () => boolean {
  let waiting = 0;
  const target = store as Record<string, unknown>;
  for (const [name, method] of Object.entries(target)) {
    if (typeof method !== 'function' || except.includes(name)) continue;
    target[name] = async (...args: unknown[]) => {
      waiting++;
      try {
        return await (method as (...a: unknown[]) => unknown).apply(store, args);
      } catch (error) {
        if (!isUnavailable(error) || StoreUnavailableError.is(error)) throw error;
        throw new StoreUnavailableError(`PostgreSQL unavailable: ${(error as Error).message}`, { cause: error });
      } finally {
        waiting--;
      }
    };
  }
  return () => waiting > 0;
}

/**
 * How much longer than `timeoutMs` a connection may stay silent while a query waits before it is
 * closed as lost: long enough for the server's own `statement_timeout` error to arrive first, so
 * that a statement the server ends keeps its connection (and its backend) instead of leaving a
 * backend behind and opening another.
 * @param timeoutMs - The timeout, in milliseconds.
 * @returns The silence allowed, in milliseconds.
 */
export const silenceMs = (timeoutMs: number): number => timeoutMs + Math.min(timeoutMs / 2, 1_000);

/**
 * The `postgres` options of a pool a store opens itself, so that a lost database is noticed and
 * left behind within `timeoutMs`, and no statement outlives it:
 * - `statement_timeout` and `lock_timeout` (startup parameters of every connection,
 *   https://www.postgresql.org/docs/current/runtime-config-client.html): the server ends a
 *   statement that runs, or waits for a lock, longer than the timeout (a table locked by a
 *   migration or a `REINDEX`), answers SQLSTATE 57014 or 55P03 (both "unavailable"), and the
 *   connection is free for the next call. Without them a call cut off by the timeout left its
 *   statement waiting in the server while the pool opened another connection, and backends grew
 *   past the pool's size until the server ran out of connections.
 * - `connect_timeout`: a connection that gets no answer (a frozen network accepts and then says
 *   nothing) fails after the timeout, not the driver's 30 s.
 * - `socket`: each connection closes itself when it has been silent for a little longer than the
 *   timeout ({@link silenceMs}) while the store waits on an answer. A half-open connection (the
 *   peer gone without a word, as after a network partition) would otherwise hold its queries until
 *   TCP keepalive gives up, minutes later, and hold them again after the database is back. Hosts
 *   of a multi-host URL are taken in turn.
 * - `backoff`: reconnects wait at most 1 s (the driver's default grows to 20 s), so that service
 *   resumes about as soon as the database is back, as `Retry-After: 1` tells clients.
 * - `application_name`: what `pg_stat_activity` shows for the pool's backends (a URL's own
 *   `?application_name=` wins).
 * @param timeoutMs - The timeout, in milliseconds.
 * @param waiting - Whether the store is waiting on an answer.
 * @param connection - Further startup parameters, and the `application_name`.
 * @returns Options to spread into `postgres(url, …)`.
 */
export function connectionOptions(
  timeoutMs: number,
  waiting: () => boolean,
  connection: Record<string, string | number | boolean> & { application_name: string },
): Partial<Options<Record<string, PostgresType>>> {
  let next = 0;
  const silence = silenceMs(timeoutMs);
  const socket = ({ host, port, path }: { host: string[]; port: number[]; path?: string }): Socket => {
    const i = next++ % Math.max(1, host.length);
    const s = path ? connect(path) : connect(port[i] ?? port[0] ?? 5432, host[i]);
    // Node emits 'timeout' after `silence` ms without a byte either way, and again after the next activity.
    s.setTimeout(silence);
    s.on('timeout', () => {
      if (waiting()) s.destroy(new StoreUnavailableError(`PostgreSQL connection silent for ${silence} ms while a query waits`));
    });
    return s;
  };
  // PostgreSQL takes whole milliseconds; 0 would mean "no limit".
  const limit = Math.max(1, Math.ceil(timeoutMs));
  return {
    connection: { ...connection, statement_timeout: limit, lock_timeout: limit },
    connect_timeout: timeoutMs / 1000,
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1) * (0.5 + Math.random() / 2),
    // `socket` is a documented option of `postgres` (README, "Custom socket") missing from its types.
    ...({ socket } as object),
  };
}

/**
 * Checks a `timeoutMs` option.
 * @param value - As given.
 * @returns The timeout in milliseconds.
 * @throws {RangeError} unless it is a positive finite number.
 */
export function toTimeoutMs(value: number | undefined): number {
  const ms = value ?? DEFAULT_TIMEOUT_MS;
  if (!(ms > 0 && Number.isFinite(ms))) throw new RangeError(`timeoutMs must be a positive number of milliseconds, got ${String(value)}`);
  return ms;
}
