/**
 * The example's admission settings from the environment: how many store calls of each kind of
 * work run at once, and how many may wait for a turn and how long, before a request gets 503 with
 * `Retry-After: 1`. `server.ts` passes the result to `createCatalogueApp({ admission })`.
 *
 * Environment (unset: core's default):
 * - `SEARCH_CONCURRENCY` (2), `SEARCH_QUEUE` (64): searches and other list queries running at once,
 *   and waiting at most. Keep `SEARCH_CONCURRENCY` below the PostgreSQL pool's size (10), so that
 *   reads always find a connection, and about the database's CPU cores.
 * - `READ_CONCURRENCY` (32), `READ_QUEUE` (1024): the same for reads of one record and its children.
 * - `ADMISSION_WAIT_MS` (1000): longest wait for a turn, either kind.
 * - `ADMISSION=off`: no admission; every request goes straight to the store.
 * @module
 */
import { readServerEnv, type AdmissionLimits, type AdmissionOptions } from '@catalogue-api/core';

/** The variables this file reads, checked by core's `readServerEnv` as every example's are. */
export const ADMISSION_ENV = ['ADMISSION', 'SEARCH_CONCURRENCY', 'SEARCH_QUEUE', 'READ_CONCURRENCY', 'READ_QUEUE', 'ADMISSION_WAIT_MS'] as const;

/**
 * Reads the admission options from the environment.
 * @param variables - The environment (`process.env`).
 * @returns The `admission` option of `createCatalogueApp`: `false` with `ADMISSION=off`.
 * @throws EnvError naming the variable when one holds something other than what it allows.
 * @example
 * ```ts
 * const app = createCatalogueApp({ store, admission: readAdmissionEnv(process.env) });
 * ```
 */
export function readAdmissionEnv(variables: Record<string, string | undefined>): AdmissionOptions | false {
  const env = readServerEnv(variables, { only: ADMISSION_ENV });
  if (!env.ADMISSION) return false;
  const waitMs = env.ADMISSION_WAIT_MS;
  const limits = (concurrency: number | undefined, queue: number | undefined): Partial<AdmissionLimits> => ({ concurrency, queue, waitMs });
  return {
    search: limits(env.SEARCH_CONCURRENCY, env.SEARCH_QUEUE),
    read: limits(env.READ_CONCURRENCY, env.READ_QUEUE),
  };
}
