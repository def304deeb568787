/**
 * Embedding in an Express backend under a sub-path. Shown in docs/embedding.md.
 * @module
 */
import type { AddressInfo } from 'node:net';
// #region express
import express from 'express';
import { toNodeHandler } from '@catalogue-api/adapter-node';
import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';

const backend = express();
backend.get('/health', (_req, res) => {
  res.json({ ok: true });
});
// Express strips the mount path, so the app sees /v1/anime; other paths fall through to next().
// `mountPath` puts it back where clients see paths: error envelopes and the OpenAPI `servers`.
const catalogue = createCatalogueApp({ store: createMemoryStore(demoData), mountPath: '/catalogue' });
backend.use('/catalogue', toNodeHandler(catalogue));
// #endregion express

/** Listens on a free port; returns the base URL and a close function. */
export async function listen(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = await new Promise<ReturnType<typeof backend.listen>>((resolve) => {
    const s = backend.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
