/**
 * The example Node server: the catalogue API at `/v1` on the embedded demo dataset, its reference page
 * at `/v1/docs`, and the status API at `/api/status` with its page at `/status` on the same port (and
 * alone on `STATUS_PORT` when set, the page at its `/`; see `status.ts`).
 *
 * Environment: `PORT` (default 3000), `HOST` (default 127.0.0.1), `MAX_CONNECTIONS` (default 1024);
 * status settings in `status.ts`;
 * `DATABASE_URL` serves the catalogue from PostgreSQL (schema `DATABASE_SCHEMA`, default `catalogue`;
 * migrated at start, seeded with the demo data when it holds no anime) instead of memory.
 * `STORE_TIMEOUT_MS` (default 5000) bounds every store call, catalogue and status: past it, or with
 * the database lost, requests get 503 with `Retry-After: 1` until it is back.
 * Server Keys, restricted routes, Redis, rate limits and trusted proxies: see `gateway-env.ts`.
 * Access log, metrics (`METRICS_PORT`), `/healthz` and `/readyz`, deprecation headers: see `observability.ts`.
 * @module
 */
import { serve } from '@catalogue-api/adapter-node';
import { createApiReferenceApp } from '@catalogue-api/api-reference';
import { combineApps, createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
import { createPostgresStore } from '@catalogue-api/store-postgres';
import { createExampleGateway } from './gateway-env.js';
import { createExampleOperations } from './observability.js';
import { createExampleStatus } from './status.js';

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '127.0.0.1';
// Below the process's file-descriptor limit (`ulimit -n`); see docs/configuration.md.
const maxConnections = process.env.MAX_CONNECTIONS ? Number(process.env.MAX_CONNECTIONS) : undefined;

const storeTimeoutMs = process.env.STORE_TIMEOUT_MS ? Number(process.env.STORE_TIMEOUT_MS) : undefined;
// The embedded demo data takes ~100 MB once loaded: read only when it is served, or seeds an empty database.
const demoData = async () => (await import('@catalogue-api/demo-data')).demoData;
const database = process.env.DATABASE_URL
  ? createPostgresStore({ url: process.env.DATABASE_URL, schema: process.env.DATABASE_SCHEMA, timeoutMs: storeTimeoutMs })
  : undefined;
if (database) {
  await database.migrate();
  // Several instances may start at once on an empty database; seeding is an idempotent upsert.
  if ((await database.count('anime')) === 0) await database.seed(await demoData());
}
const gateway = createExampleGateway(process.env);
const ops = createExampleOperations(process.env);
const app = createCatalogueApp({
  gateway: gateway.options,
  store: ops.instrument(database ?? createMemoryStore(await demoData())),
  storeTimeoutMs,
  deprecation: ops.deprecation,
});
const status = await createExampleStatus(process.env, `http://${hostname}:${port}`, {
  probe: app.fetch,
  onCheck: ops.metrics?.recordCheck,
  observe: ops.observe,
});
const health = ops.health(database ? { store: () => database.sql`select 1`, gateway: gateway.ping } : { gateway: gateway.ping });
await gateway.announce();
const server = await serve(ops.observe(combineApps(health, status.app, createApiReferenceApp(), app)), { port, hostname, maxConnections });
await ops.start();
await status.start(server.url);
console.log(`catalogue-api listening on ${server.url}/v1 (status at ${server.url}/api/status)`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  // The access log is flushed once the last request in flight has been answered (and logged).
  process.once(signal, () => void Promise.all([server.close().then(() => ops.stop()), status.stop(), gateway.close()]).then(() => database?.close()).then(() => process.exit(0)));
}
