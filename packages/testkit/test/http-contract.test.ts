/**
 * The HTTP contract in-process, through `app.fetch` (no socket): the reference run that the Node,
 * Bun, Deno, Express and Fastify socket runs in `examples/` repeat over the wire.
 */
import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';
import { defineHttpContract } from '../src/index.js';

// The contract sends a few hundred requests from one client: no rate limits in the way, but the
// rest of the gateway (ETags, 304s, caching) on, as in the example servers.
const app = createCatalogueApp({ store: createMemoryStore(demoData), gateway: { rateLimit: false } });

// With `fetch` given there is no socket, so the five "on the wire" tests (Content-Length bytes,
// HEAD body bytes, dot segments and malformed escapes in the raw request target, abandoned
// connections) are reported as skipped here; the socket runs in examples/ make them.
defineHttpContract({ runtime: 'in-process (app.fetch)', fetch: (request) => app.fetch(request) });
