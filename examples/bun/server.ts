/**
 * The example Bun server on the embedded demo dataset: the catalogue API at `/v1` (its reference
 * page at `/v1/docs`) and the status API at `/api/status` (its page at `/status`), served by
 * `Bun.serve` through `@catalogue-api/adapter-bun`.
 *
 * Run from the repository root with `npm run start:bun` (it builds the packages first): Bun
 * resolves `@catalogue-api/*` through the npm workspace links in `node_modules` to each
 * package's built `dist/`, exactly as an installed package would.
 *
 * Environment: `PORT` (default 3000), `HOST` (default 127.0.0.1), `RATE_LIMIT=off` (no rate limits,
 * for load tests and contract runs), `CACHE=off` (no response cache; ETags and 304s remain), `STATUS_INTERVAL_SECONDS` (default 60), `SERVER_KEYS` and
 * `RESTRICTED_ROUTES` (comma-separated, as in the Node example: `/v1/top/*,/v1/anime/:id/full`),
 * `FINGERPRINT_SECRET` (the keyed fingerprints of Server Keys and clients, as in the Node example),
 * `TRUST_PROXY` (which proxies may set `X-Forwarded-For`: a number of hops, `true`, or addresses
 * and CIDR ranges, comma-separated; unset: none), and the operations settings of the Node example
 * (`examples/node/observability.ts`):
 * - `ACCESS_LOG`: `json` (default) writes one JSON line per request to stdout, through pino; `off`
 *   writes none. `ACCESS_LOG_SAMPLE`: the share of requests logged, from 0 to 1 (default 1).
 *   `ACCESS_LOG_CLIENT`: how the client is named: `hash` (default, a keyed hash stable for the
 *   process), `address` (the IP address) or `none`.
 * - `REQUEST_ID`: `on` (default) sends an `X-Request-Id` on every answer, whatever the log and
 *   metrics settings; `off` sends none. `TRUST_PROXY` also says whose `X-Request-Id` is kept;
 *   other requests get a new one.
 * - `METRICS_PORT`: serve `GET /metrics` (Prometheus text format) on this port, on `METRICS_HOST`
 *   (default 127.0.0.1, whatever `HOST` is), never on the public port. Unset: no metrics are kept;
 *   set, readiness is also checked every 5 s for `catalogue_dependency_up`.
 * - `API_DEPRECATED_AT`, `API_SUNSET_AT` (ISO 8601) and `API_SUCCESSOR_URL`: send `Deprecation`,
 *   `Sunset` and `Link: <…>; rel="successor-version"` on every `/v1` answer.
 *
 * `UPSTREAM_URL` and the other refresher variables (see docs/fresh-data.md) keep the memory store
 * current from a Jikan v4-compatible API, its state saved to `UPSTREAM_STATE_FILE`;
 * the upstream is a service of the status API.
 *
 * Every variable is read and checked by core's `readServerEnv` before anything listens: a value it
 * cannot use, or a start-up that fails (a port taken), stops the server with one line on stderr and
 * exit code 2 (configuration) or 1 (anything else). SIGTERM and SIGINT drain: no new connections,
 * requests in flight are answered, the access log is flushed; within `SHUTDOWN_TIMEOUT_MS` (default
 * 8000), else it exits anyway (code 1). A second signal exits at once. Every line it writes is
 * pino's JSON: start-up and shutdown on stdout with the access log, warnings and errors on stderr.
 * With `METRICS_PORT`, prom-client's process and runtime metrics are served beside the catalogue's.
 * `/healthz` and `/readyz` answer on `PORT`, outside the rate limits, never cached.
 * @module
 */
import { hostname as hostName } from 'node:os';
import { serve } from '@catalogue-api/adapter-bun';
import { createApiReferenceApp } from '@catalogue-api/api-reference';
import corePackage from '@catalogue-api/core/package.json' with { type: 'json' };
import {
  combineApps,
  combineMetrics,
  createLineLogger,
  createCatalogueApp,
  createCatalogueMetrics,
  createChecker,
  createHealthApp,
  createMemoryStatusStore,
  createMemoryStore,
  createMetricsApp,
  createObservedApp,
  createStatusApp,
  type RequestObserver,
  type ServiceConfig,
  readOperationsEnv,
  readServerEnv,
  toStartupFailure,
} from '@catalogue-api/core';
import { createRefresherFromEnv, UPSTREAM_ENV } from '@catalogue-api/core/upstream';
import { demoData } from '@catalogue-api/demo-data';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pino } from 'pino';
import { collectDefaultMetrics, Registry } from 'prom-client';

// Access log lines go out asynchronously (sonic-boom, as soon as written) and are flushed at
// shutdown; the server's own info lines go the same way, so that the two never interleave.
// (Opened once the variables are read, below.)
const stdout: { file?: ReturnType<typeof pino.destination> } = {};
const log = createLineLogger(
  { pid: process.pid, hostname: hostName() },
  (line) => (stdout.file ? stdout.file.write(line) : process.stdout.write(line)),
  (line) => process.stderr.write(line),
);

// Until it listens, whatever stops the start (a bad variable, a port taken) is one line on stderr, not a stack trace.
const refuseToStart = (error: unknown) => {
  const { line, exitCode } = toStartupFailure(error);
  log.fatal(line);
  process.exit(exitCode);
};
process.once('uncaughtException', refuseToStart);

// The variables this example reads besides the operations settings, checked as every example's are.
const env = readServerEnv(process.env, {
  only: ['PORT', 'HOST', 'RATE_LIMIT', 'CACHE', 'SERVER_KEYS', 'RESTRICTED_ROUTES', 'STATUS_INTERVAL_SECONDS', 'SHUTDOWN_TIMEOUT_MS', 'FINGERPRINT_SECRET', ...UPSTREAM_ENV],
  warn: (line) => log.warn(line),
});
const { PORT: port, HOST: hostname } = env;

// The operations settings, read and checked by core as every example reads them.
const { accessLog, sample, clientId, requestIds, metricsPort, metricsHost, deprecation, trustProxy } = readOperationsEnv(process.env);

const metrics = metricsPort !== undefined ? createCatalogueMetrics() : undefined;
// The process and runtime: prom-client's default metrics, as far as Bun gives them (no GC series).
const runtime = metrics ? new Registry() : undefined;
if (metrics && runtime) {
  collectDefaultMetrics({ register: runtime });
  // Gauges named like counters, which `promtool check metrics` refuses; `sum()` of the series by `type` gives them.
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) runtime.removeSingleMetric(name);
  metrics.registry.gauge('catalogue_build_info', 'The catalogue-api version and the runtime serving it; always 1.', ['version', 'runtime', 'runtime_version'], () => [
    [[corePackage.version, 'bun', process.versions.bun ?? ''], 1],
  ]);
}
const store = createMemoryStore(demoData);
const catalogue = createCatalogueApp({
  store: metrics ? metrics.instrumentStore(store) : store,
  gateway: {
    keys: env.SERVER_KEYS,
    fingerprintSecret: env.FINGERPRINT_SECRET,
    restrictedRoutes: env.RESTRICTED_ROUTES,
    trustProxy,
    ...(env.RATE_LIMIT ? {} : { rateLimit: false }),
    // `CACHE=off`: no response cache (ETags and 304s remain), as in the Node example.
    ...(env.CACHE ? {} : { cache: false }),
  },
  deprecation,
});

/** A state file: read whole; written beside it and renamed over it, so that a crash leaves the previous state. */
const bunSnapshots = (path: string) => ({
  read: () => readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error))),
  async write(text: string) {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(`${path}.${process.pid}.tmp`, text);
    await rename(`${path}.${process.pid}.tmp`, path);
  },
});

// With UPSTREAM_URL, a refresher keeps the memory store current (docs/fresh-data.md); it starts once the server listens.
const upstream = await createRefresherFromEnv({
  env,
  store,
  // The refresher's state in memory, saved to UPSTREAM_STATE_FILE (written beside it and renamed, never half a file).
  snapshots: env.UPSTREAM_STATE_FILE ? bunSnapshots(env.UPSTREAM_STATE_FILE) : undefined,
  metrics: metrics?.registry,
  logger: { info: (m, f) => console.error(`refresher: ${m}`, f ?? ''), warn: (m, f) => console.error(`refresher: ${m}`, f ?? ''), error: (m, f) => console.error(`refresher: ${m}`, f ?? '') },
});

// The status API watches this server's own catalogue; its history stays in memory. The check asks
// for a path the gateway never caches, so that it reaches the store every time.
const self = (base: string): ServiceConfig => ({
  id: 'catalogue-api',
  name: 'Catalogue API',
  homepageUrl: `${base}/v1`,
  check: { url: `${base}/v1/random/anime`, degradedStatuses: [429] },
});
const statusStore = createMemoryStatusStore();
const status = createStatusApp({
  services: [self(`http://${hostname}:${port}`), ...(upstream ? [upstream.service] : [])],
  store: statusStore,
  page: { name: 'catalogue-api status', url: `http://${hostname}:${port}/api/status` },
});

// The memory store and gateway have nothing to wait on; a deployment passes its store's and Redis's checks.
const health = createHealthApp({ checks: {} });
// `catalogue_dependency_up` moves whether or not anything polls /readyz; the timer never keeps Bun alive.
const poll = metrics ? setInterval(() => void health.check(), 5_000).unref() : undefined;
metrics?.watchDependencies(health.state);
const observers: RequestObserver[] = [];
const logFile = (stdout.file = accessLog === 'json' ? pino.destination({ dest: 1, sync: false }) : undefined);
if (logFile) {
  // pino's base fields (pid, hostname); the record's own `time` is when the request arrived.
  const access = pino({ timestamp: false }, logFile);
  const write: RequestObserver = (record) => access.info(record, 'request completed');
  observers.push(sample >= 1 ? write : (record) => void (Math.random() < sample && write(record)));
}
if (metrics) observers.push(metrics.observe);
const apps = combineApps(health, status, createApiReferenceApp(), catalogue);
// With no observer and request ids off, createObservedApp hands the apps back unobserved.
const app = createObservedApp(apps, { observers, clientId, requestId: requestIds, trustProxy, fingerprintSecret: env.FINGERPRINT_SECRET });
const server = await serve(app, { port, hostname });
// Never the public interface by default: HOST=0.0.0.0 must not publish the metrics.
const metricsServer = metrics ? await serve(createMetricsApp(combineMetrics(metrics.render, () => runtime!.metrics())), { port: metricsPort, hostname: metricsHost }) : undefined;
const selfUrl = self(server.url).check.url;
const checker = createChecker({
  services: [self(server.url), ...(upstream ? [upstream.service] : [])],
  store: statusStore,
  intervalSeconds: env.STATUS_INTERVAL_SECONDS ?? 60,
  onCheck: metrics?.recordCheck,
  // The self-check reaches the catalogue in-process, under an identity the gateway never blocks.
  // The upstream's check is answered from its circuit, never by a request upstream.
  fetch: (url, init) =>
    url === selfUrl
      ? catalogue.fetch(new Request(url, init), { internalClient: 'status-check' })
      : upstream && url === upstream.service.check.url
        ? upstream.probe()
        : fetch(url, init),
});
checker.start();
upstream?.start();
// Not a URL line: the tests and tools that wait for the API's URL take the first one printed.
if (metricsServer) log.info(`metrics on port ${new URL(metricsServer.url).port} at /metrics`);
log.info(`catalogue-api (Bun) listening on ${server.url}/v1 (status at ${server.url}/api/status)`);

// Serving: an error from now on is a bug, with its stack.
process.off('uncaughtException', refuseToStart);
// A forced stop (below) still writes the access log lines that are waiting.
process.once('exit', () => logFile?.flushSync());

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // A second signal (Ctrl-C twice) stops at once.
    if (stopping) process.exit(1);
    stopping = true;
    log.info(`${signal}: stopping; answering the requests in flight (SHUTDOWN_TIMEOUT_MS ${env.SHUTDOWN_TIMEOUT_MS})`);
    // A client that never reads its answer must not hold the stop open for good.
    setTimeout(() => {
      log.error(`Stopped after ${env.SHUTDOWN_TIMEOUT_MS} ms (SHUTDOWN_TIMEOUT_MS) with requests still in flight.`);
      process.exit(1);
    }, env.SHUTDOWN_TIMEOUT_MS).unref();
    clearInterval(poll);
    void Promise.all([server.close(), checker.stop(), metricsServer?.close(), upstream?.stop()]).then(() => {
      log.info('stopped');
      process.exit(0);
    });
  });
}
