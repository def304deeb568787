/**
 * The example Deno server: the catalogue API at `/v1` on the embedded demo dataset, served by
 * `Deno.serve` through `@catalogue-api/adapter-deno`.
 *
 * Run from the repository root with `npm run start:deno` (it builds the packages first). The
 * imports are `npm:` specifiers (see `deno.json`) that Deno resolves through the repository's
 * `node_modules` to each package's built `dist/`; see README.md.
 *
 * Environment: `PORT` (default 3000), `HOST` (default 127.0.0.1).
 * @module
 */
import { serve } from '@catalogue-api/adapter-deno';
import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';

const port = Number(Deno.env.get('PORT') ?? 3000);
const hostname = Deno.env.get('HOST') ?? '127.0.0.1';

const app = createCatalogueApp({ store: createMemoryStore(demoData) });
// The status API (`/api/status`) mounts here: serve(combineApps(statusApp, app), …).
const server = await serve(app, { port, hostname });
console.log(`catalogue-api (Deno) listening on ${server.url}/v1`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  Deno.addSignalListener(signal, () => void server.close().then(() => Deno.exit(0)));
}
