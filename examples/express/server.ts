/**
 * The catalogue API embedded in an existing Express backend: the backend keeps its own routes
 * (`/health`, `/`), and the library answers under `/catalogue` (`/catalogue/v1/anime`…) through
 * `toNodeHandler`, on Node's plain door (no Web `Request`/`Response` per request).
 *
 * Run: `npm start -w examples/express` (after `npm run build`). Environment: `PORT` (default
 * 3000), `HOST` (default 127.0.0.1), `RATE_LIMIT=off` (no rate limits, for load tests and contract runs).
 * @module
 */
import express from 'express';
import { toNodeHandler } from '@catalogue-api/adapter-node';
import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '127.0.0.1';

const mount = '/catalogue';

// `mountPath` tells the app where it is served: error envelopes then name `/catalogue/v1/…`, and the
// OpenAPI document's server is `/catalogue`, so that Swagger UI calls the mounted paths.
const catalogue = createCatalogueApp({
  store: createMemoryStore(demoData),
  gateway: process.env.RATE_LIMIT === 'off' ? { rateLimit: false } : {},
  mountPath: mount,
});
const backend = express();

// The backend's own routes.
backend.get('/health', (_req, res) => {
  res.json({ ok: true });
});
backend.get('/', (_req, res) => {
  res.type('text/plain').send('An existing Express backend; the anime catalogue is under /catalogue/v1.\n');
});

// Express strips the mount path, so the app sees `/v1/anime`; paths it does not own (anything
// outside `/v1`) go on to the next handler, here Express's own 404.
backend.use(mount, toNodeHandler(catalogue));

const server = backend.listen(port, hostname, () => {
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  console.log(`express backend listening on http://${hostname}:${actual} (catalogue at /catalogue/v1)`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
  });
}
