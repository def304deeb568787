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
 * `RESTRICTED_ROUTES` (comma-separated, as in the Node example: `/v1/top/*,/v1/anime/:id/full`).
 * @module
 */
import { serve } from '@catalogue-api/adapter-bun';
import {
  combineApps,
  createCatalogueApp,
  createChecker,
  createMemoryStatusStore,
  createMemoryStore,
  createStatusApp,
  type ServiceConfig,
} from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';

const env = process.env;
const port = Number(env.PORT ?? 3000);
const hostname = env.HOST ?? '127.0.0.1';

const list = (value: string | undefined) => (value ?? '').split(',').map((item) => item.trim()).filter((item) => item.length > 0);
const catalogue = createCatalogueApp({
  store: createMemoryStore(demoData),
  gateway: {
    keys: list(env.SERVER_KEYS),
    restrictedRoutes: list(env.RESTRICTED_ROUTES),
    ...(env.RATE_LIMIT === 'off' ? { rateLimit: false } : {}),
  },
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

const server = await serve(combineApps(status, catalogue), { port, hostname });
const checker = createChecker({ services: [self(server.url)], store: statusStore, intervalSeconds: Number(env.STATUS_INTERVAL_SECONDS ?? 60) });
checker.start();
console.log(`catalogue-api (Bun) listening on ${server.url}/v1 (status at ${server.url}/api/status)`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void Promise.all([server.close(), checker.stop()]).then(() => process.exit(0)));
}
