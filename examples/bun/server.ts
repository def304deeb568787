/**
 * The example Bun server on the embedded demo dataset: the catalogue API at `/v1` and the status
 * API at `/api/status`, served by `Bun.serve` through `@catalogue-api/adapter-bun`.
 *
 * Run from the repository root with `npm run start:bun` (it builds the packages first): Bun
 * resolves `@catalogue-api/*` through the npm workspace links in `node_modules` to each
 * package's built `dist/`, exactly as an installed package would.
 *
 * Environment: `PORT` (default 3000), `HOST` (default 127.0.0.1), `RATE_LIMIT=off` (no rate limits,
 * for load tests and contract runs), `STATUS_INTERVAL_SECONDS` (default 60), `SERVER_KEYS` and
 * `RESTRICTED_ROUTES` (comma-separated, as in the Node example: `/v1/top/*,/v1/anime/:id/full`),
 * `ACCESS_LOG=off|json` (default `json`: one line per request to stdout, through pino), `METRICS_PORT`
 * (`/metrics` on its own port), `API_DEPRECATED_AT`, `API_SUNSET_AT`, `API_SUCCESSOR_URL` (the
 * version's deprecation headers). `/healthz` and `/readyz` answer on `PORT`.
 * @module
 */
import { serve } from '@catalogue-api/adapter-bun';
import {
  combineApps,
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
} from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';
import { pino } from 'pino';

const env = process.env;
const port = Number(env.PORT ?? 3000);
const hostname = env.HOST ?? '127.0.0.1';

const metrics = env.METRICS_PORT ? createCatalogueMetrics() : undefined;
const version = { deprecatedAt: env.API_DEPRECATED_AT || undefined, sunsetAt: env.API_SUNSET_AT || undefined, successorUrl: env.API_SUCCESSOR_URL || undefined };
const list = (value: string | undefined) => (value ?? '').split(',').map((item) => item.trim()).filter((item) => item.length > 0);
const catalogue = createCatalogueApp({
  store: createMemoryStore(demoData),
  gateway: {
    keys: list(env.SERVER_KEYS),
    restrictedRoutes: list(env.RESTRICTED_ROUTES),
    ...(env.RATE_LIMIT === 'off' ? { rateLimit: false } : {}),
  },
  deprecation: version,
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
  services: [self(`http://${hostname}:${port}`)],
  store: statusStore,
  page: { name: 'catalogue-api status', url: `http://${hostname}:${port}/api/status` },
});

// The memory store and gateway have nothing to wait on; a deployment passes its store's and Redis's checks.
const health = createHealthApp({ checks: {} });
const observers: RequestObserver[] = [];
// pino's lines go out asynchronously (sonic-boom) and are flushed at shutdown.
const logFile = env.ACCESS_LOG === 'off' ? undefined : pino.destination({ dest: 1, sync: false, minLength: 4096 });
if (logFile) {
  const log = pino({ base: null, timestamp: false }, logFile);
  observers.push((record) => log.info(record));
}
if (metrics) observers.push(metrics.observe);
const apps = combineApps(health, status, catalogue);
const server = await serve(observers.length > 0 ? createObservedApp(apps, { observers }) : apps, { port, hostname });
const metricsServer = metrics ? await serve(createMetricsApp(metrics.render), { port: Number(env.METRICS_PORT), hostname: env.METRICS_HOST || hostname }) : undefined;
const selfUrl = self(server.url).check.url;
const checker = createChecker({
  services: [self(server.url)],
  store: statusStore,
  intervalSeconds: Number(env.STATUS_INTERVAL_SECONDS ?? 60),
  onCheck: metrics?.recordCheck,
  // The self-check reaches the catalogue in-process, under an identity the gateway never blocks.
  fetch: (url, init) => (url === selfUrl ? catalogue.fetch(new Request(url, init), { internalClient: 'status-check' }) : fetch(url, init)),
});
checker.start();
console.log(`catalogue-api (Bun) listening on ${server.url}/v1 (status at ${server.url}/api/status)`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () =>
    void Promise.all([server.close(), checker.stop(), metricsServer?.close()]).then(() => {
      logFile?.flushSync();
      process.exit(0);
    }),
  );
}
