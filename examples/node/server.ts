/**
 * The example Node server: the catalogue API at `/v1` on the embedded demo dataset.
 *
 * Environment: `PORT` (default 3000), `HOST` (default 127.0.0.1).
 * @module
 */
import { serve } from '@catalogue-api/adapter-node';
import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '127.0.0.1';

const app = createCatalogueApp({ store: createMemoryStore(demoData) });
const server = await serve(app, { port, hostname });
console.log(`catalogue-api listening on ${server.url}/v1`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void server.close().then(() => process.exit(0)));
}
