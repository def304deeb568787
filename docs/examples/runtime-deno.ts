/**
 * On Deno. Run with `deno run --allow-net --allow-env --allow-read docs/examples/runtime-deno.ts`
 * next to a deno.json import map (see docs/runtimes.md).
 * @module
 */
// #region deno
import { serve } from '@catalogue-api/adapter-deno';
import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';

const app = createCatalogueApp({ store: createMemoryStore(demoData) });
const server = await serve(app, { port: 3000 });
console.log(`listening on ${server.url}/v1`);
// #endregion deno
