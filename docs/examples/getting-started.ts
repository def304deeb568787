/**
 * Getting started: the catalogue API on the demo dataset, on Node, in your own project.
 * Shown whole in docs/getting-started.md; examples.test.ts runs it as a process.
 * @module
 */
// #region server
import { serve } from '@catalogue-api/adapter-node';
import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';

const app = createCatalogueApp({ store: createMemoryStore(demoData) });
const server = await serve(app, { port: Number(process.env.PORT ?? 3000) });
console.log(`Try ${server.url}/v1/anime?q=bebop`);
// #endregion server
