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
import type { AdmissionLimits, AdmissionOptions } from '@catalogue-api/core';

function toInteger(name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined || value === '') return undefined;
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number < min) {
    throw new Error(`${name} must be a whole number of at least ${min}, not "${value}"`);
  }
  return number;
}

/**
 * Reads the admission options from the environment.
 * @param env - The environment (`process.env`).
 * @returns The `admission` option of `createCatalogueApp`: `false` with `ADMISSION=off`.
 * @throws Error naming the variable when one holds something other than what it allows.
 * @example
 * ```ts
 * const app = createCatalogueApp({ store, admission: readAdmissionEnv(process.env) });
 * ```
 */
export function readAdmissionEnv(env: NodeJS.ProcessEnv): AdmissionOptions | false {
  const admission = env.ADMISSION;
  if (admission === 'off') return false;
  if (admission !== undefined && admission !== '' && admission !== 'on') throw new Error(`ADMISSION must be "on" or "off", not "${admission}"`);
  const waitMs = toInteger('ADMISSION_WAIT_MS', env.ADMISSION_WAIT_MS, 0);
  const limits = (concurrency: number | undefined, queue: number | undefined): Partial<AdmissionLimits> => ({ concurrency, queue, waitMs });
  return {
    search: limits(toInteger('SEARCH_CONCURRENCY', env.SEARCH_CONCURRENCY, 1), toInteger('SEARCH_QUEUE', env.SEARCH_QUEUE, 0)),
    read: limits(toInteger('READ_CONCURRENCY', env.READ_CONCURRENCY, 1), toInteger('READ_QUEUE', env.READ_QUEUE, 0)),
  };
}
