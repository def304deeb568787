/**
 * The example Node server: the catalogue API at `/v1` on the embedded demo dataset, its reference page
 * at `/v1/docs`, and the status API at `/api/status` with its page at `/status` on the same port (and
 * alone on `STATUS_PORT` when set, the page at its `/`; see `status.ts`).
 *
 * Environment: `PORT` (default 3000), `HOST` (default 127.0.0.1), `MAX_CONNECTIONS` (default 1024);
 * per connection `MAX_PIPELINED_REQUESTS` (default 16), `MAX_QUEUED_BYTES` (default 1048576) and
 * `SEND_TIMEOUT_MS` (default 10000);
 * status settings in `status.ts`;
 * `DATA` serves a snapshot file from memory; `DATABASE_URL` serves the catalogue from PostgreSQL
 * (schema `DATABASE_SCHEMA`, default `catalogue`; migrated at start, seeded with the demo data only
 * with `DEMO_DATA=on`); see `catalogue-data.ts`.
 * `UPSTREAM_URL` keeps the catalogue current from a Jikan v4-compatible API (see `upstream.ts` and
 * docs/fresh-data.md): the refresher starts once the server listens and stops with it; its
 * upstream is a service of the status API.
 * `STORE_TIMEOUT_MS` (default 5000) bounds every store call, catalogue and status: past it, or with
 * the database lost, requests get 503 with `Retry-After: 1` until it is back.
 * Server Keys, restricted routes, Redis, rate limits and trusted proxies: see `gateway-env.ts`.
 * How many searches and reads reach the store at once (`SEARCH_CONCURRENCY`…): see `admission-env.ts`.
 * Access log, metrics (`METRICS_PORT`), `/healthz` and `/readyz`, deprecation headers: see `observability.ts`.
 *
 * Every variable is read and checked by core's `readServerEnv` before anything listens: a value it
 * cannot use, or a start-up that fails (a port taken, a database that refuses), stops the server
 * with one line on stderr and exit code 2 (configuration) or 1 (anything else). Every line it
 * writes is pino's JSON (core's `formatLogLine`): start-up and shutdown on stdout with the access
 * log, warnings and errors on stderr. SIGTERM and SIGINT
 * drain: no new connections, requests in flight are answered and logged, the access log is
 * flushed; within `SHUTDOWN_TIMEOUT_MS` (default 8000), else it exits anyway (code 1). A second
 * signal exits at once.
 * @module
 */
import { hostname as hostName } from 'node:os';
import { serve } from '@catalogue-api/adapter-node';
import { createApiReferenceApp } from '@catalogue-api/api-reference';
import { combineApps, createCatalogueApp, createLineLogger, createMemoryStore, describeError, drainOnSignals, readServerEnv, toStartupFailure, type Logger } from '@catalogue-api/core';
import { createPostgresStore } from '@catalogue-api/store-postgres';
import { readAdmissionEnv } from './admission-env.js';
import { chooseCatalogue, countRecords, readSnapshot } from './catalogue-data.js';
import { createExampleGateway, redactUrl } from './gateway-env.js';
import { createExampleOperations } from './observability.js';
import { createExampleStatus, readStatusConfig } from './status.js';
import { createExampleUpstream } from './upstream.js';

// Until it listens, whatever stops the start (a bad variable, a port taken, a database that refuses)
// is one line on stderr, not a stack trace: what an operator reads in a container's log.
// Until the access log's writer exists, lines go straight to stdout and stderr (see `ops.log` below).
const early = createLineLogger({ pid: process.pid, hostname: hostName() }, (line) => process.stdout.write(line), (line) => process.stderr.write(line));
const refuseToStart = (error: unknown) => {
  const { line, exitCode } = toStartupFailure(error);
  early.fatal(line);
  process.exit(exitCode);
};
process.once('uncaughtException', refuseToStart);

const statusConfig = await readStatusConfig(process.env.STATUS_CONFIG);
// Every variable, checked before anything listens or connects.
const env = readServerEnv(process.env, { staleAfterSeconds: statusConfig.staleAfterSeconds, warn: (line) => early.warn(line) });
const { PORT: port, HOST: hostname, STORE_TIMEOUT_MS: storeTimeoutMs } = env;
// Below the process's file-descriptor limit (`ulimit -n`); see docs/configuration.md.
const maxConnections = env.MAX_CONNECTIONS;
// Per-connection bounds: pipelined requests in progress, answer bytes waiting to be written, and how
// long a client may leave an answer unread (see docs/configuration.md).
const { MAX_PIPELINED_REQUESTS: maxPipelinedRequests, MAX_QUEUED_BYTES: maxQueuedBytes, SEND_TIMEOUT_MS: sendTimeoutMs } = env;

// An outage (the gateway's Redis, the database) is logged once, when it starts; its cause is one line
// (a stack trace would only name the client library's internals). Other errors keep their stack.
const ops = createExampleOperations(process.env);
const log = ops.log;
const logger: Logger = {
  error: (message, detail) =>
    / unavailable; answering 503/.test(message)
      ? log.error(`${message}: ${describeError(detail)}`)
      : log.error(message, { err: detail instanceof Error ? { type: detail.name, message: detail.message, stack: detail.stack } : String(detail) }),
};

// The embedded demo data takes ~100 MB once loaded: read only when it is served, or seeds a database asked to.
const demoData = async () => (await import('@catalogue-api/demo-data')).demoData;
const choice = chooseCatalogue(env);
const database = env.DATABASE_URL ? createPostgresStore({ url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA, timeoutMs: storeTimeoutMs }) : undefined;
if (database) {
  try {
    await database.migrate();
    const empty = (await database.count('anime')) === 0;
    // Several instances may start at once on an empty database; seeding is an idempotent upsert.
    if (empty && choice.kind === 'postgres' && choice.seedDemo) await database.seed(await demoData());
    else if (empty) log.info(`PostgreSQL schema ${database.schema} holds no anime: import records with catalogue-api import, or start with DEMO_DATA=on to seed the demo catalogue`);
    else if (choice.kind === 'postgres' && choice.seedDemo) log.info(`DEMO_DATA=on: PostgreSQL schema ${database.schema} already holds anime; nothing seeded`);
  } catch (cause) {
    throw new Error(`PostgreSQL at ${redactUrl(env.DATABASE_URL!)} (DATABASE_URL)`, { cause });
  }
}
const data = choice.kind === 'snapshot' ? await readSnapshot(choice.file) : choice.kind === 'memory' && choice.demo ? await demoData() : {};
if (choice.kind === 'snapshot') log.info(`serving ${choice.file} (DATA) from memory`, { records: countRecords(data) });
const gateway = createExampleGateway(process.env, log);
const store = database ?? createMemoryStore(data);
// With UPSTREAM_URL, a refresher keeps the store current (upstream.ts); it starts once the server listens.
const upstream = await createExampleUpstream(env, store, database, ops.metrics?.registry).catch((cause: unknown) => {
  throw database ? new Error(`The refresher's state in PostgreSQL at ${redactUrl(env.DATABASE_URL!)} (DATABASE_URL)`, { cause }) : cause;
});
const app = createCatalogueApp({
  logger,
  gateway: gateway.options,
  store: ops.instrument(store),
  storeTimeoutMs,
  admission: readAdmissionEnv(process.env),
  deprecation: ops.deprecation,
});
const status = await createExampleStatus(env, statusConfig, `http://${hostname}:${port}`, {
  probe: app.fetch,
  onCheck: ops.metrics?.recordCheck,
  observe: ops.observe,
  logger,
  probed: upstream ? [upstream] : [],
});
const health = ops.health(database ? { store: () => database.sql`select 1`, gateway: gateway.ping } : { gateway: gateway.ping });
await gateway.announce();
const server = await serve(ops.observe(combineApps(health, status.app, createApiReferenceApp(), app)), { port, hostname, maxConnections, maxPipelinedRequests, maxQueuedBytes, sendTimeoutMs });
await ops.start();
await status.start(server.url);
upstream?.start();
log.info(`catalogue-api listening on ${server.url}/v1 (status at ${server.url}/api/status)`);
// Serving: an error from now on is a bug, with its stack.
process.off('uncaughtException', refuseToStart);

drainOnSignals(process, {
  log,
  timeoutMs: env.SHUTDOWN_TIMEOUT_MS,
  // The access log is flushed once the last request in flight has been answered (and logged).
  stop: () => Promise.all([server.close().then(() => ops.stop()), status.stop(), gateway.close(), upstream?.stop()]).then(() => database?.close()),
  // The access log's writer has ended: this line goes straight out.
  stopped: (line) => early.info(line),
});
