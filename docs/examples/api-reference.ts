/**
 * The API reference page and the status page beside the catalogue on one port. Shown in
 * docs/pages.md and packages/api-reference/README.md.
 * @module
 */
// #region api-reference
import { serve } from '@catalogue-api/adapter-node';
import { createApiReferenceApp } from '@catalogue-api/api-reference';
import { combineApps, createCatalogueApp, createMemoryStore, createStatusApp } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';

export async function startWithPages(port = 3000) {
  const catalogue = createCatalogueApp({ store: createMemoryStore(demoData) });
  const status = createStatusApp({
    services: [{ id: 'api', name: 'Catalogue API', check: { url: `http://127.0.0.1:${port}/v1/random/anime` } }],
    page: { name: 'Catalogue status', url: 'https://status.example.org' },
  });
  // /status and /api/status → status; /v1/docs and its files → the reference; the rest → the catalogue.
  return serve(combineApps(status, createApiReferenceApp(), catalogue), { port });
}
// #endregion api-reference
