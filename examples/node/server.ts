/**
 * The example Node server: the catalogue API at `/v1` on the embedded demo dataset, and the status
 * API at `/api/status` on the same port (and alone on `STATUS_PORT` when set; see `status.ts`).
 *
 * Environment: `PORT` (default 3000), `HOST` (default 127.0.0.1), `MAX_CONNECTIONS` (default 1024);
 * per connection `MAX_PIPELINED_REQUESTS` (default 16), `MAX_QUEUED_BYTES` (default 1048576) and
 * `SEND_TIMEOUT_MS` (default 10000);
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
import { combineApps, createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
import { createPostgresStore } from '@catalogue-api/store-postgres';
import { createExampleGateway } from './gateway-env.js';
import { createExampleOperations } from './observability.js';
import { createExampleStatus } from './status.js';

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '127.0.0.1';
// Below the process's file-descriptor limit (`ulimit -n`); see docs/configuration.md.
const maxConnections = process.env.MAX_CONNECTIONS ? Number(process.env.MAX_CONNECTIONS) : undefined;
// Per-connection bounds: pipelined requests in progress, answer bytes waiting to be written, and how
// long a client may leave an answer unread (see docs/configuration.md).
const maxPipelinedRequests = process.env.MAX_PIPELINED_REQUESTS ? Number(process.env.MAX_PIPELINED_REQUESTS) : undefined;
const maxQueuedBytes = process.env.MAX_QUEUED_BYTES ? Number(process.env.MAX_QUEUED_BYTES) : undefined;
const sendTimeoutMs = process.env.SEND_TIMEOUT_MS ? Number(process.env.SEND_TIMEOUT_MS) : undefined;

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
const server = await serve(ops.observe(combineApps(health, status.app, app)), { port, hostname, maxConnections, maxPipelinedRequests, maxQueuedBytes, sendTimeoutMs });
await ops.start();
await status.start(server.url);
console.log(`catalogue-api listening on ${server.url}/v1 (status at ${server.url}/api/status)`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  // The access log is flushed once the last request in flight has been answered (and logged).
  process.once(signal, () => void Promise.all([server.close().then(() => ops.stop()), status.stop(), gateway.close()]).then(() => database?.close()).then(() => process.exit(0)));
}
