/**
 * The example Bun server: the catalogue API at `/v1` on the embedded demo dataset, served by
 * `Bun.serve` through `@catalogue-api/adapter-bun`.
 *
 * Run from the repository root with `npm run start:bun` (it builds the packages first): Bun
 * resolves `@catalogue-api/*` through the npm workspace links in `node_modules` to each
 * package's built `dist/`, exactly as an installed package would.
 *
 * Environment: `PORT` (default 3000), `HOST` (default 127.0.0.1).
 * @module
 */
import { serve } from '@catalogue-api/adapter-bun';
import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '127.0.0.1';

const app = createCatalogueApp({ store: createMemoryStore(demoData) });
// The status API (`/api/status`) mounts here: serve(combineApps(statusApp, app), …).
const server = await serve(app, { port, hostname });
console.log(`catalogue-api (Bun) listening on ${server.url}/v1`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void server.close().then(() => process.exit(0)));
}
