/**
 * On Bun. Run with `bun run docs/examples/runtime-bun.ts`. Shown in docs/runtimes.md.
 * @module
 */
// #region bun
import { serve } from '@catalogue-api/adapter-bun';
import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';

const app = createCatalogueApp({ store: createMemoryStore(demoData) });
const server = await serve(app, { port: Number(process.env.PORT ?? 3000) });
console.log(`listening on ${server.url}/v1`);
// #endregion bun
