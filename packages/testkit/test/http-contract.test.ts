/**
 * The HTTP contract in-process, through `app.fetch` (no socket): the reference run that the Node,
 * Bun, Deno, Express and Fastify socket runs in `examples/` repeat over the wire.
 */
import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';
import { defineHttpContract } from '../src/index.js';

const app = createCatalogueApp({ store: createMemoryStore(demoData) });

defineHttpContract({ runtime: 'in-process (app.fetch)', fetch: (request) => app.fetch(request) });
