/**
 * The catalogue API embedded in an existing Fastify backend: the backend keeps its own routes
 * (`/health`, `/`), and the library answers under `/catalogue` (`/catalogue/v1/anime`…) through
 * `toNodeHandler` on the raw Node request and response.
 *
 * Run: `npm start -w examples/fastify` (after `npm run build`). Environment: `PORT` (default
 * 3000), `HOST` (default 127.0.0.1), `RATE_LIMIT=off` (no rate limits, for load tests and contract runs).
 * @module
 */
import Fastify from 'fastify';
import { toNodeHandler } from '@catalogue-api/adapter-node';
import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '127.0.0.1';
const mount = '/catalogue';

// `mountPath` tells the app where it is served: error envelopes then name `/catalogue/v1/…`, and the
// OpenAPI document's server is `/catalogue`, so that Swagger UI calls the mounted paths.
const app = createCatalogueApp({
  store: createMemoryStore(demoData),
  gateway: process.env.RATE_LIMIT === 'off' ? { rateLimit: false } : {},
  mountPath: mount,
});
const catalogue = toNodeHandler(app);
const backend = Fastify();

// The backend's own routes.
backend.get('/health', async () => ({ ok: true }));
backend.get('/', async (_request, reply) => reply.type('text/plain').send('An existing Fastify backend; the anime catalogue is under /catalogue/v1.\n'));

// Every method, so that the app itself answers OPTIONS (204) and POST… (405). hijack() tells
// Fastify that the raw response is written elsewhere; like Express's `use`, the mount path is
// stripped so that the app sees `/v1/anime`.
backend.all(`${mount}/*`, (request, reply) => {
  reply.hijack();
  request.raw.url = request.raw.url!.slice(mount.length);
  catalogue(request.raw, reply.raw);
});

const url = await backend.listen({ port, host: hostname });
console.log(`fastify backend listening on ${url} (catalogue at ${mount}/v1)`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void backend.close().then(() => process.exit(0)));
}
