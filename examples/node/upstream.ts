/**
 * The example's refresher, when `UPSTREAM_URL` is set: core's `createRefresherFromEnv` over the
 * catalogue store, its state in PostgreSQL beside the catalogue (`DATABASE_URL`: every instance
 * shares one refresher, one lease and one budget) or in memory, saved to `UPSTREAM_STATE_FILE`.
 * See docs/fresh-data.md.
 *
 * Environment: `UPSTREAM_URL` (a Jikan v4-compatible base URL such as `https://api.jikan.moe/v4`),
 * `UPSTREAM_MAX_PER_SECOND` (default 3) and `UPSTREAM_MAX_PER_MINUTE` (default 60), real time;
 * `UPSTREAM_TIME_SCALE` (default 1) divides every refresh interval; `REFRESH_DISCOVERY_MINUTES`,
 * `REFRESH_NEW_MINUTES`, `REFRESH_HOT_HOURS`, `REFRESH_STATS_HOURS`, `REFRESH_POPULAR_DAYS` and
 * `REFRESH_FULL_DAYS` set the tiers' intervals; `UPSTREAM_STATE_FILE`, without `DATABASE_URL`.
 * @module
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type MetricsRegistry } from '@catalogue-api/core';
import { type CatalogueStore } from '@catalogue-api/core/store';
import { createRefresherFromEnv, type SnapshotFile, type UpstreamEnv, type UpstreamRefresh } from '@catalogue-api/core/upstream';
import { createPostgresRefreshState, type PostgresStore } from '@catalogue-api/store-postgres';

/**
 * A state file on disk: read whole, written to a temporary file beside it and renamed over it, so
 * that a crash mid-write leaves the previous state, never half of one.
 * @param path - The file's path.
 * @returns The file.
 */
export function fileSnapshots(path: string): SnapshotFile {
  return {
    async read() {
      try {
        return await readFile(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async write(text) {
      await mkdir(dirname(path), { recursive: true });
      const temporary = `${path}.${process.pid}.tmp`;
      await writeFile(temporary, text);
      await rename(temporary, path);
    },
  };
}

/** The refresher's log: one line on stderr each, beside the access log's JSON on stdout. */
const logger = {
  info: (message: string, fields?: object) => console.error(`refresher: ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}`),
  warn: (message: string, fields?: object) => console.error(`refresher: ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}`),
  error: (message: string, fields?: object) => console.error(`refresher: ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}`),
};

/**
 * The example's refresher, not yet started (`start()` once the server listens: the server answers
 * from its first second while the refresher works), or `undefined` when `UPSTREAM_URL` is not set.
 * @param env - The variables, read by core's `readServerEnv`.
 * @param store - The catalogue store served.
 * @param database - The PostgreSQL store, when `DATABASE_URL` is set: the state lives in its schema.
 * @param metrics - The metrics registry, when metrics are on.
 * @returns The refresher, its status service and probe.
 */
export async function createExampleUpstream(
  env: UpstreamEnv,
  store: CatalogueStore,
  database: PostgresStore | undefined,
  metrics: MetricsRegistry | undefined,
): Promise<UpstreamRefresh | undefined> {
  if (!env.UPSTREAM_URL) return undefined;
  const state = database ? await createPostgresRefreshState({ sql: database.sql, schema: database.schema }) : undefined;
  return createRefresherFromEnv({
    env,
    store,
    state,
    snapshots: !state && env.UPSTREAM_STATE_FILE ? fileSnapshots(env.UPSTREAM_STATE_FILE) : undefined,
    metrics,
    logger,
  });
}
